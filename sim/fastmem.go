package sim

import "math"

// memArbiter is one FPGA's off-chip memory bandwidth at fast detail. The
// cycle-level machine refills a token bucket by r = MemWordsPerCycle every
// cycle up to max(r, 1) tokens, and every word request takes one: with
// r >= 1 a cycle can grant floor(r) requests and no more (the bucket is
// full again at the next refill), with r < 1 one request every ceil(1/r)
// cycles. Requests reach the arbiter in the order the PEs' items are
// processed, not in time order, so it keeps, for a window of cycles
// ahead, how many words each cycle has granted: a request goes out in the
// first cycle from the one asked for that has a token left.
type memArbiter struct {
	perCycle int32   // grants per cycle (r >= 1)
	gap      int64   // cycles from one grant to the next (r < 1)
	base     int64   // the cycle of used[0]
	used     []int32 // words granted per cycle, from base on
}

// memWindow is how many cycles ahead the arbiter keeps; a request further
// ahead than that is granted at once (no PE is that far ahead of the
// crossbar in practice).
const memWindow = 1 << 14

// newMemArbiter returns the arbiter for r words per cycle, or nil when
// the memory never limits (no figure, or more words than PEs can ask for).
func newMemArbiter(r float64, pes int) *memArbiter {
	if r <= 0 || math.IsInf(r, 1) || r >= float64(pes) {
		return nil
	}
	a := &memArbiter{perCycle: 1, gap: 1, used: make([]int32, memWindow)}
	if r >= 1 {
		a.perCycle = int32(math.Floor(r + 1e-9))
	} else {
		a.gap = int64(math.Ceil(1/r - 1e-9))
	}
	return a
}

// grant returns the cycle from t on in which a word request is served.
func (a *memArbiter) grant(t int64) int64 {
	if a == nil {
		return t
	}
	if t < a.base {
		t = a.base
	}
	if t-a.base >= memWindow/2 {
		a.slide(t - memWindow/4)
	}
	if a.gap == 1 {
		// floor(r) grants in every cycle: the first cycle with one left.
		i := int(t - a.base)
		for i < len(a.used) && a.used[i] >= a.perCycle {
			i++
		}
		if i < len(a.used) {
			a.used[i]++
		}
		return a.base + int64(i)
	}
	for c := t; ; c++ {
		i := int(c - a.base)
		if i >= len(a.used) {
			return c
		}
		if a.free(i) {
			a.used[i]++
			return c
		}
	}
}

// free reports whether cycle base+i can grant one more request.
func (a *memArbiter) free(i int) bool {
	if a.used[i] >= a.perCycle {
		return false
	}
	for j := max(0, i-int(a.gap)+1); j < min(len(a.used), i+int(a.gap)); j++ {
		if j != i && a.used[j] > 0 {
			return false
		}
	}
	return true
}

// slide moves the window to start at cycle b (> base).
func (a *memArbiter) slide(b int64) {
	d := int(b - a.base)
	if d >= len(a.used) {
		clear(a.used)
	} else {
		copy(a.used, a.used[d:])
		clear(a.used[len(a.used)-d:])
	}
	a.base = b
}
