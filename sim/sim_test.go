package sim_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

type fixture struct {
	k   *kernel.Kernel
	g   *graph.Graph
	ref *kernel.Result
	sha string
}

func load(t testing.TB, kname, spec string, opt graph.ReadOptions) fixture {
	t.Helper()
	s, err := samples.Kernel(kname)
	if err != nil {
		t.Fatal(err)
	}
	opt.Weighted, opt.FloatWeights = s.Weights()
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
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := kernel.Run(context.Background(), k, g, kernel.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	if err := ref.WriteTSV(h); err != nil {
		t.Fatal(err)
	}
	return fixture{k, g, ref, hex.EncodeToString(h.Sum(nil))}
}

func board(t testing.TB, name string) *boards.Board {
	b, err := boards.Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFunctionalCycle(t *testing.T) {
	for _, kname := range []string{"wcc", "bfs", "sssp", "pr"} {
		for _, spec := range []string{"uniform:v=600,d=6,seed=2", "rmat:scale=9,ef=8,seed=3", "grid:rows=12,cols=15,seed=1,maxw=50"} {
			fx := load(t, kname, spec, graph.ReadOptions{})
			for _, nF := range []int{1, 2, 4} {
				for _, mem := range []model.MemKind{model.BRAM, model.OffChip} {
					for _, arch := range []model.Arch{model.GraVFM, model.GraVF} {
						name := kname + "/" + spec + "/" + strconv.Itoa(nF) + "/" + string(mem) + "/" + string(arch)
						t.Run(name, func(t *testing.T) {
							res, err := sim.Run(context.Background(), &sim.Setup{Board: board(t, "ac510"), Kernel: fx.k, Graph: fx.g,
								FPGAs: nF, PEs: 3, Mem: mem, Filter: true, Detail: sim.Cycle, Arch: arch})
							if err != nil {
								t.Fatal(err)
							}
							if res.Messages != fx.ref.Messages || res.Supersteps != len(fx.ref.Supersteps) {
								t.Fatalf("messages %d supersteps %d, reference %d %d", res.Messages, res.Supersteps, fx.ref.Messages, len(fx.ref.Supersteps))
							}
							if kname == "pr" {
								if worst := worstRelative(fx.ref.States, res.States); worst > 1e-4 {
									t.Fatalf("PR worst relative error %.3g", worst)
								}
							} else if res.ResultSHA256 != fx.sha {
								t.Fatalf("result hash differs from the reference")
							}
							t.Logf("%d cycles, %.0f MTEPS, model %.0f MTEPS", res.Cycles, res.TEPS/1e6, res.ModelTSys/1e6)
						})
					}
				}
			}
		}
	}
}

// worstRelative returns the largest relative difference between two state
// arrays read as f32 values (PageRank); zero reference values are skipped.
func worstRelative(want, got []uint64) float64 {
	worst := 0.0
	for i, v := range want {
		a := float64(math.Float32frombits(uint32(v)))
		b := float64(math.Float32frombits(uint32(got[i])))
		if a != 0 {
			worst = max(worst, math.Abs(a-b)/math.Abs(a))
		}
	}
	return worst
}
