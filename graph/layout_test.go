package graph_test

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
)

// ltCase is a graph and a partition to check layouts against brute force.
type ltCase struct {
	name string
	g    *graph.Graph
	opt  graph.PartitionOptions
}

func ltCases(t *testing.T) []ltCase {
	hand := ptGraph(t, 8, false, ptGreedyGraph) // vertex 7 is isolated
	small := ptRMAT(t, 10, 8, 3, false, false)
	directed := ptRMAT(t, 10, 8, 4, true, true)
	return []ltCase{
		{"hand 1x1", hand, graph.PartitionOptions{FPGAs: 1, PEs: 1}},
		{"hand greedy 1x3", hand, graph.PartitionOptions{FPGAs: 1, PEs: 3}},
		{"hand robin 2x2", hand, graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.Robin}},
		{"more PEs than vertices", hand, graph.PartitionOptions{FPGAs: 3, PEs: 5, Method: graph.Robin}},
		{"rmat greedy 4x9", small, graph.PartitionOptions{FPGAs: 4, PEs: 9}},
		{"rmat robin 3x5", small, graph.PartitionOptions{FPGAs: 3, PEs: 5, Method: graph.Robin}},
		{"rmat directed weighted greedy 2x4", directed, graph.PartitionOptions{FPGAs: 2, PEs: 4}},
		{"rmat 64 FPGAs, one word", small, graph.PartitionOptions{FPGAs: 64, PEs: 2, Method: graph.Robin}},
		{"rmat 130 FPGAs, three words", directed, graph.PartitionOptions{FPGAs: 130, PEs: 1, Method: graph.Robin}},
		{"empty graph", ptGraph(t, 0, false, nil), graph.PartitionOptions{FPGAs: 2, PEs: 2}},
	}
}

