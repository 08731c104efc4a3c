package crew

import (
	"runtime"
	"sync/atomic"
	"time"
)

// cycleSpin is how long a helper polls for the next cycle before it parks:
// several times the caller's part between two cycles (cycle detail's
// links, about a microsecond), so that on free cores a helper does not
// park, and short, so that on a machine with no core to spare a helper
// does not spin on one another process needs. A helper that had to be
// woken makes the pace count the cycle as unhelped, so the crew rests
// there.
const cycleSpin = 5 * time.Microsecond

// slowWait is how many polls the caller may wait for the helpers' units
// before the pace counts the cycle as one they did not help with (tens
// of µs, many times a unit's cycle, which takes a few hundred polls): on
// a machine whose cores are all taken a helper's thread is descheduled
// while it holds a unit, and the caller then waits a time slice for it.
const slowWait = 4096

// CycleRound is the number of cycles over which a Cycles crew's pace
// judges the helpers: about 15 ms of cycle detail at 4 x 9, long enough
// that a helper woken after a rest (100 to 200 µs on a busy machine) does
// not fail the first round back; rounds as short as a window crew's 64
// windows (a few hundred µs of cycles) sent the crew into rests that
// doubled for no reason.
const CycleRound = 4096

// Cycles steps the units of every cycle on its caller's core and its
// helpers', for cycles of about a microsecond per unit (cycle detail's
// FPGAs at 4 x 9), far less than parking and waking a goroutine: the
// helpers poll for the next cycle, parking only when none comes for
// cycleSpin.
type Cycles struct {
	step    func(k int) // steps unit k through the current cycle
	ready   func() bool // a cycle has units to claim, or the crew has stopped
	n       int
	all     uint64
	helpers []*helper
	pace    *Pace
	// The claims and the count of units left each take a cache line of
	// their own: both cores write them every cycle.
	_       [64]byte
	free    atomic.Uint64 // units of the current cycle not claimed yet
	_       [56]byte
	left    atomic.Int32 // units of the current cycle not stepped yet
	_       [60]byte
	stopped atomic.Bool
}

// StartCycles starts helpers goroutines that step, with the caller of
// Cycle, the n units (at most MaxUnits) of each cycle with step, until
// Stop; p paces them over rounds of CycleRound cycles.
func StartCycles(n, helpers int, p *Pace, step func(k int)) *Cycles {
	p.Round = CycleRound
	c := &Cycles{step: step, n: n, all: ^uint64(0) >> (64 - n), pace: p}
	c.ready = func() bool { return c.free.Load() != 0 || c.stopped.Load() }
	for range helpers {
		h := &helper{wake: make(chan struct{}, 1)}
		c.helpers = append(c.helpers, h)
		go c.help(h)
	}
	return c
}

// Cycle steps every unit through the current cycle and returns when all
// have.
func (c *Cycles) Cycle() {
	if c.pace.Resting() {
		for k := range c.n {
			c.step(k)
		}
		return
	}
	c.left.Store(int32(c.n))
	c.free.Store(c.all) // after left: a helper claims only from a cycle whose count is set
	woken := c.wakeHelpers()
	mine := 0
	for k := ClaimBit(&c.free, false); k >= 0; k = ClaimBit(&c.free, false) {
		c.step(k)
		c.left.Add(-1)
		mine++
	}
	waited := 0
	for ; c.left.Load() > 0; waited++ {
		if waited%256 == 255 {
			runtime.Gosched() // a helper holds a unit; let it run if it shares this core
		}
	}
	helped := c.n - mine
	if waited > slowWait || woken {
		// The helper held its units too long (its thread lost its core), or
		// had parked and had to be woken: either way it costs more than it
		// brings.
		helped = 0
	}
	c.pace.Count(c.n, helped, len(c.helpers)+1)
}

// Stop ends the helpers; none is stepping a unit, since Cycle waits for
// every one it hands out.
func (c *Cycles) Stop() {
	c.stopped.Store(true)
	c.wakeHelpers()
}

// wakeHelpers wakes the helpers that have parked and reports whether
// there were any.
func (c *Cycles) wakeHelpers() bool {
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

// help is a helper's loop: claim units from the last while the current
// cycle has any, then wait for the next cycle.
func (c *Cycles) help(h *helper) {
	for !c.stopped.Load() {
		for k := ClaimBit(&c.free, true); k >= 0; k = ClaimBit(&c.free, true) {
			c.step(k)
			c.left.Add(-1)
		}
		if !Spin(cycleSpin, c.ready) {
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
