package gen

import (
	"fmt"
	"io"

	"github.com/gravf-tui/gravf-tui/arch"
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

// BuildImages lays out the memories of every PE of a GraVF-M design and
// returns how much the PEs hold (the extent that fixes the address widths
// of their memories). With filter false every update goes to every FPGA.
func BuildImages(d *arch.Design, k *kernel.Kernel, g *graph.Graph, p *graph.Partition, filter bool) ([]PEImages, arch.Extent, error) {
	var ext arch.Extent
	if k.Vertices != g.NumVertices() {
		return nil, ext, fmt.Errorf("kernel bound to %d vertices, graph has %d", k.Vertices, g.NumVertices())
	}
	if err := kernel.EdgeData(k, g); err != nil {
		return nil, ext, err
	}
	layout := graph.NewEdgeLayout(g, p)
	nPE := p.NumPEs()
	var flt *graph.Filter
	if filter && p.FPGAs > 1 {
		flt = graph.NewFilter(g, p)
	}
	ims := make([]PEImages, nPE)
	ctx := k.NewCtx()
	state := make([]uint64, len(k.Checked.VertexT))
	for pe := 0; pe < nPE; pe++ {
		im := &ims[pe]
		im.PE = pe
		im.Index = make([]IndexEntry, g.NumVertices())
		for u := 0; u < g.NumVertices(); u++ {
			nbrs, ws := layout.Local(pe, uint32(u))
			im.Index[u] = IndexEntry{Start: uint32(len(im.Edges)), Len: uint32(len(nbrs)), Degree: uint32(g.OutDegree(uint32(u)))}
			for i, v := range nbrs {
				e := EdgeEntry{Global: v, Local: p.Local[v], Data: kernel.UnitEdge(k)}
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
			im.State = append(im.State, d.State.Hex(state...))
		}
		ext.MaxLocal = max(ext.MaxLocal, len(im.Vertices))
		ext.MaxEdges = max(ext.MaxEdges, len(im.Edges))
	}
	return ims, ext, nil
}

// writeWords writes a $readmemh image of n words, at least one (an empty
// memory still needs a word to load): word(i, dst) appends word i in hex.
func writeWords(wr io.Writer, l arch.Layout, n int, word func(i int, dst []byte) []byte) error {
	var b []byte
	for i := 0; i < n; i++ {
		b = append(word(i, b), '\n')
	}
	if n == 0 {
		b = append(l.AppendHex(b, make([]uint64, len(l.Fields))...), '\n')
	}
	_, err := wr.Write(b)
	return err
}

// WriteIndex writes the edge-index image: {start, length, degree}.
func (im *PEImages) WriteIndex(wr io.Writer, w arch.Words) error {
	return writeWords(wr, w.Index, len(im.Index), func(i int, dst []byte) []byte {
		e := im.Index[i]
		return w.Index.AppendHex(dst, uint64(e.Start), uint64(e.Len), uint64(e.Degree))
	})
}

// WriteEdges writes the block-RAM edge image: {global id, local index,
// edge data}.
func (im *PEImages) WriteEdges(wr io.Writer, w arch.Words) error {
	n := len(w.Edge.Fields)
	return writeWords(wr, w.Edge, len(im.Edges), func(i int, dst []byte) []byte {
		e := im.Edges[i]
		vals := [3]uint64{uint64(e.Global), uint64(e.Local), e.Data}
		return w.Edge.AppendHex(dst, vals[:n]...)
	})
}

// WriteVertices writes the vertex-info image: {mask, global id, degree}.
func (im *PEImages) WriteVertices(wr io.Writer, w arch.Words) error {
	return writeWords(wr, w.VertexInfo, len(im.Vertices), func(i int, dst []byte) []byte {
		v := im.Vertices[i]
		return w.VertexInfo.AppendHex(dst, v.Mask, uint64(v.Global), uint64(v.Degree))
	})
}

// WriteState writes the initial vertex states, one packed word each.
func (im *PEImages) WriteState(wr io.Writer, w arch.Words) error {
	return writeWords(wr, w.State, len(im.State), func(i int, dst []byte) []byte { return append(dst, im.State[i]...) })
}

// WriteIDs writes the id table of an off-chip PE: the global id of every
// local vertex, by local index, for the scatter unit (edge slots hold local
// indices).
func (im *PEImages) WriteIDs(wr io.Writer, w arch.Words) error {
	return writeWords(wr, w.ID, len(im.Vertices), func(i int, dst []byte) []byte {
		return w.ID.AppendHex(dst, uint64(im.Vertices[i].Global))
	})
}

// writeExpected writes the testbench's expected final states of a PE's
// vertices, padded with zero words to the memory's depth.
func writeExpected(wr io.Writer, w arch.Words, states [][]uint64, depth int) error {
	return writeWords(wr, w.State, max(len(states), depth), func(i int, dst []byte) []byte {
		if i < len(states) {
			return w.State.AppendHex(dst, states[i]...)
		}
		return w.State.AppendHex(dst, make([]uint64, len(w.State.Fields))...)
	})
}
