package model

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestInPiecesTakesEveryPieceOnce: whatever the workers and pieces, every
// piece is taken exactly once, and no more goroutines start than pieces.
func TestInPiecesTakesEveryPieceOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 8} {
		for _, n := range []int{0, 1, 5, 1000} {
			t.Run(fmt.Sprintf("workers=%d/n=%d", workers, n), func(t *testing.T) {
				taken := make([]atomic.Int32, n)
				var calls atomic.Int32
				inPieces(workers, n, func(take func() (int, bool)) {
					calls.Add(1)
					for i, ok := take(); ok; i, ok = take() {
						taken[i].Add(1)
					}
				})
				for i := range taken {
					if c := taken[i].Load(); c != 1 {
						t.Fatalf("piece %d taken %d times", i, c)
					}
				}
				if c := int(calls.Load()); c < 1 || c > max(1, min(workers, n)) {
					t.Errorf("%d goroutines for %d workers and %d pieces", c, workers, n)
				}
			})
		}
	}
}
