package gen

import (
	"bufio"
	"fmt"
	"io"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// tables is where the PEs' memory contents come from: the partition, the
// edge layout and the update filter, read entry by entry while an image
// is written. Nothing of an image is held: a PE's edge index has an entry
// for every vertex of the graph, so holding every PE's (and every edge
// entry, and the hex text) took tens of times the graph's CSR; the tables
// only keep per-PE counts.
type tables struct {
	d      *arch.Design
	k      *kernel.Kernel
	g      *graph.Graph
	p      *graph.Partition
	layout *graph.EdgeLayout
	flt    *graph.Filter // nil: every update goes to every FPGA
	// words[pe] is the off-chip words of the PE's lists, base[pe] the
	// address of its first word in its FPGA's memory (off-chip designs).
	words, base []int
	edges       []int // edges per PE
}

// newTables lays out the edges of every PE and returns how much the PEs
// hold (the extent that fixes the address widths of their memories).
// With filter false every update goes to every FPGA.
func newTables(d *arch.Design, k *kernel.Kernel, g *graph.Graph, p *graph.Partition, filter bool) (*tables, arch.Extent, error) {
	var ext arch.Extent
	if err := checkTables(k, g); err != nil {
		return nil, ext, err
	}
	if d.Mem == arch.OffChip {
		if err := d.EdgeMemory.Check(); err != nil {
			return nil, ext, err
		}
	}
	t := &tables{d: d, k: k, g: g, p: p, layout: graph.NewEdgeLayout(g, p)}
	if filter && p.FPGAs > 1 {
		t.flt = graph.NewFilter(g, p)
	}
	t.edges = t.layout.EdgesPerPE()
	for pe := range t.edges {
		ext.MaxLocal = max(ext.MaxLocal, len(p.Members[pe]))
		ext.MaxEdges = max(ext.MaxEdges, t.edges[pe])
	}
	if d.Mem == arch.OffChip {
		ext.MaxWords = t.layOutWords(d.EdgeMemory.EdgesPerWord, p.PEs)
	}
	return t, ext, nil
}

func checkTables(k *kernel.Kernel, g *graph.Graph) error {
	if k.Vertices != g.NumVertices() {
		return fmt.Errorf("kernel bound to %d vertices, graph has %d", k.Vertices, g.NumVertices())
	}
	return kernel.EdgeData(k, g)
}

// layOutWords counts the off-chip words of every PE's lists (each list
// starts on a word), places the PEs of an FPGA one after the other and
// returns the most words one FPGA's memory holds (at least one).
func (t *tables) layOutWords(epw, pes int) int {
	n := t.p.NumPEs()
	t.words, t.base = make([]int, n), make([]int, n)
	for i := 0; i < t.layout.NumRuns(); i++ {
		pe, nbrs, _ := t.layout.Run(i)
		t.words[pe] += (len(nbrs) + epw - 1) / epw
	}
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

// local returns u's neighbours (and weights) held by PE pe.
func (t *tables) local(pe int, u uint32) (nbrs, weights []uint32) { return t.layout.Local(pe, u) }

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
	for u := 0; u < t.g.NumVertices(); u++ {
		nbrs, _ := t.local(pe, uint32(u))
		e := IndexEntry{Start: uint32(at), Len: uint32(len(nbrs)), Degree: uint32(t.g.OutDegree(uint32(u)))}
		switch {
		case !words:
			at += len(nbrs)
		case len(nbrs) == 0:
			e.Start = 0
		default:
			at += (len(nbrs) + epw - 1) / epw
		}
		f(e)
	}
}

// list calls f for every edge of u's list on PE pe.
func (t *tables) list(pe int, u uint32, f func(EdgeEntry)) {
	nbrs, ws := t.local(pe, u)
	unit := kernel.UnitEdge(t.k)
	for i, v := range nbrs {
		e := EdgeEntry{Global: v, Local: t.p.Local[v], Data: unit}
		if ws != nil {
			e.Data = uint64(ws[i])
		}
		f(e)
	}
}

// edgeList calls f for every edge of PE pe, list after list in vertex
// order. (Each vertex's list is found by a binary search among its runs,
// rather than through the layout's per-PE index, which would hold 8
// bytes per run.)
func (t *tables) edgeList(pe int, f func(EdgeEntry)) {
	for u := 0; u < t.g.NumVertices(); u++ {
		t.list(pe, uint32(u), f)
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
// of EdgesPerWord edges.
func (t *tables) memory(fpga int, f func(word []EdgeEntry)) {
	epw := t.d.EdgeMemory.EdgesPerWord
	var list []EdgeEntry
	for pe := fpga * t.p.PEs; pe < (fpga+1)*t.p.PEs; pe++ {
		for u := 0; u < t.g.NumVertices(); u++ {
			list = list[:0]
			t.list(pe, uint32(u), func(e EdgeEntry) { list = append(list, e) })
			for i := 0; i < len(list); i += epw {
				f(list[i:min(i+epw, len(list))])
			}
		}
	}
}

// hexImage writes a $readmemh image line by line through a buffer, and
// one zero word when it ends empty (an empty memory still needs a word
// to load).
type hexImage struct {
	w   *bufio.Writer
	l   arch.Layout
	b   []byte
	n   int
	err error
}

func newHexImage(wr io.Writer, l arch.Layout) *hexImage {
	return &hexImage{w: bufio.NewWriterSize(wr, 1<<16), l: l, b: make([]byte, 0, 256)}
}

// line writes one word appended by word to an empty slice.
func (h *hexImage) line(word func(dst []byte) []byte) {
	if h.err != nil {
		return
	}
	h.b = append(word(h.b[:0]), '\n')
	_, h.err = h.w.Write(h.b)
	h.n++
}

// close writes the zero word of an empty image and flushes.
func (h *hexImage) close() error {
	if h.n == 0 {
		h.line(func(dst []byte) []byte { return h.l.AppendHex(dst, make([]uint64, len(h.l.Fields))...) })
	}
	if h.err != nil {
		return h.err
	}
	return h.w.Flush()
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
		h.line(func(dst []byte) []byte { return indexWord(dst, w, e) })
	})
	return h.close()
}

// writeEdges streams PE pe's block-RAM edge image.
func (t *tables) writeEdges(wr io.Writer, w arch.Words, pe int) error {
	h := newHexImage(wr, w.Edge)
	t.edgeList(pe, func(e EdgeEntry) {
		h.line(func(dst []byte) []byte { return edgeWord(dst, w, e) })
	})
	return h.close()
}

// writeVertices streams PE pe's vertex-info image.
func (t *tables) writeVertices(wr io.Writer, w arch.Words, pe int) error {
	h := newHexImage(wr, w.VertexInfo)
	t.vertices(pe, func(v VertexEntry, _ []uint64) {
		h.line(func(dst []byte) []byte { return vertexWord(dst, w, v) })
	})
	return h.close()
}

// writeIDs streams PE pe's id table (off-chip designs).
func (t *tables) writeIDs(wr io.Writer, w arch.Words, pe int) error {
	h := newHexImage(wr, w.ID)
	t.vertices(pe, func(v VertexEntry, _ []uint64) {
		h.line(func(dst []byte) []byte { return idWord(dst, w, v) })
	})
	return h.close()
}

// writeState streams PE pe's initial vertex states.
func (t *tables) writeState(wr io.Writer, w arch.Words, pe int) error {
	h := newHexImage(wr, w.State)
	t.vertices(pe, func(_ VertexEntry, state []uint64) {
		h.line(func(dst []byte) []byte { return t.d.State.AppendHex(dst, state...) })
	})
	return h.close()
}

// writeMemory streams FPGA f's off-chip memory image.
func (t *tables) writeMemory(wr io.Writer, w arch.Words, f int) error {
	h := newHexImage(wr, w.MemWord)
	t.memory(f, func(edges []EdgeEntry) {
		h.line(func(dst []byte) []byte { return memWord(dst, w, edges) })
	})
	return h.close()
}
