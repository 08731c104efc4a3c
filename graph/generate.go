package graph

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

// The generator kinds. A kind is also the prefix of a generator spec string
// ("rmat:scale=16"), see ParseSpec.
const (
	// KindUniform draws E = round(v·d/2) edges (round(v·d) arcs when
	// directed) with both endpoints uniform over all v vertices, the
	// Erdős–Rényi G(n, m) model with replacement. Draws that hit the same
	// vertex twice, or a pair drawn before, are dropped by the Builder and
	// counted in Graph.SelfLoops and Graph.Duplicates, so the final E is a
	// little below the number of draws. d is the average out-degree arcs/V,
	// the d of the performance model.
	KindUniform = "uniform"
	// KindRMAT is the Graph500 R-MAT generator: V = 2^scale, ef·2^scale
	// edge draws, each choosing one of the four adjacency-matrix quadrants
	// with probabilities a, b, c, d = 1-a-b-c at every bit. Its skewed
	// (power-law-like) degrees stress load balance the way social and web
	// graphs do.
	KindRMAT = "rmat"
	// KindLayered is the barrier-latency probe of SPEC Fig. 10: d levels of
	// w vertices, whose supersteps are many and cheap (see GenSpec.Width).
	KindLayered = "layered"
	// KindLine is a path of n vertices: the extreme of many supersteps with
	// one active vertex each.
	KindLine = "line"
	// KindGrid is a 2-D lattice with randomly dropped edges and a few
	// diagonal shortcuts: a stand-in for road networks (low degree, large
	// diameter) that needs no download.
	KindGrid = "grid"
)

// GenKinds lists the generator kinds in the order they are documented, so
// that help texts and error messages can enumerate them.
var GenKinds = []string{KindUniform, KindRMAT, KindLayered, KindLine, KindGrid}

// MaxVertices is the largest vertex count a Graph can hold: ids are uint32
// and the Builder reserves the top value.
const MaxVertices = math.MaxUint32 - 1

// GenSpec describes one generated graph completely: the same GenSpec always
// yields a byte-identical Graph, on every machine, so that a spec string is
// enough to reproduce an experiment.
//
// The struct is flat: each field applies to the kinds named in its comment
// and is ignored (and left out of String) otherwise. The zero value of a
// field is not always its default (Scramble, Drop, Diag, A, B, C, EdgeFactor,
// Seed), so build a GenSpec by DefaultGenSpec or ParseSpec and then set
// fields; Generate validates and reports out-of-range fields by their spec
// key.
type GenSpec struct {
	// Kind is one of GenKinds.
	Kind string

	// V is the vertex count of uniform (key v).
	V int
	// Degree is the average out-degree arcs/V that uniform aims at
	// before dropped draws (key d, uniform only; may be fractional).
	Degree float64

	// Scale sets V = 2^Scale for rmat (key scale, 1..30).
	Scale int
	// EdgeFactor is the number of edge draws per vertex for rmat (key ef,
	// Graph500 default 16). An undirected graph stores two arcs per edge,
	// so its average degree approaches 2·ef before dropped draws.
	EdgeFactor int
	// A, B and C are the rmat quadrant probabilities (keys a, b, c;
	// Graph500 defaults .57, .19, .19; d = 1-a-b-c). A is the top-left
	// quadrant (both ids' bit 0), B top-right (target bit 1), C bottom-left
	// (source bit 1).
	A, B, C float64
	// Scramble renames the rmat vertices by a seeded permutation (key
	// scramble), as the Graph500 Kronecker generator does, so that the
	// high-degree vertices are not all at low ids. The default is true,
	// as in Graph500: with the natural order of classic R-MAT
	// (Chakrabarti et al. 2004, scramble=false) every hub has a low id,
	// so round-robin puts them all on PE 0 and partitioner comparisons
	// measure the id order rather than the graph. The greedy partitioner,
	// walking vertices in input order, places unscrambled hubs while the
	// loads are still even; on scrambled ids it leaves a few percent of
	// imbalance (see the partitioner's docs).
	Scramble bool

	// Width is the number of vertices per level of layered (key w). Vertex j
	// (0 <= j < w) of level i (0 <= i < d) has id i·w + j, so level 0 vertex
	// 0 is id 0. Vertex (i, j) is joined to (i+1, j) (a "rail"), to Extra
	// uniformly drawn vertices of level i+1, and to Extra uniformly drawn
	// other vertices of its own level (none when w = 1), drawn in that
	// order, vertex by vertex in id order. Every edge joins the same or
	// adjacent levels, so the BFS distance from vertex 0 to any vertex of
	// level i is at least i, and exactly i along the rail 0, w, 2w, ...:
	// a BFS from vertex 0 runs exactly d-1 levels deep when the graph is
	// connected, which makes d the superstep knob and w (with Extra) the
	// work-per-superstep knob. With Extra = 0 the graph is w disjoint
	// paths of d vertices (a BFS from 0 then reaches exactly d vertices,
	// one per superstep; label propagation keeps all w paths busy for d-1
	// supersteps). The average degree approaches 2 + 4·Extra.
	Width int
	// Depth is the number of levels of layered (key d).
	Depth int
	// Extra is the number of random next-level and same-level edges each
	// layered vertex draws (key extra, default 0). Repeated draws are
	// dropped and counted as duplicates.
	Extra int

	// N is the vertex count of line (key n): edges {i, i+1}.
	N int

	// Rows and Cols size the grid (keys rows, cols): vertex (r, c) has id
	// r·cols + c.
	Rows, Cols int
	// Drop is the probability that a grid edge to the right or downward
	// neighbour is left out (key drop, default 0.2), which yields the
	// average degree of about 3.3 and the dead ends of road networks.
	Drop float64
	// Diag is the probability of a diagonal shortcut from (r, c) to
	// (r+1, c+1) (key diag, default 0.05).
	Diag float64

	// Seed seeds every random choice (key seed, default 1), for all kinds.
	Seed uint64
	// MaxWeight, when > 0, gives every edge a weight drawn uniformly from
	// [1, MaxWeight] (key maxw, default 0: unweighted). Weights come from a
	// stream of their own, so the topology does not depend on MaxWeight.
	MaxWeight uint32
	// Directed keeps the generated arcs as drawn (key directed, default
	// false: every edge is symmetrised as the rest of gravf-tui expects).
	Directed bool
}

