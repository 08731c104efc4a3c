//go:build linux

package tui

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// proc is a process as /proc/<pid>/stat tells it.
type proc struct {
	pid, ppid, pgid int
	state           string
	comm            string
}

// procs lists the processes of the machine.
func procs(t *testing.T) []proc {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	var out []proc
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone meanwhile
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces.
		s := string(b)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(s[close+1:])
		if len(f) < 3 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		out = append(out, proc{pid: pid, ppid: ppid, pgid: pgid, state: f[0], comm: s[open+1 : close]})
	}
	return out
}

// makeGroup waits until this process has started `make` in a process
// group of its own and returns the group's id.
func makeGroup(t *testing.T, timeout time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for _, p := range procs(t) {
			if p.ppid == os.Getpid() && p.comm == "make" && p.pgid == p.pid {
				return p.pgid
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("make sim did not start in a process group of its own")
	return 0
}

// groupAlive lists the live (not zombie) processes of group pgid.
func groupAlive(t *testing.T, pgid int) []proc {
	var out []proc
	for _, p := range procs(t) {
		if p.pgid == pgid && p.state != "Z" {
			out = append(out, p)
		}
	}
	return out
}

// waitGroupGone fails unless group pgid has no live process within the
// timeout.
func waitGroupGone(t *testing.T, pgid int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		left := groupAlive(t, pgid)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes of make's group %d survived: %+v", pgid, left)
		}
		time.Sleep(20 * time.Millisecond)
	}
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
	if len(groupAlive(t, pgid)) == 0 {
		t.Fatal("make's group is empty while make sim runs")
	}
	f.keys("c")
	s := f.waitText("cancelled after", 30*time.Second)
	mustShow(t, s, "10 export")
	waitGroupGone(t, pgid, 10*time.Second)

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
	waitGroupGone(t, pgid, 10*time.Second)
}
