package explorer

import (
	"context"
	"slices"
	"strings"
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
	// 3 FPGAs of 5 PEs, which the optimiser did not predict, need a new
	// profile.
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

// TestBlame: an error that a field causes names that field, in the cell
// that holds it, even when a cell below reports it.
func TestBlame(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*Platform)
		eval  int // the cell evaluated
		key   string
		msg   string
		owner int // the cell blamed
	}{
		{"fpgas above the board", func(p *Platform) { p.FPGAs = 42 }, 5, "fpgas", "ac510 has at most 4 FPGAs", 1},
		{"pes above the board", func(p *Platform) { p.PEs = 12 }, 5, "pes", "at most 9 PEs fit one FPGA of ac510", 1},
		{"bandwidth 0", func(p *Platform) { p.Set = map[string]float64{"memory.peak_gib_s": 0} }, 5, "set.memory.peak_gib_s", "must be positive", 1},
		{"word of 7 bits among two overrides", func(p *Platform) { p.Set = map[string]float64{"clock_mhz": 200, "memory.word_bits": 7} }, 1, "set.memory.word_bits", "must be a positive multiple of 8, got 7", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb := Default()
			if err := nb.Edit(1, func(in Input) error { tc.edit(in.(*Platform)); return nil }); err != nil {
				t.Fatal(err)
			}
			_, err := nb.Eval(context.Background(), tc.eval, nil)
			cell, fe := nb.Blame(tc.eval, err)
			if fe == nil || cell != tc.owner || fe.Key != tc.key || !strings.Contains(fe.Text(), tc.msg) {
				t.Fatalf("Blame(%v) = cell %d, %+v; want cell %d, %s: %s", err, cell, fe, tc.owner, tc.key, tc.msg)
			}
			// Next to the field: neither the board file nor the key again.
			if strings.Contains(fe.Text(), ".toml") || strings.Contains(fe.Text(), tc.key+":") {
				t.Errorf("the field's message repeats where it comes from: %q", fe.Text())
			}
		})
	}
	nb := Default()
	if c, fe := nb.Blame(5, nil); c != -1 || fe != nil {
		t.Error("a nil error has a cause")
	}
}

// TestModelFor: the model cell that follows the focus.
func TestModelFor(t *testing.T) {
	// notes, platform, kernel, dataset, partition, model, sweep, simulate, trace, export
	nb := Default()
	for focus, want := range map[int]int{0: 5, 1: 5, 3: 5, 5: 5, 7: 5, 9: 5} {
		if got := nb.ModelFor(focus); got != want {
			t.Errorf("ModelFor(%d) = %d, want %d", focus, got, want)
		}
	}
	if got := nb.SimulationFor(5); got != 7 {
		t.Errorf("SimulationFor(5) = %d, want 7", got)
	}
	if got := nb.Dependents(3); !slices.Equal(got, []int{4, 5, 6, 7, 8, 9}) {
		t.Errorf("Dependents(3) = %v", got)
	}
	if got := nb.Dependents(0); got != nil {
		t.Errorf("the notes have dependents %v", got)
	}
	// A second platform and model below: the focus picks the model that
	// reads the focused platform.
	if err := nb.Insert(10, KindPlatform); err != nil {
		t.Fatal(err)
	}
	if err := nb.Insert(11, KindModel); err != nil {
		t.Fatal(err)
	}
	if got := nb.ModelFor(10); got != 11 {
		t.Errorf("ModelFor(the second platform) = %d, want 11", got)
	}
	if got := nb.ModelFor(2); got != 5 {
		t.Errorf("ModelFor(the kernel) = %d, want 5 (the first model that reads it)", got)
	}
	if got := nb.SimulationFor(11); got != -1 {
		t.Errorf("SimulationFor(the second model) = %d, want none", got)
	}
	if New("empty").ModelFor(0) != -1 {
		t.Error("a model in an empty notebook")
	}
}

// TestBound: while a model cell waits for a new profile, Bound gives its
// limits and T_sys at once, equal to the full evaluation's, without a
// prediction and without caching anything as the cell's result.
func TestBound(t *testing.T) {
	nb := Default()
	if b, err := nb.Bound(5); b != nil || err != nil {
		t.Errorf("a bound before the dataset was loaded: %v, %v", b, err)
	}
	if _, err := nb.Eval(context.Background(), 5, nil); err != nil {
		t.Fatal(err)
	}
	if err := nb.Edit(1, func(in Input) error { in.(*Platform).FPGAs, in.(*Platform).PEs = 3, 5; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Eval(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	if nb.Ready(5) {
		t.Fatal("the model is ready before the profile of 3 x 5 PEs was computed")
	}
	b, err := nb.Bound(5)
	if b == nil || err != nil {
		t.Fatalf("no bound with the model's inputs evaluated: %v", err)
	}
	if b.Prediction != nil {
		t.Error("the bound carries a prediction")
	}
	if _, _, ok := nb.Result(5); ok {
		t.Error("the bound was cached as the cell's result")
	}
	out, err := nb.Eval(context.Background(), 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	full := out.(*ModelOutput)
	if full.Prediction == nil || b.TSys != full.TSys || b.Binding != full.Binding || b.FPGAs != 3 || b.PEs != 5 {
		t.Errorf("bound T_sys %g (%s, %dx%d), full evaluation %g (%s, %dx%d, prediction %v)",
			b.TSys, b.Binding, b.FPGAs, b.PEs, full.TSys, full.Binding, full.FPGAs, full.PEs, full.Prediction != nil)
	}
	if b, err := nb.Bound(2); b != nil || err != nil {
		t.Error("a bound for a kernel cell")
	}
	// An impossible design is the evaluation's error.
	if err := nb.Edit(1, func(in Input) error { in.(*Platform).PEs = 500; return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := nb.Eval(context.Background(), 1, nil); err != nil {
		t.Fatal(err)
	}
	if b, err := nb.Bound(5); b != nil || err == nil {
		t.Errorf("500 PEs per FPGA: bound %v, error %v", b, err)
	}
}

// TestBoundDuringReferenceRun: after the dataset changes, the cell that
// runs the reference run behind the prediction (the partition cell when
// the optimiser chooses nP, else the model cell) first caches the graph's
// degree histogram, so that Bound gives T_sys while the run is under way
// instead of after it (seconds on a large graph).
func TestBoundDuringReferenceRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		pes  int
		cell int // the cell evaluated, which runs the reference run
	}{
		{"partition cell, nP chosen", 0, 4},
		{"model cell, nP chosen", 0, 5},
		{"model cell, nP given", 9, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nb := Default()
			if err := nb.Edit(1, func(in Input) error { in.(*Platform).PEs = tc.pes; return nil }); err != nil {
				t.Fatal(err)
			}
			if err := nb.Edit(3, func(in Input) error { in.(*Dataset).Graph = "rmat:scale=12,ef=16"; return nil }); err != nil {
				t.Fatal(err)
			}
			job, err := nb.Plan(tc.cell)
			if err != nil {
				t.Fatal(err)
			}
			seen := false
			if _, err := job.Run(context.Background(), func(p Progress) {
				if seen || !strings.Contains(p.Text, "reference run") {
					return
				}
				seen = true
				if p.Cell != tc.cell {
					t.Errorf("the reference run in cell %d, want %d", p.Cell, tc.cell)
				}
				if b, err := nb.Bound(5); b == nil || err != nil {
					t.Errorf("no bound while the reference run runs (%v)", err)
				}
			}); err != nil {
				t.Fatal(err)
			}
			if !seen {
				t.Fatal("no reference run reported")
			}
		})
	}
}