// DefaultGenSpec returns the defaults of a generator kind, which ParseSpec
// also starts from. The size parameters (uniform v and d, rmat scale,
// layered w and d, line n, grid rows and cols) have no default and stay
// zero, so that a GenSpec that forgets them fails validation rather than
// silently generating some graph.
func DefaultGenSpec(kind string) (GenSpec, error) {
	s := GenSpec{Kind: kind, Seed: 1}
	switch kind {
	case KindUniform, KindLayered, KindLine:
	case KindRMAT:
		s.EdgeFactor, s.A, s.B, s.C, s.Scramble = 16, 0.57, 0.19, 0.19, true
	case KindGrid:
		s.Drop, s.Diag = 0.2, 0.05
	default:
		return GenSpec{}, fmt.Errorf("unknown generator %q (kinds: %s)", kind, joinKeys(GenKinds))
	}
	return s, nil
}

// Generate builds the graph a GenSpec describes and names it by the spec's
// canonical string, so that reports say exactly how to reproduce it. The
// result depends only on the spec: random numbers come from PCG streams
// seeded by Seed and are reduced to ranges by integer arithmetic of our own,
// never by library helpers whose algorithm could change between Go
// releases. Weights, when MaxWeight > 0, are drawn one per edge draw (self-
// loops and duplicates included), in draw order, from a stream of their own;
// a duplicate keeps the smallest of its weights, as Builder does.
func Generate(spec GenSpec) (*Graph, error) {
	return generate(spec, nil)
}

// generate is Generate with progress reports and cancellation.
func generate(spec GenSpec, wt *watch) (*Graph, error) {
	if err := spec.Validate(); err != nil {
		return nil, err
	}
	if spec.Kind == KindRMAT && spec.MaxWeight == 0 {
		g, err := genRMAT(spec, wt)
		if err != nil {
			return nil, err
		}
		g.Name = spec.String()
		collectScratch(g)
		return g, nil
	}
	b := NewBuilder(spec.numVertices(), spec.Directed, spec.MaxWeight > 0)
	b.watch = wt
	w := newGenWeigher(spec.Seed, spec.MaxWeight)
	r := rand.NewPCG(spec.Seed, genStreamTopology)
	switch spec.Kind {
	case KindRMAT:
		rmatEdges(spec, b)
	case KindUniform:
		genUniform(spec, b, r, w)
	case KindLayered:
		genLayered(spec, b, r, w)
	case KindLine:
		genLine(spec, b, w)
	case KindGrid:
		genGrid(spec, b, r, w)
	}
	if err := wt.failed(); err != nil {
		return nil, err
	}
	return b.Build(spec.String())
}

// drawn reports the progress of a generator that made i of m draws; it
// returns false once the load is cancelled.
func (b *Builder) drawn(i, m int) bool {
	return i%tick != 0 || b.watch.at("drawing edges", int64(i), int64(m))
}

// The second PCG seed word of each random stream. Separate streams keep the
// topology independent of whether weights are drawn, and the scramble
// permutation independent of the number of edges.
const (
	genStreamTopology = 0x6772617666746f70 // "gravftop"
	genStreamWeights  = 0x6772617666776774 // "gravfwgt"
	genStreamScramble = 0x6772617666736372 // "gravfscr"
)

// pcgBounded returns a uniform value in [0, n) for n > 0 by Lemire's
// multiply-and-reject method, using only PCG outputs, so that it is exactly
// reproducible.
func pcgBounded(r *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}

