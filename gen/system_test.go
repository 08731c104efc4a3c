package gen

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// testDesign derives the design of a kernel on the AC-510 at nF x nP with
// the link latency given, edges in block RAM, or in mem when it is set
// (the test's own memory figures).
func testDesign(t testing.TB, k *kernel.Kernel, nF, nP, linkLatency int, mem *arch.EdgeMemory) *arch.Design {
	t.Helper()
	brd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	o := arch.Options{FPGAs: nF, PEs: nP, Mem: arch.BRAM}
	if mem != nil {
		o.Mem = arch.OffChip
	}
	d, err := arch.Derive(brd, k, o)
	if err != nil {
		t.Fatal(err)
	}
	d.Link.LatencyCycles = linkLatency
	if mem != nil {
		d.EdgeMemory = *mem
	}
	return d
}

// memory is an off-chip memory of the test's own figures.
func memory(word, slot, latency, inFlight int, wordsPerCycle float64) *arch.EdgeMemory {
	return &arch.EdgeMemory{Memory: "test", WordBits: word, SlotBits: slot, EdgesPerWord: word / slot, LatencyCycles: latency,
		InFlight: inFlight, WordsPerCycle: wordsPerCycle}
}

// writeSystem writes a generated system into a folder.
func writeSystem(t *testing.T, s *System) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range s.Paths() {
		if err := writeSystemFile(s, filepath.Join(dir, p), p); err != nil {
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
	args = append(args, s.TBFiles()...)
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
// Icarus: every run must print RESULT PASS. The off-chip memories are
// small and slow on purpose: words of a few slots, fewer requests in flight
// than the latency, and less than a word per cycle, so that lists span
// several words, the in-flight limit binds and the PEs wait for bandwidth.
func TestSystemIcarus(t *testing.T) {
	karate := datasets.Path(t, "karate.mtx")
	slow := &arch.EdgeMemory{LatencyCycles: 9, InFlight: 3, WordsPerCycle: 0.6} // two slots per word, below
	for _, c := range []struct {
		kernel, graph string
		nF, nP        int
		mem           *arch.EdgeMemory
	}{
		{"wcc", karate, 1, 2, nil},
		{"bfs", karate, 2, 2, nil},
		{"sssp", "grid:rows=6,cols=6,seed=1,maxw=20", 2, 3, nil},
		{"wcc", "uniform:v=300,d=6,seed=4", 4, 2, nil},
		{"wcc", karate, 1, 3, slow},
		{"sssp", "grid:rows=6,cols=6,seed=1,maxw=20", 2, 3, slow},
		{"bfs", "uniform:v=300,d=12,seed=4", 4, 2, memory(128, 16, 30, 8, 1.5)},
	} {
		name := c.kernel + "/" + filepath.Base(c.graph)
		if c.mem != nil {
			name += "/offchip"
		}
		t.Run(name, func(t *testing.T) {
			k, g := loadSample(t, c.kernel, c.graph, "")
			mem := c.mem
			if mem == slow {
				slot := testDesign(t, k, c.nF, c.nP, 20, nil).EdgeMemory.SlotBits
				mem = memory(2*slot, slot, slow.LatencyCycles, slow.InFlight, slow.WordsPerCycle)
			}
			s, err := GenerateSystem(context.Background(), SystemOptions{Design: testDesign(t, k, c.nF, c.nP, 20, mem), Kernel: k, Graph: g, Filter: true})
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

// TestSystemLint runs verilator -Wall on fpga_top for every FPGA of
// generated systems (one FPGA and several; generated and hand-written
// kernels; edges in block RAM and off-chip): it lints the hand-written PE
// and FPGA in all their variants, and every generated module.
func TestSystemLint(t *testing.T) {
	verilator := testenv.NeedTool(t, "verilator")
	offChip := memory(128, 32, 20, 16, 2)
	for _, c := range []struct {
		kernel string
		nF     int
		mem    *arch.EdgeMemory
	}{{"wcc", 1, nil}, {"bfs", 2, nil}, {"sssp", 3, nil}, {"sswp", 2, nil},
		{"wcc", 1, offChip}, {"sssp", 3, offChip}, {"pr", 2, offChip}, {"pr-graphalytics", 2, nil}, {"pr-graphalytics", 1, offChip}} {
		spec, _ := samples.Kernel(c.kernel)
		g, err := graph.Load("grid:rows=8,cols=8,seed=1,maxw=9", graph.ReadOptions{Weighted: len(spec.Edge) > 0})
		if err != nil {
			t.Fatal(err)
		}
		k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
		if err != nil {
			t.Fatal(err)
		}
		s, err := GenerateSystem(context.Background(), SystemOptions{Design: testDesign(t, k, c.nF, 2, 10, c.mem), Kernel: k, Graph: g, Filter: true})
		if err != nil {
			t.Fatal(err)
		}
		dir := writeSystem(t, s)
		for f := 0; f < c.nF; f++ {
			args := append([]string{"--lint-only", "-Wall", "--top-module", "fpga_top", fmt.Sprintf("-GFPGA=%d", f)}, s.RTLFiles()...)
			cmd := exec.Command(verilator, args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s, %d FPGAs, off-chip %v, fpga_top FPGA=%d: verilator -Wall:\n%s", c.kernel, c.nF, c.mem != nil, f, out)
			}
		}
		// The PE with its table port (the Vitis kernel's), at the widths
		// the contract gives it.
		args := []string{"--lint-only", "-Wall", "--top-module", "gravf_pe"}
		for _, p := range s.PEParams(c.nF*2-1, true) {
			args = append(args, fmt.Sprintf("-G%s=%s", p.Name, p.Value))
		}
		la, lw := s.Words.TablePort()
		args = append(args, fmt.Sprintf("-GLDA=%d", la), fmt.Sprintf("-GLDW=%d", lw))
		cmd := exec.Command(verilator, append(args, s.RTLFiles()...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s, %d FPGAs, off-chip %v, gravf_pe LOAD=1: verilator -Wall:\n%s", c.kernel, c.nF, c.mem != nil, out)
		}
	}
}
