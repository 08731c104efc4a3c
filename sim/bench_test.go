package sim_test

import (
	"context"
	"os"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// BenchmarkSim reports simulated messages (traversed edges) per wall-clock
// second for WCC and PR on a 4 x 9 AC-510 system, at both levels of
// detail. GRAVF_BENCH_GRAPH overrides the graph (the figure is for
// rmat:scale=18,ef=16).
func BenchmarkSim(b *testing.B) {
	spec := os.Getenv("GRAVF_BENCH_GRAPH")
	if spec == "" {
		spec = "rmat:scale=14,ef=16,seed=1"
	}
	for _, k := range []string{"wcc", "pr"} {
		fx := load(b, k, spec, graph.ReadOptions{})
		for _, d := range []sim.Detail{sim.Cycle, sim.Fast} {
			b.Run(k+"/"+string(d), func(b *testing.B) {
				var msgs int64
				for i := 0; i < b.N; i++ {
					res, err := sim.Run(context.Background(), &sim.Setup{Board: board(b, "ac510"), Kernel: fx.k, Graph: fx.g,
						FPGAs: 4, PEs: 9, Mem: model.OffChip, Filter: true, Detail: d})
					if err != nil {
						b.Fatal(err)
					}
					msgs += res.Messages
				}
				b.ReportMetric(float64(msgs)/b.Elapsed().Seconds()/1e6, "Mmsg/s")
			})
		}
	}
}