func TestEdgeLayoutMatchesBruteForce(t *testing.T) {
	for _, c := range ltCases(t) {
		t.Run(c.name, func(t *testing.T) {
			g := c.g
			p, err := graph.NewPartition(context.Background(), g, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			l := graph.NewEdgeLayout(g, p)
			nPE := p.FPGAs * p.PEs
			if l.NumPEs() != nPE {
				t.Fatalf("NumPEs = %d, want %d", l.NumPEs(), nPE)
			}
			wantEdges := make([]int, nPE)
			wantIndex := make([]int, nPE)
			type entry struct {
				u          uint32
				nbrs, wgts []uint32
			}
			perPE := make([][]entry, nPE)
			runs := 0
			for u := range uint32(g.NumVertices()) {
				// Brute force: u's neighbours split by PE, in list order.
				split := make(map[int][]uint32)
				splitW := make(map[int][]uint32)
				ws := g.EdgeWeights(u)
				for i, v := range g.Neighbors(u) {
					pe := int(p.PE[v])
					split[pe] = append(split[pe], v)
					if ws != nil {
						splitW[pe] = append(splitW[pe], ws[i])
					}
				}
				for pe := range nPE {
					nbrs, wgts := l.Local(pe, u)
					if !slices.Equal(nbrs, split[pe]) || !slices.Equal(wgts, splitW[pe]) {
						t.Fatalf("Local(%d, %d) = %v %v, want %v %v", pe, u, nbrs, wgts, split[pe], splitW[pe])
					}
					if (nbrs == nil) != (split[pe] == nil) {
						t.Fatalf("Local(%d, %d) nil-ness wrong", pe, u)
					}
					if g.Weights == nil && wgts != nil {
						t.Fatalf("unweighted graph returns weights")
					}
					if len(nbrs) > 0 {
						wantEdges[pe] += len(nbrs)
						wantIndex[pe]++
						perPE[pe] = append(perPE[pe], entry{u, split[pe], splitW[pe]})
					}
				}
				// ForEachPE: ascending PEs, exactly the non-empty ones,
				// and the same runs as Runs/Run.
				var pes []int
				var union []uint32
				lo, hi := l.Runs(u)
				i := lo
				l.ForEachPE(u, func(pe int, nbrs, wgts []uint32) {
					pes = append(pes, pe)
					union = append(union, nbrs...)
					if !slices.Equal(nbrs, split[pe]) || !slices.Equal(wgts, splitW[pe]) {
						t.Fatalf("ForEachPE(%d) pe %d: %v %v", u, pe, nbrs, wgts)
					}
					rpe, rn, rw := l.Run(i)
					if rpe != pe || !slices.Equal(rn, nbrs) || !slices.Equal(rw, wgts) {
						t.Fatalf("Run(%d) = %d %v %v, ForEachPE gave %d %v %v", i, rpe, rn, rw, pe, nbrs, wgts)
					}
					i++
				})
				if i != hi {
					t.Fatalf("ForEachPE(%d) visited %d runs, Runs says %d", u, i-lo, hi-lo)
				}
				runs += hi - lo
				for k := 1; k < len(pes); k++ {
					if pes[k] <= pes[k-1] {
						t.Fatalf("ForEachPE(%d) PEs %v not strictly ascending", u, pes)
					}
				}
				if len(pes) != len(split) {
					t.Fatalf("ForEachPE(%d) visited PEs %v, want the %d holders", u, pes, len(split))
				}
				slices.Sort(union)
				if !slices.Equal(union, g.Neighbors(u)) && !(len(union) == 0 && g.OutDegree(u) == 0) {
					t.Fatalf("union over PEs of u=%d is %v, want %v", u, union, g.Neighbors(u))
				}
				if nbrs, _ := l.Local(-1, u); nbrs != nil {
					t.Fatal("Local(-1) returned neighbours")
				}
				if nbrs, _ := l.Local(nPE, u); nbrs != nil {
					t.Fatal("Local(nPE) returned neighbours")
				}
			}
			if runs != l.NumRuns() {
				t.Errorf("NumRuns = %d, runs counted %d", l.NumRuns(), runs)
			}
			if got := l.EdgesPerPE(); !slices.Equal(got, wantEdges) {
				t.Errorf("EdgesPerPE = %v, want %v", got, wantEdges)
			}
			if got := l.IndexEntriesPerPE(); !slices.Equal(got, wantIndex) {
				t.Errorf("IndexEntriesPerPE = %v, want %v", got, wantIndex)
			}
			for pe := range nPE {
				var got []entry
				l.ForEachVertex(pe, func(u uint32, nbrs, wgts []uint32) {
					got = append(got, entry{u, nbrs, wgts})
				})
				if len(got) != len(perPE[pe]) {
					t.Fatalf("ForEachVertex(%d) gave %d vertices, want %d", pe, len(got), len(perPE[pe]))
				}
				for k := range got {
					w := perPE[pe][k]
					if got[k].u != w.u || !slices.Equal(got[k].nbrs, w.nbrs) || !slices.Equal(got[k].wgts, w.wgts) {
						t.Fatalf("ForEachVertex(%d) entry %d = %v, want %v", pe, k, got[k], w)
					}
				}
			}
			if l.MemoryBytes() < 4*g.NumArcs() {
				t.Errorf("MemoryBytes = %d below the arcs alone", l.MemoryBytes())
			}

			// The filter against brute force.
			f := graph.NewFilter(g, p)
			if f.FPGAs() != p.FPGAs {
				t.Errorf("Filter.FPGAs = %d", f.FPGAs())
			}
			var sumTargets int64
			for u := range uint32(g.NumVertices()) {
				holds := make([]bool, p.FPGAs)
				for _, v := range g.Neighbors(u) {
					holds[p.FPGA(v)] = true
				}
				targets := 0
				for fp := range p.FPGAs {
					if f.Has(u, fp) != holds[fp] {
						t.Fatalf("Has(%d, %d) = %v, want %v", u, fp, f.Has(u, fp), holds[fp])
					}
					if holds[fp] && fp != p.FPGA(u) {
						targets++
					}
				}
				if got := f.Targets(u); got != targets {
					t.Fatalf("Targets(%d) = %d, want %d", u, got, targets)
				}
				if len(f.Row(u)) != (p.FPGAs+63)/64 {
					t.Fatalf("Row(%d) has %d words", u, len(f.Row(u)))
				}
				sumTargets += int64(targets)
			}

			// Cut statistics agree with the layout and the filter.
			s := graph.ComputeCutStats(g, p)
			if s.RemoteUpdatesFiltered != sumTargets {
				t.Errorf("RemoteUpdatesFiltered = %d, sum of Targets %d", s.RemoteUpdatesFiltered, sumTargets)
			}
			if s.RemoteUpdatesUnfiltered != int64(g.NumVertices())*int64(p.FPGAs-1) {
				t.Errorf("RemoteUpdatesUnfiltered = %d", s.RemoteUpdatesUnfiltered)
			}
			if s.EdgesPerPEMax != slices.Max(wantEdges) || s.EdgesPerPEMin != slices.Min(wantEdges) {
				t.Errorf("CutStats edges per PE %d..%d, layout %d..%d", s.EdgesPerPEMin, s.EdgesPerPEMax, slices.Min(wantEdges), slices.Max(wantEdges))
			}
			gravf := p.GraVFEdgesPerPE(g)
			total := 0
			for pe, e := range gravf {
				sum := 0
				for _, u := range p.Members[pe] {
					sum += g.OutDegree(u)
				}
				if e != sum {
					t.Errorf("GraVFEdgesPerPE[%d] = %d, want %d", pe, e, sum)
				}
				total += e
			}
			if total != g.NumArcs() {
				t.Errorf("GraVF edges sum to %d, want %d", total, g.NumArcs())
			}
		})
	}
}

// TestEdgeLayoutOfMatchesWhole: the layout restricted to a range of PEs
// (one FPGA's, a single PE, every PE, none) holds the same lists of those
// PEs as the whole layout, none of the others, and the same per-PE counts
// of those PEs, on one CPU and several.
func TestEdgeLayoutOfMatchesWhole(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	big := ptRMAT(t, 14, 16, 5, true, true)
	cases := append(ltCases(t), ltCase{"rmat 14 directed weighted 3x7", big, graph.PartitionOptions{FPGAs: 3, PEs: 7}})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := graph.NewPartition(context.Background(), c.g, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			whole := graph.NewEdgeLayout(c.g, p)
			nPE := p.NumPEs()
			ranges := [][2]int{{0, nPE}, {0, 0}, {nPE - 1, nPE}, {-3, nPE + 4}}
			for f := range p.FPGAs {
				ranges = append(ranges, [2]int{f * p.PEs, (f + 1) * p.PEs})
			}
			for _, procs := range []int{1, 4} {
				runtime.GOMAXPROCS(procs)
				for _, r := range ranges {
					l := graph.NewEdgeLayoutOf(c.g, p, r[0], r[1])
					checkLocalLayout(t, c.g, p, l, r[0], r[1])
					edges, index := l.EdgesPerPE(), l.IndexEntriesPerPE()
					for pe := range nPE {
						in := pe >= r[0] && pe < r[1]
						wantE, wantI := 0, 0
						if in {
							wantE, wantI = whole.EdgesPerPE()[pe], whole.IndexEntriesPerPE()[pe]
						}
						if edges[pe] != wantE || index[pe] != wantI {
							t.Fatalf("PEs %v on %d CPUs: PE %d holds %d edges, %d entries; want %d, %d", r, procs, pe, edges[pe], index[pe], wantE, wantI)
						}
						for u := range uint32(c.g.NumVertices()) {
							n1, w1 := l.Local(pe, u)
							n2, w2 := whole.Local(pe, u)
							if !in {
								n2, w2 = nil, nil
							}
							if !slices.Equal(n1, n2) || !slices.Equal(w1, w2) || (n1 == nil) != (n2 == nil) {
								t.Fatalf("PEs %v on %d CPUs: Local(%d, %d) = %v %v, want %v %v", r, procs, pe, u, n1, w1, n2, w2)
							}
						}
					}
				}
			}
		})
	}
}

