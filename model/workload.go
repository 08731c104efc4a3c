package model

import (
	"slices"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// NewWorkload describes a bound kernel running on a graph. cpe and
// cpeSource come from the platform (see Platform.KernelCPE); supersteps
// may be nil.
func NewWorkload(k *kernel.Kernel, g *graph.Graph, cpe float64, cpeSource string, supersteps []kernel.Superstep) *Workload {
	w := &Workload{
		Kernel:      k.Spec.Name,
		CPE:         cpe,
		CPESource:   cpeSource,
		Sizes:       k.Sizes(),
		Vertices:    g.NumVertices(),
		Arcs:        int64(g.NumArcs()),
		Supersteps:  supersteps,
		Latency:     KernelLatency(arch.KernelLatencies(k)),
		HandWritten: arch.HandWritten(k),
		spreads:     &spreadMemo{},
	}
	w.Degrees = DegreeCounts(g)
	return w
}

// Attach gives the workload the reference run's supersteps and the
// profiles of its design points, for the prediction.
func (w *Workload) Attach(ps *Profiles) {
	w.Profiles = ps
	w.Supersteps = ps.Activity().Supersteps()
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

// PEDesign names a processing element's micro-architecture, which sets its
// cycles per edge (the hardware contract's names, package arch).
type PEDesign = arch.PEDesign

const (
	// PEGenerated is the PE the RTL generator builds (the default): edge
	// lists follow each other without a gap and the hazard detector
	// bypasses the gather kernel's result, so it scatters one edge per
	// cycle (the RTL measures 1.02 to 1.08 with the apply sweeps, which
	// the latency-aware prediction adds separately).
	PEGenerated = arch.PEGenerated
	// PEPaper is the PE of the published design, on which the boards'
	// measured cycles per edge (the paper's 1.05, 1.10 and 1.42 on the
	// AC-510) were taken.
	PEPaper = arch.PEPaper
)

// ParsePEDesign reads a PE design name ("" is the generated PE).
func ParsePEDesign(s string) (PEDesign, error) { return arch.ParsePEDesign(s) }

// GeneratedCPESource explains the generated PE's cycles per edge.
const GeneratedCPESource = "the generated PE: one edge per cycle"

// CPEFor returns the cycles per edge of a kernel on a PE design: the
// generated PE scatters one edge per cycle; the paper's PE has the board's
// measured figure (see KernelCPE).
func (p *Platform) CPEFor(name string, d PEDesign) (float64, string) {
	if d == PEPaper {
		return p.KernelCPE(name)
	}
	return 1, GeneratedCPESource
}

// KernelCPE returns the cycles per edge of the paper's PE for a kernel:
// the figure measured on this board when it has one, else the default
// estimate.
func (p *Platform) KernelCPE(name string) (float64, string) {
	if c, ok := p.CPE[name]; ok && c > 0 {
		return c, "measured on " + p.Name
	}
	if p.DefaultCPE > 0 {
		return p.DefaultCPE, p.DefaultCPESource
	}
	return 1.10, "estimate: one edge per cycle plus hazard and end-of-list stalls, as BFS measures"
}
