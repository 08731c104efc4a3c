package testenv

import (
	"testing"
	"time"
)

// InputBudget is the longest a reader may take on one fuzz input. Go's
// fuzzing has no per-input timeout (a slow input only slows the fuzzer
// down, and the target still "passes"), so the fuzz target of every
// reader checks this bound itself: a reader that is not linear in its
// input fails its fuzz target instead of hiding in it.
const InputBudget = time.Second

// WithinBudget runs f, a reader's work on one input of n bytes, and fails
// tb when it takes longer than InputBudget.
func WithinBudget(tb testing.TB, n int, f func()) {
	tb.Helper()
	start := time.Now()
	f()
	if d := time.Since(start); d > InputBudget {
		tb.Fatalf("took %v on an input of %d bytes; a reader may take at most %v on one input", d.Round(time.Millisecond), n, InputBudget)
	}
}
