package fidelity

import (
	"context"
	"runtime"
	"sync"
)

// Progress reports one finished point of a run; Done counts the points
// finished so far, in any order.
type Progress struct {
	Done, Total int
	Measurement *Measurement
	Err         error
}

// Run measures the points with a pool of workers (GOMAXPROCS when workers
// < 1): the points are independent simulations. The measurements come
// back in the order of points whatever the order they finish in; a point
// that fails stops the run with its error (the others already running
// finish first). The error returned is the first to happen, not the first
// in the points' order: the points stopped by it fail with the context's
// cancellation, which says nothing of the cause.
func Run(ctx context.Context, env Env, points []Point, workers int, progress func(Progress)) ([]*Measurement, error) {
	return RunFunc(ctx, points, workers, func(ctx context.Context, p Point) (*Measurement, error) { return Measure(ctx, env, p) }, progress)
}

// RunFunc is Run with another measurement of each point (MeasureCycle,
// MeasureModel).
func RunFunc(ctx context.Context, points []Point, workers int, measure func(context.Context, Point) (*Measurement, error), progress func(Progress)) ([]*Measurement, error) {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([]*Measurement, len(points))
	next := make(chan int)
	var mu sync.Mutex
	done := 0
	var first error // the error that stopped the run
	var wg sync.WaitGroup
	for w := 0; w < min(workers, max(len(points), 1)); w++ {
		wg.Go(func() {
			for i := range next {
				m, err := measure(ctx, points[i])
				mu.Lock()
				out[i] = m
				if err != nil && first == nil {
					first = err
				}
				done++
				if progress != nil {
					progress(Progress{Done: done, Total: len(points), Measurement: m, Err: err})
				}
				mu.Unlock()
				if err != nil {
					cancel()
				}
			}
		})
	}
feed:
	for i := range points {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	for _, m := range out {
		if m == nil {
			return nil, parent.Err() // cancelled before every point was fed
		}
	}
	return out, nil
}
