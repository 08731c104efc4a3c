package sim

import (
	"math"

	"github.com/gravf-tui/gravf-tui/model"
)

// memSched is one FPGA's off-chip scatter stages at fast detail when the
// memory binds, resolved in time order. The cycle-level machine serves, in
// every cycle, the PEs that ask for a word in an order that rotates by one
// PE per cycle (PE c mod nP first), as long as the bucket has tokens, and
// a PE asks for its next word only once its previous one is granted; its
// latch stage takes the next update in the cycle the list's last word is
// granted. So which PE a contended cycle serves depends on every PE's
// grants before it, and the grants are committed cycle by cycle, in the
// rotation's order, from the last resolved cycle on.
//
// A PE with a list being requested is busy: the updates and markers the
// crossbar writes for it meanwhile wait in its queue (pend), and the cycle
// it takes each later write, which the crossbar's lockstep reads, is known
// only once its list's last word is granted. unknown counts, for each of
// the last InFIFODepth writes, the PEs whose take is still unresolved
// (takeRing holds the latest of the others'). The PEs that are not busy
// take later writes in closed form (fastPE.takeAt), and settledKey is at
// least the largest of their keys. It may also hold the key a PE had when
// it went busy: a PE's key never decreases, so that key bounds from below
// the cycle the PE takes any later write, which taken adds to the ring
// before the crossbar reads it (settle), and leaving it in changes no
// take; so a list's start costs no search for the largest key left.
//
// What may be resolved is bounded by what the crossbar may still write: an
// item written in cycle a is taken from a+1 on and its first word asked for
// from a+2 on, so before the crossbar's step in cycle t every cycle up to
// t+1 can be resolved (runFPGA does), and a crossbar that waits for a busy
// PE's take of a write cannot write before it (settle resolves forward).
type memSched struct {
	rate       model.MemGrants
	lastGrant  int64 // the last cycle a word was granted
	pes        []memPE
	busy       int     // PEs with a list being requested
	list       []int32 // which, in no order
	marks      int     // barrier markers queued at busy PEs
	settledKey int64
	writeAt    [InFIFODepth]int64 // the cycle of each of the last writes
	unknown    [InFIFODepth]int32
	ring       *[InFIFODepth]int64 // the FPGA's takeRing
	at         int64               // no busy PE asks for a word before this cycle
}

// memPE is one PE of a memSched: its current list (n edges from edge on in
// the layout's order, lo of them requested, the cycle it asks for its
// next word) and its queue of writes waiting behind it.
type memPE struct {
	q     *fastPE
	key   int64 // q.key() while it is not busy
	busy  bool
	at    int32 // its place in the scheduler's list while busy
	n, lo int
	edge  uint32
	ready int64
	pend  []memItem
	ph    int // the head of pend
	marks int // barrier markers in pend
}

// memItem is a write waiting in a busy PE's queue, at position m of the
// crossbar's order: an update whose list here is run of fastEdges, or a
// barrier marker. (Its cycle is the scheduler's writeAt: nothing is
// written InFIFODepth writes later before every PE has taken it.)
type memItem struct {
	m       int64
	run     int32
	barrier bool
	halt    bool
}

// newMemSched returns the scheduler of FPGA x, whose PEs are pes, for r
// words per cycle, or nil when the memory never limits (no figure, or at
// least a word per cycle for every PE, as many as they can ask for).
func newMemSched(r float64, x *fxFPGA, pes []*fastPE) *memSched {
	if r <= 0 || math.IsInf(r, 1) || r >= float64(len(pes)) {
		return nil
	}
	s := &memSched{rate: model.NewMemGrants(r), lastGrant: -1, settledKey: never, ring: &x.takeRing, at: math.MaxInt64}
	s.list = make([]int32, 0, len(pes))
	for _, q := range pes {
		s.pes = append(s.pes, memPE{q: q, key: q.key()})
		s.settledKey = max(s.settledKey, q.key())
	}
	return s
}

// rekey recomputes settledKey over the PEs that are not busy.
func (s *memSched) rekey() {
	s.settledKey = never
	for i := range s.pes {
		if e := &s.pes[i]; !e.busy {
			s.settledKey = max(s.settledKey, e.key)
		}
	}
}

// begin makes PE i busy with a list of n edges (from edge on in the
// layout's order) taken in cycle t.
func (s *memSched) begin(i int, t int64, edge uint32, n int) {
	e := &s.pes[i]
	if !e.busy {
		e.busy, e.at = true, int32(len(s.list))
		s.busy++
		s.list = append(s.list, int32(i))
	}
	e.n, e.lo, e.edge = n, 0, edge
	e.ready = max(t+1, e.q.wordPop[e.q.wordHead])
	s.at = min(s.at, e.ready)
}

