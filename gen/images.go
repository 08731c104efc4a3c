package gen

import (
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
// The images hold every entry (an edge index has one per vertex of the
// graph on every PE); the export streams them instead (System.WriteFile).
func BuildImages(d *arch.Design, k *kernel.Kernel, g *graph.Graph, p *graph.Partition, filter bool) ([]PEImages, arch.Extent, error) {
	bram := *d
	bram.Mem = arch.BRAM // the edge index's starts count edges; LayOutOffChip makes them words
	t, ext, err := newTables(&bram, k, g, p, filter)
	if err != nil {
		return nil, ext, err
	}
	t.d = d
	return t.images(), ext, nil
}

// images holds every PE's tables, the edge index's starts counting edges.
func (t *tables) images() []PEImages {
	ims := make([]PEImages, t.p.NumPEs())
	for pe := range ims {
		im := &ims[pe]
		im.PE = pe
		im.Index = make([]IndexEntry, 0, t.g.NumVertices())
		t.index(pe, false, func(e IndexEntry) { im.Index = append(im.Index, e) })
		im.Edges = make([]EdgeEntry, 0, t.edges[pe])
		t.edgeList(pe, func(e EdgeEntry) { im.Edges = append(im.Edges, e) })
		t.vertices(pe, func(v VertexEntry, state []uint64) {
			im.Vertices = append(im.Vertices, v)
			im.State = append(im.State, t.d.State.Hex(state...))
		})
	}
	return ims
}

// hold holds every PE's tables and, off-chip, every FPGA's edge memory
// (SystemOptions.Load).
func (t *tables) hold(d *arch.Design) ([]PEImages, []EdgeMemory, error) {
	ims := t.images()
	if d.Mem != arch.OffChip {
		return ims, nil, nil
	}
	mems, _, err := LayOutOffChip(ims, d.PEs, d.EdgeMemory)
	return ims, mems, err
}

// writeImage writes a held image of n words through hexImage.
func writeImage(wr io.Writer, l arch.Layout, n int, word func(i int, dst []byte) []byte) error {
	h := newHexImage(wr, l)
	for i := 0; i < n; i++ {
		h.b = word(i, h.b)
		h.end()
	}
	return h.close()
}

// WriteIndex writes the edge-index image: {start, length, degree}.
func (im *PEImages) WriteIndex(wr io.Writer, w arch.Words) error {
	return writeImage(wr, w.Index, len(im.Index), func(i int, dst []byte) []byte { return indexWord(dst, w, im.Index[i]) })
}

// WriteEdges writes the block-RAM edge image: {global id, local index,
// edge data}.
func (im *PEImages) WriteEdges(wr io.Writer, w arch.Words) error {
	return writeImage(wr, w.Edge, len(im.Edges), func(i int, dst []byte) []byte { return edgeWord(dst, w, im.Edges[i]) })
}

// WriteVertices writes the vertex-info image: {mask, global id, degree}.
func (im *PEImages) WriteVertices(wr io.Writer, w arch.Words) error {
	return writeImage(wr, w.VertexInfo, len(im.Vertices), func(i int, dst []byte) []byte { return vertexWord(dst, w, im.Vertices[i]) })
}

// WriteState writes the initial vertex states, one packed word each.
func (im *PEImages) WriteState(wr io.Writer, w arch.Words) error {
	return writeImage(wr, w.State, len(im.State), func(i int, dst []byte) []byte { return append(dst, im.State[i]...) })
}

// WriteIDs writes the id table of an off-chip PE: the global id of every
// local vertex, by local index, for the scatter unit (edge slots hold local
// indices).
func (im *PEImages) WriteIDs(wr io.Writer, w arch.Words) error {
	return writeImage(wr, w.ID, len(im.Vertices), func(i int, dst []byte) []byte { return idWord(dst, w, im.Vertices[i]) })
}
