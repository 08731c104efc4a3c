package sim

import "math"

// memRate is one FPGA's off-chip memory bandwidth as the cycle-level
// machine meters it: a token bucket refilled by r = MemWordsPerCycle every
// cycle up to max(r, 1) tokens, every word request taking one. With r >= 1
// the bucket is full again after every refill, so each cycle grants
// perCycle = floor(r) requests and no more; with r < 1 a grant empties it
// (it holds exactly one token then), and the next is possible gap refills
// later. Both counts come from the machine's own floating-point steps.
type memRate struct {
	perCycle int   // grants per cycle
	gap      int64 // cycles from one grant to the next possible (1 when r >= 1)
}

func newMemRate(r float64) memRate {
	if r >= 1 {
		n := 0
		for tok := r; tok >= 1; tok-- {
			n++
		}
		return memRate{perCycle: n, gap: 1}
	}
	k := int64(0)
	for tok := 0.0; tok < 1; k++ {
		tok = min(tok+r, 1)
	}
	return memRate{perCycle: 1, gap: k}
}

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
// take later writes in closed form (fastPE.takeAt), and settledKey is the
// largest of their keys.
//
// What may be resolved is bounded by what the crossbar may still write: an
// item written in cycle a is taken from a+1 on and its first word asked for
// from a+2 on, so before the crossbar's step in cycle t every cycle up to
// t+1 can be resolved (runFPGA does), and a crossbar that waits for a busy
// PE's take of a write cannot write before it (settle resolves forward).
type memSched struct {
	rate       memRate
	lastGrant  int64 // the last cycle a word was granted
	pes        []memPE
	busy       int // PEs with a list being requested
	settledKey int64
	writeAt    [InFIFODepth]int64 // the cycle of each of the last writes
	unknown    [InFIFODepth]int32
	ring       *[InFIFODepth]int64 // the FPGA's takeRing
}

// memPE is one PE of a memSched: its current list (n edges, lo of them
// requested, its hazard keys, the cycle it asks for its next word) and its
// queue of writes waiting behind it.
type memPE struct {
	q     *fastPE
	busy  bool
	n, lo int
	keys  []uint32
	ready int64
	pend  []memItem
	ph    int // the head of pend
}

// memItem is a write waiting in a busy PE's queue: an update with a list
// of n edges here (keys: their hazard keys) or a barrier marker, at
// position m of the crossbar's order, written in cycle a (aPrev: the write
// before).
type memItem struct {
	m, a, aPrev int64
	n           int
	keys        []uint32
	barrier     bool
	halt        bool
}

// newMemSched returns the scheduler of FPGA x, whose PEs are pes, for r
// words per cycle, or nil when the memory never limits (no figure, or at
// least a word per cycle for every PE, as many as they can ask for).
func newMemSched(r float64, x *fxFPGA, pes []*fastPE) *memSched {
	if r <= 0 || math.IsInf(r, 1) || r >= float64(len(pes)) {
		return nil
	}
	s := &memSched{rate: newMemRate(r), lastGrant: -1, settledKey: never, ring: &x.takeRing}
	for _, q := range pes {
		s.pes = append(s.pes, memPE{q: q})
		s.settledKey = max(s.settledKey, q.key())
	}
	return s
}

// next returns the first cycle a busy PE asks for a word (MaxInt64: none).
func (s *memSched) next() int64 {
	c := int64(math.MaxInt64)
	if s.busy == 0 {
		return c
	}
	for i := range s.pes {
		if e := &s.pes[i]; e.busy {
			c = min(c, e.ready)
		}
	}
	return c
}

// rekey recomputes settledKey over the PEs that are not busy.
func (s *memSched) rekey() {
	s.settledKey = never
	for i := range s.pes {
		if e := &s.pes[i]; !e.busy {
			s.settledKey = max(s.settledKey, e.q.key())
		}
	}
}

// begin makes e busy with a list of n edges taken in cycle t.
func (s *memSched) begin(e *memPE, t int64, n int, keys []uint32) {
	if !e.busy {
		e.busy = true
		s.busy++
	}
	e.n, e.lo, e.keys = n, 0, keys
	e.ready = max(t+1, e.q.wordPop[e.q.wordHead])
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
				e.pend = append(e.pend, memItem{m: m, a: t, aPrev: x.lastW, barrier: true, halt: it.halt})
				continue
			}
			tb, last := f.fm.takeBarrier(e.q, t, x.lastW, m, it.halt, f.nPE)
			take = max(take, tb)
			f.barrierTaken(x, e.q, last)
		}
		s.rekey()
	} else {
		lo, hi := f.ed.span(it.v, x.id)
		began := false
		for i := lo; i < hi; i++ {
			pe, start, end := f.ed.run(i)
			var keys []uint32
			if f.ed.keys != nil {
				keys = f.ed.keys[start:end]
			}
			e := &s.pes[pe-base]
			if e.busy {
				e.pend = append(e.pend, memItem{m: m, a: t, n: int(end - start), keys: keys})
				continue
			}
			q := e.q
			tq := q.takeAt(t, m)
			q.lastT, q.lastIdx = tq, m
			s.begin(e, tq, int(end-start), keys)
			began = true
		}
		if began {
			s.rekey()
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
	r := s.rate
	for s.busy > 0 {
		if s.busy <= r.perCycle && r.gap == 1 {
			for i := range s.pes {
				for e := &s.pes[i]; e.busy && e.ready <= h; {
					f.grantWord(x, s, e, e.ready)
				}
			}
			return
		}
		c := s.next()
		if c > h {
			return
		}
		if open := s.lastGrant + r.gap; c < open {
			for i := range s.pes {
				if e := &s.pes[i]; e.busy {
					e.ready = max(e.ready, open)
				}
			}
			continue
		}
		asking := 0
		for i := range s.pes {
			if e := &s.pes[i]; e.busy && e.ready == c {
				asking++
			}
		}
		n := len(s.pes)
		first := 0
		if asking > r.perCycle {
			first = int(c % int64(n))
		}
		granted := 0
		for i, j := 0, first; i < n; i, j = i+1, j+1 {
			if j == n {
				j = 0
			}
			e := &s.pes[j]
			if !e.busy || e.ready != c {
				continue
			}
			if granted == r.perCycle {
				e.ready = c + 1 // no token left in this cycle
				continue
			}
			granted++
			f.grantWord(x, s, e, c)
		}
	}
}

// grantWord grants e's next word in cycle c; the list's last word frees
// the latch stage, which takes the writes queued behind it.
func (f *fastM) grantWord(x *fxFPGA, s *memSched, e *memPE, c int64) {
	q := e.q
	e.lo = f.fm.word(q, c, e.lo, e.n, e.keys)
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
		if it.barrier {
			tb, last := f.fm.takeBarrier(q, it.a, it.aPrev, it.m, it.halt, f.nPE)
			s.taken(it.m, tb)
			f.barrierTaken(x, q, last)
			continue
		}
		t := q.takeAt(it.a, it.m)
		q.lastT, q.lastIdx = t, it.m
		s.taken(it.m, t)
		s.begin(e, t, it.n, it.keys)
		return
	}
	e.pend, e.ph = e.pend[:0], 0
	s.takeUntil(q, x.writes-1)
	e.busy = false
	s.busy--
	s.settledKey = max(s.settledKey, q.key())
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
		for i := range s.pes {
			if e := &s.pes[i]; e.busy && e.q.lastIdx < k {
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