// checkLocalLayout checks that the layout of local indexes of PEs [lo, hi)
// holds the lists of l, the layout of vertex ids of the same PEs, each
// neighbour as its local index, and no vertex ids, and that both give
// the lists' lengths.
func checkLocalLayout(t *testing.T, g *graph.Graph, p *graph.Partition, l *graph.EdgeLayout, lo, hi int) {
	t.Helper()
	ll := graph.NewLocalLayoutOf(g, p, lo, hi)
	if ll == nil {
		t.Fatalf("PEs [%d, %d): no layout of local indexes", lo, hi)
	}
	if !ll.HoldsLocalIndexes() || l.HoldsLocalIndexes() {
		t.Fatalf("PEs [%d, %d): HoldsLocalIndexes is %v for the local layout and %v for the layout of ids", lo, hi, ll.HoldsLocalIndexes(), l.HoldsLocalIndexes())
	}
	for pe := range p.NumPEs() {
		for u := range uint32(g.NumVertices()) {
			locals, w1 := ll.LocalIndexes(pe, u)
			nbrs, w2 := l.Local(pe, u)
			got := make([]uint32, len(locals))
			for i, x := range locals {
				got[i] = p.Members[pe][x]
			}
			if none, _ := ll.Local(pe, u); !slices.Equal(got, nbrs) || !slices.Equal(w1, w2) || len(none) > 0 {
				t.Fatalf("PEs [%d, %d): LocalIndexes(%d, %d) = %v %v (vertices %v), want the vertices %v %v; Local %v", lo, hi, pe, u, locals, w1, got, nbrs, w2, none)
			}
			if n1, n2 := ll.ListLen(pe, u), l.ListLen(pe, u); n1 != len(nbrs) || n2 != len(nbrs) {
				t.Fatalf("PEs [%d, %d): ListLen(%d, %d) = %d (local indexes), %d (vertex ids), want %d", lo, hi, pe, u, n1, n2, len(nbrs))
			}
		}
	}
}

