package sim

import (
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"

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
	// msgPipe), none when the detector never holds a message.
	keys hazardKeys
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
// targets when filter is set. It reads the graph's lists directly, in two
// passes over the places on every core (count each place's runs, then
// write its runs, keys and targets where the counts put them), so that no
// other copy of the edges (graph.EdgeLayout, 4 bytes per arc and 6 per
// run) or of the filter lives beside it; the result does not depend on
// the number of cores.
func newFastEdges(g *graph.Graph, part *graph.Partition, nF, nP int, hz hazard, filter bool) *fastEdges {
	n := g.NumVertices()
	nPE := len(part.Members)
	e := &fastEdges{nF: nF, first: make([]uint32, nPE+1), runAt: make([]int32, n*(nF+1)), mask: make([]uint64, n), all: uint64(1)<<nF - 1}
	for pe, members := range part.Members {
		e.first[pe+1] = e.first[pe] + uint32(len(members))
	}
	b := &edgeBuild{e: e, g: g, part: part, nP: nP, filter: filter && nF > 1, edgeAt: make([]uint32, n+1)}
	for pe, members := range part.Members {
		for i, u := range members {
			b.edgeAt[int(e.first[pe])+i+1] = uint32(g.OutDegree(u))
		}
	}
	for p := range n {
		b.edgeAt[p+1] += b.edgeAt[p]
	}
	b.bounds = placeChunks(b.edgeAt, min(runtime.GOMAXPROCS(0), g.NumArcs()>>16+1))
	b.parallel(b.count)
	// runAt[p*(nF+1)] holds place p's runs: make it their first.
	runs := int32(0)
	for p := range n {
		c := e.runAt[p*(nF+1)]
		e.runAt[p*(nF+1)] = runs
		runs += c
	}
	e.runs = make([]fxRun, runs)
	if hz.hold > 1 {
		b.keyMask = make([]uint32, nPE)
		largest := uint32(0)
		for pe, members := range part.Members {
			b.keyMask[pe] = math.MaxUint32
			if !hz.exact {
				b.keyMask[pe] = uint32(hz.slots(len(members))) - 1
			}
			largest = max(largest, min(b.keyMask[pe], uint32(max(len(members)-1, 0))))
		}
		e.keys = newHazardKeys(g.NumArcs(), largest)
	}
	b.parallel(b.place)
	return e
}

// edgeBuild is newFastEdges at work: the places of each core (bounds) and
// the first edge of every place in the layout's edge order (edgeAt).
type edgeBuild struct {
	e       *fastEdges
	g       *graph.Graph
	part    *graph.Partition
	nP      int
	filter  bool
	edgeAt  []uint32
	bounds  []int
	keyMask []uint32 // by PE: the bits of the local index the detector keys on
}

// placeChunks splits the places into k chunks of about equal edges:
// chunk i is places [bounds[i], bounds[i+1]).
func placeChunks(edgeAt []uint32, k int) []int {
	n := len(edgeAt) - 1
	bounds := make([]int, k+1)
	bounds[k] = n
	for i := 1; i < k; i++ {
		target := uint32(uint64(edgeAt[n]) * uint64(i) / uint64(k))
		bounds[i] = max(bounds[i-1], sort.Search(n, func(p int) bool { return edgeAt[p] >= target }))
	}
	return bounds
}

// parallel runs work on every chunk of places, each on its own core, with
// a counter per PE that is zero between places.
func (b *edgeBuild) parallel(work func(lo, hi int, cnt []uint32)) {
	var wg sync.WaitGroup
	for k := range len(b.bounds) - 1 {
		wg.Go(func() { work(b.bounds[k], b.bounds[k+1], make([]uint32, len(b.part.Members))) })
	}
	wg.Wait()
}

// vertices calls f with every place from lo to hi and its vertex.
func (b *edgeBuild) vertices(lo, hi int, f func(p int, u uint32, home int)) {
	first, members := b.e.first, b.part.Members
	q := sort.Search(len(members), func(q int) bool { return int(first[q+1]) > lo })
	for p := lo; p < hi; p++ {
		for int(first[q+1]) <= p {
			q++
		}
		f(p, members[q][p-int(first[q])], q/b.nP)
	}
}

// count is the first pass over places [lo, hi): each place's number of
// runs (the distinct PEs of its neighbours) into runAt[p*(nF+1)]. cnt
// marks the PEs seen by place p with p+1, so it needs no reset.
func (b *edgeBuild) count(lo, hi int, cnt []uint32) {
	e, pe := b.e, b.part.PE
	b.vertices(lo, hi, func(p int, u uint32, _ int) {
		runs := int32(0)
		mark := uint32(p + 1)
		for _, v := range b.g.Neighbors(u) {
			if cnt[pe[v]] != mark {
				cnt[pe[v]] = mark
				runs++
			}
		}
		e.runAt[p*(e.nF+1)] = runs
	})
}

// place is the second pass over places [lo, hi): a counting sort of each
// place's neighbours by PE, stable (neighbours keep their order inside a
// PE, as in graph.EdgeLayout), that writes the place's runs, its first
// run on each FPGA, the edges' keys and the FPGAs its update must reach.
func (b *edgeBuild) place(lo, hi int, cnt []uint32) {
	e, part := b.e, b.part
	var used []uint16 // the PEs of the place's runs, ascending
	b.vertices(lo, hi, func(p int, u uint32, home int) {
		nbrs := b.g.Neighbors(u)
		used = used[:0]
		for _, v := range nbrs {
			pe := part.PE[v]
			if cnt[pe] == 0 {
				used = append(used, pe)
			}
			cnt[pe]++
		}
		if len(used)*8 > len(cnt) {
			used = used[:0]
			for pe, c := range cnt {
				if c > 0 {
					used = append(used, uint16(pe))
				}
			}
		} else {
			slices.Sort(used)
		}
		e.mask[p] = e.all &^ (1 << home)
		if b.filter {
			e.mask[p] = 0
		}
		// cnt becomes the next key position of each PE.
		at, row := b.edgeAt[p], p*(e.nF+1)
		r, x := e.runAt[row], 0
		for i, pe := range used {
			fp := int(pe) / b.nP
			for ; x <= fp; x++ {
				e.runAt[row+x] = r + int32(i)
			}
			if b.filter && fp != home {
				e.mask[p] |= 1 << fp
			}
			c := cnt[pe]
			cnt[pe] = at
			at += c
			e.runs[r+int32(i)] = fxRun{end: at, pe: uint32(pe)}
		}
		for ; x <= e.nF; x++ {
			e.runAt[row+x] = r + int32(len(used))
		}
		if e.keys.stored() {
			for _, v := range nbrs {
				pe := part.PE[v]
				e.keys.set(cnt[pe], part.Local[v]&b.keyMask[pe])
				cnt[pe]++
			}
		}
		for _, pe := range used {
			cnt[pe] = 0
		}
	})
}

// place returns the place of local vertex i of PE pe.
func (e *fastEdges) place(pe int, i uint32) uint32 { return e.first[pe] + i }

// span returns the runs of place p on FPGA x's PEs.
func (e *fastEdges) span(p uint32, x int) (lo, hi int32) {
	b := int(p)*(e.nF+1) + x
	return e.runAt[b], e.runAt[b+1]
}

// run returns run i's PE and its edges' range in the layout's edge order
// (keys).
func (e *fastEdges) run(i int32) (pe int, start, end uint32) {
	if i > 0 {
		start = e.runs[i-1].end
	}
	r := e.runs[i]
	return int(r.pe), start, r.end
}

// hazardKeys holds detector keys at the narrowest width that holds the
// largest of them: a byte for the aliased detector's slots (32 for WCC),
// two bytes for the exact detector's local indexes while no PE holds more
// than 65,536 vertices, four above that. With one key per arc they are
// most of fast detail's index, so the width is most of its size. One of
// the slices is set, or none when the detector never holds a message;
// msgPipe.emit picks the set one once per list (emitKeys).
type hazardKeys struct {
	k8  []uint8
	k16 []uint16
	k32 []uint32
}

// hazardKey is the width of a stored detector key.
type hazardKey interface{ uint8 | uint16 | uint32 }

// newHazardKeys returns n keys of the narrowest width that holds largest.
func newHazardKeys(n int, largest uint32) hazardKeys {
	switch {
	case largest <= math.MaxUint8:
		return hazardKeys{k8: make([]uint8, n)}
	case largest <= math.MaxUint16:
		return hazardKeys{k16: make([]uint16, n)}
	}
	return hazardKeys{k32: make([]uint32, n)}
}

// stored reports whether there are keys.
func (k *hazardKeys) stored() bool { return k.k8 != nil || k.k16 != nil || k.k32 != nil }

// set stores key as the key of edge i; it fits the width newHazardKeys
// chose.
func (k *hazardKeys) set(i uint32, key uint32) {
	switch {
	case k.k8 != nil:
		k.k8[i] = uint8(key)
	case k.k16 != nil:
		k.k16[i] = uint16(key)
	default:
		k.k32[i] = key
	}
}
