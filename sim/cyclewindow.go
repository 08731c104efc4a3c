package sim

import (
	"context"
	"math"

	"github.com/gravf-tui/gravf-tui/crew"
)

// Cycle detail's FPGAs step in windows of the link latency, each on its
// own clock, as fast detail's do (fastwindow.go). An item serialised in
// cycle t arrives in cycle t + LinkLatency, so once every FPGA has
// handled the cycles before T each may handle those before T +
// LinkLatency alone: nothing sent in that window arrives inside it. The
// FPGAs of a window go to the cores of a crew.Windows and meet at its end
// (barrier), where what each serialised goes onto the wire. Stepping a
// cycle's FPGAs on two cores and meeting after every cycle (cyclecrew.go)
// spent about a fifth of the CPU in the hand-over.
//
// Two things an FPGA reads of another in the same cycle:
//
//   - the credit of a link's receive FIFO, counted from the receiver's
//     log of takes (takeLog, shared with fast detail): handed over at the
//     barrier, or read while the receiver runs once its crossbar has
//     stepped the cycle (fpga.stepped); where neither tells, the sender
//     pauses, its crossbar stepped and its links not, until one does;
//   - for the stall breakdown only, whether anything is on a link towards
//     the FPGA: its receive FIFO (the receiver's) or the sender's FIFO and
//     the wire (the sender's, logged as spans of cycles in link.busy). A PE
//     whose cycle the network or the barrier explains waits in fpga.amb
//     until its senders have stepped that cycle.
//
// Within a window every FPGA follows the rules of the cycle loop (its
// units, then the arrivals, then the serialisation), so a run is the same
// as cycle by cycle, on any number of cores (TestCycleWindowsIdentical).
// What couples the FPGAs in a cycle without latency, a kernel's globals,
// or what needs every cycle of the system at once, a listener, keeps the
// cycle loop.

// minWindow is the shortest link latency for which windows pay: the
// barrier costs about what a few cycles of an FPGA do.
const minWindow = 16

// windowMinPEs is the smallest system whose FPGAs windows put on more
// than one core. Below it an FPGA's window is too little to share. One
// core cycle by cycle against two in windows, wall times of three runs
// each alternating, off-chip: WCC on rmat:scale=14 2 x 1 0.25 against
// 0.19 s, 2 x 2 0.24 against 0.32 s, 4 x 1 0.30 against 0.31 s, 2 x 4
// 0.25 against 0.15 s, 4 x 2 0.29 against 0.19 s, 4 x 4 0.31 against
// 0.19 s; PR on rmat:scale=12 2 x 1 0.42 against 0.61 s, 2 x 2 0.38
// against 0.37 s, 4 x 1 0.48 against 0.64 s, 2 x 4 0.39 against 0.29 s,
// 4 x 2 0.47 against 0.35 s, 4 x 4 0.57 against 0.43 s.
const windowMinPEs = 8

// spanCycles is a run of cycles [from, to).
type spanCycles struct{ from, to int64 }

// ambCycle holds the PEs (bit i for PE i of the FPGA) whose cycle t the
// network explains if a link towards their FPGA holds an item on the
// sender's side, and the barrier otherwise.
type ambCycle struct {
	t    int64
	mask uint64
}

// windowed reports whether the machine may step its FPGAs in windows.
func (m *machine) windowed() bool {
	return m.window > 0 && m.glob == nil && m.listener == nil && len(m.fpgas) > 1 &&
		len(m.fpgas) <= crew.MaxUnits && m.s.PEs <= ambPEs
}

// ambPEs is the most PEs per FPGA an ambCycle's mask holds.
const ambPEs = 64

// windowLength is the window the machine's design allows (0: none).
func (m *machine) windowLength() int64 {
	if m.p.LinkLatency < minWindow {
		return 0
	}
	return int64(m.p.LinkLatency)
}

// mayWindow reports whether the next window may start at the current
// cycle: no limit that the cycle loop checks every cycle (the stall
// limit, the superstep limit) can be reached inside it.
func (m *machine) mayWindow(stallLimit int64) bool {
	return m.now+m.window-m.progressed() <= stallLimit && m.stepCount()+4 <= m.s.maxSupersteps()
}

