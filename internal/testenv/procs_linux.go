//go:build linux

package testenv

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Proc is a process as /proc/<pid>/stat tells it.
type Proc struct {
	PID, PPID, PGID int
	State           string // R, S, D, Z (zombie), ...
	Comm            string
}

// Processes lists the processes of the machine, for tests that check
// what an external tool left running after a cancel or a quit.
func Processes(tb testing.TB) []Proc {
	tb.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		tb.Fatal(err)
	}
	var out []Proc
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
		out = append(out, Proc{PID: pid, PPID: ppid, PGID: pgid, State: f[0], Comm: s[open+1 : close]})
	}
	return out
}

// GroupAlive lists the live (not zombie) processes of group pgid.
func GroupAlive(tb testing.TB, pgid int) []Proc {
	tb.Helper()
	var out []Proc
	for _, p := range Processes(tb) {
		if p.PGID == pgid && p.State != "Z" {
			out = append(out, p)
		}
	}
	return out
}

// WaitGroupGone fails tb unless group pgid has no live process within the
// timeout.
func WaitGroupGone(tb testing.TB, pgid int, timeout time.Duration) {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	for {
		left := GroupAlive(tb, pgid)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("processes of group %d survived: %+v", pgid, left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// FakeToolGroup waits until a fake tool has written its process id into
// file (a script's first line: echo $$ > file), checks that the process
// leads a group of its own (internal/procgroup) that is alive, and returns
// the group's id.
func FakeToolGroup(tb testing.TB, file string, timeout time.Duration) int {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		b, err := os.ReadFile(file)
		if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && perr == nil {
			for _, p := range Processes(tb) {
				if p.PID == pid {
					if p.PGID != pid {
						tb.Fatalf("the tool (pid %d) runs in group %d, not in a group of its own", pid, p.PGID)
					}
					return pid
				}
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	tb.Fatalf("the tool did not start (no process id in %s)", file)
	return 0
}

// CancelEndsGroup checks what every caller of an external tool promises:
// run starts a fake tool (a script whose first line writes its process id
// into pidFile and which starts two children of its own, as a wrapper
// would) under ctx; once the tool's group holds the script and both
// children, ctx is cancelled, and run must return the cancellation within
// three times grace and leave no live process of the group after twice
// grace (grace is internal/procgroup's, which this package cannot import:
// that package's own tests import this one).
func CancelEndsGroup(tb testing.TB, pidFile string, grace time.Duration, run func(ctx context.Context) error) {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- run(ctx) }()
	pgid := FakeToolGroup(tb, pidFile, 30*time.Second)
	if n := len(GroupAlive(tb, pgid)); n < 3 {
		tb.Fatalf("the tool's group has %d processes, want the script and its two children", n)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			tb.Errorf("err = %v, want the cancellation", err)
		}
	case <-time.After(3 * grace):
		tb.Fatal("the call did not return after the cancel")
	}
	WaitGroupGone(tb, pgid, 2*grace)
}
