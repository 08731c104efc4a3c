package sim

import (
	"runtime"
	"sync/atomic"
	"time"
)

// crewMinPEs is the smallest system whose cycles a crew steps. Below it
// a cycle's work is too little to share: the hand-over of each cycle
// costs about what stepping ten PEs does. WCC on rmat:scale=14, off-chip,
// one core's run time over two cores' (medians of three): 2 x 1 0.53,
// 2 x 2 0.92, 4 x 1 0.77, 2 x 4 0.85, 4 x 2 1.08, 3 x 3 1.00, 4 x 4 1.04,
// 2 x 9 1.14, 3 x 9 1.16, 4 x 6 1.15, 8 x 3 1.45, 2 x 16 1.15, 4 x 9 1.23
// to 1.55, 8 x 9 1.25; PR on rmat:scale=12: 2 x 4 0.85, 4 x 4 0.71,
// 2 x 9 1.07, 4 x 6 1.09, 4 x 9 1.28.
const crewMinPEs = 24

// cycleSpin is how long a helper polls for the next cycle before it parks:
// several times the caller's part between two cycles (the links, about a
// microsecond), so that on free cores a helper does not park, and short,
// so that on a machine with no core to spare a helper does not spin on
// one another process needs. A helper that had to be woken makes pace
// count the cycle as unhelped, so the crew rests there.
const cycleSpin = 5 * time.Microsecond

// slowWait is how many polls the caller may wait for the helpers' FPGAs
// before pace counts the cycle as one they did not help with (tens of
// µs, many times an FPGA's cycle, which takes a few hundred polls): on a
// machine whose cores are all taken a helper's thread is descheduled
// while it holds an FPGA, and the caller then waits a time slice for it.
const slowWait = 4096

// cycleRound is the number of cycles over which pace judges the helpers.
const cycleRound = 4096

// cycleCrew steps cycle detail's FPGAs on more than one core. Within a
// cycle an FPGA's gather, apply, scatter and crossbar read and write only
// its own PEs,
// its own memory arbiter, the receive side of the links that arrive at it
// and the send side of those that leave it, and the states of its own
// vertices (lane holds its counters, its progress and its kernel
// context); what crosses FPGAs, the links' serialisation and delivery and
// the stall accounting, runs after every FPGA has stepped, on the caller.
// So the FPGAs of one cycle may step in any order and at once, and a run
// is the same on any number of cores (TestCycleCoresIdentical).
//
// A cycle's FPGAs take about a microsecond each to step (rmat:scale=14 at
// 4 x 9), far less than parking and waking a goroutine, so the crew's
// helpers live for the whole run and poll for the next cycle, parking
// only when none comes for cycleSpin (the caller's serial part between
// cycles is well under that). The FPGAs are claimed one at a time, the
// caller from the first and the helpers from the last, so that on two
// free cores each keeps stepping the same FPGAs and a late helper finds
// the rest; the caller never waits for a helper that has not claimed one.
// Where the helpers do not keep up or hold their FPGAs too long (the
// machine's other cores are busy) pace has the caller step cycles alone
// for a while. Its round is cycleRound cycles (about 15 ms at 4 x 9),
// long enough that a helper woken after a rest (100 to 200 µs on a busy
// machine) does not fail the first round back: rounds as short as fast
// detail's 64 windows (a few hundred µs of cycles) sent the crew into
// rests that doubled for no reason.
type cycleCrew struct {
	step    func(k int) // steps FPGA k through the current cycle
	ready   func() bool // a cycle has FPGAs to claim, or the crew has stopped
	n       int
	all     uint64
	helpers []*helper
	pace    *pace
	// The claims and the count of FPGAs left each take a cache line of
	// their own: both cores write them every cycle.
	_       [64]byte
	free    atomic.Uint64 // FPGAs of the current cycle not claimed yet
	_       [56]byte
	left    atomic.Int32 // FPGAs of the current cycle not stepped yet
	_       [60]byte
	stopped atomic.Bool
}

// startCycleCrew starts helpers goroutines that step, with the caller of
// cycle, the n FPGAs of each cycle, until stop; p paces them.
func startCycleCrew(n, helpers int, p *pace, step func(k int)) *cycleCrew {
	c := &cycleCrew{step: step, n: n, all: ^uint64(0) >> (64 - n), pace: p}
	c.ready = func() bool { return c.free.Load() != 0 || c.stopped.Load() }
	for range helpers {
		h := &helper{wake: make(chan struct{}, 1)}
		c.helpers = append(c.helpers, h)
		go c.help(h)
	}
	return c
}

// cycle steps every FPGA through the current cycle and returns when all
// have.
func (c *cycleCrew) cycle() {
	if c.pace.resting() {
		for k := range c.n {
			c.step(k)
		}
		return
	}
	c.left.Store(int32(c.n))
	c.free.Store(c.all) // after left: a helper claims only from a cycle whose count is set
	woken := c.wakeHelpers()
	mine := 0
	for k := claimBit(&c.free, false); k >= 0; k = claimBit(&c.free, false) {
		c.step(k)
		c.left.Add(-1)
		mine++
	}
	waited := 0
	for ; c.left.Load() > 0; waited++ {
		if waited%256 == 255 {
			runtime.Gosched() // a helper holds an FPGA; let it run if it shares this core
		}
	}
	helped := c.n - mine
	if waited > slowWait || woken {
		// The helper held its FPGAs too long (its thread lost its core), or
		// had parked and had to be woken: either way it costs more than it
		// brings.
		helped = 0
	}
	c.pace.count(c.n, helped, len(c.helpers)+1)
}

// stop ends the helpers; none is stepping an FPGA, since cycle waits for
// every one it hands out.
func (c *cycleCrew) stop() {
	c.stopped.Store(true)
	c.wakeHelpers()
}

// wakeHelpers wakes the helpers that have parked and reports whether
// there were any.
func (c *cycleCrew) wakeHelpers() bool {
	woken := false
	for _, h := range c.helpers {
		if h.asleep.Load() {
			woken = true
			select {
			case h.wake <- struct{}{}:
			default: // a wake is pending already
			}
		}
	}
	return woken
}

// help is a helper's loop: claim FPGAs from the last while the current
// cycle has any, then wait for the next cycle.
func (c *cycleCrew) help(h *helper) {
	for !c.stopped.Load() {
		for k := claimBit(&c.free, true); k >= 0; k = claimBit(&c.free, true) {
			c.step(k)
			c.left.Add(-1)
		}
		if !spin(cycleSpin, c.ready) {
			// Mark the helper asleep before the last look, so that either
			// it sees the cycle or the caller sees it asleep and wakes it.
			h.asleep.Store(true)
			if c.free.Load() == 0 && !c.stopped.Load() {
				<-h.wake
			}
			h.asleep.Store(false)
		}
	}
}
