package sim_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// TestFastMemoryExact: where the off-chip memory binds (9 PEs share 7.77
// words per cycle on the AC-510, fewer where the bandwidth is lowered)
// fast detail grants every word in the cycle cycle detail does, in the
// order of its rotating arbiter, so both give the same cycles in every
// superstep.
func TestFastMemoryExact(t *testing.T) {
	for _, c := range []struct {
		k, spec string
		nF, nP  int
		pe      sim.PEDesign
		peak    float64 // the memory's peak GiB/s, 0: the board's (21.7)
	}{
		{"sssp", "uniform:v=2000,d=16,seed=1", 4, 9, sim.PEGenerated, 0},
		{"wcc", "rmat:scale=10,ef=16,seed=1,scramble=false", 4, 9, sim.PEGenerated, 0},
		{"bfs", "rmat:scale=10,ef=16,seed=1", 2, 9, sim.PEPaper, 0},
		// A PE with all its words in flight when a barrier marker goes
		// through its unpacker, which takes the next word a cycle later.
		{"bfs", "rmat:scale=12,ef=16,seed=1", 4, 9, sim.PEGenerated, 0},
		{"pr", "rmat:scale=9,ef=16,seed=1", 4, 9, sim.PEGenerated, 0},
		{"wcc", "uniform:v=2000,d=32,seed=1", 4, 7, sim.PEGenerated, 10},
		{"pr", "rmat:scale=9,ef=8,seed=2", 2, 4, sim.PEGenerated, 8.5},
	} {
		t.Run(fmt.Sprintf("%s/%s/%dx%d/%s/%g", c.k, c.spec, c.nF, c.nP, c.pe, c.peak), func(t *testing.T) {
			fx := load(t, c.k, c.spec, graph.ReadOptions{})
			b := board(t, "ac510")
			if c.peak > 0 {
				var err error
				if b, err = boards.Override(b, map[string]float64{"memory.peak_gib_s": c.peak}); err != nil {
					t.Fatal(err)
				}
			}
			var res [2]*sim.Result
			for i, d := range []sim.Detail{sim.Cycle, sim.Fast} {
				r, err := sim.Run(context.Background(), &sim.Setup{Board: b, Kernel: fx.k, Graph: fx.g, FPGAs: c.nF, PEs: c.nP,
					Arch: model.GraVFM, Mem: model.OffChip, PE: c.pe, Filter: true, Detail: d})
				if err != nil {
					t.Fatal(err)
				}
				res[i] = r
			}
			if res[1].Cycles != res[0].Cycles || !slices.Equal(res[1].PerSuperstep, res[0].PerSuperstep) {
				for i := range res[0].PerSuperstep {
					if i < len(res[1].PerSuperstep) && res[0].PerSuperstep[i] != res[1].PerSuperstep[i] {
						t.Logf("superstep %d: cycle %+v, fast %+v", i, res[0].PerSuperstep[i], res[1].PerSuperstep[i])
					}
				}
				t.Errorf("fast detail %d cycles, cycle detail %d", res[1].Cycles, res[0].Cycles)
			}
		})
	}
}