// TestLocalLayoutNeedsSixteenBits: a PE of more than 65,536 vertices has
// no layout of 16-bit local indexes; one of exactly 65,536 has.
func TestLocalLayoutNeedsSixteenBits(t *testing.T) {
	for _, c := range []struct {
		v  int
		ok bool
	}{{1 << 16, true}, {1<<16 + 1, false}} {
		g, err := graph.Load(fmt.Sprintf("line:n=%d", c.v), graph.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 1, PEs: 1})
		if err != nil {
			t.Fatal(err)
		}
		if l := graph.NewLocalLayoutOf(g, p, 0, 1); (l != nil) != c.ok {
			t.Fatalf("%d vertices on one PE: layout of local indexes %v, want %v", c.v, l != nil, c.ok)
		}
	}
}

// TestEdgeLayoutParallelMatchesSerial builds a layout big enough to be
// split over several workers and checks that it equals the one built on one
// CPU, and that every run holds exactly its PE's neighbours.
func TestEdgeLayoutParallelMatchesSerial(t *testing.T) {
	g := ptRMAT(t, 14, 16, 5, true, true)
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 3, PEs: 7})
	if err != nil {
		t.Fatal(err)
	}
	prev := runtime.GOMAXPROCS(1)
	serial := graph.NewEdgeLayout(g, p)
	runtime.GOMAXPROCS(7)
	parallel := graph.NewEdgeLayout(g, p)
	runtime.GOMAXPROCS(prev)
	if serial.NumRuns() != parallel.NumRuns() {
		t.Fatalf("runs: serial %d, parallel %d", serial.NumRuns(), parallel.NumRuns())
	}
	for i := range serial.NumRuns() {
		pe1, n1, w1 := serial.Run(i)
		pe2, n2, w2 := parallel.Run(i)
		if pe1 != pe2 || !slices.Equal(n1, n2) || !slices.Equal(w1, w2) {
			t.Fatalf("run %d differs: %d %v %v / %d %v %v", i, pe1, n1, w1, pe2, n2, w2)
		}
	}
	for u := range uint32(g.NumVertices()) {
		var union []uint32
		parallel.ForEachPE(u, func(pe int, nbrs, weights []uint32) {
			for i, v := range nbrs {
				if int(p.PE[v]) != pe {
					t.Fatalf("vertex %d: neighbour %d of PE %d lives on PE %d", u, v, pe, p.PE[v])
				}
				if i > 0 && nbrs[i-1] >= v {
					t.Fatalf("vertex %d PE %d: neighbours %v not ascending", u, pe, nbrs)
				}
				j, ok := slices.BinarySearch(g.Neighbors(u), v)
				if !ok || g.EdgeWeights(u)[j] != weights[i] {
					t.Fatalf("vertex %d: arc to %d weight %d not in the graph", u, v, weights[i])
				}
			}
			union = append(union, nbrs...)
		})
		if len(union) != g.OutDegree(u) {
			t.Fatalf("vertex %d: %d arcs in the layout, degree %d", u, len(union), g.OutDegree(u))
		}
	}
	if g.NumArcs() < 3<<16 { // fewer than 4 workers
		t.Fatalf("graph too small (%d arcs) to use several workers", g.NumArcs())
	}
}

