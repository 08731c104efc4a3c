package sim

import (
	"math/bits"
	"runtime"
	"sync/atomic"
	"time"
)

// The cores that step the FPGAs of fast detail's windows (fastwindow.go).
// A window's FPGAs take 40 to 80 µs each to step (rmat:scale=16 at 4 x 9,
// WCC and PR), about what it takes to wake a parked goroutine on a busy
// machine (120 to 160 µs measured), so a goroutine spawned per window
// joined late, took one FPGA of four, and the caller then waited for it:
// two cores ran slower than one. A crew's helpers live for one advance
// (thousands of windows): between windows they spin briefly for the next
// and only then park. The FPGAs of a window are claimed one at a time,
// the caller from the first and the helpers from the last, so that on two
// free cores each core keeps stepping the same FPGAs (their state stays
// in its cache) and a late helper finds the rest; the caller waits only
// for FPGAs a helper has claimed, never for a helper that has not come,
// so a window on a machine with no core to spare costs what it costs on
// one. Which core steps an FPGA does not change what it computes: the
// FPGAs of a window share nothing but read-only state.
type crew struct {
	cur     atomic.Pointer[window]
	helpers []*helper
}

// helper is one of a crew's goroutines: asleep says it is parked on wake
// (or about to be), so that a new window must wake it.
type helper struct {
	wake   chan struct{}
	asleep atomic.Bool
}

// window is what a crew steps at once: the FPGAs in act, through the
// cycles before w. free holds the FPGAs not claimed yet (bit i for
// act[i]; an FPGA index fits, since there are at most 64), left those not
// stepped yet; the helper that steps the last tells the caller on done.
// A crew ends on a window with stop set.
type window struct {
	w      int64
	final  bool
	act    []*fxFPGA
	free   atomic.Uint64
	left   atomic.Int32
	done   chan struct{}
	parked atomic.Bool // the caller waits on done
	stop   bool
}

// How long a helper spins for the next window and the caller for the
// helpers' last FPGAs before they park: longer than the serial part
// between windows (the barrier, a few µs) and than most of an FPGA's
// window, short enough not to hold a core that another process needs.
const (
	helperSpin = 50 * time.Microsecond
	callerSpin = 100 * time.Microsecond
)

// startCrew starts n helpers that step the FPGAs of f's windows with the
// caller of runWindow until stop.
func (f *fastM) startCrew(n int) *crew {
	c := &crew{}
	for range n {
		h := &helper{wake: make(chan struct{}, 1)}
		c.helpers = append(c.helpers, h)
		go f.help(c, h)
	}
	return c
}

// stop ends the crew's helpers (they return when they see it; none is
// stepping an FPGA, as the caller has waited for every window's).
func (c *crew) stop() { c.publish(&window{stop: true}) }

// publish hands the helpers a new window and wakes those that sleep.
// A helper marks itself asleep before it looks for the window a last
// time, so either it sees the window or publish sees it asleep.
func (c *crew) publish(wn *window) {
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

// help is a helper's loop: wait for a window, step the FPGAs it can
// claim from the last, and wait for the next.
func (f *fastM) help(c *crew, h *helper) {
	var seen *window
	for {
		wn := c.cur.Load()
		if wn == seen {
			if !spin(helperSpin, func() bool { return c.cur.Load() != seen }) {
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
		for k := wn.claim(true); k >= 0; k = wn.claim(true) {
			f.runFPGA(wn.act[k], wn.w, wn.final)
			if wn.left.Add(-1) == 0 {
				wn.done <- struct{}{}
				if wn.parked.Load() {
					runtime.Gosched() // the caller runs next on this core, not when another wakes
				}
			}
		}
	}
}

// runCrew steps the FPGAs in act through the cycles before w with the
// crew: the caller claims from the first, and then waits for the FPGAs
// the helpers claimed.
func (f *fastM) runCrew(act []*fxFPGA, w int64, final bool) {
	wn := &window{w: w, final: final, act: act, done: make(chan struct{}, 1)}
	wn.free.Store(^uint64(0) >> (64 - len(act)))
	wn.left.Store(int32(len(act)))
	f.crew.publish(wn)
	mine := 0
	for k := wn.claim(false); k >= 0; k = wn.claim(false) {
		f.runFPGA(act[k], w, final)
		wn.left.Add(-1)
		mine++
	}
	if wn.left.Load() > 0 && !spin(callerSpin, func() bool { return wn.left.Load() == 0 }) {
		wn.parked.Store(true)
		<-wn.done
	}
	f.pace.count(len(act), len(act)-mine, f.workers)
}

// pace keeps the helpers of fast detail's crews from costing more than
// they bring. On a machine whose other cores are busy a helper's thread
// runs in slices between other processes': it comes late to most
// windows, spins for windows it misses, and the caller waits for the
// FPGAs it holds, so two cores ran a third slower than one (PR, one core
// taken by another process). Over each round of paceRound windows it
// counts the FPGAs the helpers stepped; after a round in which they
// stepped fewer than two thirds of their share, the caller steps the next
// rest windows alone (the helpers park) and tries the crew again, the
// rest doubling after each such round up to maxRest. rested counts the
// windows stepped alone (BenchmarkFastParts reports it). A pace whose
// round is set counts rounds of that many windows and rests at most
// maxRest times as long (cycle detail's cycles, cyclecrew.go); the zero
// pace has rounds of paceRound windows.
type pace struct {
	windows, fpgas, helped int
	rest, backoff          int
	rested                 int
	round                  int
}

const (
	paceRound = 64
	maxRest   = 4096
)

// resting reports whether the caller steps this window alone.
func (p *pace) resting() bool {
	if p.rest > 0 {
		p.rest--
		p.rested++
		return true
	}
	return false
}

// count records a crew's window of n FPGAs, helped of them stepped by
// the helpers of a crew of workers cores.
func (p *pace) count(n, helped, workers int) {
	p.windows++
	p.fpgas += n
	p.helped += helped
	round := p.round
	if round == 0 {
		round = paceRound
	}
	if p.windows < round {
		return
	}
	if 3*workers*p.helped < 2*(workers-1)*p.fpgas {
		p.backoff = min(max(2*p.backoff, round), maxRest*round/paceRound)
		p.rest = p.backoff
	} else {
		p.backoff = 0
	}
	p.windows, p.fpgas, p.helped = 0, 0, 0
}

// claim takes the first (or the last) FPGA of the window not claimed yet
// and returns its index in act, or -1 when all are.
func (wn *window) claim(last bool) int { return claimBit(&wn.free, last) }

// claimBit clears the lowest (or the highest) bit set in free and returns
// its index, or -1 when none is set.
func claimBit(free *atomic.Uint64, last bool) int {
	for {
		f := free.Load()
		if f == 0 {
			return -1
		}
		k := bits.TrailingZeros64(f)
		if last {
			k = 63 - bits.LeadingZeros64(f)
		}
		if free.CompareAndSwap(f, f&^(1<<k)) {
			return k
		}
	}
}

// spin polls ready for up to d and reports whether it became true.
func spin(d time.Duration, ready func() bool) bool {
	start := time.Now()
	for i := 1; ; i++ {
		if ready() {
			return true
		}
		if i%64 == 0 && time.Since(start) > d {
			return false
		}
	}
}
