package gen

import (
	"fmt"
	"io"

	"github.com/gravf-tui/gravf-tui/arch"
)

// EdgeMemory is the off-chip edge memory of one FPGA: the edge lists of
// its PEs, PE after PE and list after list. Every list starts on a new
// word and fills EdgesPerWord slots per word, its first edge in the least
// significant slot; a slot holds the neighbour's local index on the PE
// (its gather address) above the edge data (arch.Words.MemWord).
type EdgeMemory struct {
	FPGA  int
	Words [][]EdgeEntry
}

// LayOutOffChip places the edge lists of every PE in its FPGA's off-chip
// memory (see EdgeMemory), rewrites each edge-index entry's Start as the
// address of the list's first word, and returns the memories and the most
// words one of them holds. pes is the number of PEs per FPGA. A slot
// holds a local index rather than the global id, so it is no wider than
// the design's m_edge (a vertex id and the edge data); the PE maps it back
// to the global id with its id table (WriteIDs).
func LayOutOffChip(ims []PEImages, pes int, m arch.EdgeMemory) ([]EdgeMemory, int, error) {
	if err := m.Check(); err != nil {
		return nil, 0, err
	}
	if pes < 1 || len(ims)%pes != 0 {
		return nil, 0, fmt.Errorf("off-chip layout: %d PEs do not fill FPGAs of %d", len(ims), pes)
	}
	epw := m.EdgesPerWord
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
	return mems, most, nil
}

// WriteHex writes the memory image ($readmemh): one word per line, at
// least one.
func (em *EdgeMemory) WriteHex(wr io.Writer, w arch.Words) error {
	return writeImage(wr, w.MemWord, len(em.Words), func(i int, dst []byte) []byte { return memWord(dst, w, em.Words[i]) })
}