// idle makes PE i not busy.
func (s *memSched) idle(i int) {
	e := &s.pes[i]
	e.busy = false
	s.busy--
	last := s.list[len(s.list)-1]
	s.list[e.at] = last
	s.pes[last].at = e.at
	s.list = s.list[:len(s.list)-1]
}

// writeOffchip is fastM.write for an FPGA with a memSched: the PEs that are
// not busy take the item now (a non-empty list makes them busy), the busy
// ones queue it, and the write's take cycle is known once they take it.
func (f *fastM) writeOffchip(x *fxFPGA, s *memSched, it fxItem, t int64) {
	m := x.writes
	slot := m % InFIFODepth
	s.writeAt[slot] = t
	waiting := int32(s.busy)
	take := max(t+1, s.settledKey+m)
	base := x.id * f.nP
	if it.barrier {
		for i := range s.pes {
			e := &s.pes[i]
			if e.busy {
				e.pend = append(e.pend, memItem{m: m, barrier: true, halt: it.halt})
				e.marks++
				s.marks++
				continue
			}
			tb, last := f.fm.takeBarrier(e.q, t, x.lastW, m, it.halt, f.nPE)
			take = max(take, tb)
			e.key = e.q.key()
			f.barrierTaken(x, e.q, last)
		}
		s.rekey()
	} else {
		lo, hi := f.ed.span(it.v, x.id)
		for i := lo; i < hi; i++ {
			pe, start, end := f.ed.run(i)
			e := &s.pes[pe-base]
			if e.busy {
				e.pend = append(e.pend, memItem{m: m, run: i})
				continue
			}
			q := e.q
			tq := q.takeAt(t, m)
			q.lastT, q.lastIdx = tq, m
			s.begin(pe-base, tq, start, int(end-start))
		}
	}
	x.takeRing[slot] = take
	s.unknown[slot] = waiting
	x.writes++
	x.lastW = t
}

// barrierTaken records that PE q of FPGA x has taken a barrier marker, the
// round's last at q when last: q has terminated, or passed the barrier and
// begins its next round.
func (f *fastM) barrierTaken(x *fxFPGA, q *fastPE, last bool) {
	if !last {
		return
	}
	if q.done {
		x.finished++
		return
	}
	x.passed++
	x.passedAt = max(x.passedAt, q.passedAt)
	f.passedBarrier(x, q)
	if x.passed == f.nP {
		x.wake = min(x.wake, x.passedAt)
	}
}

// resolve commits the grants of FPGA x's memory up to cycle h. While no
// more PEs are busy than a cycle grants words, no request ever waits for
// another PE's and each PE's list runs on its own recurrence; otherwise the
// cycles in which some PE asks are visited one by one, and a contended one
// serves the PEs in the rotation's order.
func (f *fastM) resolve(x *fxFPGA, s *memSched, h int64) {
	if s.at > h {
		return // nobody asks by then
	}
	r := s.rate
	for s.busy > r.PerCycle || r.Gap > 1 {
		c, asking := int64(math.MaxInt64), 0
		for _, i := range s.list {
			switch e := &s.pes[i]; {
			case e.ready < c:
				c, asking = e.ready, 1
			case e.ready == c:
				asking++
			}
		}
		if c > h {
			s.at = c
			return
		}
		if open := s.lastGrant + r.Gap; c < open {
			for _, i := range s.list {
				e := &s.pes[i]
				e.ready = max(e.ready, open)
			}
			continue
		}
		n := len(s.pes)
		first := 0
		if asking > r.PerCycle {
			first = int(c % int64(n))
		}
		granted := 0
		for k, j := 0, first; k < n && asking > 0; k, j = k+1, j+1 {
			if j == n {
				j = 0
			}
			e := &s.pes[j]
			if !e.busy || e.ready != c {
				continue
			}
			asking--
			if granted == r.PerCycle {
				e.ready = c + 1 // no token left in this cycle
				continue
			}
			granted++
			f.grantWord(x, s, j, c)
		}
	}
	at := int64(math.MaxInt64)
	for k := 0; k < len(s.list); {
		i := int(s.list[k])
		e := &s.pes[i]
		for e.busy && e.ready <= h {
			f.grantWord(x, s, i, e.ready)
		}
		if e.busy {
			at = min(at, e.ready)
			k++
		} // else the list's last PE has moved into place k
	}
	s.at = at
}

