package graph

// Format names an input file format.
type Format string

// The formats ReadFile understands. FormatAuto detects the format from the
// file's content (and its extension where the content alone is ambiguous).
const (
	FormatAuto     Format = ""
	FormatEdgeList Format = "edgelist" // SNAP and whitespace edge lists: "u v [w]" per line, '#' or '%' comments
	FormatMTX      Format = "mtx"      // Matrix Market coordinate (pattern, integer or real; general or symmetric)
	FormatMETIS    Format = "metis"    // METIS graph format: "n m [fmt [ncon]]" then one adjacency line per vertex
	FormatDIMACS   Format = "dimacs"   // DIMACS 9th challenge shortest-path .gr: "p sp n m", "a u v w"
)

// Formats lists the explicit formats, in the order they are documented.
var Formats = []Format{FormatEdgeList, FormatMTX, FormatMETIS, FormatDIMACS}

// ReadOptions controls how a file becomes a Graph.
type ReadOptions struct {
	// Format forces a format; FormatAuto detects it.
	Format Format
	// Directed keeps arcs as given. The default symmetrises every edge, as
	// the original GraVF does.
	Directed bool
	// Weighted keeps the file's integer edge weights (DIMACS .gr, weighted
	// edge lists, integer Matrix Market, METIS with edge weights). Files
	// without weights get weight 1, or a seeded random weight in
	// [1, RandomWeights] when RandomWeights > 0.
	Weighted bool
	// RandomWeights, when > 0, draws the weight of every unweighted edge
	// uniformly from [1, RandomWeights] with a generator seeded by Seed.
	RandomWeights uint32
	// Seed seeds RandomWeights.
	Seed uint64
}
