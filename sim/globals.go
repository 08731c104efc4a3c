package sim

import (
	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// globals simulates a kernel's globals as the generated PE computes them
// (gravf_pe's globals unit): each PE combines its vertices' contributions in
// local order over lanes interleaved by sweep index (as many as the
// combine unit's latency), folds the lanes in order into a partial that
// travels in its barrier marker, and every PE folds the partials in PE
// order, starting from the identity, once it has counted all markers of
// the superstep. The values are those the hardware computes; the times
// are the hardware's too (the fold of the lanes delays the marker, the
// fold of the partials delays the next apply sweep).
type globals struct {
	k     *kernel.Kernel
	lanes int // the combine unit's latency
	ident []uint64
	// lane[pe][l] accumulates lane l of a PE's current sweep.
	lane [][][]uint64
	// partial[round%2][pe] is a PE's partial of a superstep.
	partial [2][][]uint64
	// value[round%3] is what apply reads in a superstep; valid[round%3]
	// says for which round it was computed.
	value [3][]uint64
	valid [3]int64
}

func newGlobals(k *kernel.Kernel, nPE int) *globals {
	if len(k.Spec.Global) == 0 {
		return nil
	}
	g := &globals{k: k, lanes: arch.ReduceLatency(k), ident: k.GlobalIdentity()}
	g.lane = make([][][]uint64, nPE)
	for p := range g.lane {
		g.lane[p] = make([][]uint64, g.lanes)
		for l := range g.lane[p] {
			g.lane[p][l] = append([]uint64(nil), g.ident...)
		}
	}
	for r := range g.partial {
		g.partial[r] = make([][]uint64, nPE)
		for p := range g.partial[r] {
			g.partial[r][p] = append([]uint64(nil), g.ident...)
		}
	}
	for i := range g.value {
		g.value[i] = append([]uint64(nil), g.ident...)
		g.valid[i] = -1
	}
	g.valid[0] = 0 // superstep 0 reads the identity
	return g
}

// read returns what apply reads in round, folding the last round's
// partials in PE order the first time a PE asks.
func (g *globals) read(round uint32) []uint64 {
	i := round % 3
	if g.valid[i] != int64(round) {
		v := g.value[i]
		copy(v, g.ident)
		for _, p := range g.partial[(round+1)%2] { // round-1's parity
			g.k.Reduce(v, p)
		}
		g.valid[i] = int64(round)
	}
	return g.value[i]
}

// contribute adds the contribution of the idx-th vertex of a PE's sweep.
func (g *globals) contribute(pe, idx int, contrib []uint64) {
	g.k.Reduce(g.lane[pe][idx%g.lanes], contrib)
}

// finish folds a PE's lanes into its partial of round and resets them.
func (g *globals) finish(pe int, round uint32) {
	p := g.partial[round%2][pe]
	copy(p, g.lane[pe][0])
	for l := 1; l < g.lanes; l++ {
		g.k.Reduce(p, g.lane[pe][l])
	}
	for l := range g.lane[pe] {
		copy(g.lane[pe][l], g.ident)
	}
}

// markerDelay is the cycles by which the fold of the lanes holds a PE's
// barrier marker: the last contribution's trip through the combine unit,
// then one pair per lane after the first, each taking the unit's latency
// and a cycle to be taken.
func (g *globals) markerDelay() int64 {
	return int64(g.lanes + 1 + (g.lanes-1)*(g.lanes+1) + 1)
}

// foldDelay is the cycles from counting a superstep's last marker to the
// global value: one pair per PE through the combine unit.
func (g *globals) foldDelay(nPE int) int64 {
	return int64(1 + nPE*(g.lanes+1) + 1)
}
