package bench

import (
	"context"
	"fmt"
)

// commandRows runs `gravf-tui model` on R-MAT scale 20 as a user does
// (generation and the latency-aware prediction included) and the same
// command with --no-latency, whose difference is what the prediction
// costs.
func commandRows(ctx context.Context, e *env) ([]Row, error) {
	if err := e.needSelf(); err != nil {
		return nil, err
	}
	args := []string{"model", "--kernel", "wcc", "--graph", refGraph}
	e.logf("command: gravf-tui %v, with and without the prediction", args)
	n := max(1, min(e.opt.Repeats, 3))
	// CPU time beside the wall time: on a loaded machine the wall time
	// is several times the CPU time, which load does not change.
	var cpuWhole, cpuBare []float64
	samples, err := alternate(ctx, n,
		func(ctx context.Context) (float64, error) {
			p, err := runProc(ctx, e.work, e.opt.Self, args...)
			if err != nil {
				return 0, err
			}
			cpuWhole = append(cpuWhole, p.cpu)
			return p.wall, nil
		},
		func(ctx context.Context) (float64, error) {
			p, err := runProc(ctx, e.work, e.opt.Self, append(args, "--no-latency")...)
			if err != nil {
				return 0, err
			}
			cpuBare = append(cpuBare, p.cpu)
			return p.wall, nil
		})
	if err != nil {
		return nil, err
	}
	whole, bare := median(samples[0]), median(samples[1])
	pred := whole - bare
	cpuNote := fmt.Sprintf("CPU time %.1f s, %.1f s with --no-latency", median(cpuWhole), median(cpuBare))
	return []Row{
		{ID: "command/model-rmat20", What: "model command on " + refGraph + " (whole command)", Value: whole, Unit: "s", Samples: samples[0],
			Notes: []string{fmt.Sprintf("%.1f s with --no-latency (generation and the four limits)", bare), cpuNote}},
		{ID: "command/prediction-rmat20", What: "what the latency-aware prediction adds to it", Value: pred, Unit: "s",
			Target: &Target{Text: "a few seconds (<= 3 s)", Met: pred <= 3},
			Notes:  []string{fmt.Sprintf("%.1f s of CPU time", median(cpuWhole)-median(cpuBare))}},
	}, nil
}
