//go:build linux

package gen

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/procgroup"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// TestEstimateCancelEndsGroup cancels a resource estimate while "yosys"
// (a script on PATH that starts two children, as yosys starts abc) runs:
// Estimate returns the cancellation and no process of the tool's group
// survives.
func TestEstimateCancelEndsGroup(t *testing.T) {
	bin := t.TempDir()
	pidFile := filepath.Join(t.TempDir(), "pid")
	script := "#!/bin/sh\nsleep 60 & sleep 60 & echo $$ > " + pidFile + "\nwait\n"
	if err := os.WriteFile(filepath.Join(bin, "yosys"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	g, err := graph.Load("uniform:v=64,d=4,seed=1", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := samples.Kernel("wcc")
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := GenerateSystem(context.Background(), SystemOptions{Design: testDesign(t, k, 1, 2, 10, nil), Kernel: k, Graph: g, Filter: true})
	if err != nil {
		t.Fatal(err)
	}
	testenv.CancelEndsGroup(t, pidFile, procgroup.Grace, func(ctx context.Context) error {
		_, _, err := Estimate(ctx, s, "xcu")
		return err
	})
}
