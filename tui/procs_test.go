//go:build linux

package tui

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// makeGroup waits until this process has started `make` in a process
// group of its own and returns the group's id.
func makeGroup(t *testing.T, timeout time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for _, p := range testenv.Processes(t) {
			if p.PPID == os.Getpid() && p.Comm == "make" && p.PGID == p.PID {
				return p.PGID
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("make sim did not start in a process group of its own")
	return 0
}

// TestFlowCancelMakeSim cancels an export's make sim while it runs: the
// cell says so, and no process of make's group (make, the shell, iverilog
// or vvp, tee) survives. Then it quits while make sim runs again: the
// program asks, and after y no process of the group survives the quit.
func TestFlowCancelMakeSim(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	nb := testNotebook(t)
	exportSmall(t, nb)
	// A graph whose simulation takes long enough to be cancelled.
	editCell(t, nb, 3, func(in explorer.Input) { in.(*explorer.Dataset).Graph = "uniform:v=4096,d=8,seed=1" })
	f := startFlow(t, nb, 120, 40)
	f.done(explorer.KindModel, 120*time.Second)
	f.keys("G", "r")
	pgid := makeGroup(t, 120*time.Second)
	f.waitBusy("make sim in", 60*time.Second)
	if len(testenv.GroupAlive(t, pgid)) == 0 {
		t.Fatal("make's group is empty while make sim runs")
	}
	f.keys("c")
	s := f.waitText("cancelled after", 30*time.Second)
	mustShow(t, s, "10 export")
	testenv.WaitGroupGone(t, pgid, 10*time.Second)

	// Again (over the folder the first run wrote), and quit while it runs.
	f.keys("r")
	f.waitBusy("wcc-4xac510 exists.", 10*time.Second)
	f.keys("y")
	pgid = makeGroup(t, 120*time.Second)
	f.keys("q")
	s = f.waitBusy("Quit and cancel it?", 10*time.Second)
	mustShow(t, s, "Running: export (cell 10")
	f.keys("y")
	f.waitBusy("Unsaved changes", 10*time.Second)
	f.keys("n")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
	f.quit = true
	testenv.WaitGroupGone(t, pgid, 10*time.Second)
}

// TestFlowCancelMETIS partitions with METIS while "gpmetis" (a script on
// PATH that starts two children of its own) runs: cancelling the cell
// whose job runs it ends the tool's whole process group, and so does
// quitting while it runs again.
func TestFlowCancelMETIS(t *testing.T) {
	bin := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := "#!/bin/sh\nrm -f " + pidFile + "\nsleep 60 & sleep 60 & echo $$ > " + pidFile + ".tmp && mv " + pidFile + ".tmp " + pidFile + "\nwait\n"
	if err := os.WriteFile(filepath.Join(bin, "gpmetis"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	nb := testNotebook(t)
	part := -1
	for i, c := range nb.Cells {
		if c.In.Kind() == explorer.KindPartition {
			part = i
		}
	}
	if part < 0 {
		t.Fatal("the default notebook has no partition cell")
	}
	editCell(t, nb, part, func(in explorer.Input) { in.(*explorer.Partition).Partitioner = graph.METIS })
	f := startFlow(t, nb, 120, 40)
	pgid := testenv.FakeToolGroup(t, pidFile, 60*time.Second)
	if n := len(testenv.GroupAlive(t, pgid)); n < 3 {
		t.Fatalf("gpmetis' group has %d processes, want the script and its two children", n)
	}
	f.keys(itoa(f.runningCell() + 1))
	f.keys("c")
	f.waitBusy("cancelled", 30*time.Second)
	testenv.WaitGroupGone(t, pgid, 10*time.Second)

	// Again (r runs the cell), and quit while it runs.
	os.Remove(pidFile)
	f.keys("r")
	pgid = testenv.FakeToolGroup(t, pidFile, 60*time.Second)
	// The model's evaluation is an automatic job: quitting cancels it
	// without asking (only the notebook's changes are asked about).
	f.keys("q")
	f.waitBusy("Unsaved changes", 10*time.Second)
	f.keys("n")
	f.tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
	f.quit = true
	testenv.WaitGroupGone(t, pgid, 10*time.Second)
}

// runningCell is the index of a cell whose job runs (the first), or -1.
func (f *flow) runningCell() int {
	f.t.Helper()
	cell := -1
	res := make(chan bool)
	f.tm.Send(inspectMsg{f: func(a *App) bool {
		for i, c := range a.cells {
			if c.base().job != nil {
				cell = i
				return true
			}
		}
		return false
	}, res: res})
	if !<-res {
		f.t.Fatal("no cell runs a job")
	}
	return cell
}
