package explorer

import (
	"context"
	"slices"
	"testing"
)

// TestDepsReady: Deps names the cells a cell reads; Ready is true for a
// model cell only once its dependencies, the graph-sized memos and the
// prediction's profiles are cached, and becomes false again when an edit
// changes the dataset or needs profiles of other design points.
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
	// A bandwidth leaves the prediction's profiles as they are.
	if err := nb.Edit(1, func(in Input) error {
		in.(*Platform).Set = map[string]float64{"network.interface_gib_s": 3}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Eval(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	if !nb.Ready(5) {
		t.Error("a bandwidth edit made the model wait")
	}
	// Other PEs at the same FPGAs were predicted for the curve over nP; 3
	// FPGAs of 5 PEs, on neither curve, need a new profile.
	if err := nb.Edit(1, func(in Input) error { in.(*Platform).PEs = 3; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Eval(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	if !nb.Ready(5) {
		t.Error("3 PEs made the model wait")
	}
	if err := nb.Edit(1, func(in Input) error { in.(*Platform).FPGAs, in.(*Platform).PEs = 3, 5; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Eval(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	if nb.Ready(5) {
		t.Error("the model is ready before the profile of 3 x 5 PEs was computed")
	}
	if _, err := nb.Eval(context.Background(), 5, nil); err != nil {
		t.Fatal(err)
	}
	if !nb.Ready(5) {
		t.Error("the model waits with everything cached")
	}
	if err := nb.Edit(3, func(in Input) error { in.(*Dataset).Graph = "uniform:v=1024,d=4,seed=2"; return nil }); err != nil {
		t.Fatal(err)
	}
	if nb.Ready(5) {
		t.Error("the model is ready before the new dataset was loaded")
	}
}
