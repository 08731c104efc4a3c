package sim_test

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
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
	for _, k := range []string{"wcc", "bfs", "pr"} {
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

// BenchmarkFastAgainstCycle times both levels of detail on the same
// design in the same run (WCC, BFS from the vertex of most neighbours and
// PR on rmat:scale=16,ef=16 on 4 x 9 AC-510 PEs, edges off-chip, the
// generated PE) and reports how many times faster fast detail is: the
// wall time of one cycle-detail run over the median of three fast-detail
// runs (the reference engine included in both). ceiling-x is cycle
// detail's time over the median of three runs of the reference engine
// alone, which fast detail needs for the senders of every superstep: no
// fast detail that runs it can be more times faster than that.
// GRAVF_BENCH_GRAPH overrides the graph.
func BenchmarkFastAgainstCycle(b *testing.B) {
	spec := os.Getenv("GRAVF_BENCH_GRAPH")
	if spec == "" {
		spec = "rmat:scale=16,ef=16"
	}
	for _, k := range []string{"wcc", "bfs", "pr"} {
		fx := load(b, k, spec, graph.ReadOptions{})
		if k == "bfs" {
			fx.k = fromHub(b, k, fx.g)
		}
		run := func(d sim.Detail) time.Duration {
			start := time.Now()
			if _, err := sim.Run(context.Background(), &sim.Setup{Board: board(b, "ac510"), Kernel: fx.k, Graph: fx.g,
				FPGAs: 4, PEs: 9, Mem: model.OffChip, Filter: true, Detail: d}); err != nil {
				b.Fatal(err)
			}
			return time.Since(start)
		}
		reference := func() time.Duration {
			start := time.Now()
			if _, err := kernel.Run(context.Background(), fx.k, fx.g, kernel.RunOptions{}); err != nil {
				b.Fatal(err)
			}
			return time.Since(start)
		}
		b.Run(k, func(b *testing.B) {
			var ratio, ceiling float64
			for i := 0; i < b.N; i++ {
				cyc := run(sim.Cycle)
				fast := []time.Duration{run(sim.Fast), run(sim.Fast), run(sim.Fast)}
				ref := []time.Duration{reference(), reference(), reference()}
				slices.Sort(fast)
				slices.Sort(ref)
				ratio = cyc.Seconds() / fast[1].Seconds()
				ceiling = cyc.Seconds() / ref[1].Seconds()
				b.ReportMetric(cyc.Seconds(), "cycle-s")
				b.ReportMetric(fast[1].Seconds(), "fast-s")
			}
			b.ReportMetric(ratio, "fast-x")
			b.ReportMetric(ceiling, "ceiling-x")
		})
	}
}

// fromHub binds kernel name with its root at g's vertex of most
// out-neighbours (the first of them): vertex 0 of a scrambled R-MAT graph
// is often isolated, and a traversal from it times nothing.
func fromHub(b *testing.B, name string, g *graph.Graph) *kernel.Kernel {
	b.Helper()
	s, err := samples.Kernel(name)
	if err != nil {
		b.Fatal(err)
	}
	hub := 0
	for v := 1; v < g.NumVertices(); v++ {
		if g.OutDegree(uint32(v)) > g.OutDegree(uint32(hub)) {
			hub = v
		}
	}
	params := map[string]string{}
	for _, p := range s.Params {
		if p.Kind == kernel.ParamVertex {
			params[p.Name] = strconv.FormatUint(g.Label(uint32(hub)), 10)
		}
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
	if err != nil {
		b.Fatal(err)
	}
	return k
}
