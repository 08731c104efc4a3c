package sim_test

import (
	"context"
	"os"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

func TestFastVsCycleProbe(t *testing.T) {
	spec := os.Getenv("PROBE_GRAPH")
	if spec == "" {
		t.Skip("set PROBE_GRAPH")
	}
	for _, k := range []string{"wcc", "bfs", "pr"} {
		fx := load(t, k, spec, graph.ReadOptions{})
		for _, c := range []struct {
			nF, nP int
			mem    model.MemKind
			arch   model.Arch
		}{{4, 9, model.OffChip, model.GraVFM}, {4, 9, model.OffChip, model.GraVF}, {1, 4, model.BRAM, model.GraVFM}, {1, 4, model.BRAM, model.GraVF}, {2, 9, model.OffChip, model.GraVFM}} {
			var cyc [2]int64
			for i, d := range []sim.Detail{sim.Cycle, sim.Fast} {
				res, err := sim.Run(context.Background(), &sim.Setup{Board: board(t, "ac510"), Kernel: fx.k, Graph: fx.g,
					FPGAs: c.nF, PEs: c.nP, Mem: c.mem, Filter: true, Detail: d, Arch: c.arch})
				if err != nil {
					t.Fatal(err)
				}
				cyc[i] = res.Cycles
			}
			t.Logf("%s %dx%d %s %s: cycle %d fast %d err %+.1f%%", k, c.nF, c.nP, c.mem, c.arch, cyc[0], cyc[1], 100*(float64(cyc[1])/float64(cyc[0])-1))
		}
	}
}
