package testenv

import (
	"runtime"
	"testing"
	"time"
)

// InputBudget is the most CPU time a reader may take on one fuzz input.
// Go's fuzzing has no per-input timeout (a slow input only slows the
// fuzzer down, and the target still "passes"), so the fuzz target of
// every reader checks this bound itself: a reader that is not linear in
// its input fails its fuzz target instead of hiding in it. The bound is on
// the process's CPU time, not the wall clock, so that a machine busy with
// other work does not make a fast reader look slow.
const InputBudget = time.Second

// WithinBudget runs f, a reader's work on one input of n bytes, and fails
// tb when it takes more than InputBudget of CPU time.
func WithinBudget(tb testing.TB, n int, f func()) {
	tb.Helper()
	start := cpuTime()
	f()
	if d := cpuTime() - start; d > InputBudget {
		tb.Fatalf("took %v of CPU time on an input of %d bytes; a reader may take at most %v on one input", d.Round(time.Millisecond), n, InputBudget)
	}
}

// AllocatedPerByte runs f, a reader's work on an input of n bytes, and
// returns the bytes it allocated per input byte. Allocations are
// deterministic where time is not, so a test of a reader's work per input
// byte compares this figure at two sizes instead of timing anything.
func AllocatedPerByte(n int, f func()) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(max(n, 1))
}
