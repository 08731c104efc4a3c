// Package teps says how throughput is counted, so that a figure of
// gravf-tui can be put next to other systems' published ones.
//
// Two definitions are in use. GraVF-M (like most FPGA graph frameworks)
// counts the messages that scatter produces, one per traversed arc: in a
// superstep in which every vertex sends, every arc of the graph. Graph500
// counts the input edges within the component a search traversed, an
// undirected edge once, and reports the harmonic mean over 64 searches from
// random roots. A BFS on an undirected graph traverses every edge of its
// component from both ends, so its gravf TEPS are about twice its graph500
// TEPS; kernels that run many supersteps (PageRank, WCC) send along the same
// edges again and again, so for them the two differ by the number of
// supersteps.
package teps

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// Definition names a way of counting traversed edges.
type Definition string

// The definitions.
const (
	// GraVF counts messages: the arcs scatter traversed, every superstep.
	GraVF Definition = "gravf"
	// Graph500 counts the input edges of the traversed component once per
	// run (an undirected edge once), as the Graph500 benchmark does; runs
	// from a root report the harmonic mean over Graph500's 64 roots.
	Graph500 Definition = "graph500"
)

// Definitions lists the definitions in the order they are documented.
var Definitions = []Definition{GraVF, Graph500}

// Graph500Roots is the number of searches Graph500 averages over.
const Graph500Roots = 64

// Parse reads a --teps value.
func Parse(s string) (Definition, error) {
	switch d := Definition(strings.ToLower(strings.TrimSpace(s))); d {
	case "":
		return GraVF, nil
	case GraVF, Graph500:
		return d, nil
	}
	return "", fmt.Errorf("unknown TEPS definition %q; want gravf (messages per second) or graph500 (input edges of the traversed component per second)", s)
}

// Counts says in words what a definition counts, for the line that names
// it in an output.
func (d Definition) Counts() string {
	if d == Graph500 {
		return "input edges of the traversed component per second"
	}
	return "messages (traversed arcs) per second"
}

// Label names the definition in a text output, once per output.
func (d Definition) Label() string { return string(d) + " TEPS: " + d.Counts() }

// TraversedEdges counts the input edges of g in the part a run traversed:
// the edges one of whose ends sent an update at least once (sent is
// indexed by vertex), an undirected edge once and a directed arc when its
// source sent. For BFS and SSSP these are the edges of the component
// reached from the root.
func TraversedEdges(g *graph.Graph, sent []bool) int64 {
	var n int64
	for u := 0; u < g.NumVertices(); u++ {
		for _, v := range g.Neighbors(uint32(u)) {
			switch {
			case g.Directed:
				if sent[u] {
					n++
				}
			case uint32(u) < v && (sent[u] || sent[v]):
				n++
			}
		}
	}
	return n
}

// Roots draws the search roots as Graph500 does: n distinct vertices with
// at least one edge (all of them when there are fewer), in the order a
// generator seeded with seed draws them.
func Roots(g *graph.Graph, n int, seed uint64) []uint32 {
	var cand []uint32
	for v := 0; v < g.NumVertices(); v++ {
		if g.OutDegree(uint32(v)) > 0 {
			cand = append(cand, uint32(v))
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x7465707372303074)) // "tepsr00t"
	// A partial Fisher-Yates shuffle: the first n are a uniform sample.
	n = min(n, len(cand))
	for i := 0; i < n; i++ {
		j := i + r.IntN(len(cand)-i)
		cand[i], cand[j] = cand[j], cand[i]
	}
	return cand[:n]
}

// HarmonicMean returns the harmonic mean of rates, which Graph500 reports:
// the rate of all the runs together when each traverses the same number of
// edges. It is 0 when a rate is not positive.
func HarmonicMean(rates []float64) float64 {
	if len(rates) == 0 {
		return 0
	}
	s := 0.0
	for _, x := range rates {
		if !(x > 0) || math.IsInf(x, 0) {
			return 0
		}
		s += 1 / x
	}
	return float64(len(rates)) / s
}

// Sent runs the reference engine and returns which vertices sent an
// update at least once, for TraversedEdges, with the run's result.
func Sent(ctx context.Context, k *kernel.Kernel, g *graph.Graph) ([]bool, *kernel.Result, error) {
	sent := make([]bool, g.NumVertices())
	res, err := kernel.Run(ctx, k, g, kernel.RunOptions{Senders: func(_ int, vs []uint32) {
		for _, v := range vs {
			sent[v] = true
		}
	}})
	return sent, res, err
}
