package model_test

import (
	"context"
	"math"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
)

// predictWorkload builds a workload with the reference run's activity and
// the profiles for the prediction.
func predictWorkload(t testing.TB, p *model.Platform, kname, spec string, method graph.Partitioner) *model.Workload {
	t.Helper()
	g, k, act := goldenActivity(t, kname, spec, nil)
	cpe, src := p.CPEFor(kname, model.PEGenerated)
	w := model.NewWorkload(k, g, cpe, src, nil)
	w.Attach(model.NewProfiles(g, act, graph.PartitionOptions{Method: method}))
	return w
}

// TestPredictionNeverAboveTSys: on every graph, kernel, partitioner and
// design point the prediction is at most T_sys and at most the ceilings
// the optimiser prunes with, and its breakdown adds up to its time.
func TestPredictionNeverAboveTSys(t *testing.T) {
	p := ac510(t)
	for _, spec := range []string{"rmat:scale=10,ef=8,seed=3,scramble=false", "uniform:v=2048,d=4,seed=1", "grid:rows=24,cols=24"} {
		for _, kn := range []string{"wcc", "bfs", "pr", "sssp"} {
			for _, method := range []graph.Partitioner{graph.Greedy, graph.Robin, graph.GreedySorted} {
				w := predictWorkload(t, p, kn, spec, method)
				predictionBounded(t, p, w, spec+" "+kn+" "+string(method))
			}
		}
	}
}

// predictionBounded checks the prediction of w at varied design points
// against T_sys, the ceilings and its own breakdown.
func predictionBounded(t *testing.T, p *model.Platform, w *model.Workload, name string) {
	t.Helper()
	for _, c := range []model.Config{
		{FPGAs: 1, PEs: 1, Mem: model.BRAM}, {FPGAs: 2, PEs: 3, Mem: model.OffChip, Filter: true},
		{FPGAs: 4, PEs: 9, Mem: model.BRAM, Filter: true}, {FPGAs: 4, PEs: 2, Mem: model.BRAM, Arch: model.GraVF},
		{FPGAs: 3, PEs: 5, Mem: model.OffChip, Packing: true},
	} {
		r, err := model.Evaluate(p, w, c)
		if err != nil {
			t.Fatal(err)
		}
		pr, ok := model.Predict(p, w, r)
		if !ok {
			t.Fatalf("%s %+v: no prediction", name, c)
		}
		if pr.TEPS > r.TSys*(1+1e-9) || pr.TEPS <= 0 {
			t.Errorf("%s %+v: predicted %.4g TEPS, T_sys %.4g", name, c, pr.TEPS, r.TSys)
		}
		if ceil := model.Ceiling(p, w, r); pr.TEPS > ceil*(1+1e-9) {
			t.Errorf("%s %+v: predicted %.4g TEPS above the optimiser's ceiling %.4g", name, c, pr.TEPS, ceil)
		}
		if ceil, err := model.PredictionCeiling(context.Background(), p, w, r, 0); err != nil || pr.TEPS > ceil*(1+1e-9) || ceil > model.Ceiling(p, w, r)*(1+1e-9) {
			t.Errorf("%s %+v: predicted %.4g TEPS, the ceiling with the partition %.4g (%v), without %.4g", name, c, pr.TEPS, ceil, err, model.Ceiling(p, w, r))
		}
		var sum float64
		for _, m := range pr.Breakdown {
			if m.Seconds < -1e-15 {
				t.Errorf("%s %+v: %s takes %g s", name, c, m.Mechanism, m.Seconds)
			}
			sum += m.Seconds
		}
		if math.Abs(sum-pr.Seconds) > 1e-9*pr.Seconds {
			t.Errorf("%s %+v: breakdown sums to %g s, prediction %g s", name, c, sum, pr.Seconds)
		}
		if len(pr.Supersteps) != len(w.Supersteps) {
			t.Errorf("%s %+v: %d supersteps predicted, %d run", name, c, len(pr.Supersteps), len(w.Supersteps))
		}
	}
}

// TestPredictionCeilingSeesBusiestPE: round-robin on unscrambled R-MAT
// balances the vertices but puts the hubs' arcs on the first PEs; the
// ceiling with the partition charges the busiest PE's messages, which
// the ceiling from the counts alone (the mean PE) cannot.
func TestPredictionCeilingSeesBusiestPE(t *testing.T) {
	p := ac510(t)
	w := predictWorkload(t, p, "pr", "rmat:scale=11,ef=16,seed=2,scramble=false", graph.Robin)
	r, err := model.Evaluate(p, w, model.Config{FPGAs: 2, PEs: 4, Mem: model.BRAM, Filter: true})
	if err != nil {
		t.Fatal(err)
	}
	refined, err := model.PredictionCeiling(context.Background(), p, w, r, 0)
	if err != nil {
		t.Fatal(err)
	}
	pr, _ := model.Predict(p, w, r)
	if coarse := model.Ceiling(p, w, r); refined > 0.8*coarse || pr.TEPS > refined*(1+1e-9) {
		t.Fatalf("ceiling with the partition %.4g, without %.4g, prediction %.4g", refined, coarse, pr.TEPS)
	}
}

