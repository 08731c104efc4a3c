package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/samples"
)

// generatedWCC writes the sample WCC kernel without its hand-written
// Verilog, so that the export generates its kernels. The simulator models
// the generated kernels' latencies; the hand-written WCC gather is
// combinational (latency 0 against 1), which spares the RTL hazard stalls
// that the simulator counts.
func generatedWCC(t *testing.T) string {
	t.Helper()
	src, err := fs.ReadFile(samples.FS(), "kernels/wcc/kernel.toml")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "wcc")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kernel.toml"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestRTLAgreesWithSimulator exports projects, runs their testbench in
// Icarus and compares the cycle count with `sim --detail cycle` for the
// same configuration, edges in block RAM and in off-chip memory: the
// totals must agree within 5 %, and so must every superstep of at least
// 2000 cycles (the testbench prints when each superstep begins).
func TestRTLAgreesWithSimulator(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	karate := datasets.Path(t, "karate.mtx")
	wccGen := generatedWCC(t)
	cases := []struct {
		name, kernel, graph, mem string
		args                     []string
	}{
		{"wcc", "wcc", "uniform:v=2000,d=16,seed=1", "bram", []string{"--fpgas", "2", "--pes", "2"}},
		{"bfs", "bfs", "rmat:scale=10,ef=8,seed=2", "bram", []string{"--fpgas", "1", "--pes", "4", "--param", "root=0"}},
		{"sssp", "sssp", "grid:rows=30,cols=30,seed=1,maxw=20", "bram", []string{"--fpgas", "4", "--pes", "2", "--param", "root=0"}},
		{"pr", "pr", karate, "bram", []string{"--fpgas", "2", "--pes", "3"}},
		{"wcc-offchip", "wcc", "uniform:v=2000,d=16,seed=1", "offchip", []string{"--fpgas", "2", "--pes", "2"}},
		{"wcc-generated-offchip", wccGen, "uniform:v=2000,d=16,seed=1", "offchip", []string{"--fpgas", "2", "--pes", "2"}},
		// Nine PEs share 7.77 words per cycle: the bandwidth binds whenever
		// they request in the same cycle, as the lockstep broadcast makes them.
		{"wcc-generated-offchip-9pe", wccGen, "uniform:v=2000,d=16,seed=1", "offchip", []string{"--fpgas", "1", "--pes", "9"}},
		{"bfs-offchip", "bfs", "rmat:scale=10,ef=8,seed=2", "offchip", []string{"--fpgas", "1", "--pes", "4", "--param", "root=0"}},
		{"sssp-offchip", "sssp", "grid:rows=30,cols=30,seed=1,maxw=20", "offchip", []string{"--fpgas", "4", "--pes", "2", "--param", "root=0"}},
		{"pr-offchip", "pr", karate, "offchip", []string{"--fpgas", "2", "--pes", "3"}},
	}
	result := regexp.MustCompile(`RESULT PASS cycles=(\d+) messages=(\d+)`)
	step := regexp.MustCompile(`SUPERSTEP (\d+) start=(\d+)`)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "proj")
			args := append([]string{"export", "--kernel", c.kernel, "--graph", c.graph, "--mem", c.mem, "--out", dir}, c.args...)
			if _, _, err := runCLI(t, args...); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("make", "-s", "sim")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("make sim: %v\n%s", err, out)
			}
			m := result.FindSubmatch(out)
			if m == nil {
				t.Fatalf("no RESULT PASS:\n%s", out)
			}
			rtl, _ := strconv.ParseInt(string(m[1]), 10, 64)
			starts := []int64{0}
			for _, s := range step.FindAllSubmatch(out, -1) {
				starts = append(starts, atoi64(s[2]))
			}
			simArgs := append([]string{"sim", "--kernel", c.kernel, "--graph", c.graph, "--mem", c.mem, "--detail", "cycle", "--json"}, c.args...)
			js, _, err := runCLI(t, simArgs...)
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Cycles       int64 `json:"cycles"`
				PerSuperstep []struct {
					Cycles int64 `json:"cycles"`
				} `json:"per_superstep"`
			}
			if err := json.Unmarshal([]byte(js), &r); err != nil {
				t.Fatal(err)
			}
			if len(starts) != len(r.PerSuperstep) {
				t.Fatalf("RTL: %d supersteps, simulator: %d", len(starts), len(r.PerSuperstep))
			}
			diff := float64(rtl)/float64(r.Cycles) - 1
			worst, worstStep, off := 0.0, -1, 0.0
			for i, s := range r.PerSuperstep {
				end := rtl
				if i+1 < len(starts) {
					end = starts[i+1]
				}
				off += abs(float64(end - starts[i] - s.Cycles))
				if d := float64(end-starts[i])/float64(s.Cycles) - 1; s.Cycles >= 2000 && abs(d) > abs(worst) {
					worst, worstStep = d, i
				}
			}
			steps := "no superstep of 2000 cycles"
			if worstStep >= 0 {
				steps = fmt.Sprintf("worst superstep of 2000 cycles or more: %d, %+.2f %%", worstStep, 100*worst)
			}
			t.Logf("%s, %s: RTL %d cycles, simulator %d (%+.2f %%); %d supersteps, %.1f cycles apart on average, %s; %s messages",
				c.name, c.mem, rtl, r.Cycles, 100*diff, len(starts), off/float64(len(starts)), steps, m[2])
			if abs(diff) > 0.05 || abs(worst) > 0.05 {
				t.Errorf("RTL and simulator differ by %+.1f %% in total, %+.1f %% in superstep %d", 100*diff, 100*worst, worstStep)
			}
		})
	}
}

func atoi64(b []byte) int64 {
	n, _ := strconv.ParseInt(string(b), 10, 64)
	return n
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
