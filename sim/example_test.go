package sim_test

import (
	"context"
	"fmt"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

// ExampleRun simulates WCC on two AC-510s with four PEs each, at cycle
// detail, and compares the result with the model.
func ExampleRun() {
	b, _ := boards.Get("ac510")
	g, _ := graph.Load("uniform:v=4096,d=16,seed=1", graph.ReadOptions{})
	spec, _ := samples.Kernel("wcc")
	k, _ := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
	cfg := model.Config{FPGAs: 2, PEs: 4, Arch: model.GraVFM, Mem: model.OffChip, Filter: true}
	res, err := sim.Run(context.Background(), &sim.Setup{Board: b, Kernel: k, Graph: g, FPGAs: cfg.FPGAs, PEs: cfg.PEs,
		Arch: cfg.Arch, Mem: cfg.Mem, Filter: cfg.Filter, Detail: sim.Cycle,
		// The model of the same design point, for the comparison.
		ModelTSys: model.TSysFor(b, k, g, cfg, sim.PEGenerated)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d supersteps, %d messages in %d cycles\n", res.Supersteps, res.Messages, res.Cycles)
	fmt.Printf("%.0f MTEPS, %.0f %% of the model's T_sys\n", res.TEPS/1e6, 100*res.Efficiency)
	// Output:
	// 6 supersteps, 264669 messages in 37477 cycles
	// 1324 MTEPS, 88 % of the model's T_sys
}