// TestPredictBalancedHandComputed: without profiles every PE carries the
// mean; 100 supersteps of 20 messages on 2 x 9 PEs are latency bound.
func TestPredictBalancedHandComputed(t *testing.T) {
	p := ac510(t)
	w := &model.Workload{Kernel: "bfs", CPE: 1, Vertices: 1000, Arcs: 2000,
		Sizes: kernel.Sizes{VertexIDBits: 10, Vertex: 11, Update: 0, Message: 0, Edge: 10}, Degrees: [][2]int64{{2, 1000}}}
	for i := 0; i < 100; i++ {
		w.Supersteps = append(w.Supersteps, kernel.Superstep{Index: i, Active: 10, Messages: 20})
	}
	c := model.Config{FPGAs: 2, PEs: 9, Mem: model.OffChip}
	r, err := model.Evaluate(p, w, c)
	if err != nil {
		t.Fatal(err)
	}
	pr, ok := model.Predict(p, w, r)
	if !ok {
		t.Fatal("no prediction")
	}
	// The sweep of 56 vertices and the barrier marker (57 cycles), the
	// mean PE's 20/18 messages gathered after it, then t_sync: the four
	// stages, the memory (400 ns = 75 cycles) and one link (1 us = 188
	// cycles at 187.5 MHz); the kernels' latencies are 0 here.
	f := p.ClockHz
	cycles := 57 + 20.0/18 + 4 + math.Round(400e-9*f) + math.Round(1e-6*f)
	if want := 100 * cycles / f; math.Abs(pr.Seconds-want) > 1e-9*want || pr.LatencyBoundSupersteps != 100 {
		t.Fatalf("predicted %.6g s (%d latency bound), want %.6g", pr.Seconds, pr.LatencyBoundSupersteps, want)
	}
	if pr.TEPS >= r.TSys/50 || pr.Partitioner != "" {
		t.Fatalf("TEPS %.3g should be far below T_sys %.3g (partitioner %q)", pr.TEPS, r.TSys, pr.Partitioner)
	}
}

// TestPredictionSeesImbalance: unscrambled R-MAT under round-robin puts
// the hubs on the first PEs; the prediction names the most loaded PE and
// charges the imbalance, and greedy-sorted predicts faster.
func TestPredictionSeesImbalance(t *testing.T) {
	p := ac510(t)
	spec := "rmat:scale=11,ef=16,seed=2,scramble=false"
	c := model.Config{FPGAs: 2, PEs: 4, Mem: model.BRAM, Filter: true}
	pred := map[graph.Partitioner]model.Prediction{}
	for _, m := range []graph.Partitioner{graph.Robin, graph.GreedySorted} {
		w := predictWorkload(t, p, "wcc", spec, m)
		r, err := model.Evaluate(p, w, c)
		if err != nil {
			t.Fatal(err)
		}
		pr, ok := model.Predict(p, w, r)
		if !ok {
			t.Fatal("no prediction")
		}
		pred[m] = pr
	}
	rb := pred[graph.Robin]
	if rb.Imbalance == nil || rb.Imbalance.Ratio < 1.3 || rb.Imbalance.PE != rb.Imbalance.FPGA*c.PEs+rb.Imbalance.Local {
		t.Fatalf("round-robin imbalance %+v", rb.Imbalance)
	}
	if gs := pred[graph.GreedySorted]; gs.TEPS <= rb.TEPS {
		t.Fatalf("greedy-sorted %.4g TEPS, round-robin %.4g", gs.TEPS, rb.TEPS)
	}
}

// TestOptimiseOnPrediction: BFS on a line is a string of tiny
// supersteps; every FPGA beyond the first adds a link's latency to each
// barrier, more than the shorter sweeps save, so the prediction keeps one
// FPGA where T_sys would take more.
func TestOptimiseOnPrediction(t *testing.T) {
	p := ac510(t)
	w := predictWorkload(t, p, "bfs", "line:n=300", graph.Greedy)
	ch, err := model.Optimise(p, w, model.Config{Mem: model.BRAM, Filter: true})
	if err != nil {
		t.Fatal(err)
	}
	if ch.By != model.ByPrediction || ch.Prediction == nil || ch.Best.FPGAs != 1 {
		t.Fatalf("chose %d x %d by %s", ch.Best.FPGAs, ch.Best.PEs, ch.By)
	}
	bound := false
	for _, pt := range ch.Curve {
		if pt.Fits && pt.TSys > ch.Best.TSys {
			bound = true
		}
		near := pt.FPGAs <= ch.Best.FPGAs+1 && pt.FPGAs+1 >= ch.Best.FPGAs
		if pt.Fits && (near && pt.Predicted == nil || pt.Predicted != nil && *pt.Predicted > pt.TSys*(1+1e-9)) {
			t.Fatalf("curve point %+v: prediction missing or above T_sys", pt)
		}
	}
	if !bound {
		t.Fatalf("no point on the curve has a higher T_sys than the choice: %+v", ch.Curve)
	}
	// Without supersteps the optimiser keeps the bound.
	w.Profiles, w.Supersteps = nil, nil
	if ch, err := model.Optimise(p, w, model.Config{Mem: model.BRAM, Filter: true}); err != nil || ch.By != model.ByTSys || ch.Prediction != nil {
		t.Fatalf("without supersteps: %v, by %s", err, ch.By)
	}
}

