package sim

import (
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// designCase is one design of the tests that run a design two ways and
// require the same result.
type designCase struct {
	kernel, graph string
	fpgas, pes    int
	mem           model.MemKind
	pe            PEDesign
}

// variedDesigns spans the kernels, graph classes, system sizes, edge
// memories and PE designs for those tests. In the last design the receive
// FIFOs fill (four FPGAs send to a crossbar that takes one item per
// cycle), so senders pause on their credit.
var variedDesigns = []designCase{
	{"pr", "rmat:scale=10,ef=16,seed=1", 4, 9, model.OffChip, PEGenerated},
	{"pr", "rmat:scale=10,ef=16,seed=1,scramble=false", 4, 4, model.BRAM, PEPaper},
	{"wcc", "uniform:v=3000,d=32,seed=2", 3, 2, model.BRAM, PEGenerated},
	{"bfs", "layered:w=256,d=8,extra=4", 2, 9, model.OffChip, PEGenerated},
	{"sssp", "grid:rows=30,cols=40,seed=1,maxw=50", 4, 1, model.OffChip, PEPaper},
	{"pr", "rmat:scale=13,ef=8,seed=1", 4, 9, model.OffChip, PEGenerated},
}

// loadCase loads a sample kernel and a graph spec for the package's
// internal tests: the graph with the weights the kernel reads, the kernel
// bound to it with every vertex parameter (a traversal's root) at the
// graph's vertex 0.
func loadCase(tb testing.TB, kname, spec string) (*kernel.Kernel, *graph.Graph) {
	tb.Helper()
	sp, err := samples.Kernel(kname)
	if err != nil {
		tb.Fatal(err)
	}
	var opt graph.ReadOptions
	opt.Weighted, opt.FloatWeights = sp.Weights()
	g, err := graph.Load(spec, opt)
	if err != nil {
		tb.Fatal(err)
	}
	params := map[string]string{}
	for _, p := range sp.Params {
		if p.Kind == kernel.ParamVertex {
			params[p.Name] = strconv.FormatUint(g.Label(0), 10)
		}
	}
	k, err := sp.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
	if err != nil {
		tb.Fatal(err)
	}
	return k, g
}
