package sim

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/gravf-tui/gravf-tui/crew"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// fastM is GraVF-M at fast detail. The reference engine runs the kernels
// and hands over each superstep's senders; the timing follows every item
// through the machine with the cycle-level machine's rules, but at the
// level of items rather than cycles:
//
//   - the crossbars and the links are stepped cycle by cycle exactly as in
//     machine.go (fastnet.go), skipping cycles in which nothing can move;
//   - each PE is a set of recurrences over its items (fastpe.go): the
//     lookup stage, the walker or the off-chip requests and unpacker, the
//     message FIFO, the gather unit with its hazard detector and the apply
//     sweep. An update whose list on a PE is empty is never visited there
//     (its take cycle has a closed form), so a crossbar write costs the
//     PEs with a non-empty list and each message costs one step;
//   - where the memory binds, each FPGA's words are granted in time
//     order, cycle by cycle in the rotating order of cycle detail's
//     arbiter (fastmem.go);
//   - the FPGAs meet only through links, whose latency is the lookahead
//     of a conservative parallel scheme: the FPGAs are stepped each on its
//     own clock through windows of that many cycles, on every core, and
//     meet at the end of each window (fastwindow.go).
//
// The reference engine produces superstep s+1's senders only after
// superstep s's callback returns, while the machine's supersteps overlap
// (one FPGA may still deliver superstep s while another applies s+1), so
// the timing runs as a coroutine of the engine: each callback stores the
// senders and advances the machine until some crossbar is about to open
// the channel of a superstep whose senders are not known yet.
type fastM struct {
	s      *Setup
	p      Params
	fm     fastMachine
	g      *graph.Graph
	part   *graph.Partition
	ed     *fastEdges
	nF, nP int
	nPE    int
	cost   float64 // an update's link words

	pes    []*fastPE
	queues []fxQueue
	fpgas  []*fxFPGA
	links  []*fxLink
	fastRounds
	now int64 // the first cycle some FPGA has still to handle (at a barrier)

	// The parallel windows: their length (at most the link latency, the
	// lookahead), how many cores step them and the crew of the current
	// advance (nil on one core), the FPGAs of the current one and the
	// windows so far.
	lookahead int64
	workers   int
	crew      *crew.Windows
	pace      crew.Pace
	active    []*fxFPGA
	windows   int
	checkedAt int64 // the cycle of the last look for cancellation

	ctx context.Context
}

func newFastM(ctx context.Context, s *Setup, p Params) *fastM {
	f := &fastM{s: s, p: p, g: s.Graph, part: s.partition, nF: s.FPGAs, nP: s.PEs, nPE: s.FPGAs * s.PEs,
		cost: p.UpdateWords, fastRounds: newFastRounds(s), ctx: ctx}
	hz := newHazard(p)
	f.ed = newFastEdges(s.Graph, s.partition, f.nF, f.nP, hz, s.Filter)
	f.fm = fastMachine{p: &f.p, hold: hz.hold, prefetch: s.PE != PEPaper, offchip: s.Mem == MemOffChip, fold: f.fold}
	for x := 0; x < f.nF; x++ {
		f.fpgas = append(f.fpgas, &fxFPGA{id: x, out: make([]*fxLink, f.nF), lastW: never, passedAt: never, ifAt: -1, arriveAt: math.MaxInt64})
	}
	for id := 0; id < f.nPE; id++ {
		n := len(s.partition.Members[id])
		q := newFastPE(id, id/f.nP, n, &f.p, hz, f.ed.keys)
		f.pes = append(f.pes, q)
		f.queues = append(f.queues, f.firstQueue(id, &f.p))
	}
	f.fm.mem = make([]*memSched, f.nF)
	for x := 0; x < f.nF && f.fm.offchip; x++ {
		f.fm.mem[x] = newMemSched(p.MemWordsPerCycle, f.fpgas[x], f.pes[x*f.nP:(x+1)*f.nP])
	}
	for a := 0; a < f.nF; a++ {
		for b := 0; b < f.nF; b++ {
			if a == b {
				continue
			}
			l := &fxLink{from: a, to: b, tokAt: -1, tx: newRing[fxItem](LinkTxFIFODepth), wire: newRing[fxItem](64 + LinkRxFIFODepth),
				takes: newTakeLog(int64(max(p.LinkLatency, 1)), -1)}
			l.rxCap = LinkRxFIFODepth + int(math.Ceil(2*float64(p.LinkLatency)*p.PairWordsPerCycle/max(f.cost, 1e-9)))
			f.links = append(f.links, l)
			f.fpgas[a].out[b] = l
			f.fpgas[b].in = append(f.fpgas[b].in, l)
		}
	}
	f.lookahead = int64(max(p.LinkLatency, 1))
	f.workers = min(s.cores(), f.nF)
	return f
}