func TestEdgeLayoutHandComputed(t *testing.T) {
	// Greedy 1x3 puts vertices 0..6 on PEs 0 1 2 1 2 1 0.
	g := ptGraph(t, 7, false, ptGreedyGraph)
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 1, PEs: 3})
	if err != nil {
		t.Fatal(err)
	}
	l := graph.NewEdgeLayout(g, p)
	tests := []struct {
		u    uint32
		want string
	}{
		{0, "pe1:[1 3] pe2:[2 4] "}, // neighbours 1 2 3 4 on PEs 1 2 1 2
		{1, "pe0:[0] pe2:[2] "},
		{4, "pe0:[0] pe1:[5] "},
		{5, "pe0:[6] pe2:[4] "},
		{6, "pe1:[5] "},
	}
	for _, tt := range tests {
		got := ""
		l.ForEachPE(tt.u, func(pe int, nbrs, _ []uint32) { got += fmt.Sprintf("pe%d:%v ", pe, nbrs) })
		if got != tt.want {
			t.Errorf("ForEachPE(%d) = %q, want %q", tt.u, got, tt.want)
		}
	}
	// Arcs by destination PE: PE0 holds 0 and 6 (degrees 4+1), PE1 holds
	// 1, 3, 5 (2+1+2), PE2 holds 2, 4 (2+2).
	if got, want := l.EdgesPerPE(), []int{5, 5, 4}; !slices.Equal(got, want) {
		t.Errorf("EdgesPerPE = %v, want %v", got, want)
	}
	// Senders with a neighbour on PE0: 1 2 3 4 (neighbours of 0) and 5
	// (of 6); on PE1: 0 2 4 6; on PE2: 0 1 5.
	if got, want := l.IndexEntriesPerPE(), []int{5, 4, 3}; !slices.Equal(got, want) {
		t.Errorf("IndexEntriesPerPE = %v, want %v", got, want)
	}
}

