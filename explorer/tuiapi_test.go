package explorer

import (
	"context"
	"slices"
	"testing"
)

// TestDepsReady: Deps names the cells a cell reads; Ready is true for a
// model cell only once its dependencies and the graph-sized memos are
// cached, and becomes false again when an edit changes the dataset.
func TestDepsReady(t *testing.T) {
	nb := Default()
	// notes, platform, kernel, dataset, partition, model, sweep, simulate, trace, export
	if got := nb.Deps(5); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("model deps %v", got)
	}
	if got := nb.Deps(8); !slices.Equal(got, []int{7}) {
		t.Errorf("trace deps %v", got)
	}
	if nb.Deps(-1) != nil || nb.Deps(99) != nil {
		t.Error("deps of a missing cell")
	}
	if !nb.Ready(1) || !nb.Ready(2) || !nb.Ready(0) {
		t.Error("platform, kernel and notes cells are always ready")
	}
	if nb.Ready(5) || nb.Ready(3) || nb.Ready(7) {
		t.Error("ready before anything was evaluated")
	}
	if _, err := nb.Eval(context.Background(), 5, nil); err != nil {
		t.Fatal(err)
	}
	if !nb.Ready(5) {
		t.Error("the model is not ready with everything cached")
	}
	if err := nb.Edit(1, func(in Input) error { in.(*Platform).PEs = 3; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Eval(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	if !nb.Ready(5) {
		t.Error("a platform edit made the model wait")
	}
	if err := nb.Edit(3, func(in Input) error { in.(*Dataset).Graph = "uniform:v=1024,d=4,seed=2"; return nil }); err != nil {
		t.Fatal(err)
	}
	if nb.Ready(5) {
		t.Error("the model is ready before the new dataset was loaded")
	}
}