// run times the reference engine's supersteps as they come.
func (f *fastM) run(ctx context.Context) (*kernel.Result, error) {
	return runReference(ctx, f.s, f.superstep, func() error { return f.advance(true) })
}

// superstep stores one superstep's senders and advances the machine as far
// as they allow.
func (f *fastM) superstep(r int, senders roundSenders) error {
	f.add(r, senders)
	for i := range f.queues {
		if f.queues[i].round == r {
			f.fill(i)
		}
	}
	return f.advance(false)
}

// fill gives PE i's update queue its round's senders, and wakes its
// crossbar for the first.
func (f *fastM) fill(i int) {
	u := &f.queues[i]
	if f.fastRounds.fill(u, i) && u.ok {
		x := f.fpgas[i/f.nP]
		x.wake = min(x.wake, u.ready)
	}
}

// needsSenders reports whether FPGA x's crossbar opens, in cycle t, the
// channel of a superstep whose senders are not known yet.
func (f *fastM) needsSenders(x *fxFPGA, t int64) bool {
	return int(x.round)+1 >= f.known && x.passed == f.nP && x.passedAt <= t
}

// stepCrossbar moves at most one item on FPGA x in this cycle, with the
// rules of machine.stepCrossbar: the channel advances once every local PE
// has passed its barrier; remote items first, then the local update
// queues in round-robin order; an item moves only when every local input
// FIFO and every send FIFO it needs has room. It returns the next cycle
// in which the crossbar might move.
func (f *fastM) stepCrossbar(x *fxFPGA, t int64) int64 {
	if x.passed == f.nP && x.passedAt <= t {
		x.round++
		x.passed, x.passedAt = 0, never
	}
	x.txBlocked = false
	unblock := int64(math.MinInt64)
	if x.writes >= InFIFODepth {
		if s := f.fm.mem[x.id]; s != nil {
			f.settle(x, s, x.writes-InFIFODepth)
		}
		unblock = x.takeRing[x.writes%InFIFODepth] // a local input FIFO is full before this cycle
	}
	full := unblock > t
	n := len(x.in)
	for i, k := 0, x.rrRemote; i < n; i, k = i+1, k+1 {
		if k == n {
			k = 0
		}
		l := x.in[k]
		if l.arrived == 0 || l.wire.peek().round != x.round {
			continue
		}
		if full {
			return unblock
		}
		l.arrived--
		l.takes.take(t)
		f.write(x, l.wire.pop(), t)
		if x.rrRemote = k + 1; x.rrRemote == n {
			x.rrRemote = 0
		}
		return t + 1
	}
	wake := int64(math.MaxInt64)
	if x.passed == f.nP {
		wake = x.passedAt
	}
	for i, src := 0, x.rrLocal; i < f.nP; i, src = i+1, src+1 {
		if src == f.nP {
			src = 0
		}
		pe := x.id*f.nP + src
		u := &f.queues[pe]
		if !u.ok || u.item.round != x.round {
			continue
		}
		if u.ready > t {
			wake = min(wake, u.ready)
			continue
		}
		it := u.item
		if full {
			return unblock
		}
		mask := f.ed.all &^ (1 << x.id)
		if !it.barrier {
			it.v = f.ed.place(pe, u.local[u.pos])
			mask = f.ed.mask[it.v]
		}
		for g := mask; g != 0; g &= g - 1 {
			if x.out[bits.TrailingZeros64(g)].tx.full() {
				x.txBlocked = true
				return math.MaxInt64 // woken when the link takes an item
			}
		}
		u.pop()
		f.write(x, it, t)
		for g := mask; g != 0; g &= g - 1 {
			x.out[bits.TrailingZeros64(g)].tx.push(it)
			x.txItems++
		}
		if x.rrLocal = src + 1; x.rrLocal == f.nP {
			x.rrLocal = 0
		}
		return t + 1
	}
	return wake
}

