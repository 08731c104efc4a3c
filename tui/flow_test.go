package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// The flow tests drive the real program (teatest) through what a user
// does, and compare screens with testdata/<test>/<step>.golden; refresh
// them with go test ./tui -run Flow -update.

func snapshot(t *testing.T, f *flow, step, screen string) {
	t.Helper()
	t.Run(step, func(t *testing.T) {
		// golden reads testdata relative to the working directory.
		wd, _ := os.Getwd()
		if err := os.Chdir(pkgDir); err != nil {
			t.Fatal(err)
		}
		defer os.Chdir(wd)
		golden.RequireEqual(t, []byte(screen))
	})
}

// mustShow fails unless the screen shows every text.
func mustShow(t *testing.T, screen string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if !strings.Contains(screen, s) {
			t.Errorf("the screen does not show %q:\n%s", s, screen)
		}
	}
}

// TestFlowFirstScreen opens the default notebook at 80×24: T_sys and the
// binding limit are on the first screen.
func TestFlowFirstScreen(t *testing.T) {
	f := startFlow(t, testNotebook(t), 80, 24)
	s := f.done(explorer.KindModel, 120*time.Second)
	mustShow(t, s, "T_sys 6.750 GTEPS (gravf)", "bound by the PEs", "predicted", "4×9", "1 notes", "2 platform")
	snapshot(t, f, "open-80x24", s)
}

// TestFlowBandwidthEdit finds the board's memory bandwidth with /, lowers
// it from 21.7 to 10 GiB/s and reads the field and the new T_sys (4.387
// GTEPS, bound by the memory, at the 4 x 6 the optimiser chooses on the
// prediction; cycle detail runs 4 x 6 at 3.78 GTEPS, 4 x 7 at 3.59) on
// one screen: under the form at 80×24, in
// the dashboard pane at 200×60.
func TestFlowBandwidthEdit(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {200, 60}} {
		name := itoa(sz[0]) + "x" + itoa(sz[1])
		t.Run(name, func(t *testing.T) {
			f := startFlow(t, testNotebook(t), sz[0], sz[1])
			f.done(explorer.KindModel, 120*time.Second)
			f.keys("/")
			f.waitText("a field or a cell", 5*time.Second)
			f.keys("peak")
			f.waitText("▸ memory.peak_gib_s · cell 2 platform", 5*time.Second)
			f.keys("enter") // into the platform cell, on the field
			f.waitText("▸ memory.peak_gib_s        21.7", 5*time.Second)
			f.keys("enter", "10") // the value is selected: typing replaces it
			s := f.waitText("T_sys 4.387 GTEPS", 60*time.Second)
			mustShow(t, s, "▸ memory.peak_gib_s        10", "=> mem    4.387 GTEPS", "bound by the memory bandwidth")
			f.keys("enter")
			s = f.until("the edit kept", 30*time.Second, func(a *App) bool { return !a.focused().base().editing() })
			mustShow(t, s, "▸ memory.peak_gib_s        10", "T_sys 4.387 GTEPS", "=> mem    4.387 GTEPS")
			if sz[0] >= WideWidth {
				mustShow(t, s, "── model · cell 6", "T_sys against nF (nP = 6)", "recommendations")
			}
			snapshot(t, f, "edited", s)
			// One undo takes the whole edit back.
			f.keys("esc", "u")
			// The waits are long only for a loaded machine: the bound shows
			// within a second when a core is free.
			f.waitText("undid memory.peak_gib_s in cell 2", 30*time.Second)
			mustShow(t, f.waitText("T_sys 6.750 GTEPS", 60*time.Second), "memory.peak_gib_s           21.7 GiB/s")
		})
	}
}

// TestFlowScrollModel scrolls the model cell with PgDn at 80×24: the
// lower half (GraVF against GraVF-M, the curves, the recommendations) is
// in reach of the keyboard.
func TestFlowScrollModel(t *testing.T) {
	f := startFlow(t, testNotebook(t), 80, 24)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("6")
	s := f.waitText("▌ 6 model", 5*time.Second)
	if strings.Contains(s, "GraVF-M against GraVF") {
		t.Fatalf("the model cell fits without scrolling:\n%s", s)
	}
	f.keys("pgdown")
	s = f.waitText("GraVF-M against GraVF", 5*time.Second)
	snapshot(t, f, "pgdn", s)
	f.keys("pgdown", "pgdown", "pgdown")
	s = f.waitText("recommendations", 5*time.Second)
	if !strings.Contains(s, "▌") || strings.Contains(s, "7 sweep") && !strings.Contains(s, "▌ 7 sweep") && !strings.Contains(s, "▌ •") {
		t.Errorf("the focus left the model cell before its end:\n%s", s)
	}
	f.keys("ctrl+u")
	f.waitFor("half a page up", 5*time.Second, func(s string) bool { return !strings.Contains(s, "▌ 7 sweep") })
}

