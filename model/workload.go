package model

import (
	"slices"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// DefaultHeaderBits is the on-wire overhead of an update or message besides
// its payload and vertex id: the 2-bit superstep channel ("round") of the
// original code base and the barrier flag.
const DefaultHeaderBits = 3

// NewWorkload describes a bound kernel running on a graph. cpe and
// cpeSource come from the platform (see Platform.KernelCPE); supersteps
// may be nil.
func NewWorkload(k *kernel.Kernel, g *graph.Graph, cpe float64, cpeSource string, supersteps []kernel.Superstep) *Workload {
	w := &Workload{
		Kernel:     k.Spec.Name,
		CPE:        cpe,
		CPESource:  cpeSource,
		Sizes:      k.Sizes(),
		Vertices:   g.NumVertices(),
		Arcs:       int64(g.NumArcs()),
		Supersteps: supersteps,
		HeaderBits: DefaultHeaderBits,
	}
	w.Degrees = DegreeCounts(g)
	return w
}

// DegreeCounts returns the out-degree histogram of g as (degree, count)
// pairs in ascending degree order.
func DegreeCounts(g *graph.Graph) [][2]int64 {
	counts := map[int64]int64{}
	for v := 0; v < g.NumVertices(); v++ {
		counts[int64(g.OutDegree(uint32(v)))]++
	}
	out := make([][2]int64, 0, len(counts))
	for d, c := range counts {
		out = append(out, [2]int64{d, c})
	}
	slices.SortFunc(out, func(a, b [2]int64) int { return int(a[0] - b[0]) })
	return out
}

// KernelCPE returns the platform's cycles per edge for a kernel: the
// measured figure when the board has one, else the default estimate.
func (p *Platform) KernelCPE(name string) (float64, string) {
	if c, ok := p.CPE[name]; ok && c > 0 {
		return c, "measured on " + p.Name
	}
	if p.DefaultCPE > 0 {
		return p.DefaultCPE, p.DefaultCPESource
	}
	return 1.10, "estimate: one edge per cycle plus hazard and end-of-list stalls, as BFS measures"
}
