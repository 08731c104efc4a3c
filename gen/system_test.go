package gen

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// writeSystem writes a generated system into a folder.
func writeSystem(t *testing.T, s *System) string {
	t.Helper()
	dir := t.TempDir()
	for p, c := range s.Files {
		f := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runIcarus(t *testing.T, dir string, s *System) string {
	t.Helper()
	iverilog := testenv.NeedTool(t, "iverilog")
	args := []string{"-g2005", "-o", "sim.vvp", "-s", "tb_system"}
	args = append(args, s.RTLFiles()...)
	args = append(args, "tb/gravf_link_model.v", "tb/tb_system.v")
	cmd := exec.Command(iverilog, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("iverilog: %v\n%s", err, out)
	}
	run := exec.Command(testenv.NeedTool(t, "vvp"), "-n", "sim.vvp")
	run.Dir = dir
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("vvp: %v\n%s", err, out)
	}
	return string(out)
}

// TestSystemIcarus exports small systems and runs their testbench in
// Icarus: every run must print RESULT PASS.
func TestSystemIcarus(t *testing.T) {
	karate := datasets.Path(t, "karate.mtx")
	for _, c := range []struct {
		kernel, graph string
		nF, nP        int
	}{
		{"wcc", karate, 1, 2},
		{"bfs", karate, 2, 2},
		{"sssp", "grid:rows=6,cols=6,seed=1,maxw=20", 2, 3},
		{"wcc", "uniform:v=300,d=6,seed=4", 4, 2},
	} {
		t.Run(c.kernel+"/"+filepath.Base(c.graph), func(t *testing.T) {
			k, g := loadSample(t, c.kernel, c.graph, "")
			s, err := GenerateSystem(context.Background(), SystemOptions{Kernel: k, Graph: g, FPGAs: c.nF, PEs: c.nP, Filter: true, LinkLatency: 20})
			if err != nil {
				t.Fatal(err)
			}
			out := runIcarus(t, writeSystem(t, s), s)
			if !strings.Contains(out, "RESULT PASS") {
				t.Fatalf("simulation:\n%s", out)
			}
			t.Log(strings.TrimSpace(out))
		})
	}
}

// TestSystemLint runs verilator -Wall on every FPGA top of generated
// systems (one FPGA and several; generated and hand-written kernels).
func TestSystemLint(t *testing.T) {
	verilator := testenv.NeedTool(t, "verilator")
	for _, c := range []struct {
		kernel string
		nF     int
	}{{"wcc", 1}, {"bfs", 2}, {"sssp", 3}, {"sswp", 2}} {
		spec, _ := samples.Kernel(c.kernel)
		g, err := graph.Load("grid:rows=8,cols=8,seed=1,maxw=9", graph.ReadOptions{Weighted: len(spec.Edge) > 0})
		if err != nil {
			t.Fatal(err)
		}
		k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
		if err != nil {
			t.Fatal(err)
		}
		s, err := GenerateSystem(context.Background(), SystemOptions{Kernel: k, Graph: g, FPGAs: c.nF, PEs: 2, Filter: true, LinkLatency: 10})
		if err != nil {
			t.Fatal(err)
		}
		dir := writeSystem(t, s)
		for f := 0; f < c.nF; f++ {
			args := append([]string{"--lint-only", "-Wall", "--top-module", fmt.Sprintf("fpga%d_top", f)}, s.RTLFiles()...)
			cmd := exec.Command(verilator, args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s, %d FPGAs, fpga%d_top: verilator -Wall:\n%s", c.kernel, c.nF, f, out)
			}
		}
	}
}