// enterWindows hands the links from the cycle loop to the windows: every
// FPGA is at cycle m.now, the cycle before accounted.
func (m *machine) enterWindows() {
	m.settle()
	for i := range m.lanes {
		m.lanes[i].now = m.now
	}
	for _, fp := range m.fpgas {
		fp.paused, fp.doneSince = false, -1
		fp.stepped.Store(m.now - 1)
		if fp.amb.cap() < 2 {
			fp.amb = newRing[ambCycle](64)
		}
	}
	for _, l := range m.links {
		l.sent = int64(l.inflight.len() + l.rx.len())
		l.takes = newTakeLog(m.window, m.now-1)
		l.busy = newRing[spanCycles](16)
		if l.outbox.cap() < 2 {
			l.outbox = newRing[item](64)
		}
		l.lastSend = math.MinInt32
		if n := l.inflight.len(); n > 0 {
			l.lastSend = l.inflight.nth(n-1).ready - int64(max(m.p.LinkLatency, 1))
		}
	}
	m.windowing = true
}

// runWindows steps the machine in windows from m.now until every PE has
// terminated (done), a limit stops the run (err), or the cycle loop must
// take over (every FPGA at cycle m.now then, no link paused).
func (m *machine) runWindows(ctx context.Context, stallLimit int64) (done bool, err error) {
	m.enterWindows()
	defer func() { m.windowing = false }()
	maxCycles := m.s.MaxCycles
	limit := int64(math.MaxInt64)
	if maxCycles > 0 {
		limit = maxCycles
	}
	checked, leaving := m.now, false
	for {
		tmin, tmax := m.clocks()
		m.now = tmin
		if m.terminated() {
			return true, nil
		}
		if tmin == limit {
			if limit == maxCycles && !leaving {
				return false, m.stop(StopCycleLimit, maxCycles, nil)
			}
			return false, nil
		}
		if tmin-checked >= 1<<16 {
			checked = tmin
			if err := ctx.Err(); err != nil {
				return false, m.stop(StopInterrupted, 0, err)
			}
			if m.s.Progress != nil {
				m.s.Progress(Progress{Cycle: tmin, Superstep: m.stepCount() - 1})
			}
		}
		if !leaving && !m.mayWindow(stallLimit) {
			leaving, limit = true, min(limit, tmax) // meet at the furthest clock, then go on cycle by cycle
			continue
		}
		w := min(tmin+m.window, limit)
		m.stepWindow(w)
		m.barrier()
		m.windows++
	}
}

// clocks returns the earliest and the latest FPGA clock.
func (m *machine) clocks() (tmin, tmax int64) {
	tmin, tmax = math.MaxInt64, math.MinInt64
	for i := range m.lanes {
		tmin, tmax = min(tmin, m.lanes[i].now), max(tmax, m.lanes[i].now)
	}
	return tmin, tmax
}

// stepWindow steps every FPGA whose clock is before w through the cycles
// before w, on up to m.workers cores.
func (m *machine) stepWindow(w int64) {
	act := m.active[:0]
	for _, fp := range m.fpgas {
		if m.lanes[fp.id].now < w {
			act = append(act, fp)
		}
	}
	m.active = act
	if m.windowCrew == nil {
		for _, fp := range act {
			m.stepFPGAWindow(fp, w)
		}
		return
	}
	m.windowCrew.Run(len(act), func(k int) { m.stepFPGAWindow(act[k], w) })
}

// stepFPGAWindow steps FPGA fp through the cycles before w with the rules
// of the cycle loop: its units and crossbar, the arrivals on the links
// towards it, the serialisation onto the links from it. It pauses when a
// credit depends on takes it does not know yet.
func (m *machine) stepFPGAWindow(fp *fpga, w int64) {
	ln := &m.lanes[fp.id]
	for ln.now < w {
		t := ln.now
		if fp.paused {
			fp.paused = false
		} else {
			m.stepFPGA(fp)
			fp.stepped.Store(t)
			m.deliver(fp, t)
		}
		if !m.serialiseFrom(fp, t) {
			fp.paused = true
			return
		}
		m.accountWindow(fp, t)
		if fp.done && fp.doneSince < 0 {
			fp.doneSince = t
		}
		ln.now = t + 1
	}
}

// deliver moves the items that reach fp's receive FIFOs in cycle t off the
// wire (its crossbar sees them in the next cycle).
func (m *machine) deliver(fp *fpga, t int64) {
	for _, l := range fp.in {
		for !l.inflight.empty() && l.inflight.peek().ready <= t {
			l.rx.push(l.inflight.pop())
			m.lanes[fp.id].progress(t)
		}
	}
}

