package crew

import (
	"math/bits"
	"sync/atomic"
	"time"
)

// ClaimBit clears the lowest (or, with last, the highest) bit set in free
// and returns its index, or -1 when none is set.
func ClaimBit(free *atomic.Uint64, last bool) int {
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

// Spin polls ready for up to d and reports whether it became true.
func Spin(d time.Duration, ready func() bool) bool {
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