// ahead resolves FPGA x's memory after the crossbar's step in cycle t
// (the window ends before cycle w) as far as nothing new can ask for a
// word, and returns the cycle runFPGA handles next (next, or sooner). The
// crossbar writes nothing before it wakes (or an arrival, or room in a
// send FIFO, wakes it, or the items the other FPGAs send in this window
// arrive), nor before a busy PE's latch takes a barrier marker that lets
// it open the next channel: a marker waits behind the PE's current list,
// whose words are granted one per cycle at best.
func (f *fastM) ahead(x *fxFPGA, s *memSched, t, w, next int64) int64 {
	nw := min(x.wake, w+1)
	if x.arriveAt != math.MaxInt64 {
		nw = min(nw, x.arriveAt+1)
	}
	if x.txBlocked {
		nw = min(nw, t+2)
	}
	if s.at <= nw+1 && s.marks > 0 {
		epw := int64(f.p.EdgesPerWord)
		for _, i := range s.list {
			if e := &s.pes[i]; e.marks > 0 {
				nw = min(nw, e.ready+(int64(e.n-e.lo)+epw-1)/epw-1)
			}
		}
	}
	if s.at <= nw+1 && nw+1 > t+1 {
		f.resolve(x, s, nw+1)
		if x.txItems == 0 {
			next = min(next, max(x.wake, t+1))
		}
	}
	return min(next, max(s.at-1, t+1))
}

// grantWord grants PE i's next word in cycle c; the list's last word
// frees the latch stage, which takes the writes queued behind it.
func (f *fastM) grantWord(x *fxFPGA, s *memSched, i int, c int64) {
	e := &s.pes[i]
	q := e.q
	e.lo = f.fm.word(q, c, e.edge, e.lo, e.n)
	s.lastGrant = c
	if e.lo < e.n {
		e.ready = max(c+1, q.wordPop[q.wordHead])
		return
	}
	q.release = c
	for e.ph < len(e.pend) {
		it := e.pend[e.ph]
		e.ph++
		s.takeUntil(q, it.m-1)
		a := s.writeAt[it.m%InFIFODepth]
		if it.barrier {
			e.marks--
			s.marks--
			// (Off-chip, takeBarrier does not read the write before.)
			tb, last := f.fm.takeBarrier(q, a, never, it.m, it.halt, f.nPE)
			s.taken(it.m, tb)
			f.barrierTaken(x, q, last)
			continue
		}
		t := q.takeAt(a, it.m)
		q.lastT, q.lastIdx = t, it.m
		s.taken(it.m, t)
		_, start, end := f.ed.run(it.run)
		s.begin(i, t, start, int(end-start))
		return
	}
	e.pend, e.ph = e.pend[:0], 0
	s.takeUntil(q, x.writes-1)
	s.idle(i)
	e.key = q.key()
	s.settledKey = max(s.settledKey, e.key)
}

// takeUntil records q's take of the writes after its last item up to
// write k, whose lists are empty on q (the closed form).
func (s *memSched) takeUntil(q *fastPE, k int64) {
	for m := q.lastIdx + 1; m <= k; m++ {
		s.taken(m, q.takeAt(s.writeAt[m%InFIFODepth], m))
	}
}

// taken records a busy PE's take of write m in cycle t.
func (s *memSched) taken(m, t int64) {
	slot := m % InFIFODepth
	s.unknown[slot]--
	s.ring[slot] = max(s.ring[slot], t)
}

// settle resolves FPGA x's memory until every local PE's take of write k
// is known. The crossbar calls it when it waits for that take: it cannot
// write before it, so nothing new asks for a word before then, and the
// cycles up to a bound on it can be resolved (each busy PE that has not
// taken write k still has its list's remaining words to be granted, one
// per cycle at best, before it does).
func (f *fastM) settle(x *fxFPGA, s *memSched, k int64) {
	slot := k % InFIFODepth
	epw := int64(f.p.EdgesPerWord)
	for s.unknown[slot] > 0 {
		bound := int64(math.MinInt64)
		for _, i := range s.list {
			if e := &s.pes[i]; e.q.lastIdx < k {
				words := (int64(e.n-e.lo) + epw - 1) / epw
				bound = max(bound, e.ready+words-1)
			}
		}
		if bound == math.MinInt64 {
			return // no PE can still be holding it (not reached)
		}
		f.resolve(x, s, bound+1)
	}
}
