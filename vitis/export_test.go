package vitis

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// design is one export of the tests: a sample kernel on a graph spec.
type design struct {
	board, kernel, graph string
	fpgas, pes           int
	mem                  model.MemKind
}

func (d design) options(t *testing.T, dir string) gen.ExportOptions {
	t.Helper()
	spec, err := samples.Kernel(d.kernel)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load(d.graph, graph.ReadOptions{Weighted: len(spec.Edge) > 0})
	if err != nil {
		t.Fatal(err)
	}
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Get(d.board)
	if err != nil {
		t.Fatal(err)
	}
	return gen.ExportOptions{Board: b, Kernel: k, Graph: g, FPGAs: d.fpgas, PEs: d.pes, Filter: true, Mem: d.mem, Dir: dir, Version: "test"}
}

func (d design) export(t *testing.T) (string, *Manifest) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	m, err := Export(context.Background(), d.options(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

func runMake(t *testing.T, dir, target string) string {
	t.Helper()
	cmd := exec.Command("make", "-s", target)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", target, err, out)
	}
	return string(out)
}

func resultLine(t *testing.T, out string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "RESULT PASS") {
			return l
		}
	}
	t.Fatalf("no RESULT PASS line:\n%s", out)
	return ""
}

func TestSimSmoke(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	d := design{board: "u280", kernel: "wcc", graph: "uniform:v=60,d=4,seed=3", fpgas: 1, pes: 2, mem: model.OffChip}
	dir, _ := d.export(t)
	t.Log(resultLine(t, runMake(t, dir, "sim")))
}
