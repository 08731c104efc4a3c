package crew

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Windows steps the units of each window on its caller's core and its
// helpers'. Fast detail's FPGAs take 40 to 80 µs each to step through a
// window (rmat:scale=16 at 4 x 9, WCC and PR), about what it takes to
// wake a parked goroutine on a busy machine (120 to 160 µs measured), so
// a goroutine spawned per window joined late, took one FPGA of four, and
// the caller then waited for it: two cores ran slower than one. A crew's
// helpers live for thousands of windows: between windows they spin
// briefly for the next and only then park.
type Windows struct {
	cur     atomic.Pointer[window]
	helpers []*helper
	pace    *Pace
	// Dealt counts the windows handed to the helpers (not stepped by the
	// caller alone).
	Dealt int
}

// helper is one of a crew's goroutines: asleep says it is parked on wake
// (or about to be), so that new work must wake it.
type helper struct {
	wake   chan struct{}
	asleep atomic.Bool
}

// window is what a crew steps at once: units 0 to n-1 with step. free
// holds the units not claimed yet (bit k for unit k; at most 64), left
// those not stepped yet; the helper that steps the last tells the caller
// on done. A crew ends on a window with stop set.
type window struct {
	step   func(k int)
	free   atomic.Uint64
	left   atomic.Int32
	done   chan struct{}
	parked atomic.Bool // the caller waits on done
	stop   bool
}

// How long a helper spins for the next window and the caller for the
// helpers' last units before they park: longer than the serial part
// between windows (the barrier, a few µs) and than most of a unit's
// window, short enough not to hold a core that another process needs.
const (
	helperSpin = 50 * time.Microsecond
	callerSpin = 100 * time.Microsecond
)

// MaxUnits is the most units a window or a cycle may have.
const MaxUnits = 64

// StartWindows starts helpers goroutines that step, with the caller of
// Run, the units of every window until Stop; p paces them (its zero value
// judges them over rounds of 64 windows).
func StartWindows(helpers int, p *Pace) *Windows {
	c := &Windows{pace: p}
	for range helpers {
		h := &helper{wake: make(chan struct{}, 1)}
		c.helpers = append(c.helpers, h)
		go c.help(h)
	}
	return c
}

// Stop ends the crew's helpers (they return when they see it; none is
// stepping a unit, as Run waits for every window's).
func (c *Windows) Stop() { c.publish(&window{stop: true}) }

// publish hands the helpers a new window and wakes those that sleep.
// A helper marks itself asleep before it looks for the window a last
// time, so either it sees the window or publish sees it asleep.
func (c *Windows) publish(wn *window) {
	c.cur.Store(wn)
	for _, h := range c.helpers {
		if h.asleep.Load() {
			select {
			case h.wake <- struct{}{}:
			default: // a wake is pending already
			}
		}
	}
}

// help is a helper's loop: wait for a window, step the units it can
// claim from the last, and wait for the next.
func (c *Windows) help(h *helper) {
	var seen *window
	for {
		wn := c.cur.Load()
		if wn == seen {
			if !Spin(helperSpin, func() bool { return c.cur.Load() != seen }) {
				h.asleep.Store(true)
				if c.cur.Load() == seen {
					<-h.wake
				}
				h.asleep.Store(false)
			}
			continue
		}
		if wn.stop {
			return
		}
		seen = wn
		for k := ClaimBit(&wn.free, true); k >= 0; k = ClaimBit(&wn.free, true) {
			wn.step(k)
			if wn.left.Add(-1) == 0 {
				wn.done <- struct{}{}
				if wn.parked.Load() {
					runtime.Gosched() // the caller runs next on this core, not when another wakes
				}
			}
		}
	}
}

// Run steps units 0 to n-1 (at most MaxUnits) with step and returns when
// every one has been: with the helpers, the caller claiming from the
// first and then waiting for the units the helpers claimed, or on the
// caller alone with one unit, no helper, or while the pace rests.
func (c *Windows) Run(n int, step func(k int)) {
	if n < 2 || len(c.helpers) == 0 || c.pace.Resting() {
		for k := range n {
			step(k)
		}
		return
	}
	c.Dealt++
	wn := &window{step: step, done: make(chan struct{}, 1)}
	wn.free.Store(^uint64(0) >> (64 - n))
	wn.left.Store(int32(n))
	c.publish(wn)
	mine := 0
	for k := ClaimBit(&wn.free, false); k >= 0; k = ClaimBit(&wn.free, false) {
		step(k)
		wn.left.Add(-1)
		mine++
	}
	if wn.left.Load() > 0 && !Spin(callerSpin, func() bool { return wn.left.Load() == 0 }) {
		wn.parked.Store(true)
		<-wn.done
	}
	c.pace.Count(n, n-mine, len(c.helpers)+1)
}
