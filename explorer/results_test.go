package explorer

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// smallNotebook is the default notebook on a small graph, saved in a
// temporary folder.
func smallNotebook(t *testing.T) *Notebook {
	t.Helper()
	nb := Default()
	if err := nb.Edit(3, func(in Input) error { in.(*Dataset).Graph = "uniform:v=512,d=4,seed=1"; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := nb.Edit(7, func(in Input) error { in.(*Simulate).Detail = "fast"; return nil }); err != nil {
		t.Fatal(err)
	}
	if err := nb.Save(filepath.Join(t.TempDir(), "small.gravf.toml")); err != nil {
		t.Fatal(err)
	}
	return nb
}

// TestKeepResults: a simulation run with KeepResults is restored when the
// notebook is opened again, with its trace; it is not when the trace
// changed or the inputs did.
func TestKeepResults(t *testing.T) {
	nb := smallNotebook(t)
	nb.KeepResults(true)
	out, err := nb.Eval(context.Background(), 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := out.(*SimulateOutput)
	files, _ := filepath.Glob(filepath.Join(nb.ResultsDir(), "simulate-*.json"))
	if len(files) != 1 {
		t.Fatalf("kept %v, want one simulate result in %s", files, nb.ResultsDir())
	}

	// Open the notebook again, from another working directory.
	t.Chdir(t.TempDir())
	again, err := Load(nb.Path)
	if err != nil {
		t.Fatal(err)
	}
	if !again.Stale(7) {
		t.Fatal("the simulation is up to date before anything was restored")
	}
	cells, err := again.RestoreResults()
	if err != nil || len(cells) != 1 || cells[0] != 7 {
		t.Fatalf("RestoreResults = %v, %v; want [7]", cells, err)
	}
	got, _, ok := again.Result(7)
	if !ok {
		t.Fatal("the restored simulation is stale")
	}
	g := got.(*SimulateOutput)
	if g.Result.Cycles != want.Result.Cycles || g.Result.ResultSHA256 != want.Result.ResultSHA256 {
		t.Errorf("restored %d cycles (%s), want %d (%s)", g.Result.Cycles, g.Result.ResultSHA256, want.Result.Cycles, want.Result.ResultSHA256)
	}
	if _, err := os.Stat(g.Trace); err != nil {
		t.Errorf("the restored trace path does not resolve: %v", err)
	}
	if when, ok := again.Restored(7); !ok || time.Since(when) > time.Minute {
		t.Errorf("Restored(7) = %v, %v", when, ok)
	}
	// The trace cell reads the trace of the restored run.
	if _, err := again.Eval(context.Background(), 8, nil); err != nil {
		t.Errorf("the trace of the restored run: %v", err)
	}

	// A trace rewritten since: not restored.
	third, _ := Load(nb.Path)
	if err := os.WriteFile(g.Trace, []byte("not a trace"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cells, err := third.RestoreResults(); err != nil || len(cells) != 0 {
		t.Errorf("restored %v (%v) although the trace changed", cells, err)
	}
	// Other inputs: not restored.
	fourth, _ := Load(nb.Path)
	if err := fourth.Edit(7, func(in Input) error { in.(*Simulate).Seed = 2; return nil }); err != nil {
		t.Fatal(err)
	}
	if cells, _ := fourth.RestoreResults(); len(cells) != 0 {
		t.Errorf("restored %v for other inputs", cells)
	}
}

// TestKeepResultsOff: without KeepResults nothing is written, and a
// notebook without a file has no results folder.
func TestKeepResultsOff(t *testing.T) {
	nb := smallNotebook(t)
	if _, err := nb.Eval(context.Background(), 7, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(nb.ResultsDir()); !os.IsNotExist(err) {
		t.Errorf("results kept without KeepResults: %v", err)
	}
	if Default().ResultsDir() != "" {
		t.Error("a notebook without a file has a results folder")
	}
	if err := nb.SaveResults(); err != nil {
		t.Fatal(err)
	}
	if files, _ := filepath.Glob(filepath.Join(nb.ResultsDir(), "*.json")); len(files) != 1 {
		t.Errorf("SaveResults wrote %v, want the simulation", files)
	}
}

// TestPruneResults: the folder keeps the newest maxKept results of a
// kind.
func TestPruneResults(t *testing.T) {
	dir := t.TempDir()
	base := time.Now().Add(-time.Hour)
	for i := range maxKept + 5 {
		p := filepath.Join(dir, resultName(KindSimulate, fmt.Sprintf("%032d", i)))
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, base.Add(time.Duration(i)*time.Second), base.Add(time.Duration(i)*time.Second))
	}
	os.WriteFile(filepath.Join(dir, resultName(KindSweep, "x")), []byte("{}"), 0o644)
	if err := prune(dir, KindSimulate); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "simulate-*.json"))
	if len(left) != maxKept {
		t.Fatalf("%d simulate results left, want %d", len(left), maxKept)
	}
	if _, err := os.Stat(filepath.Join(dir, resultName(KindSimulate, fmt.Sprintf("%032d", 0)))); err == nil {
		t.Error("the oldest result was kept")
	}
	if _, err := os.Stat(filepath.Join(dir, resultName(KindSweep, "x"))); err != nil {
		t.Error("a result of another kind was removed")
	}
}
