package sim_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// TestNeverAboveModel draws random configurations and checks that the
// simulator never reports more than the model's T_sys (1 % for rounding).
func TestNeverAboveModel(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	kernels := []string{"wcc", "bfs", "pr", "sssp"}
	graphs := []string{"uniform:v=3000,d=16,seed=4", "rmat:scale=11,ef=16,seed=2", "uniform:v=2000,d=64,seed=9", "grid:rows=40,cols=40,seed=3,maxw=9"}
	fixtures := map[string]fixture{}
	worst := 0.0
	for i := 0; i < 60; i++ {
		k := kernels[r.IntN(len(kernels))]
		gs := graphs[r.IntN(len(graphs))]
		key := k + gs
		fx, ok := fixtures[key]
		if !ok {
			fx = load(t, k, gs, graph.ReadOptions{})
			fixtures[key] = fx
		}
		nF, nP := 1+r.IntN(4), 1+r.IntN(9)
		arch := []model.Arch{model.GraVFM, model.GraVF}[r.IntN(2)]
		mem := []model.MemKind{model.BRAM, model.OffChip}[r.IntN(2)]
		detail := []sim.Detail{sim.Cycle, sim.Fast}[r.IntN(2)]
		name := fmt.Sprintf("%s/%s/%dx%d/%s/%s/%s", k, gs, nF, nP, arch, mem, detail)
		res, err := sim.Run(context.Background(), &sim.Setup{Board: board(t, "ac510"), Kernel: fx.k, Graph: fx.g, FPGAs: nF, PEs: nP,
			Arch: arch, Mem: mem, Filter: true, Detail: detail})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		worst = max(worst, res.Efficiency)
		if res.Efficiency > 1.01 {
			t.Errorf("%s: simulated %.0f MTEPS above the model's %.0f (x%.3f)", name, res.TEPS/1e6, res.ModelTSys/1e6, res.Efficiency)
		}
	}
	t.Logf("highest simulation/model ratio: %.3f", worst)
}
