package model

import (
	"context"
	"math/bits"
	"runtime"
	"slices"
	"sync"

	"github.com/gravf-tui/gravf-tui/graph"
)

// peLists holds every vertex's adjacency list split by the PE that holds
// each neighbour, as the lockstep recursion hands the pieces to the PEs:
// the runs of a vertex in ascending PE order (so the runs of one FPGA's
// PEs are contiguous), each with its edge count and, when the hazard
// detector needs them, the neighbours' local indices in adjacency order.
// Every superstep walks the lists of its senders once per FPGA that
// takes them; splitting them once per partition turns that work from a
// lookup of the owner of every arc into a read of a few runs.
//
// The lists are stored in sweep order (by FPGA, then local index, then
// PE: the order in which the apply sweeps queue the updates, see
// readyOrder), so that a crossbar reads them front to back rather than
// all over memory; rank maps a vertex to its place in that order.
type peLists struct {
	nF   int
	rank []uint32
	// The runs are kept in the pieces the workers split, listChunk ranks
	// each, rather than copied into one array, which held both at once
	// (52 MB of runs on rmat:scale=20 at 4 x 9): the runs, on FPGA f's
	// PEs, of the vertex of rank p are chunks[c][bound[i]:bound[i+1]]
	// with c = p / listChunk and i = p*nF + f + c (every chunk's bounds
	// end with its number of runs).
	bound  []uint32
	chunks [][]peRun
	// loc holds the local index of every neighbour (the exact detector)
	// or slot its detector slot (the aliased one), list after list in
	// sweep order, grouped by run, and aoff[p] the position there of the
	// first arc of the vertex of rank p; nil when the detector does not
	// need them. Where a vertex's arcs on one FPGA start is the end of its
	// run before them (from), not a table per vertex and FPGA (16 MB on
	// rmat:scale=20 at 4 FPGAs).
	loc   []uint32
	loc16 []uint16 // loc where no PE holds more than 65,536 vertices
	slot  []uint8
	aoff  []uint32
	// bufs holds the arrays above, for release.
	bufs *listBuffers
}

// listBuffers are the large arrays of a peLists. Every element is
// written before it is read, so the profiles of one evaluation, computed
// one after the other, can hand them on (WithListReuse): a fresh array of
// tens of megabytes costs the first touch of each of its pages (on
// rmat:scale=20 at 4 x 9, 2 bytes per arc for the keys alone, about 0.1 s
// of page faults a profile).
type listBuffers struct {
	rank, bound, aoff, loc []uint32
	loc16                  []uint16
	slot                   []uint8
}

// listReuse holds the buffers of the lists of the last profile computed
// under a context of WithListReuse.
type listReuse struct {
	mu    sync.Mutex
	spare *listBuffers
}

type listReuseKey struct{}

// WithListReuse returns a context under which the profiles computed one
// after the other reuse the memory of their lists: an evaluation that
// predicts several design points (the optimiser's and the
// recommendations') wraps its context with it, and the memory is freed
// with the context's last user.
func WithListReuse(ctx context.Context) context.Context {
	return context.WithValue(ctx, listReuseKey{}, &listReuse{})
}

// takeListBuffers returns the spare buffers of ctx's reuse, if any.
func takeListBuffers(ctx context.Context) *listBuffers {
	r, _ := ctx.Value(listReuseKey{}).(*listReuse)
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.spare
	r.spare = nil
	return b
}

// release hands the lists' buffers to ctx's reuse, if any; pl must not
// be used after it.
func (pl *peLists) release(ctx context.Context) {
	r, _ := ctx.Value(listReuseKey{}).(*listReuse)
	if r == nil || pl == nil {
		return
	}
	r.mu.Lock()
	r.spare = pl.bufs
	r.mu.Unlock()
	*pl = peLists{}
}

// peRun is the part of a vertex's list that one PE holds: its arcs from
// the end of the vertex's run before it (or from 0) to end.
type peRun struct {
	pe  uint16
	end uint32
}

// listChunk is how many vertices one worker splits at a time.
const listChunk = 1 << 14