// TestFlowInvalidFPGAs types a value that is not a number into fpgas:
// the model cell below waits for a valid fpgas instead of showing the
// result for 4 FPGAs, and the error stands next to the field, once.
func TestFlowInvalidFPGAs(t *testing.T) {
	f := startFlow(t, testNotebook(t), 80, 24)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("2", "enter", "j", "enter", "abc", "enter")
	s := f.waitText("waiting for a valid fpgas in cell 2", 10*time.Second)
	mustShow(t, s, "fpgas (nF)               abc", `✗ "abc" is not a whole number`, "◌ waiting")
	if strings.Count(s, "is not a whole number") != 1 {
		t.Errorf("the error is not shown once:\n%s", s)
	}
	snapshot(t, f, "held", s)
	f.keys("6")
	s = f.waitText("▌ 6 model", 5*time.Second)
	mustShow(t, s, "◌ waiting for a valid fpgas in cell 2")
	if strings.Contains(s, "✓ up to date") && strings.Contains(s, "=> pe") {
		t.Errorf("the model shows a result for other inputs:\n%s", s)
	}
	// A value out of the board's range is an error of the field too.
	f.keys("2", "enter", "j", "enter", "42", "enter")
	s = f.waitText("ac510 has at most 4 FPGAs", 10*time.Second)
	mustShow(t, s, "waiting for a valid fpgas in cell 2")
	// Esc takes an edit back.
	f.keys("enter", "3", "esc")
	f.waitText("fpgas (nF)               42", 10*time.Second)
	f.keys("enter", "4", "enter")
	mustShow(t, f.waitText("T_sys 6.750 GTEPS", 10*time.Second), "fpgas (nF)               4")
}

