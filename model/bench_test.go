package model_test

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// The prediction's cost on rmat:scale=18,ef=16 (262,144 vertices, 7.6
// million arcs), WCC at 4 x 9 PEs: the reference run is the peer, done
// once per (graph, kernel) by every caller; a profile is computed once per
// design point; composing a prediction from a profile is what a keystroke
// costs; Evaluate is the four limits.
type benchSetup struct {
	g   *graph.Graph
	k   *kernel.Kernel
	act *model.Activity
	p   *model.Platform
	w   *model.Workload
	r   model.Result
	opt model.ProfileOptions
	err error
}

var (
	benchOnce sync.Once
	bench     benchSetup
)

func rmat18(b *testing.B) *benchSetup {
	b.Helper()
	benchOnce.Do(func() {
		s := &bench
		if s.g, s.err = graph.Load("rmat:scale=18,ef=16,seed=1,scramble=true", graph.ReadOptions{}); s.err != nil {
			return
		}
		spec, err := samples.Kernel("wcc")
		if err != nil {
			s.err = err
			return
		}
		if s.k, s.err = spec.Bind(kernel.Env{Vertices: s.g.NumVertices()}); s.err != nil {
			return
		}
		if s.act, _, s.err = model.RecordActivity(context.Background(), s.k, s.g, kernel.RunOptions{}); s.err != nil {
			return
		}
		s.p = ac510(b)
		s.w = model.NewWorkload(s.k, s.g, 1, "bench", nil)
		s.w.Attach(model.NewProfiles(s.g, s.act, graph.PartitionOptions{}))
		if s.r, s.err = model.Evaluate(s.p, s.w, model.Config{FPGAs: 4, PEs: 9, Mem: model.OffChip, Filter: true}); s.err != nil {
			return
		}
		s.opt = s.p.ProfileFor(s.w, s.r.Config)
		_, s.err = model.PredictContext(context.Background(), s.p, s.w, s.r) // computes the profile
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return &bench
}

// BenchmarkPredictionPeerReference is the reference run of WCC.
func BenchmarkPredictionPeerReference(b *testing.B) {
	s := rmat18(b)
	b.ResetTimer()
	for range b.N {
		if _, err := kernel.Run(context.Background(), s.k, s.g, kernel.RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPredictionProfile computes the profile of one design point
// (greedy partition included); cpu-s/op is the CPU time of all cores,
// which the machine's load does not inflate as it does the wall time.
func BenchmarkPredictionProfile(b *testing.B) {
	s := rmat18(b)
	b.ResetTimer()
	c0 := cpuTime()
	defer func() { b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/op") }()
	for range b.N {
		part, err := graph.NewPartition(context.Background(), s.g, graph.PartitionOptions{FPGAs: 4, PEs: 9})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := model.NewProfile(s.g, part, s.act, s.opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPredictionCompose is a prediction from a computed profile.
func BenchmarkPredictionCompose(b *testing.B) {
	s := rmat18(b)
	b.ResetTimer()
	for range b.N {
		if _, err := model.PredictContext(context.Background(), s.p, s.w, s.r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPredictionEvaluate is the four limits at the same point.
func BenchmarkPredictionEvaluate(b *testing.B) {
	s := rmat18(b)
	b.ResetTimer()
	for range b.N {
		if _, err := model.Evaluate(s.p, s.w, s.r.Config); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPredictionOptimise is the optimiser choosing nF x nP on the
// prediction with no profile computed yet, as the model command does
// (the reference run's activity given): profiles/op counts the design
// points it had to profile.
func BenchmarkPredictionOptimise(b *testing.B) {
	s := rmat18(b)
	b.ResetTimer()
	profiles := 0
	for range b.N {
		w := model.NewWorkload(s.k, s.g, 1, "bench", nil)
		ps := model.NewProfiles(s.g, s.act, graph.PartitionOptions{})
		w.Attach(ps)
		if _, err := model.Optimise(s.p, w, model.Config{Mem: model.OffChip, Filter: true}); err != nil {
			b.Fatal(err)
		}
		profiles += ps.Len()
	}
	b.ReportMetric(float64(profiles)/float64(b.N), "profiles/op")
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