// newPELists splits g's lists by part's owners for hazard detector h, on
// every core, in b's arrays (nil: new ones); the result does not depend
// on how the work was divided.
func newPELists(g *graph.Graph, part *graph.Partition, h Hazard, b *listBuffers) *peLists {
	nV, nF := g.NumVertices(), part.FPGAs
	order := sweepOrder(part)
	chunks := (nV + listChunk - 1) / listChunk
	if b == nil {
		b = &listBuffers{}
	}
	pl := &peLists{nF: nF, rank: grow(&b.rank, nV), bound: grow(&b.bound, nV*nF+chunks), chunks: make([][]peRun, chunks), bufs: b}
	withLocal := h.Hold > 1
	switch {
	case withLocal && h.Slots > 0:
		pl.slot = grow(&b.slot, g.NumArcs())
	case withLocal && fullestPE(part) <= 1<<16:
		pl.loc16 = grow(&b.loc16, g.NumArcs())
	case withLocal:
		pl.loc = grow(&b.loc, g.NumArcs())
	}
	dest := destinations(part, h)
	if withLocal {
		pl.aoff = grow(&b.aoff, nV)
	}
	var arcs uint32
	for p, u := range order {
		pl.rank[u] = uint32(p)
		if pl.aoff != nil {
			pl.aoff[p] = arcs
			arcs += g.Offsets[u+1] - g.Offsets[u]
		}
	}
	inPieces(runtime.GOMAXPROCS(0), chunks, func(take func() (int, bool)) {
		s := newListSplitter(part.NumPEs())
		for c, ok := take(); ok; c, ok = take() {
			lo, hi := c*listChunk, min((c+1)*listChunk, nV)
			pl.chunks[c] = s.split(g, part, pl, order[lo:hi], lo, c, dest)
			pl.bound[hi*nF+c] = uint32(len(pl.chunks[c]))
		}
	})
	return pl
}

// fullestPE returns the number of vertices of part's fullest PE.
func fullestPE(part *graph.Partition) int {
	most := 0
	for _, m := range part.Members {
		most = max(most, len(m))
	}
	return most
}

// sweepOrder lists the vertices in the order the apply sweeps queue them:
// FPGA by FPGA, by local index, PEs of the same index in PE order.
func sweepOrder(part *graph.Partition) []uint32 {
	var order []uint32
	for f := range part.FPGAs {
		most := 0
		for l := range part.PEs {
			most = max(most, len(part.Members[f*part.PEs+l]))
		}
		for i := range most {
			for l := range part.PEs {
				if m := part.Members[f*part.PEs+l]; i < len(m) {
					order = append(order, m[i])
				}
			}
		}
	}
	return order
}

// destTable holds, for every vertex, what an arc into it needs: its PE
// above bit shift and, for the hazard detector, its local index or its
// detector slot below; one read per arc instead of one per table, from a
// table of two bytes per vertex where the PE and the slot fit (the
// lookups miss the cache on large graphs).
type destTable struct {
	narrow []uint16
	mid    []uint32 // PE and key in 16 bits each
	wide   []uint64
	shift  uint
}

func destinations(part *graph.Partition, h Hazard) destTable {
	switch {
	case h.Hold <= 1:
		return destTable{narrow: part.PE}
	case h.Slots > 0:
		masks := make([]uint16, part.NumPEs())
		for q, m := range part.Members {
			masks[q] = uint16(h.slotsFor(len(m)) - 1)
		}
		if part.NumPEs() <= 1<<8 && h.Slots <= 1<<8 {
			t := destTable{narrow: make([]uint16, len(part.PE)), shift: 8}
			for v, q := range part.PE {
				t.narrow[v] = q<<8 | uint16(part.Local[v])&masks[q]
			}
			return t
		}
		t := destTable{mid: make([]uint32, len(part.PE)), shift: 16}
		for v, q := range part.PE {
			t.mid[v] = uint32(q)<<16 | uint32(uint16(part.Local[v])&masks[q])
		}
		return t
	}
	if fullestPE(part) <= 1<<16 {
		// Half the table of the wide form: on rmat:scale=20 at 4 x 9 the
		// lookups read 4 MiB instead of 8.
		t := destTable{mid: make([]uint32, len(part.PE)), shift: 16}
		for v, q := range part.PE {
			t.mid[v] = uint32(q)<<16 | uint32(uint16(part.Local[v]))
		}
		return t
	}
	t := destTable{wide: make([]uint64, len(part.PE)), shift: 32}
	for v, q := range part.PE {
		t.wide[v] = uint64(q)<<32 | uint64(part.Local[v])
	}
	return t
}

// gatherDest sets s.dest to the destinations of the arcs into nbrs,
// counts them per PE and marks the PEs seen (see hits). The reads of the
// table come first, in a loop of their own: they miss the cache on large
// graphs, and with no branch between them the core keeps more of them in
// flight: on rmat:scale=20 at 4 x 9 the lists take about half the CPU
// time they took (1.0 to 1.2 s per profile against 1.6 to 2.3 s, at load
// 10), on scale 18 a fifth less (BenchmarkPELists). The count has no
// branch either: a PE's first arc was one the predictor missed.
func gatherDest[T uint16 | uint32 | uint64](s *listSplitter, nbrs []uint32, dest []T, shift uint) {
	ds := grow(&s.dest, len(nbrs))
	for i, v := range nbrs {
		ds[i] = uint64(dest[v])
	}
	for _, d := range ds {
		q := uint16(d >> shift)
		s.cnt[q]++
		s.seen[q>>6] |= 1 << (q & 63)
		s.seenWords[q>>12] |= 1 << (q >> 6 & 63)
	}
}