// write hands the item that x's crossbar writes into every local input
// FIFO in cycle t to the PEs: an update to the PEs holding part of its
// list (the others take it in closed form), a barrier marker to all.
func (f *fastM) write(x *fxFPGA, it fxItem, t int64) {
	if s := f.fm.mem[x.id]; s != nil {
		f.writeOffchip(x, s, it, t)
		return
	}
	m := x.writes
	var take int64
	if it.barrier {
		take = never
		for _, q := range f.pes[x.id*f.nP : (x.id+1)*f.nP] {
			tb, last := f.fm.takeBarrier(q, t, x.lastW, m, it.halt, f.nPE)
			take = max(take, tb)
			f.barrierTaken(x, q, last)
		}
		x.maxKey = never
		for _, q := range f.pes[x.id*f.nP : (x.id+1)*f.nP] {
			x.maxKey = max(x.maxKey, q.key())
		}
	} else {
		take = max(t+1, x.maxKey+m)
		lo, hi := f.ed.span(it.v, x.id)
		for i := lo; i < hi; i++ {
			pe, start, end := f.ed.run(i)
			q := f.pes[pe]
			f.fm.takeUpdate(q, t, m, start, int(end-start))
			x.maxKey = max(x.maxKey, q.key())
		}
	}
	x.takeRing[m%InFIFODepth] = take
	x.writes++
	x.lastW = t
}

// passedBarrier starts PE q of FPGA x on its next round: its apply sweep
// began when gather read the marker.
func (f *fastM) passedBarrier(x *fxFPGA, q *fastPE) {
	if q.done {
		return
	}
	x.starts = append(x.starts, fxStart{q.round, q.applyAt})
	f.queues[q.id] = f.queue(q.round, q.id, q.applyAt, &f.p)
	f.fill(q.id)
}

// fill returns a token bucket's level after d cycles of refills at rate
// words per cycle, capped at one refill or one item, whichever is more.
func fill(level, rate, cost float64, d int64) float64 {
	if d <= 0 {
		return level
	}
	c := max(rate, cost)
	if d == 1 {
		return min(level+rate, c)
	}
	return min(level+rate*float64(d), c)
}

// stuck describes a state in which nothing can ever move again: a bug of
// the fast model, not of the design.
func (f *fastM) stuck() error {
	var b strings.Builder
	fmt.Fprintf(&b, "fast detail: nothing can move at cycle %d", f.now)
	for _, x := range f.fpgas {
		fmt.Fprintf(&b, "\n  FPGA %d: channel %d, %d writes", x.id, x.round, x.writes)
	}
	for _, q := range f.pes {
		fmt.Fprintf(&b, "\n    PE %d: round %d, barriers %d, done %v, queue round %d pos %d/%d known %v", q.id, q.round, q.bcSeen, q.done,
			f.queues[q.id].round, f.queues[q.id].pos, len(f.queues[q.id].local), f.queues[q.id].known)
	}
	return fmt.Errorf("%s", b.String())
}

func (f *fastM) result(ref *kernel.Result) *Result {
	var end int64
	for _, q := range f.pes {
		end = max(end, q.doneAt)
	}
	r := &Result{Arch: f.s.Arch, Mem: f.s.Mem, FPGAs: f.nF, PEs: f.nP, Cycles: end + 1, States: ref.States, Fields: ref.Fields}
	f.steps(r)
	for _, q := range f.pes {
		r.PerPE = append(r.PerPE, fastStats(q.msgs, q.apply, q.stalls, q.words, q.doneAt, r.Cycles))
	}
	for _, l := range f.links {
		u := 0.0
		if f.p.PairWordsPerCycle > 0 {
			u = l.words / float64(r.Cycles) / f.p.PairWordsPerCycle
		}
		r.Links = append(r.Links, LinkStats{From: l.from, To: l.to, Words: l.words, Utilisation: u})
	}
	return r
}
