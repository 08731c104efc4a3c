package main

import (
	"os"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestLargeRTLAgreesWithSimulator is the large-graph check that runs
// outside CI (make check-large, which sets GRAVF_LARGE): it exports WCC and
// BFS on the original GraVF code base's scale-14 Graph500 graph and on
// R-MAT scale 16 (edge factor 16) for 4 FPGAs, with edges in block RAM and
// off-chip, runs each testbench in Verilator and compares the cycles with
// `sim --detail cycle`: within 5 % in total and in every superstep of at
// least 2000 cycles, as the small configurations in CI.
func TestLargeRTLAgreesWithSimulator(t *testing.T) {
	if os.Getenv("GRAVF_LARGE") == "" {
		t.Skip("large graphs: set GRAVF_LARGE=1 (make check-large)")
	}
	testenv.NeedTool(t, "verilator")
	s14 := datasets.Path(t, "fpgagraphlib-s14e16.graph")
	wccGen := generatedWCC(t)
	for _, g := range []struct{ name, spec, root string }{
		{"s14e16", s14, "3187"},
		{"rmat16", "rmat:scale=16,ef=16,seed=1", "0"},
	} {
		for _, k := range []struct{ name, kernel string }{{"wcc", wccGen}, {"bfs", "bfs"}} {
			for _, mem := range []string{"bram", "offchip"} {
				t.Run(g.name+"/"+k.name+"/"+mem, func(t *testing.T) {
					args := []string{"--kernel", k.kernel, "--graph", g.spec, "--mem", mem, "--fpgas", "4", "--pes", "4"}
					if k.name == "bfs" {
						args = append(args, "--param", "root="+g.root)
					}
					start := time.Now()
					rtl, messages, starts := rtlRun(t, "sim-verilator", args...)
					wall := time.Since(start)
					start = time.Now()
					cmp := compareWithSim(t, rtl, messages, starts, 2000, args...)
					t.Logf("%s, %s, %s, 4 x 4: %s; wall time: Verilator (export, build, run) %.0f s, simulator %.1f s",
						g.name, k.name, mem, cmp, wall.Seconds(), time.Since(start).Seconds())
					if abs(cmp.diff) > 0.05 || abs(cmp.worst) > 0.05 {
						t.Errorf("RTL and simulator differ by %+.1f %% in total, %+.1f %% in superstep %d", 100*cmp.diff, 100*cmp.worst, cmp.worstStep)
					}
				})
			}
		}
	}
}
