package model

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// TestDerivedActivityIsTheReferenceRuns checks that the activity derived
// for a kernel whose send reads only the superstep is the one the
// reference engine records, step for step and set for set (scrambled
// R-MAT, which leaves vertices without an edge; a directed dataset; a
// uniform graph), that a run reaching the superstep limit is left to the
// engine, and that a kernel whose send reads its state is never derived.
func TestDerivedActivityIsTheReferenceRuns(t *testing.T) {
	for _, tc := range []struct {
		kn, spec string
		params   map[string]string
		limit    int
		derived  bool
	}{
		{"pr", "rmat:scale=9,ef=8,seed=2", map[string]string{"iterations": "5"}, 0, true},
		{"pr", datasets.Path(t, "wiki-Vote.txt"), nil, 0, true},
		{"pr-graphalytics", "uniform:v=300,d=4,seed=3", map[string]string{"iterations": "3"}, 0, true},
		{"pr", "rmat:scale=8,ef=8", nil, 12, false},
		{"wcc", "rmat:scale=9,ef=8,seed=2", nil, 0, false},
		{"bfs", "grid:rows=9,cols=13", map[string]string{"root": "1"}, 0, false},
	} {
		t.Run(tc.kn+"/"+filepath.Base(tc.spec), func(t *testing.T) {
			g, k := cacheCase(t, tc.kn, tc.spec, tc.params)
			got, ok := deriveActivity(context.Background(), k, g, tc.limit)
			if ok != tc.derived {
				t.Fatalf("derived %v, want %v", ok, tc.derived)
			}
			if !ok {
				return
			}
			want, _, err := RecordActivity(context.Background(), k, g, kernel.RunOptions{MaxSupersteps: tc.limit})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Steps, want.Steps) || !reflect.DeepEqual(got.Sets, want.Sets) {
				t.Errorf("derived %d steps, %d sets %v; the reference run %d steps, %d sets %v", len(got.Steps), len(got.Sets), got.Steps, len(want.Steps), len(want.Sets), want.Steps)
			}
		})
	}
	// Under a limit of a billion supersteps, a send that does not stop
	// before it gives up once the context is cancelled.
	g, k := cacheCase(t, "pr", "rmat:scale=8,ef=8", map[string]string{"iterations": "4000000000"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, ok := deriveActivity(ctx, k, g, 1<<30); ok {
		t.Fatal("derived under a cancelled context")
	}
}
