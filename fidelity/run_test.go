package fidelity

import (
	"context"
	"errors"
	"testing"
)

// TestRunFuncReportsTheCause: when a later point fails while an earlier
// one is running, the run returns the failure, not the earlier point's
// cancellation that it caused.
func TestRunFuncReportsTheCause(t *testing.T) {
	cause := errors.New("no dataset folder")
	points := []Point{{Kernel: "wcc"}, {Kernel: "pr"}}
	measure := func(ctx context.Context, p Point) (*Measurement, error) {
		if p.Kernel == "wcc" {
			<-ctx.Done() // a long point, stopped by the other's failure
			return nil, ctx.Err()
		}
		return nil, cause
	}
	_, err := RunFunc(context.Background(), points, 2, measure, nil)
	if !errors.Is(err, cause) {
		t.Fatalf("RunFunc returned %v, want the failing point's error %v", err, cause)
	}
}

// TestRunFuncCancelled: a run cancelled by its caller returns the
// cancellation.
func TestRunFuncCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	measure := func(ctx context.Context, p Point) (*Measurement, error) { return nil, ctx.Err() }
	if _, err := RunFunc(ctx, []Point{{}, {}, {}}, 2, measure, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("RunFunc returned %v, want context.Canceled", err)
	}
}
