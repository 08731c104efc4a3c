package sim

import (
	"math"
	"sync/atomic"
)

// takeLog is what the sender of a link knows of its receiver's takes off
// the receive FIFO when the two ends step a window on their own clocks
// (cycle detail's windows, cyclewindow.go, and fast detail's,
// fastwindow.go). The one thing a sender reads of its receiver without
// latency is the FIFO's credit: the items it has serialised less those
// the receiver's crossbar has taken up to this cycle must stay under the
// capacity. The receiver logs the cycle of every take in the window
// (take); a barrier hands the takes the sender has not read to its end
// (handOver), complete up to the last cycle the receiver's crossbar had
// stepped (horizon). While the items sent less the takes the sender knows
// stay under the capacity the credit is there whatever it does not know;
// when they do not and the cycle is past the horizon it must read the
// takes of the window the receiver is stepping, if the receiver has
// stepped that cycle, or wait for the next barrier.
type takeLog struct {
	// The receiver's end: the cycles of its takes in the current window,
	// the first n of them written. A crossbar takes at most one item a
	// cycle and a window is at most len(cycles) cycles long.
	cycles []int64
	n      atomic.Int32
	// The sender's end: the takes counted (every one at or before the
	// sender's clock), read of cycles counted while the receiver ran, the
	// cycles of the takes handed over and not counted yet, and the last
	// cycle they cover.
	counted int64
	read    int32
	known   ring[int64]
	horizon int64
}

// notLive is the stepped cycle of a receiver whose log of the current
// window its sender does not read (knows).
const notLive = math.MinInt64

// newTakeLog returns the log of a link whose windows last at most window
// cycles, with every take before cycle horizon+1 counted.
func newTakeLog(window int64, horizon int64) takeLog {
	return takeLog{cycles: make([]int64, max(window, 1)), known: newRing[int64](64), horizon: horizon}
}

// take logs the receiver's take in cycle t.
func (c *takeLog) take(t int64) {
	n := c.n.Load()
	c.cycles[n] = t
	c.n.Store(n + 1)
}

// handOver ends a window: the takes the sender has not read go to its end,
// complete up to cycle horizon.
func (c *takeLog) handOver(horizon int64) {
	for _, t := range c.cycles[c.read:c.n.Load()] {
		c.known.push(t)
	}
	c.n.Store(0)
	c.read = 0
	c.horizon = horizon
}

// knows counts the takes the sender knows up to its cycle t and reports
// whether they settle the credit for sent items of capacity: room even
// without the takes not known yet, or every take up to t known, handed
// over or, when the receiver has stepped cycle t (stepped >= t; notLive
// when the sender may not read it), logged in the current window.
func (c *takeLog) knows(t, sent int64, capacity int, stepped int64) bool {
	for !c.known.empty() && *c.known.peek() <= t {
		c.known.pop()
		c.counted++
	}
	if sent-c.counted < int64(capacity) || t <= c.horizon {
		return true
	}
	if stepped < t {
		return false
	}
	for n := c.n.Load(); c.read < n && c.cycles[c.read] <= t; c.read++ {
		c.counted++
	}
	return true
}

// occupied is the sender's count of the items in flight and in the
// receive FIFO: sent less the takes it has counted.
func (c *takeLog) occupied(sent int64) int64 { return sent - c.counted }
