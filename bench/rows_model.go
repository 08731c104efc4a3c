package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// modelGraph is the graph of the model rows (its degree histogram is what
// an evaluation reads).
const modelGraph = "rmat:scale=16,ef=16,seed=1"

// modelRows times one evaluation of the model (WCC, 4 x 9 on the AC-510)
// and a sweep over nF 1..64 x nP 1..64 for WCC, BFS, PR and SSSP on a
// 64-FPGA variant of the board: what the TUI and explore do on every edit.
func modelRows(ctx context.Context, e *env) ([]Row, error) {
	b, err := boards.Get("ac510")
	if err != nil {
		return nil, err
	}
	p, err := model.FromBoard(b, "")
	if err != nil {
		return nil, err
	}
	g, err := graph.Load(modelGraph, graph.ReadOptions{})
	if err != nil {
		return nil, err
	}
	var ws []*model.Workload
	for _, name := range []string{"wcc", "bfs", "pr", "sssp"} {
		s, err := samples.Kernel(name)
		if err != nil {
			return nil, err
		}
		k, err := s.Bind(kernel.Env{Vertices: g.NumVertices()})
		if err != nil {
			return nil, err
		}
		c, src := p.KernelCPE(name)
		ws = append(ws, model.NewWorkload(k, g, c, src, nil))
	}
	cfg := model.Config{FPGAs: 4, PEs: 9, Filter: true}
	if _, err := model.Evaluate(p, ws[0], cfg); err != nil {
		return nil, err
	}
	// One evaluation is far below the clock's resolution: time batches
	// of at least 50 ms and report the time per evaluation.
	e.logf("model: one evaluation")
	evals, err := alternate(ctx, e.opt.Repeats,
		func(context.Context) (float64, error) {
			return perCall(50*time.Millisecond, func() { _, _ = model.EvaluateLimits(p, ws[0], cfg) })
		},
		func(context.Context) (float64, error) {
			return perCall(50*time.Millisecond, func() { _, _ = model.Evaluate(p, ws[0], cfg) })
		})
	if err != nil {
		return nil, err
	}
	sweep := *p
	sweep.MaxFPGAs, sweep.MaxPEs = 64, 64
	e.logf("model: 64 x 64 x 4 sweep")
	sweeps, err := alternate(ctx, e.opt.Repeats, func(context.Context) (float64, error) {
		return perCall(200*time.Millisecond, func() {
			for _, w := range ws {
				for nF := 1; nF <= 64; nF++ {
					for nP := 1; nP <= 64; nP++ {
						_, _ = model.EvaluateLimits(&sweep, w, model.Config{FPGAs: nF, PEs: nP, Filter: true})
					}
				}
			}
		})
	})
	if err != nil {
		return nil, err
	}
	ev := median(evals[0]) * 1e6
	sw := median(sweeps[0]) * 1e3
	return []Row{
		{ID: "model/evaluate", What: "one model evaluation (WCC, 4 x 9, " + modelGraph + "), limits only", Value: ev, Unit: "us",
			Samples: scale(evals[0], 1e6), Target: &Target{Text: "< 1 us", Met: ev < 1},
			Notes: []string{fmt.Sprintf("with the reasons' words (model.Evaluate) %.2f us", median(evals[1])*1e6)}},
		{ID: "model/sweep", What: "model sweep nF 1..64 x nP 1..64 x 4 kernels", Value: sw, Unit: "ms",
			Samples: scale(sweeps[0], 1e3), Target: &Target{Text: "< 5 ms", Met: sw < 5},
			Notes: []string{fmt.Sprintf("%.0f ns per point", sw*1e6/(4*64*64))}},
	}, nil
}

// perCall runs f repeatedly for at least d and returns the seconds per
// call.
func perCall(d time.Duration, f func()) (float64, error) {
	f() // warm
	n := 0
	start := time.Now()
	for time.Since(start) < d {
		f()
		n++
	}
	return time.Since(start).Seconds() / float64(n), nil
}

func scale(xs []float64, f float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * f
	}
	return out
}
