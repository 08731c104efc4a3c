package gen

import (
	"fmt"
	"io"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// IndexEntry is one edge-index word: where a vertex's list starts in the
// PE's edge memory, how long it is, and the vertex's out-degree (the
// scatter kernel's num_neighbors_in).
type IndexEntry struct {
	Start, Len, Degree uint32
}

// EdgeEntry is one edge-memory word: the neighbour's global id (for the
// scatter kernel), its local index on this PE (the gather address), and
// the edge data (the first edge field, the graph's weight).
type EdgeEntry struct {
	Global, Local uint32
	Data          uint64
}

// VertexEntry maps a local index to the vertex's global id and its
// out-degree, for the apply sweep, and carries the update filter's mask:
// bit j set when the j-th other FPGA (in ascending order) holds a
// neighbour.
type VertexEntry struct {
	Global, Degree uint32
	Mask           uint64
}

// PEImages are the memory contents of one GraVF-M PE.
type PEImages struct {
	PE int
	// Index has one entry per vertex of the graph (GraVF-M keeps the edge
	// index of every vertex on every PE).
	Index []IndexEntry
	// Edges holds the PE's local lists, list after list.
	Edges []EdgeEntry
	// Vertices lists the PE's own vertices by local index.
	Vertices []VertexEntry
	// State holds the initial state of every local vertex, one packed word
	// per vertex (first layout field in the most significant bits).
	State []string
}

// Widths are the bit widths of the memory words, fixed per system so
// that every PE's images have the same shape.
type Widths struct {
	VertexID   int // global ids
	Local      int // local indices
	EdgeAddr   int // positions in a PE's edge memory
	EdgeData   int // edge data bits (0: none)
	State      int // packed vertex state
	MaxLocal   int // the most vertices any PE holds
	MaxEdges   int // the most edges any PE holds
	IndexStart int // an edge-index start: an edge address, or a word address off-chip
	ListLen    int // an edge-index length
	IndexBits  int // one edge-index word
	EdgeBits   int // one edge word
	VertexBit  int // one vertex-info word
	Mask       int // filter mask bits: other FPGAs, at least 1
	MemAddr    int // an off-chip memory word address (0: edges in block RAM)
}

// BuildImages lays out the memories of every PE for a GraVF-M system.
// With filter false every update goes to every FPGA.
func BuildImages(k *kernel.Kernel, g *graph.Graph, p *graph.Partition, filter bool) ([]PEImages, Widths, error) {
	if k.Vertices != g.NumVertices() {
		return nil, Widths{}, fmt.Errorf("kernel bound to %d vertices, graph has %d", k.Vertices, g.NumVertices())
	}
	if err := kernel.EdgeData(k, g); err != nil {
		return nil, Widths{}, err
	}
	layout := graph.NewEdgeLayout(g, p)
	nPE := p.NumPEs()
	c := k.Checked
	w := Widths{VertexID: c.VertexIDBits, Mask: max(p.FPGAs-1, 1)}
	var flt *graph.Filter
	if filter && p.FPGAs > 1 {
		flt = graph.NewFilter(g, p)
	}
	for _, t := range c.VertexT {
		w.State += t.Width
	}
	if len(c.EdgeT) > 0 {
		w.EdgeData = c.EdgeT[0].Width
	}
	ims := make([]PEImages, nPE)
	ctx := k.NewCtx()
	state := make([]uint64, len(c.VertexT))
	for pe := 0; pe < nPE; pe++ {
		im := &ims[pe]
		im.PE = pe
		im.Index = make([]IndexEntry, g.NumVertices())
		for u := 0; u < g.NumVertices(); u++ {
			nbrs, ws := layout.Local(pe, uint32(u))
			im.Index[u] = IndexEntry{Start: uint32(len(im.Edges)), Len: uint32(len(nbrs)), Degree: uint32(g.OutDegree(uint32(u)))}
			for i, v := range nbrs {
				e := EdgeEntry{Global: v, Local: p.Local[v], Data: 1}
				if ws != nil {
					e.Data = uint64(ws[i])
				}
				im.Edges = append(im.Edges, e)
			}
		}
		home := pe / p.PEs
		for _, v := range p.Members[pe] {
			var mask uint64
			j := 0
			for f := 0; f < p.FPGAs; f++ {
				if f == home {
					continue
				}
				if flt == nil || flt.Has(v, f) {
					mask |= 1 << uint(j)
				}
				j++
			}
			im.Vertices = append(im.Vertices, VertexEntry{Global: v, Degree: uint32(g.OutDegree(v)), Mask: mask})
			ctx.ID, ctx.Degree = uint64(v), uint64(g.OutDegree(v))
			k.Init(ctx, state)
			im.State = append(im.State, packHex(state, c.VertexT, w.State))
		}
		w.MaxLocal = max(w.MaxLocal, len(im.Vertices))
		w.MaxEdges = max(w.MaxEdges, len(im.Edges))
	}
	w.Local = kernel.BitsFor(uint64(max(w.MaxLocal, 2) - 1))
	w.EdgeAddr = kernel.BitsFor(uint64(max(w.MaxEdges+1, 2) - 1))
	w.IndexStart, w.ListLen = w.EdgeAddr, w.EdgeAddr
	w.IndexBits = w.IndexStart + w.ListLen + 32
	w.EdgeBits = w.VertexID + w.Local + w.EdgeData
	w.VertexBit = w.Mask + w.VertexID + 32
	return ims, w, nil
}

// packHex packs field values into one word, first field in the most
// significant bits, printed as hex digits for a width-bit word.
func packHex(vals []uint64, ts []kernel.Type, width int) string {
	var x word
	return string(x.appendPacked(nil, vals, ts, width))
}

// hexWord prints v in hex with the digits of a width-bit word.
func hexWord(v uint64, width int) string { return string(appendHexWord(nil, v, width)) }

// WriteIndex writes the edge-index image ($readmemh): start, length and
// degree packed as {start, len, degree}.
func (im *PEImages) WriteIndex(wr io.Writer, w Widths) error {
	l := newLineWriter(wr)
	ts := []kernel.Type{kernel.Uint(w.IndexStart), kernel.Uint(w.ListLen), kernel.Uint(32)}
	var vals [3]uint64
	for _, e := range im.Index {
		vals = [3]uint64{uint64(e.Start), uint64(e.Len), uint64(e.Degree)}
		l.line = l.x.appendPacked(l.line, vals[:], ts, w.IndexBits)
		l.end()
	}
	return l.flush()
}

// WriteEdges writes the edge image: {global id, local index, edge data}.
func (im *PEImages) WriteEdges(wr io.Writer, w Widths) error {
	l := newLineWriter(wr)
	ts := []kernel.Type{kernel.Uint(w.VertexID), kernel.Uint(w.Local)}
	if w.EdgeData > 0 {
		ts = append(ts, kernel.Uint(w.EdgeData))
	}
	var vals [3]uint64
	for _, e := range im.Edges {
		vals = [3]uint64{uint64(e.Global), uint64(e.Local), e.Data}
		l.line = l.x.appendPacked(l.line, vals[:len(ts)], ts, w.EdgeBits)
		l.end()
	}
	if len(im.Edges) == 0 {
		// $readmemh needs at least one word.
		l.line = appendHexWord(l.line, 0, w.EdgeBits)
		l.end()
	}
	return l.flush()
}

// WriteVertices writes the vertex-info image: {mask, global id, degree}.
func (im *PEImages) WriteVertices(wr io.Writer, w Widths) error {
	l := newLineWriter(wr)
	ts := []kernel.Type{kernel.Uint(w.Mask), kernel.Uint(w.VertexID), kernel.Uint(32)}
	var vals [3]uint64
	for _, v := range im.Vertices {
		vals = [3]uint64{v.Mask, uint64(v.Global), uint64(v.Degree)}
		l.line = l.x.appendPacked(l.line, vals[:], ts, w.VertexBit)
		l.end()
	}
	if len(im.Vertices) == 0 {
		l.line = appendHexWord(l.line, 0, w.VertexBit)
		l.end()
	}
	return l.flush()
}

// WriteState writes the initial vertex states, one packed word each.
func (im *PEImages) WriteState(wr io.Writer, w Widths) error {
	l := newLineWriter(wr)
	for _, s := range im.State {
		l.line = append(l.line, s...)
		l.end()
	}
	if len(im.State) == 0 {
		l.line = appendHexWord(l.line, 0, w.State)
		l.end()
	}
	return l.flush()
}
