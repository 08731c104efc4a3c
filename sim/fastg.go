package sim

import (
	"context"
	"fmt"
	"math"
	"math/bits"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// fastG is the GraVF baseline at fast detail. In GraVF a PE walks the
// full lists of its own updates and every edge becomes a message through
// a crossbar with virtual output queues; a walker stalls as soon as the
// queue of its next message's port is full, so the ports' arbitration and
// the walkers are coupled message by message and are stepped cycle by
// cycle with the rules of baseline.go (walkers and ports with nothing to
// do are skipped, and so are cycles in which nothing can move). What is
// not stepped is the gather side: a message written into a PE's input
// FIFO in cycle c is gathered at the first cycle from c+1 that the
// gather unit is free and the hazard detector lets it through (msgPipe),
// and the apply sweep is a closed form, as in fast detail of GraVF-M.
type fastG struct {
	s      *Setup
	p      Params
	g      *graph.Graph
	part   *graph.Partition
	nF, nP int
	nPE    int
	hz     hazard

	pes   []*gPE
	fpgas []*gFPGA
	links []*link
	lfp   []*fpga // the links' view of the FPGAs (stepLinks)

	fastRounds
	now int64
	ctx context.Context
}

// gPE is one PE of the baseline at fast detail.
type gPE struct {
	id, fpga int
	members  int
	queue    fxQueue      // its own updates of the round it last applied, then its barrier marker
	voq      []ring[item] // scatter output, one FIFO per crossbar port
	queued   int

	// scatter (as bpe)
	walking         bool
	wItem           item
	wNbrs, wWeights []uint32
	wPos            int
	lkValid         bool
	lkItem          item
	reqActive       bool
	reqItem         item
	reqPos          int
	outstanding     ring[resp]
	inflight        int
	unpacking       bool
	unpack          resp
	unpackPos       int
	words           int64
	barrierTo       int
	barrierRound    uint32
	barrierHalt     bool

	// gather, computed when the crossbar writes an item (vis 1, FIFO of
	// InFIFODepth)
	msgPipe
	bcSeen   int
	bcHalt   bool
	bcDone   int64 // the last round whose markers gather has all counted (-1: none)
	bcDoneAt int64 // the cycle it counted the last of them
	round    int
	applyAt  int64
	done     bool
	doneAt   int64
	apply    int64
}

// gFPGA is one FPGA's crossbar of the baseline.
type gFPGA struct {
	id    int
	round uint32
	rrIn  []int // per output port
	// pending[o] has bit i set when input i (local PE i, then the links
	// in) holds an item for output o.
	pending []uint64
	memTok  float64
	memRR   int
	lf      *fpga
}

func newFastG(ctx context.Context, s *Setup, p Params) *fastG {
	f := &fastG{s: s, p: p, g: s.Graph, part: s.partition, nF: s.FPGAs, nP: s.PEs, nPE: s.FPGAs * s.PEs,
		hz: newHazard(p), fastRounds: newFastRounds(s), ctx: ctx}
	for x := 0; x < f.nF; x++ {
		lf := &fpga{id: x, out: make([]*link, f.nF)}
		f.lfp = append(f.lfp, lf)
		f.fpgas = append(f.fpgas, &gFPGA{id: x, rrIn: make([]int, f.nP+f.nF), pending: make([]uint64, f.nP+f.nF), lf: lf})
	}
	for id := 0; id < f.nPE; id++ {
		n := len(s.partition.Members[id])
		q := &gPE{id: id, fpga: id / f.nP, members: n, outstanding: newRing[resp](p.InFlight + 2), barrierTo: -1,
			bcHalt: true, bcDone: -1, applyAt: -1, apply: int64(n) + 1}
		q.queue = f.firstQueue(id, &f.p)
		for o := 0; o < f.nP+f.nF; o++ {
			q.voq = append(q.voq, newRing[item](MsgFIFODepth+p.ScatterLatency))
		}
		q.msgPipe = newPipe(InFIFODepth, 1, f.hz, n)
		q.gFree = int64(n) + 1
		f.pes = append(f.pes, q)
	}
	for a := 0; a < f.nF; a++ {
		for b := 0; b < f.nF; b++ {
			if a == b {
				continue
			}
			l := &link{from: a, to: b, tx: newRing[item](LinkTxFIFODepth), inflight: newRing[item](64), rx: newRing[item](LinkRxFIFODepth)}
			l.rxCap = LinkRxFIFODepth + int(math.Ceil(2*float64(p.LinkLatency)*p.PairWordsPerCycle/max(p.MessageWords, 1e-9)))
			for i := 0; i < f.nP; i++ {
				l.perPE = append(l.perPE, newRing[item](l.rxCap))
			}
			f.links = append(f.links, l)
			f.lfp[a].out[b] = l
			f.lfp[b].in = append(f.lfp[b].in, l)
		}
	}
	return f
}

// run times the reference engine's supersteps as they come.
func (f *fastG) run(ctx context.Context) (*kernel.Result, error) {
	return runReference(ctx, f.s, f.superstep, func() error { return f.advance(true) })
}

// superstep stores one superstep's senders and advances the machine as far
// as they allow.
func (f *fastG) superstep(r int, senders roundSenders) error {
	f.add(r, senders)
	for _, q := range f.pes {
		if q.queue.round == r {
			f.fill(&q.queue, q.id)
		}
	}
	return f.advance(false)
}

// advance steps the machine until every PE has terminated or (unless
// final) a PE has begun a round whose senders are not known yet.
func (f *fastG) advance(final bool) error {
	for iter := 0; ; iter++ {
		if err := f.check(f.ctx, f.s, iter, f.now); err != nil {
			return err
		}
		if f.allDone() || !final && f.needsSenders() {
			return nil
		}
		moved := false
		for _, x := range f.fpgas {
			moved = f.stepScatters(x) || moved
		}
		for _, x := range f.fpgas {
			for li, l := range x.lf.in {
				for !l.rx.empty() {
					it := l.rx.pop()
					o := f.port(x.id, &it)
					l.perPE[o].push(it)
					x.pending[o] |= 1 << (f.nP + li)
					l.held++
				}
			}
			moved = f.stepCrossbar(x) || moved
		}
		moved = stepLinks(f.lfp, f.links, &f.p, f.p.MessageWords, f.now) || moved
		if moved {
			f.now++
			continue
		}
		next, ok := f.nextEvent()
		if !ok {
			return fmt.Errorf("fast detail (GraVF): nothing can move at cycle %d", f.now)
		}
		f.now = next
	}
}

// needsSenders reports whether a PE has begun a round whose senders are
// not known yet (the timing waits for them there).
func (f *fastG) needsSenders() bool {
	for _, q := range f.pes {
		if !q.done && q.queue.round >= f.known {
			return true
		}
	}
	return false
}

// port returns the crossbar output an item leaves by on FPGA f0 (see
// baseline.port).
func (f *fastG) port(f0 int, it *item) int {
	var pe int
	if it.kind == kindBarrier {
		pe = int(it.dst)
	} else {
		pe = int(f.part.PE[it.dst])
	}
	if g := pe / f.nP; g != f0 {
		return f.nP + g
	}
	return pe % f.nP
}

// stepScatters steps the scatter units of one FPGA (baseline.stepScatter).
func (f *fastG) stepScatters(x *gFPGA) bool {
	if f.s.Mem == MemOffChip {
		x.memTok = min(x.memTok+f.p.MemWordsPerCycle, max(f.p.MemWordsPerCycle, 1))
	}
	moved := false
	for i := 0; i < f.nP; i++ {
		q := f.pes[x.id*f.nP+(i+x.memRR)%f.nP]
		if !q.idle(f.now) {
			moved = f.stepScatter(x, q) || moved
		}
	}
	x.memRR++
	return moved
}

// idle reports whether the scatter unit has nothing to do in cycle t.
func (q *gPE) idle(t int64) bool {
	return q.barrierTo < 0 && !q.walking && !q.lkValid && !q.reqActive && !q.unpacking &&
		(q.outstanding.empty() || q.outstanding.peek().arrive > t) && (!q.queue.ok || q.queue.ready > t)
}

func (f *fastG) stepScatter(x *gFPGA, q *gPE) bool {
	if q.barrierTo >= 0 {
		// Send the superstep's barrier marker to every PE, one per cycle.
		it := item{v: uint32(q.id), dst: uint32(q.barrierTo), round: q.barrierRound, kind: kindBarrier, halt: q.barrierHalt, ready: f.now}
		o := f.port(q.fpga, &it)
		if r := &q.voq[o]; !r.full() {
			r.push(it)
			f.fpgas[q.fpga].pending[o] |= 1 << (q.id % f.nP)
			q.queued++
			q.barrierTo++
			if q.barrierTo == f.nPE {
				q.barrierTo = -1
			}
			return true
		}
		return false
	}
	switch {
	case f.s.Mem == MemOffChip:
		return f.scatterOffchip(x, q)
	case f.s.PE != PEPaper:
		return f.scatterPrefetch(q)
	}
	if q.walking {
		return f.walkEdge(q)
	}
	if it, ok := f.take(q); ok {
		q.wItem, q.wNbrs, q.wWeights, q.wPos = it, f.g.Neighbors(it.v), f.g.EdgeWeights(it.v), 0
		q.walking = len(q.wNbrs) > 0
		return true
	}
	return q.barrierTo >= 0
}

// emit puts the message for edge (u -> w) into its port's output FIFO, or
// reports false when that FIFO is full.
func (f *fastG) emit(q *gPE, u item, w uint32, weights []uint32, i int) bool {
	it := item{v: u.v, round: u.round, dst: w, ready: f.now + int64(f.p.ScatterLatency), weight: 1}
	if weights != nil {
		it.weight = weights[i]
	}
	o := f.port(q.fpga, &it)
	r := &q.voq[o]
	if r.full() {
		return false
	}
	r.push(it)
	f.fpgas[q.fpga].pending[o] |= 1 << (q.id % f.nP)
	q.queued++
	return true
}

func (f *fastG) walkEdge(q *gPE) bool {
	if !f.emit(q, q.wItem, q.wNbrs[q.wPos], q.wWeights, q.wPos) {
		return false
	}
	q.wPos++
	q.walking = q.wPos < len(q.wNbrs)
	return true
}

// scatterPrefetch is baseline.stepScatterPrefetch.
func (f *fastG) scatterPrefetch(q *gPE) bool {
	idle, lk := !q.walking, q.lkValid
	last, moved := false, false
	if q.walking {
		moved = f.walkEdge(q)
		last = moved && !q.walking
	}
	if q.lkValid {
		it := q.lkItem
		nbrs := f.g.Neighbors(it.v)
		switch {
		case len(nbrs) == 0:
			q.lkValid, moved = false, true
		case idle:
			q.wItem, q.wNbrs, q.wWeights, q.wPos = it, nbrs, f.g.EdgeWeights(it.v), 0
			if f.walkEdge(q) {
				q.lkValid, moved = false, true
			}
		case last:
			q.wItem, q.wNbrs, q.wWeights, q.wPos, q.walking = it, nbrs, f.g.EdgeWeights(it.v), 0, true
			q.lkValid = false
		}
	}
	if q.lkValid || !q.queue.ok || (q.queue.item.barrier && (!idle || lk)) {
		return moved
	}
	if it, ok := f.take(q); ok {
		q.lkValid, q.lkItem = true, it
		return true
	}
	return moved || q.barrierTo >= 0
}

// take latches the next own update once it is ready; a barrier marker
// starts the marker broadcast instead.
func (f *fastG) take(q *gPE) (item, bool) {
	u := &q.queue
	if !u.ok || u.ready > f.now {
		return item{}, false
	}
	h := u.item
	u.pop()
	if h.barrier {
		q.barrierTo, q.barrierRound, q.barrierHalt = 0, uint32(h.round), h.halt
		return item{}, false
	}
	return item{v: h.v, round: uint32(h.round), kind: kindUpdate}, true
}

// scatterOffchip is baseline.stepScatterOffchip.
func (f *fastG) scatterOffchip(x *gFPGA, q *gPE) bool {
	moved := false
	if !q.unpacking && !q.outstanding.empty() && q.outstanding.peek().arrive <= f.now {
		q.unpack, q.unpacking = q.outstanding.pop(), true
		q.unpackPos = int(q.unpack.lo)
		q.inflight--
		moved = true
	}
	if q.unpacking {
		r := &q.unpack
		if f.emit(q, item{v: r.u, round: r.round}, f.g.Neighbors(r.u)[q.unpackPos], f.g.EdgeWeights(r.u), q.unpackPos) {
			q.unpackPos++
			q.unpacking = q.unpackPos < int(r.hi)
			moved = true
		}
	}
	if q.reqActive && q.inflight < f.p.InFlight && x.memTok >= 1 && !q.outstanding.full() {
		lo := q.reqPos
		hi := min(lo+f.p.EdgesPerWord, len(q.wNbrs))
		q.outstanding.push(resp{u: q.reqItem.v, round: q.reqItem.round, lo: uint32(lo), hi: uint32(hi), arrive: f.now + int64(f.p.MemLatency)})
		q.inflight++
		q.words++
		x.memTok--
		q.reqPos = hi
		q.reqActive = q.reqPos < len(q.wNbrs)
		moved = true
		if q.reqActive {
			return true
		}
	}
	if q.reqActive || q.unpacking || !q.outstanding.empty() {
		if q.queue.ok && q.queue.item.barrier {
			return moved
		}
		if q.reqActive {
			return moved
		}
	}
	if it, ok := f.take(q); ok {
		q.wNbrs, q.wWeights = f.g.Neighbors(it.v), f.g.EdgeWeights(it.v)
		q.reqActive, q.reqItem, q.reqPos = len(q.wNbrs) > 0, it, 0
		return true
	}
	return moved || q.barrierTo >= 0
}

// stepCrossbar is baseline.stepCrossbar: the channel advances once every
// local PE has counted the channel's markers and sent all its items of
// it; then every output port takes at most one item, round-robin among
// the inputs holding one for it, a remote link at most one item per
// cycle in all.
func (f *fastG) stepCrossbar(x *gFPGA) bool {
	local := f.pes[x.id*f.nP : (x.id+1)*f.nP]
	for x.round < 1<<30 && f.channelDone(x, local) {
		x.round++
	}
	lf := x.lf
	nIn := f.nP + len(lf.in)
	var remoteUsed uint64
	moved := false
	for o := 0; o < f.nP+f.nF; o++ {
		cand := x.pending[o]
		if cand == 0 {
			continue
		}
		rr := x.rrIn[o]
		// Inputs from rr on, then those before it.
		for _, set := range [2]uint64{cand >> rr << rr, cand & (1<<rr - 1)} {
			done := false
			for ; set != 0; set &= set - 1 {
				i := bits.TrailingZeros64(set)
				var src *ring[item]
				var q *gPE
				if i < f.nP {
					q = local[i]
					src = &q.voq[o]
				} else {
					if remoteUsed>>(i-f.nP)&1 != 0 {
						continue
					}
					src = &lf.in[i-f.nP].perPE[o]
				}
				if src.peek().round != x.round || src.peek().ready > f.now {
					continue
				}
				done = true
				if o < f.nP {
					if d := local[o]; d.ring[d.head] > f.now {
						break // its input FIFO is full
					}
				} else if lf.out[o-f.nP].tx.full() {
					break
				}
				it := src.pop()
				if src.empty() {
					x.pending[o] &^= 1 << i
				}
				if o < f.nP {
					f.deliver(local[o], it)
				} else {
					lf.out[o-f.nP].tx.push(it)
				}
				if q != nil {
					q.queued--
				} else {
					remoteUsed |= 1 << (i - f.nP)
					lf.in[i-f.nP].held--
				}
				x.rrIn[o] = (i + 1) % nIn
				moved = true
				break
			}
			if done {
				break
			}
		}
	}
	return moved
}

// channelDone reports whether every local PE has counted the markers of
// x's channel and sent its own items of it.
func (f *fastG) channelDone(x *gFPGA, local []*gPE) bool {
	for _, q := range local {
		if q.bcDone < int64(x.round) || q.bcDoneAt > f.now || (q.barrierTo >= 0 && q.barrierRound <= x.round) {
			return false
		}
		for o := range q.voq {
			if !q.voq[o].empty() && q.voq[o].peek().round <= x.round {
				return false
			}
		}
	}
	return true
}

// deliver computes when gather reads the item the crossbar writes into
// q's input FIFO in this cycle: a message when the unit is free and the
// detector lets it through; a barrier marker is counted, and the round's
// last (every PE's counted) waits for the gather pipeline to drain and
// starts the apply sweep of the next round.
func (f *fastG) deliver(q *gPE, it item) {
	g := max(q.gFree, f.now+1)
	if it.kind != kindBarrier {
		if q.detect {
			k := it.dst
			if !f.hz.exact || q.slotFree != nil {
				k = f.part.Local[it.dst]
				if !f.hz.exact {
					k &= uint32(f.hz.slots(q.members) - 1)
				}
			}
			h := q.held(g, k)
			q.stalls += h - g
			g = h
		}
		q.push(g)
		q.lastMsg = g
		q.msgs++
		return
	}
	if q.bcSeen+1 < f.nPE {
		q.bcSeen++
		q.bcHalt = q.bcHalt && it.halt
		q.push(g)
		return
	}
	halt := q.bcHalt && it.halt
	q.bcSeen, q.bcHalt = 0, true
	h := max(g, q.lastMsg+f.hz.hold)
	q.stalls += h - g
	if !halt {
		h += f.fold // gather waits for the globals of the next superstep
	}
	q.push(h)
	q.bcDone, q.bcDoneAt = int64(it.round), h
	if halt {
		q.done, q.doneAt = true, h
		f.finished++
		return
	}
	r := int(it.round) + 1
	q.round, q.applyAt = r, h
	q.gFree = h + int64(q.members) + 2
	q.apply += int64(q.members) + 1
	q.queue = f.started(r, q.id, h, &f.p)
	f.fill(&q.queue, q.id)
}

// nextEvent returns the first cycle after now in which something can
// move, when nothing moved in this one.
func (f *fastG) nextEvent() (int64, bool) {
	t := f.now
	next := int64(math.MaxInt64)
	at := func(c int64) {
		if c > t && c < next {
			next = c
		}
	}
	for _, q := range f.pes {
		if q.queue.ok {
			at(q.queue.ready)
		}
		if !q.outstanding.empty() {
			at(q.outstanding.peek().arrive)
		}
		at(q.ring[q.head])
		at(q.bcDoneAt)
		for o := range q.voq {
			if !q.voq[o].empty() {
				at(q.voq[o].peek().ready)
			}
		}
	}
	for _, l := range f.links {
		if !l.inflight.empty() {
			at(l.inflight.peek().ready)
		}
		if !l.tx.empty() {
			at(t + 1)
		}
	}
	return next, next != math.MaxInt64
}

func (f *fastG) result(ref *kernel.Result) *Result {
	var end int64
	for _, q := range f.pes {
		end = max(end, q.doneAt)
	}
	r := &Result{Arch: f.s.Arch, Mem: f.s.Mem, FPGAs: f.nF, PEs: f.nP, Cycles: end + 1, States: ref.States, Fields: ref.Fields}
	f.steps(r)
	for _, q := range f.pes {
		r.PerPE = append(r.PerPE, fastStats(q.msgs, q.apply, q.stalls, q.words, q.doneAt, r.Cycles))
	}
	linkStats(r, f.links, f.p.PairWordsPerCycle)
	return r
}
