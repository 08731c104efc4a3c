package graph

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
)

// Graph is an immutable graph in compressed sparse row (CSR) form.
//
// Vertices are numbered 0..V-1. The out-neighbours of v are
// Adj[Offsets[v]:Offsets[v+1]], sorted ascending and free of duplicates and
// self-loops. An undirected graph stores both arcs of every edge, so that
// scatter (which walks out-edges) sees every neighbour.
//
// The zero value is an empty graph.
type Graph struct {
	// Name describes where the graph came from (a file name or a generator
	// spec); it is used in reports only.
	Name string
	// Directed is false when every edge is stored as two arcs.
	Directed bool
	// Offsets has V+1 entries; Offsets[V] == len(Adj).
	Offsets []uint32
	// Adj holds the out-neighbours of all vertices, list after list.
	Adj []uint32
	// Weights, when not nil, holds one weight per arc, parallel to Adj:
	// unsigned integers, or the IEEE-754 bits of float32 values when
	// FloatWeights is set. Weights are never negative, so in both cases
	// the bits order like the values.
	Weights []uint32
	// FloatWeights tells that Weights hold float32 bits.
	FloatWeights bool
	// Rounded counts the real weights of the file that were rounded to
	// integers (see ReadOptions.Weighted).
	Rounded Rounding
	// Labels maps a vertex id to the label it had in the input file. Nil
	// means the identity (generated graphs, and files whose labels already
	// are 0..V-1).
	Labels []uint64
	// SelfLoops counts input edges dropped because both ends were equal.
	SelfLoops int
	// Duplicates counts input edges dropped because the same edge (the same
	// arc when directed, the same unordered pair when undirected) appeared
	// before. A weighted duplicate keeps the smallest weight.
	Duplicates int
}

// Rounding records the real-valued weights that a reader rounded to store
// them as integers, with the first one, so that a command can say so once.
type Rounding struct {
	// Count is the number of rounded weights.
	Count int `json:"count"`
	// File and Line locate the first one; Text is its spelling and To the
	// integer it became.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	Text string `json:"text,omitempty"`
	To   uint32 `json:"to,omitempty"`
}

// Notes returns what a reader changed in the file's data without failing,
// as sentences for the user (today: real weights rounded to integers).
func (g *Graph) Notes() []string {
	r := g.Rounded
	if r.Count == 0 {
		return nil
	}
	what := "a real edge weight was"
	if r.Count > 1 {
		what = fmt.Sprintf("%d real edge weights were", r.Count)
	}
	return []string{fmt.Sprintf("%s rounded to integers (the first at %s:%d: %s became %d); a kernel whose edge field is f32 (such as sssp-f32) keeps them",
		what, r.File, r.Line, r.Text, r.To)}
}

// Weight returns the weight of the i-th arc (an index into Adj) as a
// number: the integer, or the float32 value; 1 for unweighted graphs.
func (g *Graph) Weight(i int) float64 {
	switch {
	case g.Weights == nil:
		return 1
	case g.FloatWeights:
		return float64(math.Float32frombits(g.Weights[i]))
	}
	return float64(g.Weights[i])
}

// NumVertices returns V.
func (g *Graph) NumVertices() int {
	if len(g.Offsets) == 0 {
		return 0
	}
	return len(g.Offsets) - 1
}

// NumArcs returns the number of stored arcs: the number of messages one
// superstep in which every vertex sends would produce.
func (g *Graph) NumArcs() int { return len(g.Adj) }

// NumEdges returns E as users count it: distinct unordered pairs for an
// undirected graph, arcs for a directed one.
func (g *Graph) NumEdges() int {
	if g.Directed {
		return len(g.Adj)
	}
	return len(g.Adj) / 2
}

// AvgDegree returns the average out-degree, arcs/V, which is the d of the
// performance model (each update becomes d messages on average).
func (g *Graph) AvgDegree() float64 {
	if g.NumVertices() == 0 {
		return 0
	}
	return float64(len(g.Adj)) / float64(g.NumVertices())
}

// Neighbors returns the out-neighbours of v. The slice aliases the graph and
// must not be modified.
func (g *Graph) Neighbors(v uint32) []uint32 { return g.Adj[g.Offsets[v]:g.Offsets[v+1]] }

// EdgeWeights returns the weights of the out-arcs of v, parallel to
// Neighbors(v), or nil when the graph is unweighted.
func (g *Graph) EdgeWeights(v uint32) []uint32 {
	if g.Weights == nil {
		return nil
	}
	return g.Weights[g.Offsets[v]:g.Offsets[v+1]]
}

// OutDegree returns the number of out-arcs of v.
func (g *Graph) OutDegree(v uint32) int { return int(g.Offsets[v+1] - g.Offsets[v]) }

// Label returns the input file's label of vertex v.
func (g *Graph) Label(v uint32) uint64 {
	if g.Labels == nil {
		return uint64(v)
	}
	return g.Labels[v]
}

// Lookup returns the vertex whose input label is label.
func (g *Graph) Lookup(label uint64) (uint32, bool) {
	if g.Labels == nil {
		if label < uint64(g.NumVertices()) {
			return uint32(label), true
		}
		return 0, false
	}
	i := sort.Search(len(g.Labels), func(i int) bool { return g.Labels[i] >= label })
	if i < len(g.Labels) && g.Labels[i] == label {
		return uint32(i), true
	}
	return 0, false
}

// MemoryBytes returns the bytes held by the CSR arrays, for the
// bytes-per-edge figure of the benchmarks.
func (g *Graph) MemoryBytes() int {
	return 4*(len(g.Offsets)+len(g.Adj)+len(g.Weights)) + 8*len(g.Labels)
}

