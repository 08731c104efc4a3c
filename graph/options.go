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
	FormatAdj      Format = "adj"      // vertex-based adjacency (LDBC Graphalytics): "v n1 n2 ..." per line
	FormatVE       Format = "ve"       // LDBC Graphalytics pair: name.v (one vertex per line) and name.e ("u v [w]")
)

// Formats lists the explicit formats, in the order they are documented.
var Formats = []Format{FormatEdgeList, FormatMTX, FormatMETIS, FormatDIMACS, FormatAdj, FormatVE}

// ReadOptions controls how a file becomes a Graph.
type ReadOptions struct {
	// Format forces a format; FormatAuto detects it.
	Format Format
	// Directed keeps arcs as given. The default symmetrises every edge, as
	// the original GraVF does.
	Directed bool
	// Weighted keeps the file's edge weights (DIMACS .gr, weighted edge
	// lists, Matrix Market values, METIS edge weights, the .e file of the
	// Graphalytics pair). Files without weights get weight 1, or a seeded
	// random weight in [1, RandomWeights] when RandomWeights > 0.
	//
	// A weight is a distance or a capacity: a negative one, or one beyond
	// the stored type's range, is an error at its line whatever its
	// spelling. Integer weights (the default) hold up to 2^32-1; a real
	// weight is rounded to the nearest integer, at least 1 when it is
	// positive, and the graph's Rounded says how many were (once, with the
	// first). FloatWeights keeps real weights instead.
	Weighted bool
	// FloatWeights stores the weights as float32 (Graph.FloatWeights), for
	// kernels whose edge field is f32: real weights keep their value (to
	// float32 precision) and integer ones convert.
	FloatWeights bool
	// RandomWeights, when > 0, draws the weight of every unweighted edge
	// uniformly from [1, RandomWeights] with a generator seeded by Seed.
	RandomWeights uint32
	// Seed seeds RandomWeights.
	Seed uint64
}
