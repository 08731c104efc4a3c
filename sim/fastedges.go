package sim

import (
	"github.com/gravf-tui/gravf-tui/graph"
)

// fastEdges is the edge layout as fast detail of GraVF-M reads it. A
// crossbar writes the updates of every PE in that PE's local order, and
// each write visits the runs of its vertex on the FPGA's PEs, so a layout
// indexed by vertex id is read at random: a cache miss or more per write,
// which is most of fast detail's time on large graphs. Here every vertex
// is known by its place in PE-major order (the members of PE 0 in local
// order, then those of PE 1, ...), and everything a write reads (the
// FPGAs the update must reach, the runs, the edges' hazard keys) is stored
// in that order: each of the streams a crossbar interleaves is read
// front to back.
type fastEdges struct {
	nF    int
	first []uint32 // first[pe]: the place of the PE's local vertex 0
	// runAt[p*(nF+1)+x] is the first run of place p on FPGA x's PEs (runs
	// are sorted by PE within a place, places in order).
	runAt []int32
	runs  []fxRun
	// keys holds every edge's hazard detector key in run order (see
	// msgPipe), nil when the detector never holds a message.
	keys []uint32
	// mask[p] is the set of other FPGAs the update of place p must reach;
	// all is every FPGA (a barrier marker reaches all but its own).
	mask []uint64
	all  uint64
}

// fxRun is one run of fast detail's layout: the edges of one vertex held
// by PE pe, ending at end in the layout's edge order (a run starts where
// the previous one ends).
type fxRun struct {
	end uint32
	pe  uint32
}

// newFastEdges lays out g's edges for partition part, with detector keys
// when hz can hold a message (the local index of the neighbour for the
// exact detector, its low bits for the aliased one) and the filter's
// targets when filter is set.
func newFastEdges(g *graph.Graph, part *graph.Partition, nF, nP int, hz hazard, filter bool) *fastEdges {
	layout := graph.NewEdgeLayout(g, part)
	var flt *graph.Filter
	if filter && nF > 1 {
		flt = graph.NewFilter(g, part)
	}
	n := g.NumVertices()
	e := &fastEdges{nF: nF, first: make([]uint32, len(part.Members)+1), runAt: make([]int32, 0, n*(nF+1)+1),
		runs: make([]fxRun, 0, layout.NumRuns()), mask: make([]uint64, 0, n), all: uint64(1)<<nF - 1}
	if hz.hold > 1 {
		e.keys = make([]uint32, 0, g.NumArcs())
	}
	var end uint32
	for pe, members := range part.Members {
		e.first[pe+1] = e.first[pe] + uint32(len(members))
		home := pe / nP
		for _, u := range members {
			lo, hi := layout.Runs(u)
			i := lo
			for x := 0; x <= nF; x++ {
				for i < hi {
					if q, _, _ := layout.Run(i); q/nP >= x {
						break
					}
					i++
				}
				e.runAt = append(e.runAt, int32(len(e.runs)+i-lo))
			}
			for i := lo; i < hi; i++ {
				q, nbrs, _ := layout.Run(i)
				end += uint32(len(nbrs))
				e.runs = append(e.runs, fxRun{end: end, pe: uint32(q)})
				if e.keys != nil {
					e.appendKeys(part, hz, q, nbrs)
				}
			}
			e.mask = append(e.mask, targets(flt, u, home, nF, e.all))
		}
	}
	return e
}

// appendKeys adds the detector keys of a run's edges on PE pe.
func (e *fastEdges) appendKeys(part *graph.Partition, hz hazard, pe int, nbrs []uint32) {
	slots := uint32(hz.slots(len(part.Members[pe])))
	for _, w := range nbrs {
		k := part.Local[w]
		if !hz.exact {
			k &= slots - 1
		}
		e.keys = append(e.keys, k)
	}
}

// targets returns the other FPGAs that must receive u's update from FPGA
// home, as a bit set (see machine.needs): every other FPGA, or only those
// the filter says hold a neighbour.
func targets(flt *graph.Filter, u uint32, home, nF int, all uint64) uint64 {
	m := all &^ (1 << home)
	if flt == nil {
		return m
	}
	if nF <= 64 {
		return flt.Row(u)[0] & m
	}
	var r uint64
	for g := 0; g < 64; g++ {
		if g != home && flt.Has(u, g) {
			r |= 1 << g
		}
	}
	return r
}

// place returns the place of local vertex i of PE pe.
func (e *fastEdges) place(pe int, i uint32) uint32 { return e.first[pe] + i }

// span returns the runs of place p on FPGA x's PEs.
func (e *fastEdges) span(p uint32, x int) (lo, hi int32) {
	b := int(p)*(e.nF+1) + x
	return e.runAt[b], e.runAt[b+1]
}

// run returns run i's PE and its edges' range in keys.
func (e *fastEdges) run(i int32) (pe int, start, end uint32) {
	if i > 0 {
		start = e.runs[i-1].end
	}
	r := e.runs[i]
	return int(r.pe), start, r.end
}
