package model

import (
	"sync"
	"sync/atomic"
)

// inPieces runs work on up to workers goroutines (on the caller's when
// there is one) and waits for them. Each call of work takes the pieces
// 0 to n-1 not taken yet, one at a time, from take (false: none left), so
// that a goroutine keeps its own scratch space across the pieces it takes
// and a slow piece holds up one goroutine, not the others' share. The
// callers' results do not depend on which goroutine took which piece.
func inPieces(workers, n int, work func(take func() (int, bool))) {
	var next atomic.Int64
	take := func() (int, bool) {
		i := int(next.Add(1)) - 1
		return i, i < n
	}
	workers = min(workers, n)
	if workers <= 1 {
		work(take)
		return
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(take)
		}()
	}
	wg.Wait()
}
