package bench

import (
	"context"
	"fmt"
	"slices"
)

// commandRows runs `gravf-tui model` on R-MAT scale 20 as a user does
// (generation and the latency-aware prediction included) the first time,
// with --no-cache, and the same command with --no-latency, whose
// difference is what the prediction costs; and the command once more with
// the prediction's cache filled, as a second run on the dataset is; then
// the first run of PageRank, whose activity is derived without a
// reference run and whose f32 gather has the exact hazard detector.
func commandRows(ctx context.Context, e *env) ([]Row, error) {
	rows, err := wccCommandRows(ctx, e)
	if err != nil {
		return nil, err
	}
	pr, err := prCommandRows(ctx, e)
	return append(rows, pr...), err
}

// wccCommandRows are commandRows' rows of WCC.
func wccCommandRows(ctx context.Context, e *env) ([]Row, error) {
	if err := e.needSelf(); err != nil {
		return nil, err
	}
	args := []string{"model", "--kernel", "wcc", "--graph", refGraph}
	e.logf("command: gravf-tui %v, with and without the prediction", args)
	n := max(1, min(e.opt.Repeats, 3))
	// CPU time beside the wall time: on a loaded machine the wall time
	// is several times the CPU time, which load does not change.
	var cpuWhole, cpuBare, cpuCached []float64
	// The cached side reads what this first call stores.
	if _, err := runProc(ctx, e.work, e.opt.Self, args...); err != nil {
		return nil, err
	}
	samples, err := alternate(ctx, n,
		commandSide(e, &cpuWhole, append(args, "--no-cache")...),
		commandSide(e, &cpuBare, append(args, "--no-latency")...),
		commandSide(e, &cpuCached, args...))
	if err != nil {
		return nil, err
	}
	whole, bare, cached := median(samples[0]), median(samples[1]), median(samples[2])
	pred := whole - bare
	cpuNote := fmt.Sprintf("CPU time %.1f s, %.1f s with --no-latency", median(cpuWhole), median(cpuBare))
	return []Row{
		{ID: "command/model-rmat20", What: "model command on " + refGraph + " (whole command)", Value: whole, Unit: "s", Samples: samples[0],
			Notes: []string{fmt.Sprintf("%.1f s with --no-latency (generation and the four limits)", bare), cpuNote}},
		{ID: "command/prediction-rmat20", What: "what the latency-aware prediction adds to it", Value: pred, Unit: "s",
			Target: &Target{Text: "a few seconds (<= 3 s)", Met: pred <= 3},
			Notes:  []string{fmt.Sprintf("%.1f s of CPU time", median(cpuWhole)-median(cpuBare))}},
		{ID: "command/prediction-rmat20-cached", What: "what the prediction adds to a second run (its cache filled)", Value: cached - bare, Unit: "s",
			Target: &Target{Text: "a few seconds (<= 3 s)", Met: cached-bare <= 3},
			Notes:  []string{fmt.Sprintf("whole command %.1f s, %.1f s of CPU time", cached, median(cpuCached))}},
	}, nil
}

// prCommandRows are commandRows' rows of PageRank's first run.
func prCommandRows(ctx context.Context, e *env) ([]Row, error) {
	args := []string{"model", "--kernel", "pr", "--graph", refGraph, "--no-cache"}
	e.logf("command: gravf-tui %v, with and without the prediction", args)
	n := max(1, min(e.opt.Repeats, 3))
	var cpuWhole, cpuBare []float64
	samples, err := alternate(ctx, n, commandSide(e, &cpuWhole, args...), commandSide(e, &cpuBare, append(args, "--no-latency")...))
	if err != nil {
		return nil, err
	}
	whole, bare := median(samples[0]), median(samples[1])
	return []Row{
		{ID: "command/model-pr-rmat20", What: "model command, PageRank, on " + refGraph + " (whole command, first run)", Value: whole, Unit: "s", Samples: samples[0],
			Notes: []string{fmt.Sprintf("%.1f s with --no-latency", bare), fmt.Sprintf("CPU time %.1f s, %.1f s with --no-latency", median(cpuWhole), median(cpuBare))}},
		{ID: "command/prediction-pr-rmat20", What: "what PageRank's latency-aware prediction adds to it", Value: whole - bare, Unit: "s",
			Target: &Target{Text: "a few seconds (<= 3 s)", Met: whole-bare <= 3},
			Notes:  []string{fmt.Sprintf("%.1f s of CPU time", median(cpuWhole)-median(cpuBare))}},
	}, nil
}

// commandSide runs this binary with args as one side of an alternation,
// adding its CPU time to cpu.
func commandSide(e *env, cpu *[]float64, args ...string) side {
	args = slices.Clone(args)
	return func(ctx context.Context) (float64, error) {
		p, err := runProc(ctx, e.work, e.opt.Self, args...)
		if err != nil {
			return 0, err
		}
		*cpu = append(*cpu, p.cpu)
		return p.wall, nil
	}
}
