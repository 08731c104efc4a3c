package arch

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// Extent is how much the PEs of a system hold. It fixes the address widths
// of their memories, the same for every PE, so that every PE's images have
// one shape and one PE module serves them all.
type Extent struct {
	// MaxLocal is the most vertices one PE holds.
	MaxLocal int
	// MaxEdges is the most edges one PE holds.
	MaxEdges int
	// MaxWords is the most words one FPGA's off-chip edge memory holds
	// (off-chip designs).
	MaxWords int
}

// Words are the layouts of a PE's memory words and the address widths
// behind them.
type Words struct {
	// LocalBits is a local index (a vertex's address on its PE).
	LocalBits int
	// EdgeAddrBits is an edge's address in a PE's block RAM, or a list
	// length in edges.
	EdgeAddrBits int
	// MemAddrBits is a word address in an FPGA's off-chip edge memory (0
	// with block-RAM edges).
	MemAddrBits int
	// ListLenBits is the length field of an edge-index entry.
	ListLenBits int
	// Index is the edge-index entry of every vertex of the graph: the start
	// of its local list (an edge address, or the first word's address
	// off-chip), the list's length in edges and its out-degree.
	Index Layout
	// Edge is a block-RAM edge: the neighbour's global id (for the scatter
	// kernel), its local index (the gather address) and the edge data.
	Edge Layout
	// Slot is what an off-chip edge slot holds in its low bits: the
	// neighbour's local index above the edge data.
	Slot Layout
	// MemWord is an off-chip memory word: EdgesPerWord slots of SlotBits,
	// the first edge in the least significant one, each holding Slot in its
	// low bits (see AppendMemWord).
	MemWord Layout
	// VertexInfo is a local vertex's entry for the apply sweep: the filter
	// mask (bit j: the j-th other FPGA in ascending order holds a
	// neighbour), its global id and its out-degree.
	VertexInfo Layout
	// State is a local vertex's state.
	State Layout
	// ID is an off-chip PE's id table entry: a local vertex's global id.
	ID Layout

	memory EdgeMemory
	// memDigits is MemWord's hex digits, which AppendMemWord writes for
	// every word.
	memDigits int
	vid       int
}

// Words returns the layouts of the PEs' memory words for a system of the
// given extent.
func (d *Design) Words(e Extent) Words {
	vid := d.VertexIDBits
	w := Words{LocalBits: kernel.BitsFor(uint64(max(e.MaxLocal, 2) - 1)), EdgeAddrBits: kernel.BitsFor(uint64(max(e.MaxEdges, 1))),
		State: d.State, vid: vid}
	start, length := w.EdgeAddrBits, w.EdgeAddrBits
	if d.Mem == OffChip {
		m := d.EdgeMemory
		w.MemAddrBits = kernel.BitsFor(uint64(max(e.MaxWords, 1) - 1))
		// The length field also holds EdgesPerWord, which the PE compares
		// with it.
		start, length = w.MemAddrBits, max(w.EdgeAddrBits, kernel.BitsFor(uint64(m.EdgesPerWord)))
		w.Slot = Layout{Name: "edge slot", Fields: append([]Field{{"local", w.LocalBits}}, d.EdgeData.Fields...)}
		w.MemWord, w.memory = memWord(m, w.Slot), m
		w.memDigits = w.MemWord.HexDigits()
		w.ID = Layout{Name: "id table entry", Fields: []Field{{"global", vid}}}
	} else {
		w.Edge = Layout{Name: "edge word", Fields: append([]Field{{"neighbor", vid}, {"local", w.LocalBits}}, d.EdgeData.Fields...)}
	}
	w.ListLenBits = length
	w.Index = Layout{Name: "edge-index entry", Fields: []Field{{"start", start}, {"length", length}, {"degree", DegreeBits}}}
	w.VertexInfo = Layout{Name: "vertex-info word", Fields: []Field{{"mask", d.MaskBits()}, {"global", vid}, {"degree", DegreeBits}}}
	return w
}

// TablePort returns the widths of a PE's table port (gravf_pe's LDA_NEED
// and LDW_NEED, with LOAD = 1): the widest table index (the edge index has
// an entry per vertex of the graph, block-RAM edges one per edge, the
// other tables one per local vertex) and the widest table word.
func (w Words) TablePort() (addrBits, dataBits int) {
	addrBits = max(w.vid, w.LocalBits)
	edges := w.ID
	if len(w.Edge.Fields) > 0 { // block RAM
		addrBits, edges = max(addrBits, w.EdgeAddrBits), w.Edge
	}
	return addrBits, max(w.Index.Width(), edges.Width(), w.VertexInfo.Width(), w.State.Width())
}

// CheckSlot reports a slot layout that does not fit the memory's slots.
func (w Words) CheckSlot(m EdgeMemory) error {
	if w.Slot.Width() > m.SlotBits {
		return fmt.Errorf("off-chip layout: a local index (%d bits) and the edge data (%d bits) do not fit a %d-bit edge slot",
			w.LocalBits, w.Slot.Width()-w.LocalBits, m.SlotBits)
	}
	return nil
}

// memWord lays out an off-chip word field by field: the unused top bits,
// then from the last slot down to the first its unused bits and the
// slot's fields, so that no field is wider than a slot's.
func memWord(m EdgeMemory, slot Layout) Layout {
	l := Layout{Name: "edge memory word"}
	add := func(name string, w int) {
		if w > 0 {
			l.Fields = append(l.Fields, Field{name, w})
		}
	}
	add("unused", m.WordBits-m.EdgesPerWord*m.SlotBits)
	for i := m.EdgesPerWord - 1; i >= 0; i-- {
		add(fmt.Sprintf("slot%d_unused", i), m.SlotBits-slot.Width())
		for _, f := range slot.Fields {
			add(fmt.Sprintf("slot%d_%s", i, f.Name), f.Width)
		}
	}
	return l
}

// AppendMemWord appends one off-chip memory word in hex ($readmemh) that
// holds n edges (at most EdgesPerWord): edge(i) gives the i-th edge's
// local index and edge data; slots past the n-th are zero. It packs the
// slots straight into the word's limbs, the first edge in the least
// significant slot, each slot's local index above its edge data (the
// MemWord layout, whose unused fields are zero), and does not allocate
// for words of up to 1024 bits: it runs once per word of an FPGA's edge
// memory.
func (w Words) AppendMemWord(dst []byte, n int, edge func(i int) (local uint32, data uint64)) []byte {
	m := w.memory
	var small [16]uint64
	limbs := small[:]
	if k := (m.WordBits + 63) / 64; k > len(limbs) {
		limbs = make([]uint64, k)
	}
	dataBits := w.Slot.Width() - w.LocalBits
	for i := 0; i < min(n, m.EdgesPerWord); i++ {
		local, data := edge(i)
		at := i * m.SlotBits
		OrBits(limbs, at, data, dataBits)
		OrBits(limbs, at+dataBits, uint64(local), w.LocalBits)
	}
	return appendHexLimbs(dst, limbs, w.memDigits)
}