// TestOptimiseSearchIsExhaustive: the optimiser predicts only the points
// whose ceiling beats the best prediction so far, and still chooses what
// predicting every point would choose.
func TestOptimiseSearchIsExhaustive(t *testing.T) {
	p := ac510(t)
	for _, tc := range []struct {
		kernel, spec string
		method       graph.Partitioner
	}{
		{"wcc", "rmat:scale=11,ef=8,seed=2,scramble=true", graph.Greedy},
		{"pr", "rmat:scale=10,ef=16,seed=1,scramble=false", graph.Greedy},
		{"bfs", "uniform:v=4096,d=8,seed=1", graph.Greedy},
		// The busiest PE's ceiling prunes here: hubs on the first PEs, and
		// vertices balanced but not edges.
		{"pr", "rmat:scale=11,ef=16,seed=2,scramble=false", graph.Robin},
		{"wcc", "rmat:scale=11,ef=16,seed=2,scramble=true", graph.GreedySorted},
	} {
		w := predictWorkload(t, p, tc.kernel, tc.spec, tc.method)
		base := model.Config{Mem: model.OffChip, Filter: true}
		ch, err := model.Optimise(p, w, base)
		if err != nil {
			t.Fatal(err)
		}
		var best model.Result
		bestTEPS := 0.0
		for nF := 1; nF <= p.MaxFPGAs; nF++ {
			for nP := 1; nP <= p.MaxPEs; nP++ {
				c := base
				c.FPGAs, c.PEs = nF, nP
				r, err := model.Evaluate(p, w, c)
				if err != nil {
					continue
				}
				pr, ok := model.Predict(p, w, r)
				if ok && pr.TEPS > bestTEPS*(1+1e-9) {
					best, bestTEPS = r, pr.TEPS
				}
			}
		}
		if ch.Prediction == nil || math.Abs(ch.Prediction.TEPS-bestTEPS) > 1e-9*bestTEPS {
			t.Errorf("%s %s: chose %d x %d (%v), every point predicted: %d x %d at %.4g TEPS",
				tc.kernel, tc.spec, ch.Best.FPGAs, ch.Best.PEs, ch.Prediction, best.FPGAs, best.PEs, bestTEPS)
		}
	}
}

// TestPredictionMemoryGrantsWholeWords: the edge memory's token bucket
// holds at most max(r, 1) tokens, so r words per cycle grant floor(r)
// words a cycle, or one every ceil(1/r) cycles: 2.9 words per cycle
// predict what 2 do, 0.6 what 0.5 do, and 3 are faster where the memory
// binds (9 PEs ask for more).
func TestPredictionMemoryGrantsWholeWords(t *testing.T) {
	p := ac510(t)
	w := predictWorkload(t, p, "wcc", "uniform:v=2048,d=16,seed=1", graph.Greedy)
	c := model.Config{FPGAs: 1, PEs: 9, Mem: model.OffChip}
	// steps returns every superstep's cycles before the bound's floor.
	steps := func(words float64) []float64 {
		q := *p
		q.MemBitsPerSec = words * p.ClockHz * float64(p.MemWordBits)
		r, err := model.Evaluate(&q, w, c)
		if err != nil {
			t.Fatal(err)
		}
		pr, ok := model.Predict(&q, w, r)
		if !ok {
			t.Fatal("no prediction")
		}
		var out []float64
		for _, st := range pr.Supersteps {
			out = append(out, st.Cycles-st.Limits)
		}
		return out
	}
	for _, tc := range []struct{ words, same, faster float64 }{{2.9, 2, 3}, {0.6, 0.5, 1}} {
		got, same, faster := steps(tc.words), steps(tc.same), steps(tc.faster)
		sooner := false
		for i := range got {
			if math.Abs(got[i]-same[i]) > 1e-9*same[i] {
				t.Errorf("%g words a cycle: superstep %d takes %.1f cycles, %g words %.1f", tc.words, i, got[i], tc.same, same[i])
			}
			sooner = sooner || faster[i] < got[i]-0.5
		}
		if !sooner {
			t.Errorf("%g words a cycle are never faster than %g: the memory does not bind", tc.faster, tc.words)
		}
	}
}
