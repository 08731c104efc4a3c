package sim_test

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

// predictPoint is one point of the prediction's CI subset.
type predictPoint struct {
	kernel, graph string
	nF, nP        int
	mem           model.MemKind
	arch          model.Arch
	pe            sim.PEDesign
	board         string
	part          graph.Partitioner
	iterations    int // PageRank's supersteps
}

// TestPredictionAgreesWithCycleDetail: on a subset of the fidelity
// corpus, from the cases where the four limits' T_sys was furthest from
// the truth (PageRank on facebook and the Graph500 files, where hubs and
// the lockstep broadcast bind) to road, grid, layered and uniform graphs,
// both PE designs, both edge memories, GraVF, a second board and the
// round-robin partition, the model's prediction for the simulated design
// is within 15 % of cycle detail wherever at least 100,000 edges are
// traversed, and never above T_sys.
func TestPredictionAgreesWithCycleDetail(t *testing.T) {
	fb, s13, s14, wv, rome := "facebook_combined.txt", "fpgagraphlib-s13e16.graph", "fpgagraphlib-s14e16.graph", "wiki-Vote.txt", "rome99.gr"
	points := []predictPoint{
		{kernel: "pr", graph: fb, nF: 4, nP: 9, mem: model.BRAM, iterations: 4},
		{kernel: "pr", graph: fb, nF: 4, nP: 9, mem: model.OffChip, iterations: 4},
		{kernel: "pr", graph: fb, nF: 2, nP: 9, mem: model.BRAM, iterations: 4},
		{kernel: "pr", graph: s14, nF: 4, nP: 9, mem: model.BRAM, iterations: 2},
		{kernel: "pr", graph: wv, nF: 4, nP: 9, mem: model.BRAM, iterations: 3},
		{kernel: "wcc", graph: s13, nF: 4, nP: 9, mem: model.BRAM},
		{kernel: "wcc", graph: s14, nF: 4, nP: 9, mem: model.BRAM, pe: sim.PEPaper},
		{kernel: "bfs", graph: fb, nF: 4, nP: 9, mem: model.BRAM, arch: model.GraVF},
		{kernel: "pr", graph: "rmat:scale=12,ef=16,seed=1,scramble=false", nF: 4, nP: 9, mem: model.BRAM, part: graph.Robin, iterations: 4},
		{kernel: "wcc", graph: "rmat:scale=13,ef=16,seed=1,scramble=true", nF: 1, nP: 9, mem: model.OffChip},
		{kernel: "sssp", graph: "rmat:scale=12,ef=16,seed=1,scramble=true", nF: 4, nP: 4, mem: model.BRAM},
		{kernel: "wcc", graph: rome, nF: 4, nP: 9, mem: model.BRAM},
		{kernel: "pr", graph: "grid:rows=128,cols=128", nF: 4, nP: 9, mem: model.BRAM, iterations: 6},
		{kernel: "pr", graph: "layered:w=64,d=256", nF: 4, nP: 9, mem: model.BRAM, iterations: 6},
		{kernel: "bfs", graph: "uniform:v=16384,d=16,seed=1", nF: 4, nP: 9, mem: model.BRAM, board: "u280"},
		{kernel: "pr", graph: "uniform:v=16384,d=16,seed=1", nF: 8, nP: 4, mem: model.OffChip, board: "u280", iterations: 2},
	}
	for _, pt := range points {
		name := fmt.Sprintf("%s/%s/%dx%d/%s/%s/%s/%s/%s", pt.kernel, pt.graph, pt.nF, pt.nP, pt.mem, or(string(pt.arch), "gravf-m"),
			or(string(pt.pe), "generated"), or(pt.board, "ac510"), or(string(pt.part), "greedy"))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			k, g := predictFixture(t, pt)
			ps, err := newProfiles(k, g, pt.part)
			if err != nil {
				t.Fatal(err)
			}
			b := board(t, or(pt.board, "ac510"))
			cfg := model.Config{FPGAs: pt.nF, PEs: pt.nP, Arch: pt.arch, Mem: pt.mem, Filter: true}
			pr, err := model.PredictFor(context.Background(), b, k, g, cfg, pt.pe, ps)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sim.Run(context.Background(), &sim.Setup{Board: b, Kernel: k, Graph: g,
				FPGAs: pt.nF, PEs: pt.nP, Arch: pt.arch, Mem: pt.mem, PE: pt.pe, Partitioner: pt.part, Filter: true,
				Detail: sim.Cycle, ModelTSys: model.TSysFor(b, k, g, cfg, pt.pe), ModelPredictedTEPS: pr.TEPS})
			if err != nil {
				t.Fatal(err)
			}
			if res.ModelPredictedTEPS <= 0 || res.ModelPredictedTEPS > res.ModelTSys*(1+1e-9) {
				t.Fatalf("predicted %.4g TEPS, T_sys %.4g", res.ModelPredictedTEPS, res.ModelTSys)
			}
			e := res.ModelPredictedTEPS/res.TEPS - 1
			t.Logf("%d messages: cycle detail %.4g TEPS, predicted %.4g (%+.1f %%), T_sys %.4g (%+.1f %%)", res.Messages, res.TEPS,
				res.ModelPredictedTEPS, 100*e, res.ModelTSys, 100*(res.ModelTSys/res.TEPS-1))
			if res.Messages >= 100000 && math.Abs(e) > 0.15 {
				t.Errorf("the prediction is %+.1f %% off cycle detail", 100*e)
			}
		})
	}
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// predictFixture loads a point's graph and kernel: the dataset files as
// the corpus reads them, vertex parameters on the first vertex, random
// weights for SSSP, PageRank cut to the point's iterations.
func predictFixture(t *testing.T, pt predictPoint) (*kernel.Kernel, *graph.Graph) {
	t.Helper()
	s, err := samples.Kernel(pt.kernel)
	if err != nil {
		t.Fatal(err)
	}
	spec := pt.graph
	opt := graph.ReadOptions{Weighted: len(s.Edge) > 0}
	if opt.Weighted {
		opt.RandomWeights, opt.Seed = 255, 1
	}
	if gs, err := graph.ParseSpec(spec); err == nil && gs.IsFile() {
		spec = datasets.Path(t, spec)
		switch pt.graph {
		case "fpgagraphlib-s13e16.graph", "fpgagraphlib-s14e16.graph":
			opt.Format = graph.FormatEdgeList
		case "wiki-Vote.txt", "rome99.gr":
			opt.Directed = true
		}
	}
	g, err := graph.Load(spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]string{}
	for _, p := range s.Params {
		if p.Kind == kernel.ParamVertex {
			params[p.Name] = strconv.FormatUint(g.Label(0), 10)
		}
	}
	if pt.iterations > 0 {
		params["iterations"] = strconv.Itoa(pt.iterations)
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	return k, g
}

func newProfiles(k *kernel.Kernel, g *graph.Graph, method graph.Partitioner) (*model.Profiles, error) {
	act, _, err := model.RecordActivity(context.Background(), k, g, kernel.RunOptions{})
	if err != nil {
		return nil, err
	}
	return model.NewProfiles(g, act, graph.PartitionOptions{Method: method}), nil
}
