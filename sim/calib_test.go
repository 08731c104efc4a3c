package sim_test

import (
	"context"
	"os"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

func TestCalibrationProbe(t *testing.T) {
	spec := os.Getenv("PROBE_GRAPH")
	if spec == "" {
		t.Skip("set PROBE_GRAPH")
	}
	ks := []string{"wcc", "bfs", "pr"}
	if k := os.Getenv("PROBE_KERNEL"); k != "" {
		ks = []string{k}
	}
	for _, k := range ks {
		fx := load(t, k, spec, graph.ReadOptions{})
		for _, arch := range []model.Arch{model.GraVFM} {
			res, err := sim.Run(context.Background(), &sim.Setup{Board: board(t, "ac510"), Kernel: fx.k, Graph: fx.g,
				FPGAs: 4, PEs: 9, Mem: model.OffChip, Filter: true, Detail: sim.Cycle, Arch: arch})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s %s: %d cycles, %d msgs, %.0f MTEPS, model %.0f, eff %.2f, wall %.1fs (%.1f M msgs/s) stalls %+v",
				k, arch, res.Cycles, res.Messages, res.TEPS/1e6, res.ModelTSys/1e6, res.Efficiency, res.WallSeconds, float64(res.Messages)/res.WallSeconds/1e6, res.Stalls)
			for _, st := range res.PerSuperstep {
				t.Logf("  step %d: %d cycles, %d active, %d msgs, %.0f MTEPS", st.Index, st.Cycles, st.Active, st.Messages, float64(st.Messages)/float64(st.Cycles)*187.5)
			}
		}
	}
}
