package sim

import (
	"math"

	"github.com/gravf-tui/gravf-tui/crew"
)

// Fast detail of GraVF-M steps its FPGAs in parallel. The FPGAs meet only
// through links, and an item serialised onto a link in cycle t arrives in
// cycle t + LinkLatency, so the link latency is a lookahead: once every
// FPGA has handled the cycles before T, each can handle the cycles before
// T + LinkLatency on its own clock, as nothing sent in that window arrives
// inside it. The FPGAs of a window are shared by the cores (a crew of
// helper goroutines that live for the whole advance claims them one by one
// with the caller, crew.Windows), and they meet at its end, where a barrier
// moves what each serialised onto the receivers' wires.
//
// The one thing a sender reads of its receiver without latency is the
// credit of the receive FIFO: whether the items sent minus those the
// receiver's crossbar has taken, up to this cycle, reach the FIFO's
// capacity. The receiver logs the cycle of every take and the barrier
// hands the log to the sender, so the sender knows its receiver's takes
// exactly up to the cycle the receiver has reached (the horizon) and at
// least those before. While the items sent minus the takes it knows stay
// under the capacity the credit is there whatever it does not know yet;
// when they do not and the cycle is past the horizon, the sender pauses
// (its crossbar has moved in that cycle, its links not yet) until a
// barrier brings the receiver's takes up to that cycle.
//
// Within a window every FPGA follows exactly the rules of the sequential
// loop (cycle-level order: crossbars, then arrivals, then serialisation),
// so a run is the same for any number of cores and any window length.

// advance steps the FPGAs until every PE has terminated or (unless
// final) an FPGA is about to open the channel of a superstep whose
// senders are not known yet. An FPGA that cannot move sleeps until the
// first cycle it might (its wake cycle, brought forward by whatever could
// let it move sooner: an arrival, a free send FIFO slot, a filled update
// queue, every local PE past the barrier), and windows in which every
// FPGA sleeps are skipped.
func (f *fastM) advance(final bool) error {
	if f.workers > 1 {
		f.crew = crew.StartWindows(f.workers-1, &f.pace)
		defer func() {
			f.crew.Stop()
			f.crew = nil
		}()
	}
	for {
		t := int64(math.MaxInt64)
		stopped := false
		for _, x := range f.fpgas {
			t = min(t, x.now)
			stopped = stopped || x.stopped
			x.stopped = false
		}
		if t != math.MaxInt64 {
			f.now = t
		}
		iter := 1 // the cycle limit only
		if f.now-f.checkedAt >= 1<<16 || f.windows == 0 {
			iter, f.checkedAt = 0, f.now // cancellation and progress too, every 65,536 cycles
		}
		if err := f.check(f.ctx, f.s, iter, f.now); err != nil {
			return err
		}
		if f.allDone() || !final && stopped {
			return nil
		}
		if t == math.MaxInt64 {
			return f.stuck()
		}
		w := t + f.lookahead
		if f.nF == 1 {
			w = t + 1<<12 // no links: windows only pace the checks
		}
		if f.s.MaxCycles > 0 {
			w = min(w, f.s.MaxCycles)
		}
		f.runWindow(w, final)
		f.barrier(w)
		f.windows++
	}
}

// runWindow steps every FPGA with cycles before w to handle through them,
// on up to f.workers cores (a crew.Windows). Which core steps an FPGA
// does not change what it computes: the FPGAs of a window share nothing
// but read-only state.
func (f *fastM) runWindow(w int64, final bool) {
	act := f.active[:0]
	for _, x := range f.fpgas {
		if x.now < w {
			act = append(act, x)
		}
	}
	f.active = act
	if f.crew == nil {
		for _, x := range act {
			f.runFPGA(x, w, final)
		}
		return
	}
	f.crew.Run(len(act), func(k int) { f.runFPGA(act[k], w, final) })
}

