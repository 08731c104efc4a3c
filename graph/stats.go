package graph

import (
	"fmt"
	"math/bits"
	"strings"
)

// Stats summarises a graph: the figures that decide how it will behave on
// GraVF-M (size, degree skew, connectivity) and what loading it dropped.
// The CLI prints it as text (String) or JSON (the field tags), so the JSON
// names are part of its interface.
type Stats struct {
	// Name is the graph's name (file base name or canonical spec).
	Name string `json:"name"`
	// V is the number of vertices.
	V int `json:"v"`
	// E counts edges as users do: unordered pairs when undirected, arcs
	// when directed.
	E int `json:"e"`
	// Arcs is the number of stored arcs, the messages of one superstep in
	// which every vertex sends.
	Arcs int `json:"arcs"`
	// Directed tells how E relates to Arcs.
	Directed bool `json:"directed"`
	// Weighted tells whether the graph carries edge weights.
	Weighted bool `json:"weighted"`
	// MinDeg, MaxDeg and AvgDeg are out-degree figures (arcs per vertex);
	// AvgDeg is the d of the performance model and MaxDeg/AvgDeg measures
	// the skew that unbalances PEs.
	MinDeg int     `json:"min_deg"`
	MaxDeg int     `json:"max_deg"`
	AvgDeg float64 `json:"avg_deg"`
	// DegreeHist counts vertices by out-degree in log2 buckets: 0, 1, 2-3,
	// 4-7, ..., up to the bucket of MaxDeg. Bucket i >= 1 holds degrees
	// [2^(i-1), 2^i - 1], so i = bits.Len(degree).
	DegreeHist []DegreeBucket `json:"degree_hist"`
	// Isolated counts vertices without any arc in or out; they never
	// receive a message but still occupy vertex memory.
	Isolated int `json:"isolated"`
	// Components is the number of weakly connected components (isolated
	// vertices count as components of their own), and LargestComponent the
	// vertex count of the largest: a traversal from one source reaches at
	// most that many vertices.
	Components       int `json:"components"`
	LargestComponent int `json:"largest_component"`
	// SelfLoops and Duplicates are the input edges that loading dropped (see
	// Graph), reported so that nothing disappears silently.
	SelfLoops  int `json:"self_loops"`
	Duplicates int `json:"duplicates"`
}

// DegreeBucket is one bar of the degree histogram, self-describing in JSON
// so that consumers need not know the bucketing rule.
type DegreeBucket struct {
	// Min and Max bound the out-degrees of the bucket, inclusive.
	Min int `json:"min"`
	Max int `json:"max"`
	// Count is the number of vertices whose out-degree is in [Min, Max].
	Count int `json:"count"`
}

// ComputeStats walks the graph once for degrees and once, with a
// union-find, for weak components (arcs are followed regardless of
// direction, so a directed graph's components are its weak ones). It takes
// time nearly linear in V + arcs and up to 9 bytes per vertex of extra
// memory.
func ComputeStats(g *Graph) Stats {
	n := g.NumVertices()
	s := Stats{
		Name: g.Name, V: n, E: g.NumEdges(), Arcs: g.NumArcs(),
		Directed: g.Directed, Weighted: g.Weights != nil,
		AvgDeg:    g.AvgDegree(),
		SelfLoops: g.SelfLoops, Duplicates: g.Duplicates,
	}
	if n == 0 {
		return s
	}
	var hist [34]int
	s.MinDeg = int(^uint(0) >> 1)
	for v := 0; v < n; v++ {
		d := int(g.Offsets[v+1] - g.Offsets[v])
		s.MinDeg = min(s.MinDeg, d)
		s.MaxDeg = max(s.MaxDeg, d)
		hist[bits.Len(uint(d))]++
	}
	for i := 0; i <= bits.Len(uint(s.MaxDeg)); i++ {
		lo, hi := 0, 0
		if i > 0 {
			lo, hi = 1<<(i-1), 1<<i-1
		}
		s.DegreeHist = append(s.DegreeHist, DegreeBucket{Min: lo, Max: hi, Count: hist[i]})
	}

	parent := weakForest(g)
	size := make([]uint32, n)
	for v := range parent {
		size[parent[v]]++
	}
	for v, c := range size {
		if c == 0 || parent[v] != uint32(v) {
			continue
		}
		s.Components++
		s.LargestComponent = max(s.LargestComponent, int(c))
		if c == 1 {
			s.Isolated++
		}
	}
	return s
}

