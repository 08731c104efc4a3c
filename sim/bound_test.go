package sim_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// TestNeverAboveModel draws random configurations and checks that the
// simulator never reports more than the model's T_sys (1 % for rounding).
// The model takes the board's measured CPE for the paper's PE and one
// cycle per edge, the most a PE can do, for the generated PE.
func TestNeverAboveModel(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	kernels := []string{"wcc", "bfs", "pr", "sssp"}
	graphs := []string{"uniform:v=3000,d=16,seed=4", "rmat:scale=11,ef=16,seed=2", "uniform:v=2000,d=64,seed=9", "grid:rows=40,cols=40,seed=3,maxw=9"}
	fixtures := map[string]fixture{}
	worst := map[sim.PEDesign]float64{}
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
		pe := []sim.PEDesign{sim.PEPaper, sim.PEGenerated}[r.IntN(2)]
		name := fmt.Sprintf("%s/%s/%dx%d/%s/%s/%s/%s", k, gs, nF, nP, arch, mem, detail, pe)
		res, err := sim.Run(context.Background(), &sim.Setup{Board: board(t, "ac510"), Kernel: fx.k, Graph: fx.g, FPGAs: nF, PEs: nP,
			Arch: arch, Mem: mem, Filter: true, Detail: detail, PE: pe,
			ModelTSys: model.TSysFor(board(t, "ac510"), fx.k, fx.g, model.Config{FPGAs: nF, PEs: nP, Arch: arch, Mem: mem, Filter: true}, pe)})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The model's CPE follows the PE design: the board's measured
		// figure for the paper's PE, one cycle per edge for the generated.
		bound := res.ModelTSys
		if want := modelTSys(t, fx, nF, nP, arch, mem, 1); pe == sim.PEGenerated && math.Abs(bound/want-1) > 1e-9 {
			t.Fatalf("%s: the model's T_sys %.0f is not the model at one cycle per edge (%.0f)", name, bound, want)
		}
		ratio := res.TEPS / bound
		worst[pe] = max(worst[pe], ratio)
		if ratio > 1.01 {
			t.Errorf("%s: simulated %.0f MTEPS above the model's %.0f (x%.3f)", name, res.TEPS/1e6, bound/1e6, ratio)
		}
	}
	t.Logf("highest simulation/model ratio: paper PE %.3f, generated PE (model at 1 cycle per edge) %.3f", worst[sim.PEPaper], worst[sim.PEGenerated])
}

// modelTSys evaluates the model for a configuration with the given CPE.
func modelTSys(t *testing.T, fx fixture, nF, nP int, arch model.Arch, mem model.MemKind, cpe float64) float64 {
	t.Helper()
	p, err := model.FromBoardKernel(board(t, "ac510"), "", fx.k.Spec.PECost)
	if err != nil {
		t.Fatal(err)
	}
	p.MaxPEs = 0
	w := model.NewWorkload(fx.k, fx.g, cpe, "test", nil)
	r, err := model.Evaluate(p, w, model.Config{FPGAs: nF, PEs: nP, Arch: arch, Mem: mem, Filter: true})
	if err != nil && !errors.Is(err, model.ErrCapacity) {
		t.Fatal(err)
	}
	return r.TSys
}
