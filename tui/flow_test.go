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

const flowW, flowH = 120, 50

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

// TestFlowEditBoardParam opens the default notebook, lowers the board's
// memory bandwidth in the platform cell (21.7 to 10 GiB/s) and sees the
// model's memory limit fall from 8.234 to 4.387 GTEPS (the optimiser then
// picks 6 PEs).
func TestFlowEditBoardParam(t *testing.T) {
	f := startFlow(t, testNotebook(t), flowW, flowH)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("j") // the platform cell
	snapshot(t, f, "open", f.waitText("2 platform", 5*time.Second))
	f.keys("enter", "jjjjjjjjjjjj") // memory.peak_gib_s
	f.keys("enter", "ctrl+u", "10")
	f.waitText("memory.peak_gib_s        10", 5*time.Second)
	f.keys("enter", "esc", "jjjj") // the model cell
	s := f.waitText("10.0 GiB/s per FPGA", 30*time.Second)
	if strings.Contains(s, "8.234 GTEPS") || !strings.Contains(s, "mem    4.387 GTEPS") {
		t.Errorf("the memory limit did not fall from 8.234 to 4.387 GTEPS:\n%s", s)
	}
	snapshot(t, f, "model", s)
}

// TestFlowSimulateTrace runs the simulation to its end, replays its trace
// superstep by superstep, then starts another simulation and cancels it.
func TestFlowSimulateTrace(t *testing.T) {
	f := startFlow(t, testNotebook(t), flowW, flowH)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("G", "k", "k", "r") // the simulate cell
	s := f.done(explorer.KindSimulate, 120*time.Second)
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
	f.keys("k", "enter", "j", "enter", "ctrl+u", "2", "enter", "esc", "r", "c")
	s = f.waitText("cancelled after", 60*time.Second)
	snapshot(t, f, "cancelled", s)
}

// TestFlowExport writes the Verilog project of a small design (edges in
// BRAM, a 256-vertex graph) and runs make sim in it.
func TestFlowExport(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	nb := testNotebook(t)
	f := startFlow(t, nb, flowW, flowH)
	f.done(explorer.KindModel, 120*time.Second)
	// Platform: 2 FPGAs, 2 PEs, edges in BRAM.
	f.keys("j", "enter", "j", "enter", "ctrl+u", "2", "enter", "j", "enter", "ctrl+u", "2", "enter", "jj", "l", "esc")
	// Dataset: a small graph.
	f.keys("jj", "enter", "enter", "ctrl+u", "uniform:v=256,d=4,seed=1", "enter", "esc")
	f.done(explorer.KindModel, 60*time.Second)
	// Export, with make sim.
	f.keys("G", "enter", "jj", " ", "esc", "r")
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
}

// TestFlowSaveQuit edits, saves as, edits again and quits: the program
// asks about the unsaved change.
func TestFlowSaveQuit(t *testing.T) {
	nb := testNotebook(t)
	nb.Path = ""
	f := startFlow(t, nb, flowW, flowH)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("j", "enter", "j", "enter", "ctrl+u", "3", "enter", "esc", "s")
	f.waitText("Save as:", 5*time.Second)
	path := "mine.gravf.toml"
	f.keys("ctrl+u", path, "enter")
	f.waitText("saved mine.gravf.toml", 5*time.Second)
	saved, err := explorer.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if p := saved.Cells[1].In.(*explorer.Platform); p.FPGAs != 3 {
		t.Errorf("saved fpgas = %d, want 3", p.FPGAs)
	}
	f.keys("u", "q")
	s := f.waitText("Unsaved changes", 5*time.Second)
	snapshot(t, f, "ask", s)
	f.keys("esc", "q", "n")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
