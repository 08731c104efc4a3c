package crew_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/crew"
)

// TestClaimBit claims a window's units from both ends, as the caller and
// the helpers of a crew do, and requires each to be claimed once: the
// caller's from the first, the helpers' from the last.
func TestClaimBit(t *testing.T) {
	for _, tc := range []struct {
		n     int
		order []bool // true: a helper claims
		want  []int
	}{
		{2, []bool{false, true, false}, []int{0, 1, -1}},
		{4, []bool{false, true, false, true, true}, []int{0, 3, 1, 2, -1}},
		{4, []bool{true, true, true, true, false}, []int{3, 2, 1, 0, -1}},
		{64, []bool{false, true}, []int{0, 63}},
	} {
		var free atomic.Uint64
		free.Store(^uint64(0) >> (64 - tc.n))
		for i, last := range tc.order {
			if got := crew.ClaimBit(&free, last); got != tc.want[i] {
				t.Errorf("%d units, claim %d (helper %v): %d, want %d", tc.n, i, last, got, tc.want[i])
			}
		}
	}
}

// TestEveryUnitOnce runs windows and cycles of 1 to 6 units with crews of
// one to four cores, some starting at rest, and requires every unit of
// every window to be stepped exactly once before Run (or Cycle) returns,
// and no helper to outlive its crew.
func TestEveryUnitOnce(t *testing.T) {
	goroutines := runtime.NumGoroutine()
	const rounds = 300
	for _, helpers := range []int{0, 1, 3} {
		for _, rest := range []int{0, 40} {
			for n := 1; n <= 6; n++ {
				counts := make([]atomic.Int32, n)
				step := func(k int) { counts[k].Add(1) }
				check := func(kind string, r int) {
					for k := range counts {
						if c := counts[k].Swap(0); c != 1 {
							t.Fatalf("%s, %d helpers, %d units, window %d: unit %d stepped %d times", kind, helpers, n, r, k, c)
						}
					}
				}
				var p crew.Pace
				p.RestFor(rest)
				w := crew.StartWindows(helpers, &p)
				for r := range rounds {
					w.Run(n, step)
					check("windows", r)
				}
				w.Stop()
				var q crew.Pace
				q.RestFor(rest)
				c := crew.StartCycles(n, helpers, &q, step)
				for r := range rounds {
					c.Cycle()
					check("cycles", r)
				}
				c.Stop()
				if helpers > 0 && n > 1 && w.Dealt == 0 {
					t.Errorf("%d helpers, %d units: no window was dealt out", helpers, n)
				}
			}
		}
	}
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > goroutines; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after the crews, %d before", runtime.NumGoroutine(), goroutines)
		}
		time.Sleep(time.Millisecond)
	}
}