// Builder collects edges and builds a Graph. Readers and generators feed it
// vertex ids (AddEdge) or raw file labels (AddLabelEdge), never both.
//
// The zero value is not ready; use NewBuilder.
type Builder struct {
	directed bool
	weighted bool
	n        int // vertices known so far (ids) or declared (labels)
	// e holds the edges as pairs u, v, u, v, ...: one array, so that an
	// undirected graph's arcs (two per edge) can take its place in Build.
	e []uint32
	w []uint32
	// loops tells that e may still hold self-loops (a bulk generator
	// stores every draw); Build then drops and counts them.
	loops bool
	// label mode
	lsrc, ldst []uint64
	extra      []uint64 // labels of vertices that exist without edges
	byLabel    bool
	selfLoops  int
	// watch reports Build's progress and stops it at cancellation.
	watch *watch
}

// NewBuilder returns a builder for a graph with at least n vertices (ids
// 0..n-1 exist even when no edge touches them). directed keeps arcs as given;
// otherwise every edge is symmetrised. weighted makes AddEdge's weight
// meaningful.
func NewBuilder(n int, directed, weighted bool) *Builder {
	return &Builder{n: n, directed: directed, weighted: weighted}
}

// Grow hints that about m more edges will be added with AddEdge.
func (b *Builder) Grow(m int) {
	b.e = slices.Grow(b.e, 2*m)
	if b.weighted {
		b.w = slices.Grow(b.w, m)
	}
}

// GrowLabels hints that about m more edges will be added with
// AddLabelEdge.
func (b *Builder) GrowLabels(m int) {
	b.lsrc = slices.Grow(b.lsrc, m)
	b.ldst = slices.Grow(b.ldst, m)
	if b.weighted {
		b.w = slices.Grow(b.w, m)
	}
}

// AddEdge adds the edge u->v (and v->u when undirected) with weight w (ignored
// when the builder is unweighted). Ids at or beyond the vertex count grow it.
func (b *Builder) AddEdge(u, v, w uint32) {
	if u == v {
		b.selfLoops++
		return
	}
	if int(u) >= b.n {
		b.n = int(u) + 1
	}
	if int(v) >= b.n {
		b.n = int(v) + 1
	}
	b.e = append(b.e, u, v)
	if b.weighted {
		b.w = append(b.w, w)
	}
}

// AddLabelEdge adds an edge between two file labels. The graph's vertex ids
// are then the ranks of the distinct labels, so that a file with labels
// 0..V-1 keeps them as ids.
func (b *Builder) AddLabelEdge(u, v uint64, w uint32) {
	b.byLabel = true
	if u == v {
		b.selfLoops++
		b.extra = append(b.extra, u)
		return
	}
	b.lsrc = append(b.lsrc, u)
	b.ldst = append(b.ldst, v)
	if b.weighted {
		b.w = append(b.w, w)
	}
}

// AddLabel declares a vertex label that exists even without edges (METIS
// vertices with empty lines, a Matrix Market size line).
func (b *Builder) AddLabel(l uint64) {
	b.byLabel = true
	b.extra = append(b.extra, l)
}

// Edges returns the number of edges added so far (self-loops excluded).
func (b *Builder) Edges() int { return len(b.e)/2 + len(b.lsrc) }

// Build returns the CSR graph (see csr.go). It fails only when the graph
// exceeds the uint32 id or arc range, or when its watch was cancelled.
func (b *Builder) Build(name string) (*Graph, error) {
	g := &Graph{Name: name, Directed: b.directed}
	if b.byLabel {
		if err := b.resolveLabels(g); err != nil {
			return nil, err
		}
	}
	if b.n > math.MaxUint32-1 {
		return nil, fmt.Errorf("graph %s: %d vertices exceed the 32-bit id range", name, b.n)
	}
	if err := b.buildCSR(g); err != nil {
		return nil, err
	}
	g.SelfLoops += b.selfLoops
	collectScratch(g)
	return g, nil
}

// collectScratch collects a large graph's build scratch (the per-core
// positions, and a Builder's array of arcs), garbage once the graph is
// made: collected here, its memory is what the caller's next allocations
// reuse (a simulation's setup, a reference run), where the collector would
// otherwise let the heap grow to twice the build's peak first.
func collectScratch(g *Graph) {
	if len(g.Adj) >= collectAfterArcs {
		runtime.GC()
	}
}

// collectAfterArcs is the graph size from which Build collects its
// scratch: 4 M arcs, 16 MiB of it, where a collection (the arrays hold no
// pointers, so it marks little) costs well under a millisecond.
const collectAfterArcs = 1 << 22

// resolveLabels turns label edges into id edges: ids are label ranks.
func (b *Builder) resolveLabels(g *Graph) error {
	all := make([]uint64, 0, len(b.lsrc)+len(b.ldst)+len(b.extra))
	all = append(all, b.lsrc...)
	all = append(all, b.ldst...)
	all = append(all, b.extra...)
	slices.Sort(all)
	all = slices.Compact(all)
	if len(all) > math.MaxUint32-1 {
		return fmt.Errorf("graph %s: %d vertices exceed the 32-bit id range", g.Name, len(all))
	}
	identity := len(all) == 0 || all[len(all)-1] == uint64(len(all)-1)
	if !identity {
		g.Labels = slices.Clip(all)
	}
	id := func(l uint64) uint32 {
		if identity {
			return uint32(l)
		}
		i, _ := slices.BinarySearch(all, l)
		return uint32(i)
	}
	b.e = make([]uint32, 2*len(b.lsrc))
	for i := range b.lsrc {
		b.e[2*i] = id(b.lsrc[i])
		b.e[2*i+1] = id(b.ldst[i])
	}
	b.n = len(all)
	b.lsrc, b.ldst, b.extra = nil, nil, nil
	return nil
}