// runFPGA steps FPGA x through the cycles before w, with the rules of one
// cycle of the machine: the crossbar moves, arrivals are delivered, the
// links serialise. It stops early when x is about to open the channel of
// a superstep whose senders are not known (stopped), or needs a credit it
// does not know yet (paused).
func (f *fastM) runFPGA(x *fxFPGA, w int64, final bool) {
	for x.now < w {
		t := x.now
		s := f.fm.mem[x.id]
		if x.paused {
			x.paused = false
		} else {
			if s != nil {
				f.resolve(x, s, t+1) // what the crossbar's step in t needs, and all it allows
			}
			if !final && f.needsSenders(x, t) {
				x.stopped = true
				return
			}
			if x.wake <= t {
				x.wake = f.stepCrossbar(x, t)
			}
			if x.arriveAt <= t {
				f.arrivals(x, t)
			}
		}
		if x.txItems > 0 && !f.serialise(x, t) {
			x.paused = true
			x.pauses++
			return
		}
		next := t + 1
		if x.txItems == 0 {
			next = min(max(next, x.arriveAt), max(x.wake, t+1))
		}
		if s != nil && s.busy > 0 {
			next = f.ahead(x, s, t, w, next)
		}
		x.now = next
	}
}

// arrivals delivers the items that reach FPGA x's receive FIFOs in cycle
// t (its crossbar sees them in the next cycle).
func (f *fastM) arrivals(x *fxFPGA, t int64) {
	x.arriveAt = math.MaxInt64
	for _, l := range x.in {
		for l.arrived < l.wire.len() && l.wire.nth(l.arrived).at <= t {
			l.arrived++
			x.wake = min(x.wake, t+1)
		}
		if l.arrived < l.wire.len() {
			x.arriveAt = min(x.arriveAt, l.wire.nth(l.arrived).at)
		}
	}
}

// serialise moves items from FPGA src's send FIFOs onto its links in
// cycle t, with the rules of stepLinks in machine.go: the token buckets
// fill every cycle up to one item's worth (they are brought up to date
// when used), and the links take turns by cycle. It reports false, having
// changed nothing, when a link's credit in cycle t is not known yet.
func (f *fastM) serialise(src *fxFPGA, t int64) bool {
	// The takes are read at the barrier only: reading the receiver's
	// window live, as cycle detail does, paused PR less often but left the
	// crew's helpers too little of the work (docs/PERFORMANCE.md, "Windows
	// of the link latency").
	for _, l := range src.out {
		if l != nil && !l.tx.empty() && !l.takes.knows(t, l.sent, l.rxCap, notLive) {
			return false
		}
	}
	p := &f.p
	src.ifTokens = fill(src.ifTokens, p.IfWordsPerCycle, f.cost, t-src.ifAt)
	src.ifAt = t
	for j, k := 0, int(t%int64(f.nF)); j < f.nF; j, k = j+1, k+1 {
		if k == f.nF {
			k = 0
		}
		l := src.out[k]
		if l == nil || l.tx.empty() {
			continue
		}
		l.tokens = fill(l.tokens, p.PairWordsPerCycle, f.cost, t-l.tokAt)
		l.tokAt = t
		if !mayTake(l.tokens, src.ifTokens, f.cost, l.takes.occupied(l.sent), l.rxCap) {
			continue
		}
		it := l.tx.pop()
		src.txItems--
		if src.txBlocked {
			src.wake = min(src.wake, t+1)
		}
		it.at = t + int64(max(p.LinkLatency, 1))
		l.outbox = append(l.outbox, it)
		l.sent++
		l.tokens -= f.cost
		src.ifTokens -= f.cost
		l.words += f.cost
	}
	return true
}

// barrier ends the window before cycle w: the items serialised in it go
// onto the receivers' wires, each sender learns its receiver's takes (up
// to the cycle the receiver reached), and the PEs' terminations and round
// starts are merged.
func (f *fastM) barrier(w int64) {
	for _, l := range f.links {
		if len(l.outbox) > 0 {
			for _, it := range l.outbox {
				l.wire.push(it)
			}
			l.outbox = l.outbox[:0]
			x := f.fpgas[l.to]
			x.arriveAt = min(x.arriveAt, l.wire.nth(l.arrived).at)
			x.now = min(x.now, x.arriveAt)
		}
		l.takes.handOver(f.fpgas[l.to].horizon(w))
	}
	for _, x := range f.fpgas {
		f.finished += x.finished
		x.finished = 0
		for _, st := range x.starts {
			f.began(st.r, st.at)
		}
		x.starts = x.starts[:0]
	}
}

// horizon returns the last cycle in which x's crossbar has moved or is
// known to stay still, after a window before cycle w.
func (x *fxFPGA) horizon(w int64) int64 {
	switch {
	case x.paused:
		return x.now
	case x.stopped:
		return x.now - 1
	}
	return min(x.now, w) - 1
}
