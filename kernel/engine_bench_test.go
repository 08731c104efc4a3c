package kernel_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

var (
	benchOnce  sync.Once
	benchGraph *graph.Graph
)

// benchSpec is the graph of the engine benchmarks; GRAVF_BENCH_GRAPH
// overrides it (the figure is for rmat:scale=20,ef=16).
func benchSpec() string {
	if s := os.Getenv("GRAVF_BENCH_GRAPH"); s != "" {
		return s
	}
	return "rmat:scale=20,ef=16,seed=1"
}

func loadBenchGraph(b *testing.B) *graph.Graph {
	benchOnce.Do(func() {
		g, err := graph.Load(benchSpec(), graph.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		benchGraph = g
	})
	return benchGraph
}

// BenchmarkEngine reports traversed edges (messages) per second of the BSP
// reference engine on one core.
func BenchmarkEngine(b *testing.B) {
	for _, name := range []string{"wcc", "pr", "bfs"} {
		b.Run(name, func(b *testing.B) {
			g := loadBenchGraph(b)
			s, err := samples.Kernel(name)
			if err != nil {
				b.Fatal(err)
			}
			k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
			if err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			var msgs int64
			for i := 0; i < b.N; i++ {
				res, err := kernel.Run(context.Background(), k, g, kernel.RunOptions{})
				if err != nil {
					b.Fatal(err)
				}
				msgs += res.Messages
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds()/1e6, "MTEPS")
		})
	}
}