// pcgProbThreshold turns a probability into a threshold t such that
// r.Uint64()>>11 < t happens with probability p (to 2^-53). p·2^53 is exact
// in float64, so the threshold is the same on every machine.
func pcgProbThreshold(p float64) uint64 {
	switch {
	case p <= 0:
		return 0
	case p >= 1:
		return 1 << 53
	}
	return uint64(p * (1 << 53))
}

// genWeigher draws edge weights from their own stream.
type genWeigher struct {
	r    *rand.PCG
	maxw uint64
}

func newGenWeigher(seed uint64, maxw uint32) *genWeigher {
	return &genWeigher{r: rand.NewPCG(seed, genStreamWeights), maxw: uint64(maxw)}
}

// next returns the weight of the next edge: 0 (ignored) when unweighted, 1
// when maxw is 1 (without consuming randomness), else uniform in [1, maxw].
func (w *genWeigher) next() uint32 {
	if w.maxw <= 1 {
		return uint32(w.maxw)
	}
	return 1 + uint32(pcgBounded(w.r, w.maxw))
}

// uniformDraws is the number of edge draws of a uniform spec: round(v·d/2)
// undirected, round(v·d) directed, so that arcs/V ≈ d either way.
func uniformDraws(s GenSpec) float64 {
	m := float64(s.V) * s.Degree
	if !s.Directed {
		m /= 2
	}
	return math.Round(m)
}

func genUniform(s GenSpec, b *Builder, r *rand.PCG, w *genWeigher) {
	m := int(uniformDraws(s))
	n := uint64(s.V)
	b.Grow(m)
	for i := range m {
		if !b.drawn(i, m) {
			return
		}
		u := pcgBounded(r, n)
		v := pcgBounded(r, n)
		b.AddEdge(uint32(u), uint32(v), w.next())
	}
}

func genLayered(s GenSpec, b *Builder, r *rand.PCG, w *genWeigher) {
	width, depth, extra := uint64(s.Width), uint64(s.Depth), s.Extra
	b.Grow(int(layeredDraws(s)))
	for i := range depth {
		if !b.watch.at("drawing edges", int64(i), int64(depth)) {
			return
		}
		base := i * width
		for j := range width {
			u := uint32(base + j)
			if i+1 < depth {
				next := base + width
				b.AddEdge(u, uint32(next+j), w.next())
				for range extra {
					b.AddEdge(u, uint32(next+pcgBounded(r, width)), w.next())
				}
			}
			if width > 1 {
				for range extra {
					k := pcgBounded(r, width-1)
					if k >= j {
						k++
					}
					b.AddEdge(u, uint32(base+k), w.next())
				}
			}
		}
	}
}

// layeredDraws is the exact number of AddEdge calls of a layered spec.
func layeredDraws(s GenSpec) float64 {
	w, d, e := float64(s.Width), float64(s.Depth), float64(s.Extra)
	m := (d - 1) * w * (1 + e)
	if s.Width > 1 {
		m += d * w * e
	}
	return m
}

func genLine(s GenSpec, b *Builder, w *genWeigher) {
	b.Grow(s.N - 1)
	for i := 0; i+1 < s.N; i++ {
		b.AddEdge(uint32(i), uint32(i+1), w.next())
	}
}

// genGrid visits the vertices in id order and, for each, draws the edge to
// the right neighbour, then the one downward, then the diagonal shortcut;
// a draw is made only when that neighbour exists.
func genGrid(s GenSpec, b *Builder, r *rand.PCG, w *genWeigher) {
	rows, cols := s.Rows, s.Cols
	drop, diag := pcgProbThreshold(s.Drop), pcgProbThreshold(s.Diag)
	b.Grow(2 * rows * cols)
	for y := range rows {
		if !b.watch.at("drawing edges", int64(y), int64(rows)) {
			return
		}
		for x := range cols {
			u := uint32(y*cols + x)
			if x+1 < cols && r.Uint64()>>11 >= drop {
				b.AddEdge(u, u+1, w.next())
			}
			if y+1 < rows && r.Uint64()>>11 >= drop {
				b.AddEdge(u, u+uint32(cols), w.next())
			}
			if y+1 < rows && x+1 < cols && r.Uint64()>>11 < diag {
				b.AddEdge(u, u+uint32(cols)+1, w.next())
			}
		}
	}
}

// numVertices is V of a valid spec. Generators pass it to NewBuilder so that
// vertices no edge touches (a uniform draw that missed them, a dropped grid
// edge) still exist.
func (s GenSpec) numVertices() int {
	switch s.Kind {
	case KindUniform:
		return s.V
	case KindRMAT:
		return 1 << s.Scale
	case KindLayered:
		return s.Width * s.Depth
	case KindLine:
		return s.N
	case KindGrid:
		return s.Rows * s.Cols
	}
	return 0
}