// weakForest labels every vertex with a representative of its weak
// component (arcs followed regardless of direction): a union-find with
// path halving and union by rank, fully compressed at the end so that
// parent[v] is v's representative and a representative is its own parent.
func weakForest(g *Graph) []uint32 {
	n := g.NumVertices()
	parent := make([]uint32, n)
	for i := range parent {
		parent[i] = uint32(i)
	}
	rank := make([]uint8, n)
	find := func(x uint32) uint32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for u := 0; u < n; u++ {
		for _, v := range g.Adj[g.Offsets[u]:g.Offsets[u+1]] {
			if !g.Directed && int(v) < u {
				continue // the arc v->u was seen already
			}
			a, b := find(uint32(u)), find(v)
			if a == b {
				continue
			}
			if rank[a] < rank[b] {
				a, b = b, a
			}
			parent[b] = a
			if rank[a] == rank[b] {
				rank[a]++
			}
		}
	}
	for v := range parent {
		parent[v] = find(uint32(v))
	}
	return parent
}

// GiantVertex returns the lowest-numbered vertex of g's largest weak
// component (of the one with the lowest such vertex when several are as
// large): a traversal root that reaches most of the graph, and vertex 0
// whenever vertex 0 is in the largest component. It returns 0 for an
// empty graph.
func GiantVertex(g *Graph) uint32 {
	parent := weakForest(g)
	size := make([]uint32, len(parent))
	for _, r := range parent {
		size[r]++
	}
	best, first := uint32(0), uint32(0)
	seen := make([]bool, len(parent))
	for v, r := range parent {
		if seen[r] {
			continue
		}
		seen[r] = true
		if size[r] > best {
			best, first = size[r], uint32(v)
		}
	}
	return first
}

// String renders the stats as an aligned multi-line summary for terminals,
// with the degree histogram as bars so that skew is visible at a glance.
func (s Stats) String() string {
	var sb strings.Builder
	kind := "undirected"
	if s.Directed {
		kind = "directed"
	}
	if s.Weighted {
		kind += ", weighted"
	}
	pct := func(x int) float64 {
		if s.V == 0 {
			return 0
		}
		return 100 * float64(x) / float64(s.V)
	}
	if s.Name != "" {
		fmt.Fprintf(&sb, "graph       %s\n", s.Name)
	}
	fmt.Fprintf(&sb, "vertices    %d (%d isolated, %.1f%%)\n", s.V, s.Isolated, pct(s.Isolated))
	fmt.Fprintf(&sb, "edges       %d (%d arcs, %s)\n", s.E, s.Arcs, kind)
	fmt.Fprintf(&sb, "out-degree  min %d, avg %.2f, max %d\n", s.MinDeg, s.AvgDeg, s.MaxDeg)
	fmt.Fprintf(&sb, "components  %d (largest %d vertices, %.1f%%)\n", s.Components, s.LargestComponent, pct(s.LargestComponent))
	fmt.Fprintf(&sb, "dropped     %d self-loops, %d duplicates\n", s.SelfLoops, s.Duplicates)
	if len(s.DegreeHist) > 0 {
		sb.WriteString("degree histogram\n")
		most := 0
		for _, b := range s.DegreeHist {
			most = max(most, b.Count)
		}
		for _, b := range s.DegreeHist {
			r := fmt.Sprint(b.Min)
			if b.Max != b.Min {
				r = fmt.Sprintf("%d-%d", b.Min, b.Max)
			}
			bar := 0
			if most > 0 {
				bar = (40*b.Count + most - 1) / most
			}
			line := fmt.Sprintf("  %-13s %10d %s", r, b.Count, strings.Repeat("#", bar))
			sb.WriteString(strings.TrimRight(line, " "))
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}