// serialiseFrom is the cycle loop's serialisation (stepLinks) for the
// links leaving fp in cycle t, or false, with nothing changed, when a
// credit it needs is not known yet.
func (m *machine) serialiseFrom(fp *fpga, t int64) bool {
	for _, l := range fp.out {
		if l != nil && !l.tx.empty() && !l.takes.knows(t, l.sent, l.rxCap, m.fpgas[l.to].stepped.Load()) {
			return false
		}
	}
	p, cost := &m.p, m.p.UpdateWords
	for _, l := range fp.out {
		if l != nil {
			l.tokens = min(l.tokens+p.PairWordsPerCycle, max(p.PairWordsPerCycle, cost))
		}
	}
	fp.ifTokens = min(fp.ifTokens+p.IfWordsPerCycle, max(p.IfWordsPerCycle, cost))
	nF, lat := len(m.fpgas), int64(max(p.LinkLatency, 1))
	first := int(t % int64(nF))
	for j := first; j < first+nF; j++ {
		i := j
		if i >= nF {
			i -= nF
		}
		l := fp.out[i]
		if l == nil || l.tx.empty() {
			continue
		}
		if !mayTake(l.tokens, fp.ifTokens, cost, l.takes.occupied(l.sent), l.rxCap) {
			continue
		}
		it := l.tx.pop()
		it.ready = t + lat
		l.outbox.push(it)
		l.tokens -= cost
		fp.ifTokens -= cost
		l.words += cost
		l.sent++
		l.lastSend = t
		m.lanes[fp.id].progress(t)
	}
	for _, l := range fp.out {
		if l != nil && (!l.tx.empty() || l.lastSend+lat > t) {
			if n := l.busy.len(); n > 0 && l.busy.nth(n-1).to == t {
				l.busy.nth(n-1).to++
			} else {
				l.busy.push(spanCycles{t, t + 1})
			}
		}
	}
	return true
}

// accountWindow attributes cycle t of every PE of fp; a PE the network or
// the barrier explains waits in fp.amb when no receive FIFO of fp holds an
// item (then its senders' side decides).
func (m *machine) accountWindow(fp *fpga, t int64) {
	rx := false
	for _, l := range fp.in {
		rx = rx || !l.rx.empty()
	}
	var mask uint64
	for i, q := range fp.pes {
		if m.accountPE(fp, q) {
			if rx {
				q.st.Network++
			} else {
				mask |= 1 << i
			}
		}
	}
	if mask != 0 {
		fp.amb.push(ambCycle{t, mask})
	}
}

// barrier joins the FPGAs after a window: the items serialised in it go
// onto the wire, the receivers' takes to the senders, and the cycles
// waiting for the senders' side are attributed.
func (m *machine) barrier() {
	for _, fp := range m.fpgas {
		if fp.paused {
			m.pauses++
		}
	}
	for _, l := range m.links {
		for !l.outbox.empty() {
			l.inflight.push(l.outbox.pop())
		}
		l.takes.handOver(m.fpgas[l.to].stepped.Load())
	}
	for _, fp := range m.fpgas {
		m.settleAmb(fp, math.MaxInt64)
	}
}

// settleAmb attributes fp's waiting cycles before end that every sender
// towards fp has serialised.
func (m *machine) settleAmb(fp *fpga, end int64) {
	for !fp.amb.empty() {
		e := fp.amb.peek()
		if e.t >= end {
			return
		}
		busy := false
		for _, l := range fp.in {
			if e.t >= m.lanes[l.from].now {
				return // the sender has not serialised cycle e.t yet
			}
			for !l.busy.empty() && l.busy.peek().to <= e.t {
				l.busy.pop()
			}
			busy = busy || !l.busy.empty() && l.busy.peek().from <= e.t
		}
		for i, q := range fp.pes {
			if e.mask&(1<<i) == 0 {
				continue
			}
			if busy {
				q.st.Network++
			} else {
				q.st.Barrier++
			}
		}
		fp.amb.pop()
	}
}

// terminated reports whether every PE has terminated by a cycle that
// every FPGA has handled; the machine then stands at that cycle, the
// cycles the FPGAs stepped beyond it taken back (all their PEs were done,
// and nothing else moves once every PE is).
func (m *machine) terminated() bool {
	end := int64(math.MinInt64)
	for _, fp := range m.fpgas {
		if fp.doneSince < 0 {
			return false
		}
		end = max(end, fp.doneSince)
	}
	for _, fp := range m.fpgas {
		if m.lanes[fp.id].now-1 < end {
			return false
		}
	}
	for _, fp := range m.fpgas {
		m.settleAmb(fp, end+1)
		extra := m.lanes[fp.id].now - 1 - end
		for _, q := range fp.pes {
			q.st.Done -= extra
		}
	}
	m.now = end
	return true
}
