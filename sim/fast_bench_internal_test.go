package sim

import (
	"context"
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// BenchmarkFastTiming times fast detail's timing alone, without the
// reference engine that runs beside it in sim.Run: the senders of every
// superstep are recorded once and fed to a new machine in each iteration
// (PR on rmat:scale=16,ef=16 at 4 x 9 AC-510 PEs, edges off-chip and in
// block RAM). GRAVF_BENCH_GRAPH overrides the graph.
func BenchmarkFastTiming(b *testing.B) {
	spec := os.Getenv("GRAVF_BENCH_GRAPH")
	if spec == "" {
		spec = "rmat:scale=16,ef=16"
	}
	sp, err := samples.Kernel("pr")
	if err != nil {
		b.Fatal(err)
	}
	g, err := graph.Load(spec, graph.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	k, err := sp.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	if err != nil {
		b.Fatal(err)
	}
	var rounds [][]uint32
	if _, err := kernel.Run(context.Background(), k, g, kernel.RunOptions{Senders: func(r int, s []uint32) {
		rounds = append(rounds, slices.Clone(s))
	}}); err != nil {
		b.Fatal(err)
	}
	bd, err := boards.Get("ac510")
	if err != nil {
		b.Fatal(err)
	}
	for _, mem := range []model.MemKind{model.OffChip, model.BRAM} {
		s := &Setup{Board: bd, Kernel: k, Graph: g, FPGAs: 4, PEs: 9, Mem: mem, Filter: true, Detail: Fast}
		p := prepare(b, s)
		b.Run(string(mem), func(b *testing.B) {
			var cycles int64
			for b.Loop() {
				cycles = replay(b, s, p, rounds).result(&kernel.Result{}).Cycles
			}
			b.ReportMetric(float64(cycles), "cycles")
		})
	}
}

// BenchmarkFastParts splits a fast-detail run into its parts, each timed
// on its own: the reference engine with the senders recorded (what
// sim.Run runs beside the timing), the setup (newFastM: fast detail's
// index of the edges and the machine) and the timing fed the recorded
// senders (setup included, as in a run), with the parallel windows'
// figures. WCC, BFS from the vertex of most
// neighbours and PR on rmat:scale=16,ef=16 at 4 x 9 AC-510 PEs, edges
// off-chip: the design of BenchmarkFastAgainstCycle. GRAVF_BENCH_GRAPH
// overrides the graph.
func BenchmarkFastParts(b *testing.B) {
	spec := os.Getenv("GRAVF_BENCH_GRAPH")
	if spec == "" {
		spec = "rmat:scale=16,ef=16"
	}
	g, err := graph.Load(spec, graph.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	bd, err := boards.Get("ac510")
	if err != nil {
		b.Fatal(err)
	}
	hub := uint32(0)
	for v := uint32(1); v < uint32(g.NumVertices()); v++ {
		if g.OutDegree(v) > g.OutDegree(hub) {
			hub = v
		}
	}
	for _, name := range []string{"wcc", "bfs", "pr"} {
		sp, err := samples.Kernel(name)
		if err != nil {
			b.Fatal(err)
		}
		params := map[string]string{}
		for _, p := range sp.Params {
			if p.Kind == kernel.ParamVertex {
				params[p.Name] = strconv.FormatUint(g.Label(hub), 10)
			}
		}
		k, err := sp.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
		if err != nil {
			b.Fatal(err)
		}
		var rounds [][]uint32
		reference := func() {
			rounds = rounds[:0]
			if _, err := kernel.Run(context.Background(), k, g, kernel.RunOptions{Senders: func(r int, s []uint32) {
				rounds = append(rounds, slices.Clone(s))
			}}); err != nil {
				b.Fatal(err)
			}
		}
		reference()
		s := &Setup{Board: bd, Kernel: k, Graph: g, FPGAs: 4, PEs: 9, Mem: model.OffChip, Filter: true, Detail: Fast}
		p := prepare(b, s)
		b.Run(name+"/reference", func(b *testing.B) {
			for b.Loop() {
				reference()
			}
		})
		b.Run(name+"/setup", func(b *testing.B) {
			for b.Loop() {
				newFastM(context.Background(), s, p)
			}
		})
		b.Run(name+"/timing", func(b *testing.B) {
			var f *fastM
			for b.Loop() {
				f = replay(b, s, p, rounds)
			}
			// The parallel windows: how many, how often a sender paused on
			// its credit, and the share the caller stepped alone (pace).
			pauses := 0
			for _, x := range f.fpgas {
				pauses += x.pauses
			}
			b.ReportMetric(float64(f.windows), "windows")
			b.ReportMetric(float64(pauses)/float64(f.windows), "pauses/window")
			b.ReportMetric(float64(f.pace.Rested)/float64(f.windows), "alone/window")
		})
	}
}

// replay runs fast detail's timing of s on the recorded senders of every
// superstep, without the reference engine.
func replay(b *testing.B, s *Setup, p Params, rounds [][]uint32) *fastM {
	f := newFastM(context.Background(), s, p)
	for r, snd := range rounds {
		if err := f.superstep(r, newRoundSenders(s.partition, s.Graph, snd)); err != nil {
			b.Fatal(err)
		}
	}
	if err := f.advance(true); err != nil {
		b.Fatal(err)
	}
	return f
}

// prepare does what sim.Run does before the machine: the setup's
// defaults, its design's parameters and its partition.
func prepare(tb testing.TB, s *Setup) Params {
	tb.Helper()
	if err := s.applyDefaults(); err != nil {
		tb.Fatal(err)
	}
	d, err := s.design()
	if err != nil {
		tb.Fatal(err)
	}
	if s.partition, err = graph.NewPartition(context.Background(), s.Graph, graph.PartitionOptions{FPGAs: s.FPGAs, PEs: s.PEs, Method: s.Partitioner, UFactor: s.UFactor, Seed: s.Seed}); err != nil {
		tb.Fatal(err)
	}
	return NewParams(d)
}
