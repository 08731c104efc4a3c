package gen

import (
	"fmt"
	"io"
	"runtime"
	"sort"
	"sync"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// tables is where the PEs' memory contents come from: the partition, the
// edge lists and the update filter, read entry by entry while an image is
// written. Nothing of an image is held: a PE's edge index has an entry for
// every vertex of the graph, so holding every PE's (and every edge entry,
// and the hex text) took tens of times the graph's CSR. The tables keep
// per-PE counts and the edge layout of one FPGA at a time (lists): an
// image reads the lists of its own FPGA's PEs only, and the project is
// written FPGA by FPGA (System.WriteGroups), so the layout of the whole
// graph, as large as its CSR again, is never built.
type tables struct {
	d   *arch.Design
	k   *kernel.Kernel
	g   *graph.Graph
	p   *graph.Partition
	flt *graph.Filter // nil: every update goes to every FPGA
	// words[pe] is the off-chip words of the PE's lists, base[pe] the
	// address of its first word in its FPGA's memory (off-chip designs).
	words, base []int
	edges       []int  // edges per PE
	unit        uint64 // the edge data of an unweighted graph's edges

	mu      sync.Mutex
	fpga    int               // the FPGA whose lists are held
	layout  *graph.EdgeLayout // its PEs' lists (nil: none held)
	layouts int               // how many were built, for tests
}

// newTables counts the edges (and off-chip words) of every PE and returns
// how much the PEs hold (the extent that fixes the address widths of
// their memories). With filter false every update goes to every FPGA.
func newTables(d *arch.Design, k *kernel.Kernel, g *graph.Graph, p *graph.Partition, filter bool) (*tables, arch.Extent, error) {
	var ext arch.Extent
	if err := checkTables(k, g); err != nil {
		return nil, ext, err
	}
	epw := 0
	if d.Mem == arch.OffChip {
		if err := d.EdgeMemory.Check(); err != nil {
			return nil, ext, err
		}
		epw = d.EdgeMemory.EdgesPerWord
	}
	t := &tables{d: d, k: k, g: g, p: p, unit: kernel.UnitEdge(k)}
	if filter && p.FPGAs > 1 {
		t.flt = graph.NewFilter(g, p)
	}
	t.countLists(epw)
	for pe := range t.edges {
		ext.MaxLocal = max(ext.MaxLocal, len(p.Members[pe]))
		ext.MaxEdges = max(ext.MaxEdges, t.edges[pe])
	}
	if epw > 0 {
		ext.MaxWords = t.placeWords(p.PEs)
	}
	return t, ext, nil
}

func checkTables(k *kernel.Kernel, g *graph.Graph) error {
	if k.Vertices != g.NumVertices() {
		return fmt.Errorf("kernel bound to %d vertices, graph has %d", k.Vertices, g.NumVertices())
	}
	return kernel.EdgeData(k, g)
}

// countLists counts, in one pass over the arcs on every core, each PE's
// edges (the arcs whose target it holds) and, with epw > 0 edges per
// off-chip word, the words of its lists (each vertex's list on the PE
// starts on a word). The vertices are cut into chunks of about equal arc
// counts, one per worker; the sums are integers, the same for any number
// of workers.
func (t *tables) countLists(epw int) {
	g, p := t.g, t.p
	npe, n := p.NumPEs(), g.NumVertices()
	workers := min(runtime.GOMAXPROCS(0), len(g.Adj)/(1<<16)+1)
	chunks := make([]int, workers+1)
	for w := 1; w <= workers; w++ {
		target := uint32(uint64(len(g.Adj)) * uint64(w) / uint64(workers))
		chunks[w] = max(chunks[w-1], sort.Search(n, func(v int) bool { return g.Offsets[v] >= target }))
	}
	chunks[workers] = n
	edges, words := make([][]int, workers), make([][]int, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := chunks[w], chunks[w+1]
		edges[w], words[w] = make([]int, npe), make([]int, npe)
		wg.Go(func() { countChunk(g, p, lo, hi, epw, edges[w], words[w]) })
	}
	wg.Wait()
	t.edges, t.words = make([]int, npe), make([]int, npe)
	for w := range workers {
		for pe := range npe {
			t.edges[pe] += edges[w][pe]
			t.words[pe] += words[w][pe]
		}
	}
}

// countChunk adds the edges (and the off-chip words) of vertices [lo, hi)
// to each PE's counts.
func countChunk(g *graph.Graph, p *graph.Partition, lo, hi, epw int, edges, words []int) {
	cnt := make([]int, p.NumPEs())
	var used []uint16
	for u := lo; u < hi; u++ {
		used = used[:0]
		for _, v := range g.Adj[g.Offsets[u]:g.Offsets[u+1]] {
			pe := p.PE[v]
			if cnt[pe] == 0 {
				used = append(used, pe)
			}
			cnt[pe]++
		}
		for _, pe := range used {
			edges[pe] += cnt[pe]
			if epw > 0 {
				words[pe] += (cnt[pe] + epw - 1) / epw
			}
			cnt[pe] = 0
		}
	}
}

// placeWords places the PEs of an FPGA one after the other in its off-chip
// memory and returns the most words one FPGA's memory holds (at least
// one).
func (t *tables) placeWords(pes int) int {
	n := t.p.NumPEs()
	t.base = make([]int, n)
	most := 1
	for f := 0; f*pes < n; f++ {
		at := 0
		for pe := f * pes; pe < (f+1)*pes; pe++ {
			t.base[pe] = at
			at += t.words[pe]
		}
		most = max(most, at)
	}
	return most
}

// fpgaWords is the number of words of FPGA f's off-chip memory.
func (t *tables) fpgaWords(f int) int {
	last := (f+1)*t.p.PEs - 1
	return t.base[last] + t.words[last]
}

// lists returns the edge layout of the lists of FPGA f's PEs (Local of
// one of its PEs is that PE's list of a vertex, as in the layout of the
// whole graph), building it unless it is the one held; the previous one
// is dropped first, so that one FPGA's lists are held at a time. Safe for
// concurrent use: an image being written keeps the layout it was given.
func (t *tables) lists(f int) *graph.EdgeLayout {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.layout != nil && t.fpga == f {
		return t.layout
	}
	t.layout = nil
	collect() // the previous FPGA's lists, or the garbage of the setup
	lo, hi := f*t.p.PEs, (f+1)*t.p.PEs
	t.fpga, t.layout = f, graph.NewLocalLayoutOf(t.g, t.p, lo, hi)
	if t.layout == nil {
		t.layout = graph.NewEdgeLayoutOf(t.g, t.p, lo, hi)
	}
	t.layouts++
	return t.layout
}

// peList is a vertex's list on one PE, from the lists of its FPGA: the
// neighbours' local indexes (a layout of local indexes, which the tables
// build when every PE's vertices fit 16 bits) or their vertex ids.
type peList struct {
	locals  []uint16
	nbrs    []uint32
	weights []uint32 // nil when unweighted
}

// listOf returns u's list on PE pe from l, the lists of pe's FPGA.
func (t *tables) listOf(l *graph.EdgeLayout, pe int, u uint32) peList {
	if l.HoldsLocalIndexes() {
		locals, ws := l.LocalIndexes(pe, u)
		return peList{locals: locals, weights: ws}
	}
	nbrs, ws := l.Local(pe, u)
	return peList{nbrs: nbrs, weights: ws}
}

func (e peList) len() int { return len(e.locals) + len(e.nbrs) }

// local is the i-th neighbour's local index on the PE.
func (e peList) local(i int, p *graph.Partition) uint32 {
	if e.locals != nil {
		return uint32(e.locals[i])
	}
	return p.Local[e.nbrs[i]]
}

// global is the i-th neighbour's vertex id; pe is the list's PE.
func (e peList) global(i, pe int, p *graph.Partition) uint32 {
	if e.locals != nil {
		return p.Members[pe][e.locals[i]]
	}
	return e.nbrs[i]
}

// data is the i-th edge's data: its weight, or unit when unweighted.
func (e peList) data(i int, unit uint64) uint64 {
	if e.weights != nil {
		return uint64(e.weights[i])
	}
	return unit
}

// part is the neighbours [i, j) of the list.
func (e peList) part(i, j int) peList {
	if e.locals != nil {
		e.locals = e.locals[i:j]
	} else {
		e.nbrs = e.nbrs[i:j]
	}
	if e.weights != nil {
		e.weights = e.weights[i:j]
	}
	return e
}

// index calls f for the edge-index entry of every vertex of the graph on
// PE pe. With words, Start is the address of the list's first word in
// the FPGA's off-chip memory (0 for an empty list), else the position of
// the list's first edge among the PE's edges.
func (t *tables) index(pe int, words bool, f func(IndexEntry)) {
	at := 0
	if words {
		at = t.base[pe]
	}
	epw := t.d.EdgeMemory.EdgesPerWord
	l, g := t.lists(t.p.FPGAOfPE(pe)), t.g
	for u := 0; u < g.NumVertices(); u++ {
		n := l.ListLen(pe, uint32(u))
		e := IndexEntry{Start: uint32(at), Len: uint32(n), Degree: g.Offsets[u+1] - g.Offsets[u]}
		switch {
		case !words:
			at += n
		case n == 0:
			e.Start = 0
		default:
			at += (n + epw - 1) / epw
		}
		f(e)
	}
}

// list appends the edges of u's list on PE pe, from l (the lists of pe's
// FPGA), to dst.
func (t *tables) list(dst []EdgeEntry, l *graph.EdgeLayout, pe int, u uint32) []EdgeEntry {
	e := t.listOf(l, pe, u)
	for i := range e.len() {
		dst = append(dst, EdgeEntry{Global: e.global(i, pe, t.p), Local: e.local(i, t.p), Data: e.data(i, t.unit)})
	}
	return dst
}

// edgeList calls f for every edge of PE pe, list after list in vertex
// order. (Each vertex's list is found by a binary search among its runs,
// rather than through the layout's per-PE index, which would hold 8
// bytes per run.)
func (t *tables) edgeList(pe int, f func(EdgeEntry)) {
	l := t.lists(t.p.FPGAOfPE(pe))
	var list []EdgeEntry
	for u := 0; u < t.g.NumVertices(); u++ {
		list = t.list(list[:0], l, pe, uint32(u))
		for _, e := range list {
			f(e)
		}
	}
}

// vertices calls f for every local vertex of PE pe, by local index, with
// its initial state (valid during the call).
func (t *tables) vertices(pe int, f func(v VertexEntry, state []uint64)) {
	p, g := t.p, t.g
	home := pe / p.PEs
	ctx := t.k.NewCtx()
	state := make([]uint64, len(t.k.Checked.VertexT))
	for _, v := range p.Members[pe] {
		var mask uint64
		j := 0
		for f := 0; f < p.FPGAs; f++ {
			if f == home {
				continue
			}
			if t.flt == nil || t.flt.Has(v, f) {
				mask |= 1 << uint(j)
			}
			j++
		}
		ctx.ID, ctx.Degree = uint64(v), uint64(g.OutDegree(v))
		t.k.Init(ctx, state)
		f(VertexEntry{Global: v, Degree: uint32(g.OutDegree(v)), Mask: mask}, state)
	}
}

// memory calls f for every word of FPGA fpga's off-chip memory, in
// address order: the lists of its PEs, PE after PE, each cut into words
// of EdgesPerWord edges, given as the word's part of its list.
func (t *tables) memory(fpga int, f func(word peList)) {
	epw := t.d.EdgeMemory.EdgesPerWord
	l := t.lists(fpga)
	for pe := fpga * t.p.PEs; pe < (fpga+1)*t.p.PEs; pe++ {
		for u := 0; u < t.g.NumVertices(); u++ {
			e := t.listOf(l, pe, uint32(u))
			for i := 0; i < e.len(); i += epw {
				f(e.part(i, min(i+epw, e.len())))
			}
		}
	}
}

// hexImage writes a $readmemh image line by line, and one zero word when
// it ends empty (an empty memory still needs a word to load). A line's
// word is appended straight to b (no closure, no writer call per line),
// and b goes to the writer in chunks of about 64 KiB, which a buffered
// writer of that size passes on without copying.
type hexImage struct {
	w   io.Writer
	l   arch.Layout
	b   []byte // the lines not yet written
	n   int
	err error
}

// hexChunk is how many bytes of lines hexImage gathers before it writes.
const hexChunk = 1 << 16

// hexBuffers holds the chunk buffers of finished images for the next
// ones: a project has hundreds of images, whose buffers would otherwise
// be garbage that lets the heap grow.
var hexBuffers = sync.Pool{New: func() any { b := make([]byte, 0, hexChunk+512); return &b }}

func newHexImage(wr io.Writer, l arch.Layout) *hexImage {
	return &hexImage{w: wr, l: l, b: (*hexBuffers.Get().(*[]byte))[:0]}
}

// end ends the line whose word was appended to b.
func (h *hexImage) end() {
	h.b = append(h.b, '\n')
	h.n++
	if len(h.b) >= hexChunk {
		h.flush()
	}
}

func (h *hexImage) flush() {
	if h.err == nil && len(h.b) > 0 {
		_, h.err = h.w.Write(h.b)
	}
	h.b = h.b[:0]
}

// close writes the zero word of an empty image and the lines not yet
// written.
func (h *hexImage) close() error {
	if h.n == 0 {
		h.b = h.l.AppendHex(h.b, make([]uint64, len(h.l.Fields))...)
		h.end()
	}
	h.flush()
	b := h.b
	hexBuffers.Put(&b)
	h.b = nil
	return h.err
}

// The words of each image, one function each, which the streamed images
// and the held PEImages both write.

func indexWord(dst []byte, w arch.Words, e IndexEntry) []byte {
	return w.Index.AppendHex(dst, uint64(e.Start), uint64(e.Len), uint64(e.Degree))
}

func edgeWord(dst []byte, w arch.Words, e EdgeEntry) []byte {
	vals := [3]uint64{uint64(e.Global), uint64(e.Local), e.Data}
	return w.Edge.AppendHex(dst, vals[:len(w.Edge.Fields)]...)
}

func vertexWord(dst []byte, w arch.Words, v VertexEntry) []byte {
	return w.VertexInfo.AppendHex(dst, v.Mask, uint64(v.Global), uint64(v.Degree))
}

func idWord(dst []byte, w arch.Words, v VertexEntry) []byte {
	return w.ID.AppendHex(dst, uint64(v.Global))
}

func memWord(dst []byte, w arch.Words, edges []EdgeEntry) []byte {
	return w.AppendMemWord(dst, len(edges), func(j int) (uint32, uint64) { return edges[j].Local, edges[j].Data })
}

// writeIndex streams PE pe's edge-index image.
func (t *tables) writeIndex(wr io.Writer, w arch.Words, pe int) error {
	h := newHexImage(wr, w.Index)
	t.index(pe, t.d.Mem == arch.OffChip, func(e IndexEntry) {
		h.b = indexWord(h.b, w, e)
		h.end()
	})
	return h.close()
}

// writeEdges streams PE pe's block-RAM edge image.
func (t *tables) writeEdges(wr io.Writer, w arch.Words, pe int) error {
	h := newHexImage(wr, w.Edge)
	t.edgeList(pe, func(e EdgeEntry) {
		h.b = edgeWord(h.b, w, e)
		h.end()
	})
	return h.close()
}

// writeVertices streams PE pe's vertex-info image.
func (t *tables) writeVertices(wr io.Writer, w arch.Words, pe int) error {
	return t.writePerVertex(wr, w.VertexInfo, pe, func(b []byte, v VertexEntry, _ []uint64) []byte { return vertexWord(b, w, v) })
}

// writeIDs streams PE pe's id table (off-chip designs).
func (t *tables) writeIDs(wr io.Writer, w arch.Words, pe int) error {
	return t.writePerVertex(wr, w.ID, pe, func(b []byte, v VertexEntry, _ []uint64) []byte { return idWord(b, w, v) })
}

// writeState streams PE pe's initial vertex states.
func (t *tables) writeState(wr io.Writer, w arch.Words, pe int) error {
	return t.writePerVertex(wr, w.State, pe, func(b []byte, _ VertexEntry, state []uint64) []byte { return t.d.State.AppendHex(b, state...) })
}

// writePerVertex streams an image of one word per local vertex of PE pe,
// each appended by word.
func (t *tables) writePerVertex(wr io.Writer, l arch.Layout, pe int, word func(b []byte, v VertexEntry, state []uint64) []byte) error {
	h := newHexImage(wr, l)
	t.vertices(pe, func(v VertexEntry, state []uint64) {
		h.b = word(h.b, v, state)
		h.end()
	})
	return h.close()
}

// writeMemory streams FPGA f's off-chip memory image.
func (t *tables) writeMemory(wr io.Writer, w arch.Words, f int) error {
	h := newHexImage(wr, w.MemWord)
	t.memory(f, func(e peList) {
		h.b = w.AppendMemWord(h.b, e.len(), func(j int) (uint32, uint64) { return e.local(j, t.p), e.data(j, t.unit) })
		h.end()
	})
	return h.close()
}