// hits returns the PEs gatherDest marked, in ascending order, and clears
// the marks: a set of bits, a word of them per 64 PEs and a bit per word
// above them, read in order, where a list of the PEs seen had to be
// sorted.
func (s *listSplitter) hits() []uint16 {
	hit := s.hit[:0]
	for i, above := range s.seenWords {
		for ; above != 0; above &= above - 1 {
			wi := i*64 + bits.TrailingZeros64(above)
			for word := s.seen[wi]; word != 0; word &= word - 1 {
				hit = append(hit, uint16(wi*64+bits.TrailingZeros64(word)))
			}
			s.seen[wi] = 0
		}
		s.seenWords[i] = 0
	}
	s.hit = hit
	return hit
}

// listSplitter is one worker's scratch space.
type listSplitter struct {
	cnt   []uint32 // per PE: the current vertex's edges there
	start []uint32
	// seen holds a bit per PE that the current vertex's arcs reach,
	// seenWords one per word of seen that has one.
	seen, seenWords []uint64
	hit             []uint16
	dest            []uint64 // the current vertex's arcs' destinations
	runs            []peRun  // the current chunk's runs
}

func newListSplitter(nPE int) *listSplitter {
	words := (nPE + 63) / 64
	return &listSplitter{cnt: make([]uint32, nPE), start: make([]uint32, nPE),
		seen: make([]uint64, words), seenWords: make([]uint64, (words+63)/64)}
}

// split returns the runs of the vertices of ranks lo on (us), chunk c,
// and sets their bounds (from the chunk's start) and, with pl.aoff, their
// loc (or slot) from dest (see destinations).
func (s *listSplitter) split(g *graph.Graph, part *graph.Partition, pl *peLists, us []uint32, lo, c int, dest destTable) []peRun {
	nF, nP := part.FPGAs, part.PEs
	runs := s.runs[:0]
	for i, u := range us {
		p := lo + i
		switch {
		case dest.narrow != nil:
			gatherDest(s, g.Neighbors(u), dest.narrow, dest.shift)
		case dest.mid != nil:
			gatherDest(s, g.Neighbors(u), dest.mid, dest.shift)
		default:
			gatherDest(s, g.Neighbors(u), dest.wide, dest.shift)
		}
		var off, end uint32
		if pl.aoff != nil {
			off = pl.aoff[p]
		}
		f := 0
		for _, q := range s.hits() {
			for ; f <= int(q)/nP; f++ {
				pl.bound[p*nF+f+c] = uint32(len(runs))
			}
			end += s.cnt[q]
			runs = append(runs, peRun{pe: q, end: end})
			s.start[q] = off
			off += s.cnt[q]
			s.cnt[q] = 0
		}
		for ; f < nF; f++ {
			pl.bound[p*nF+f+c] = uint32(len(runs))
		}
		switch {
		case pl.aoff == nil:
		case pl.slot != nil:
			placeKeys(s, pl.slot, dest.shift)
		case pl.loc16 != nil:
			placeKeys(s, pl.loc16, dest.shift)
		default:
			placeKeys(s, pl.loc, dest.shift)
		}
	}
	// The scratch grows to the largest chunk once; the piece is copied
	// at its size.
	s.runs = runs
	return slices.Clone(runs)
}

// placeKeys writes the detector key of every arc of the current vertex
// (the low bits of its destination in s.dest: the slot or the local index,
// at the width of keys) where its PE's run puts it.
func placeKeys[K uint8 | uint16 | uint32](s *listSplitter, keys []K, shift uint) {
	for _, d := range s.dest {
		q := uint16(d >> shift)
		keys[s.start[q]] = K(d)
		s.start[q]++
	}
}

// on returns the runs, on FPGA f's PEs, of the vertex of rank p.
func (pl *peLists) on(p uint32, f int) []peRun {
	c := int(p / listChunk)
	i := int(p)*pl.nF + f + c
	return pl.chunks[c][pl.bound[i]:pl.bound[i+1]]
}

// from returns where those runs start in the vertex's list: the end of
// its run on the FPGAs before f, if any.
func (pl *peLists) from(p uint32, f int) uint32 {
	c := int(p / listChunk)
	i := int(p)*pl.nF + f + c
	if lo := pl.bound[i]; lo > pl.bound[i-f] {
		return pl.chunks[c][lo-1].end
	}
	return 0
}

// listAt returns where the list of the vertex of rank p starts in loc or
// slot (0 when the detector does not need them).
func (pl *peLists) listAt(p uint32) uint32 {
	if pl.aoff == nil {
		return 0
	}
	return pl.aoff[p]
}