// TestFlowSaveAsAsks saves as over an existing file: the program asks
// first, n goes back to the name and y replaces the file.
func TestFlowSaveAsAsks(t *testing.T) {
	nb := testNotebook(t)
	nb.Path = ""
	if err := os.WriteFile("mine.gravf.toml", []byte("# someone's notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := startFlow(t, nb, 80, 24)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("S")
	f.waitText("Save as:", 5*time.Second)
	f.keys("ctrl+u", "mine.gravf.toml", "enter")
	s := f.waitText("mine.gravf.toml exists.", 5*time.Second)
	snapshot(t, f, "ask", s)
	f.keys("n")
	f.waitText("Save as: mine.gravf.toml", 5*time.Second)
	if b, _ := os.ReadFile("mine.gravf.toml"); string(b) != "# someone's notes\n" {
		t.Fatal("the file was replaced before the answer")
	}
	f.keys("enter")
	f.waitText("mine.gravf.toml exists.", 5*time.Second)
	f.keys("y")
	f.waitText("saved mine.gravf.toml", 5*time.Second)
	if _, err := explorer.Load("mine.gravf.toml"); err != nil {
		t.Fatalf("the saved notebook: %v", err)
	}
}

// TestFlowQuitAsks quits with unsaved changes: the program asks.
func TestFlowQuitAsks(t *testing.T) {
	f := startFlow(t, testNotebook(t), 120, 30)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("2", "enter", "j", "enter", "3", "enter", "esc", "q")
	s := f.waitText("Unsaved changes", 10*time.Second)
	mustShow(t, s, "y save · n quit without saving · esc stay")
	f.keys("esc", "q", "n")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// TestFlowSimulateTrace runs the simulation to its end, compares it with
// the prediction, replays its trace superstep by superstep, then starts
// another simulation and cancels it.
func TestFlowSimulateTrace(t *testing.T) {
	f := startFlow(t, testNotebook(t), 120, 50)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("8", "r") // the simulate cell
	s := f.done(explorer.KindSimulate, 120*time.Second)
	mustShow(t, s, "sim/predicted")
	snapshot(t, f, "simulated", s)
	f.keys("j") // the trace cell, evaluated by itself once the run is done
	f.done(explorer.KindTrace, 30*time.Second)
	f.keys(".", ".")
	s = f.waitText("superstep 2 (of 0..5)", 5*time.Second)
	snapshot(t, f, "trace-step", s)
	f.keys(" ")
	f.waitText("▶ playing", 5*time.Second)
	f.keys("p")
	f.waitText("⏸ paused", 5*time.Second)
	// Another run with another seed, cancelled at once.
	f.keys("k", "enter", "j", "enter", "2", "enter", "esc", "r", "c")
	s = f.waitText("cancelled after", 60*time.Second)
	snapshot(t, f, "cancelled", s)
}

// TestFlowReopenRestores runs a simulation in a saved notebook, quits, and
// opens the notebook again: the simulation and its trace are back without
// running anything, marked as restored.
func TestFlowReopenRestores(t *testing.T) {
	nb := smallNotebook(t)
	f := startFlow(t, nb, 120, 40)
	f.done(explorer.KindModel, 60*time.Second)
	f.keys("8", "r")
	f.done(explorer.KindSimulate, 60*time.Second)
	f.keys("q")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	f.quit = true

	again, err := explorer.Load(nb.Path)
	if err != nil {
		t.Fatal(err)
	}
	g := startFlow(t, again, 120, 40)
	g.keys("8")
	s := g.done(explorer.KindTrace, 30*time.Second)
	mustShow(t, s, "8 simulate", "✓ restored", "restored: run ")
	snapshot(t, g, "simulate", s)
	g.keys("9")
	s = g.waitText("⏸ paused", 10*time.Second)
	mustShow(t, s, "9 trace", "small.trace.gz")
	if _, err := os.Stat(filepath.Join("small.gravf.results")); err != nil {
		t.Errorf("no results folder beside the notebook: %v", err)
	}
}

// TestFlowExport writes the Verilog project of a small design (edges in
// BRAM, a 256-vertex graph) and runs make sim in it; the second export
// asks before replacing the folder.
func TestFlowExport(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	nb := testNotebook(t)
	exportSmall(t, nb)
	f := startFlow(t, nb, 120, 50)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("G", "r")
	s := f.waitFor("RESULT", 300*time.Second, func(s string) bool {
		return strings.Contains(s, "make sim: RESULT") || strings.Contains(s, "✗")
	})
	if !strings.Contains(s, "RESULT PASS") {
		t.Fatalf("make sim did not pass:\n%s", s)
	}
	snapshot(t, f, "exported", s)
	if _, err := os.Stat(filepath.Join("wcc-4xac510", "manifest.json")); err != nil {
		t.Errorf("no manifest: %v", err)
	}
	f.keys("r")
	s = f.waitText("wcc-4xac510 exists.", 5*time.Second)
	mustShow(t, s, "y replace it · n keep it")
	f.keys("n")
	f.waitText("kept wcc-4xac510", 5*time.Second)
}

// TestFlowEditKernel opens the kernel in $EDITOR with e: the built-in WCC
// is copied beside the notebook and the cell switched to the copy; an edit
// that breaks the spec shows its error at the kernel field, file and
// line, and the next edit that fixes it brings the kernel back.
func TestFlowEditKernel(t *testing.T) {
	nb := testNotebook(t)
	// The "editor" appends an unknown key the first time and removes it
	// the second time.
	script := filepath.Join(t.TempDir(), "edit.sh")
	body := "#!/bin/sh\nif grep -q '^bogus' \"$1\"; then sed -i '/^bogus/d' \"$1\"; else echo 'bogus = 1' >> \"$1\"; fi\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script)
	f := startFlow(t, nb, 120, 40)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("3", "e")
	s := f.waitText("reloaded wcc/kernel.toml", 60*time.Second)
	mustShow(t, s, "kernel ./wcc", "bogus")
	if _, err := os.Stat(filepath.Join("wcc", "gather.v")); err != nil {
		t.Errorf("the copy lacks the hand-written Verilog: %v", err)
	}
	f.keys("e")
	s = f.waitText("reloaded wcc/kernel.toml", 60*time.Second)
	if strings.Contains(s, "bogus") {
		t.Errorf("the error stayed after the fix:\n%s", s)
	}
	f.done(explorer.KindModel, 60*time.Second)
}
