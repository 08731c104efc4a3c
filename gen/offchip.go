package gen

import (
	"errors"
	"fmt"
	"io"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/sim"
)

// OffChip describes the off-chip edge memory that the generated PEs read
// their edge lists from, in the simulator's terms (sim.Params), so that the
// RTL and `sim --mem offchip` model the same memory.
type OffChip struct {
	// WordBits is the width of a memory word; SlotBits the width of an edge
	// slot in it (a power of two), so a word holds WordBits/SlotBits edges.
	WordBits, SlotBits int
	// Latency is the cycles from an accepted request to its response, in
	// the testbench's memory model (at least 1).
	Latency int
	// InFlight is the most requests a PE has outstanding.
	InFlight int
	// WordsPerCycle is the FPGA's memory bandwidth in words per cycle,
	// shared by its PEs, in the testbench's memory model.
	WordsPerCycle float64
}

// OffChipFor returns the off-chip edge memory of a board for a bound
// kernel, exactly as the simulator derives it: the board's default edge
// memory, edges in power-of-two slots of at least the kernel's m_edge.
func OffChipFor(b *boards.Board, k *kernel.Kernel) (OffChip, error) {
	p, err := sim.NewParams(b, k, false)
	if err != nil {
		return OffChip{}, err
	}
	return OffChip{WordBits: p.MemWordBits, SlotBits: p.EdgeSlotBits, Latency: max(p.MemLatency, 1),
		InFlight: p.InFlight, WordsPerCycle: p.MemWordsPerCycle}, nil
}

// EdgesPerWord is the number of edge slots in a memory word.
func (m OffChip) EdgesPerWord() int { return max(m.WordBits/m.SlotBits, 1) }

func (m OffChip) check() error {
	switch {
	case m.WordBits <= 0 || m.SlotBits <= 0:
		return fmt.Errorf("off-chip memory: %d-bit words, %d-bit edge slots", m.WordBits, m.SlotBits)
	case m.SlotBits > m.WordBits:
		return fmt.Errorf("off-chip memory: an edge slot of %d bits does not fit the %d-bit memory word", m.SlotBits, m.WordBits)
	case m.InFlight < 1:
		return errors.New("off-chip memory: a PE needs at least one request in flight")
	case m.Latency < 1:
		return errors.New("off-chip memory: the latency must be at least one cycle")
	case !(m.WordsPerCycle > 0):
		return fmt.Errorf("off-chip memory: bandwidth of %g words per cycle", m.WordsPerCycle)
	}
	return nil
}

// EdgeMemory is the off-chip edge memory of one FPGA: the edge lists of
// its PEs, PE after PE and list after list. Every list starts on a new
// word and fills EdgesPerWord slots per word, its first edge in the least
// significant slot; a slot holds the neighbour's local index on the PE
// (its gather address) above the edge data.
type EdgeMemory struct {
	FPGA  int
	Words [][]EdgeEntry
}

// LayOutOffChip places the edge lists of every PE in its FPGA's off-chip
// memory (see EdgeMemory) and rewrites each edge-index entry's Start as the
// address of the list's first word; it sets the index and address widths
// in w. pes is the number of PEs per FPGA. A slot holds a local index
// rather than the global id, so it is no wider than the simulator's m_edge
// (a vertex id and the edge data); the PE maps it back to the global id
// with its id table (WriteIDs).
func LayOutOffChip(ims []PEImages, w *Widths, pes int, m OffChip) ([]EdgeMemory, error) {
	if err := m.check(); err != nil {
		return nil, err
	}
	if pes < 1 || len(ims)%pes != 0 {
		return nil, fmt.Errorf("off-chip layout: %d PEs do not fill FPGAs of %d", len(ims), pes)
	}
	if w.Local+w.EdgeData > m.SlotBits {
		return nil, fmt.Errorf("off-chip layout: a local index (%d bits) and the edge data (%d bits) do not fit a %d-bit edge slot",
			w.Local, w.EdgeData, m.SlotBits)
	}
	epw := m.EdgesPerWord()
	mems := make([]EdgeMemory, len(ims)/pes)
	most := 1
	for f := range mems {
		em := &mems[f]
		em.FPGA = f
		for pe := f * pes; pe < (f+1)*pes; pe++ {
			im := &ims[pe]
			for u := range im.Index {
				e := &im.Index[u]
				if e.Len == 0 {
					e.Start = 0
					continue
				}
				list := im.Edges[e.Start : e.Start+e.Len]
				e.Start = uint32(len(em.Words))
				for i := 0; i < len(list); i += epw {
					em.Words = append(em.Words, list[i:min(i+epw, len(list))])
				}
			}
		}
		most = max(most, len(em.Words))
	}
	w.MemAddr = kernel.BitsFor(uint64(most - 1))
	// The length field also holds EdgesPerWord, which the PE compares with it.
	w.ListLen = max(w.EdgeAddr, kernel.BitsFor(uint64(epw)))
	w.IndexStart = w.MemAddr
	w.IndexBits = w.IndexStart + w.ListLen + 32
	return mems, nil
}

// WriteHex writes the memory image ($readmemh): one word of m.WordBits per
// line, at least one.
func (em *EdgeMemory) WriteHex(wr io.Writer, w Widths, m OffChip) error {
	l := newLineWriter(wr)
	digits := (m.WordBits + 3) / 4
	dataMask := kernel.Uint(w.EdgeData).Mask()
	for _, edges := range em.Words {
		// Room for every slot's value, even one wider than its slot.
		l.x.reset(max(4*digits, len(edges)*m.SlotBits+64))
		for i, e := range edges {
			slot := uint64(e.Local)
			if w.EdgeData > 0 {
				slot = slot<<uint(w.EdgeData) | e.Data&dataMask
			}
			l.x.or(slot, i*m.SlotBits)
		}
		l.line = l.x.appendHex(l.line, digits)
		l.end()
	}
	if len(em.Words) == 0 {
		l.line = appendHexWord(l.line, 0, m.WordBits)
		l.end()
	}
	return l.flush()
}

// WriteIDs writes the id table of an off-chip PE: the global id of every
// local vertex, by local index, for the scatter unit (edge slots hold local
// indices).
func (im *PEImages) WriteIDs(wr io.Writer, w Widths) error {
	l := newLineWriter(wr)
	for _, v := range im.Vertices {
		l.line = appendHexWord(l.line, uint64(v.Global), w.VertexID)
		l.end()
	}
	if len(im.Vertices) == 0 {
		l.line = appendHexWord(l.line, 0, w.VertexID)
		l.end()
	}
	return l.flush()
}
