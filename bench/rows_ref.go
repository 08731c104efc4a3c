package bench

import (
	"context"
	"fmt"
	"math"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// prIterations is the PageRank length of the comparison: the sample
// kernel's default, and 30 SpMV steps on the scipy side.
const prIterations = 30

// bind binds a sample kernel to g with its default parameters.
func bind(name string, g *graph.Graph, params map[string]string) (*kernel.Kernel, error) {
	s, err := samples.Kernel(name)
	if err != nil {
		return nil, err
	}
	return s.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup, Params: params})
}

// refRows times the BSP reference engine (the graph already loaded) on
// R-MAT scale 20 against scipy: WCC against connected_components, PR
// (30 iterations) against 30 float32 SpMV steps. Both sides' answers are
// compared, so that the peer provably does the same work.
func refRows(ctx context.Context, e *env) ([]Row, error) {
	g, err := e.graph(refGraph)
	if err != nil {
		return nil, err
	}
	prefix, err := e.csr(refGraph)
	if err != nil {
		return nil, err
	}
	wcc, err := bind("wcc", g, nil)
	if err != nil {
		return nil, err
	}
	pr, err := bind("pr", g, map[string]string{"iterations": fmt.Sprint(prIterations)})
	if err != nil {
		return nil, err
	}
	var comps, peerComps int
	e.logf("ref: WCC against scipy connected_components")
	wccs, err := alternate(ctx, e.opt.Repeats,
		func(ctx context.Context) (float64, error) {
			var res *kernel.Result
			s, err := timed(func() (err error) {
				res, err = kernel.Run(ctx, wcc, g, kernel.RunOptions{})
				return err
			})
			if err == nil {
				comps = components(res)
			}
			return s, err
		},
		func(ctx context.Context) (float64, error) {
			var r struct {
				peerTime
				Components int `json:"components"`
			}
			err := e.python(ctx, &r, "cc", prefix)
			peerComps = r.Components
			return r.Seconds, err
		})
	if err != nil {
		return nil, err
	}
	if comps != peerComps {
		return nil, fmt.Errorf("WCC found %d components, scipy %d", comps, peerComps)
	}
	var sum, peerSum float64
	e.logf("ref: PR against %d scipy SpMV steps", prIterations)
	prs, err := alternate(ctx, e.opt.Repeats,
		func(ctx context.Context) (float64, error) {
			var res *kernel.Result
			s, err := timed(func() (err error) {
				res, err = kernel.Run(ctx, pr, g, kernel.RunOptions{})
				return err
			})
			if err == nil {
				sum = rankSum(res)
			}
			return s, err
		},
		func(ctx context.Context) (float64, error) {
			var r struct {
				peerTime
				Sum float64 `json:"rank_sum"`
			}
			err := e.python(ctx, &r, "pr", prefix, fmt.Sprint(prIterations), "0.85")
			peerSum = r.Sum
			return r.Seconds, err
		})
	if err != nil {
		return nil, err
	}
	if math.Abs(sum-peerSum) > 1e-3*peerSum {
		return nil, fmt.Errorf("PR ranks sum to %.6g, scipy's to %.6g", sum, peerSum)
	}
	wccRow := pairRow("ref/wcc", "ref WCC on "+refGraph+", load excluded", "scipy connected_components", wccs,
		func(ours, peer float64) *Target { return &Target{Text: "as fast as scipy", Met: ours <= peer} })
	wccRow.Notes = []string{fmt.Sprintf("%d components on both sides", comps)}
	prRow := pairRow("ref/pr", fmt.Sprintf("ref PR, %d iterations, on %s", prIterations, refGraph), fmt.Sprintf("%d scipy SpMV (float32)", prIterations), prs,
		func(ours, peer float64) *Target { return &Target{Text: "within 2x of scipy", Met: ours <= 2*peer} })
	prRow.Notes = []string{fmt.Sprintf("rank sum %.6f, scipy %.6f", sum, peerSum)}
	return []Row{wccRow, prRow}, nil
}

// components counts the WCC labels that are their own vertex: one per
// component.
func components(r *kernel.Result) int {
	n := 0
	for v := range r.Graph.NumVertices() {
		if r.State(uint32(v))[0] == uint64(v) {
			n++
		}
	}
	return n
}

// rankSum adds PR's rank field (f32 bits) over every vertex.
func rankSum(r *kernel.Result) float64 {
	var s float64
	for v := range r.Graph.NumVertices() {
		s += float64(math.Float32frombits(uint32(r.State(uint32(v))[0])))
	}
	return s
}
