//go:build linux

package graph_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/procgroup"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestMETISCancelEndsGroup cancels a METIS partition while "gpmetis" (a
// script that starts two children of its own, as a wrapper would) runs:
// the partition returns the cancellation, and no process of the tool's
// group survives.
func TestMETISCancelEndsGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	fake := ptFakeGPMetis(t, "sleep 60 & sleep 60 & echo $$ > "+pidFile+"\nwait\n")
	g := ptGraph(t, 4, false, [][2]uint32{{0, 1}, {2, 3}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 2, PEs: 1, Method: graph.METIS, GPMetis: fake})
		done <- err
	}()
	pgid := testenv.FakeToolGroup(t, pidFile, 30*time.Second)
	if n := len(testenv.GroupAlive(t, pgid)); n < 3 {
		t.Fatalf("the tool's group has %d processes, want the script and its two children", n)
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want the cancellation", err)
		}
	case <-time.After(3 * procgroup.Grace):
		t.Fatal("the partition did not return after the cancel")
	}
	testenv.WaitGroupGone(t, pgid, 2*procgroup.Grace)
}