func TestCutStatsHandComputed(t *testing.T) {
	path6 := [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}
	tests := []struct {
		name     string
		n        int
		directed bool
		edges    [][2]uint32
		opt      graph.PartitionOptions
		want     graph.CutStats
	}{
		{
			// PEs (= FPGAs) 0 1 2 0 1 2. Every arc crosses. Targets
			// 1 2 2 2 2 1 = 10 of 6*2 = 12. Arcs into PE0 (vertices 0,
			// 3): 1+2; PE1 (1, 4): 2+2; PE2 (2, 5): 2+1.
			name: "path robin 3x1",
			n:    6, edges: path6,
			opt: graph.PartitionOptions{FPGAs: 3, PEs: 1, Method: graph.Robin},
			want: graph.CutStats{
				FPGAs: 3, PEs: 1, Method: graph.Robin, Vertices: 6, Arcs: 10,
				CrossFPGAArcs: 10, CrossPEArcs: 10,
				RemoteUpdatesUnfiltered: 12, RemoteUpdatesFiltered: 10, FilterSaving: 1 - 10.0/12,
				EdgesPerPEMin: 3, EdgesPerPEMax: 4, EdgesPerPEMean: 10.0 / 3,
				EdgeImbalance: 0.2, GraVFEdgeImbalance: 0.2,
				VerticesPerPEMin: 2, VerticesPerPEMax: 2,
			},
		},
		{
			// Greedy PEs 0 1 2 3 0 1, FPGAs 0 0 1 1 0 0: edges 1-2 and
			// 3-4 cross FPGAs, all five cross PEs. Targets 0 1 1 1 1 0.
			// Arcs into PE0 (0, 4): 1+2, PE1 (1, 5): 2+1, PE2: 2, PE3: 2.
			name: "path greedy 2x2",
			n:    6, edges: path6,
			opt: graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.Greedy},
			want: graph.CutStats{
				FPGAs: 2, PEs: 2, Method: graph.Greedy, Vertices: 6, Arcs: 10,
				CrossFPGAArcs: 4, CrossPEArcs: 10,
				RemoteUpdatesUnfiltered: 6, RemoteUpdatesFiltered: 4, FilterSaving: 1 - 4.0/6,
				EdgesPerPEMin: 2, EdgesPerPEMax: 3, EdgesPerPEMean: 2.5,
				EdgeImbalance: 0.2, GraVFEdgeImbalance: 0.2,
				VerticesPerPEMin: 1, VerticesPerPEMax: 2,
			},
		},
		{
			// Directed star 0->1,2,3 on robin 1x2: PEs 0 1 0 1. Arcs
			// into PE0: 1 (to 2), PE1: 2; out-degree sums 3 and 0.
			name: "directed star robin 1x2",
			n:    4, directed: true, edges: [][2]uint32{{0, 1}, {0, 2}, {0, 3}},
			opt: graph.PartitionOptions{FPGAs: 1, PEs: 2, Method: graph.Robin},
			want: graph.CutStats{
				FPGAs: 1, PEs: 2, Method: graph.Robin, Vertices: 4, Arcs: 3,
				CrossFPGAArcs: 0, CrossPEArcs: 2,
				EdgesPerPEMin: 1, EdgesPerPEMax: 2, EdgesPerPEMean: 1.5,
				EdgeImbalance: 1.0 / 3, GraVFEdgeImbalance: 1,
				VerticesPerPEMin: 2, VerticesPerPEMax: 2,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := ptGraph(t, tt.n, tt.directed, tt.edges)
			p, err := graph.NewPartition(context.Background(), g, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			got := graph.ComputeCutStats(g, p)
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
			if !near(got.FilterSaving, tt.want.FilterSaving) || !near(got.EdgesPerPEMean, tt.want.EdgesPerPEMean) ||
				!near(got.EdgeImbalance, tt.want.EdgeImbalance) || !near(got.GraVFEdgeImbalance, tt.want.GraVFEdgeImbalance) {
				t.Errorf("ratios: got %+v\nwant %+v", got, tt.want)
			}
			got.FilterSaving, got.EdgesPerPEMean, got.EdgeImbalance, got.GraVFEdgeImbalance =
				tt.want.FilterSaving, tt.want.EdgesPerPEMean, tt.want.EdgeImbalance, tt.want.GraVFEdgeImbalance
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestForEachPEDoesNotAllocate(t *testing.T) {
	g := ptRMAT(t, 10, 8, 3, false, true)
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 4, PEs: 9})
	if err != nil {
		t.Fatal(err)
	}
	l := graph.NewEdgeLayout(g, p)
	f := graph.NewFilter(g, p)
	msgs := 0
	allocs := testing.AllocsPerRun(10, func() {
		for u := range uint32(g.NumVertices()) {
			l.ForEachPE(u, func(pe int, nbrs, weights []uint32) { msgs += len(nbrs) })
			msgs += f.Targets(u)
			if n, _ := l.Local(int(p.PE[u]), u); n != nil {
				msgs++
			}
		}
	})
	if allocs != 0 {
		t.Errorf("ForEachPE/Local/Targets allocate %.1f times per sweep", allocs)
	}
	if msgs == 0 {
		t.Error("no messages")
	}
}

func TestEdgeLayoutRejectsForeignPartition(t *testing.T) {
	g := ptGraph(t, 3, false, [][2]uint32{{0, 1}})
	h := ptGraph(t, 4, false, [][2]uint32{{0, 1}})
	p, err := graph.NewPartition(context.Background(), h, graph.PartitionOptions{FPGAs: 1, PEs: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if recover() == nil {
			t.Error("NewEdgeLayout accepted a partition of another graph")
		}
	}()
	graph.NewEdgeLayout(g, p)
}

// BenchmarkNewEdgeLayout builds the GraVF-M layout of a 1M-edge (2M-arc)
// R-MAT graph for 4 FPGAs x 9 PEs. B/op is what building it allocates:
// the layout itself (MemoryBytes) and nothing much besides.
func BenchmarkNewEdgeLayout(b *testing.B) {
	g := ptRMAT(b, 16, 16, 1, false, false)
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 4, PEs: 9})
	if err != nil {
		b.Fatal(err)
	}
	var l *graph.EdgeLayout
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		l = graph.NewEdgeLayout(g, p)
	}
	b.ReportMetric(float64(g.NumArcs())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
	b.ReportMetric(float64(l.MemoryBytes())/float64(g.NumArcs()), "B/arc")
	b.ReportMetric(float64(l.NumRuns())/float64(g.NumVertices()), "runs/vertex")
}

// BenchmarkScatterSweep walks every run of every vertex, the inner loop of
// a superstep in which all vertices send.
func BenchmarkScatterSweep(b *testing.B) {
	g := ptRMAT(b, 16, 16, 1, false, false)
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 4, PEs: 9})
	if err != nil {
		b.Fatal(err)
	}
	l := graph.NewEdgeLayout(g, p)
	b.ResetTimer()
	sum := 0
	for b.Loop() {
		for u := range uint32(g.NumVertices()) {
			l.ForEachPE(u, func(pe int, nbrs, _ []uint32) { sum += len(nbrs) })
		}
	}
	b.ReportMetric(float64(g.NumArcs())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Marcs/s")
}
