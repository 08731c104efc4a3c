//go:build linux

package graph_test

import (
	"context"
	"path/filepath"
	"testing"

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
	testenv.CancelEndsGroup(t, pidFile, procgroup.Grace, func(ctx context.Context) error {
		_, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 2, PEs: 1, Method: graph.METIS, GPMetis: fake})
		return err
	})
}
