package sim

import (
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

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
