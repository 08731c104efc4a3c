package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestRTLAgreesWithSimulator exports projects, runs their testbench in
// Icarus and compares the total cycle count with `sim --detail cycle` for
// the same configuration (edges in BRAM): they must agree within 5 %.
func TestRTLAgreesWithSimulator(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	cases := []struct {
		kernel, graph string
		args          []string
	}{
		{"wcc", "uniform:v=2000,d=16,seed=1", []string{"--fpgas", "2", "--pes", "2"}},
		{"bfs", "rmat:scale=10,ef=8,seed=2", []string{"--fpgas", "1", "--pes", "4", "--param", "root=0"}},
		{"sssp", "grid:rows=30,cols=30,seed=1,maxw=20", []string{"--fpgas", "4", "--pes", "2", "--param", "root=0"}},
		{"pr", datasets.Path(t, "karate.mtx"), []string{"--fpgas", "2", "--pes", "3"}},
	}
	re := regexp.MustCompile(`RESULT PASS cycles=(\d+) messages=(\d+)`)
	for _, c := range cases {
		t.Run(c.kernel, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "proj")
			args := append([]string{"export", "--kernel", c.kernel, "--graph", c.graph, "--mem", "bram", "--out", dir}, c.args...)
			if _, _, err := runCLI(t, args...); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("make", "-s", "sim")
			cmd.Dir = dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("make sim: %v\n%s", err, out)
			}
			m := re.FindSubmatch(out)
			if m == nil {
				t.Fatalf("no RESULT PASS:\n%s", out)
			}
			rtl, _ := strconv.ParseFloat(string(m[1]), 64)
			simArgs := append([]string{"sim", "--kernel", c.kernel, "--graph", c.graph, "--mem", "bram", "--detail", "cycle", "--json"}, c.args...)
			js, _, err := runCLI(t, simArgs...)
			if err != nil {
				t.Fatal(err)
			}
			var r struct {
				Cycles   float64 `json:"cycles"`
				Messages float64 `json:"messages"`
			}
			if err := json.Unmarshal([]byte(js), &r); err != nil {
				t.Fatal(err)
			}
			diff := rtl/r.Cycles - 1
			t.Logf("%s: RTL %.0f cycles, simulator %.0f (%+.2f %%), %s messages", c.kernel, rtl, r.Cycles, 100*diff, m[2])
			if diff > 0.05 || diff < -0.05 {
				t.Errorf("RTL and simulator differ by %+.1f %%", 100*diff)
			}
		})
	}
}
