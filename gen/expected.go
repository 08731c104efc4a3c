package gen

import (
	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// packedStates holds the reference run's final states at their fields'
// widths, vertex after vertex in a bit stream, for the expected-state
// images: the run's result holds every field in 64 bits (4 MiB for WCC on
// R-MAT scale 18, whose 19 bits of state take 0.6 MiB here), and the
// export holds them beside the graph while its first group of files is
// written. The images mask every field to its width, so the bits kept are
// all they read.
type packedStates struct {
	widths []int
	bits   int // per vertex
	words  []uint64
}

// packStates packs r's final states by the fields of l (the state word,
// whose fields are r's, in order).
func packStates(r *kernel.Result, l arch.Layout) *packedStates {
	p := &packedStates{}
	for _, f := range l.Fields {
		p.widths = append(p.widths, f.Width)
		p.bits += f.Width
	}
	n := len(r.States) / max(r.Fields, 1)
	p.words = make([]uint64, (n*p.bits+63)/64+1)
	at := 0
	for v := range n {
		for i, w := range p.widths {
			arch.OrBits(p.words, at, r.States[v*r.Fields+i], w)
			at += w
		}
	}
	return p
}

// state returns vertex v's fields in dst (one per field of the layout).
func (p *packedStates) state(v uint32, dst []uint64) []uint64 {
	at := int(v) * p.bits
	for i, w := range p.widths {
		dst[i] = arch.ReadBits(p.words, at, w)
		at += w
	}
	return dst
}
