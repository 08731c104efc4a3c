package graph_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// ptGraph builds a graph from an edge list.
func ptGraph(tb testing.TB, n int, directed bool, edges [][2]uint32) *graph.Graph {
	tb.Helper()
	b := graph.NewBuilder(n, directed, false)
	for _, e := range edges {
		b.AddEdge(e[0], e[1], 0)
	}
	g, err := b.Build("hand")
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// ptRMAT is a small seeded R-MAT generator (a, b, c, d = 0.57, 0.19, 0.19,
// 0.05), so that these tests do not depend on the package's generators.
// Ids are not permuted: the hubs have low ids, as in the generator's raw
// output. Weights, when asked for, are uniform in [1, 100].
func ptRMAT(tb testing.TB, scale, ef int, seed uint64, directed, weighted bool) *graph.Graph {
	return ptRMATPerm(tb, scale, ef, seed, directed, weighted, false)
}

// ptRMATPerm is ptRMAT with an optional seeded renaming of the vertices
// (Graph500 "scrambling"), which scatters the hubs over the id range.
func ptRMATPerm(tb testing.TB, scale, ef int, seed uint64, directed, weighted, scramble bool) *graph.Graph {
	tb.Helper()
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	n := 1 << scale
	m := ef * n
	perm := make([]uint32, n)
	for i := range perm {
		perm[i] = uint32(i)
	}
	if scramble {
		r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
	b := graph.NewBuilder(n, directed, weighted)
	b.Grow(m)
	for range m {
		var u, v uint32
		for bit := scale - 1; bit >= 0; bit-- {
			switch x := r.Float64(); {
			case x < 0.57:
			case x < 0.76:
				v |= 1 << bit
			case x < 0.95:
				u |= 1 << bit
			default:
				u |= 1 << bit
				v |= 1 << bit
			}
		}
		b.AddEdge(perm[u], perm[v], uint32(r.IntN(100))+1)
	}
	g, err := b.Build(fmt.Sprintf("rmat:scale=%d,ef=%d,seed=%d,scramble=%v", scale, ef, seed, scramble))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// ptReadMETIS reads an unweighted METIS graph file ("n m [0]" then one
// 1-based adjacency line per vertex).
func ptReadMETIS(tb testing.TB, path string) *graph.Graph {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	var b *graph.Builder
	n, v := 0, 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "%") {
			continue
		}
		fields := strings.Fields(line)
		if b == nil {
			if len(fields) < 2 || (len(fields) > 2 && strings.Trim(fields[2], "0") != "") {
				tb.Fatalf("%s: unsupported METIS header %q", path, line)
			}
			n, _ = strconv.Atoi(fields[0])
			b = graph.NewBuilder(n, false, false)
			continue
		}
		for _, s := range fields {
			u, err := strconv.Atoi(s)
			if err != nil || u < 1 || u > n {
				tb.Fatalf("%s: vertex %d: bad neighbour %q", path, v+1, s)
			}
			b.AddEdge(uint32(v), uint32(u-1), 0)
		}
		v++
	}
	if err := sc.Err(); err != nil || v != n {
		tb.Fatalf("%s: read %d of %d vertices: %v", path, v, n, err)
	}
	g, err := b.Build(filepath.Base(path))
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// ptNeedGPMetis stops the test when gpmetis is missing (testenv.NeedTool).
func ptNeedGPMetis(tb testing.TB) {
	tb.Helper()
	testenv.NeedTool(tb, "gpmetis")
}

// ptCheck asserts the invariants every partition must keep.
func ptCheck(tb testing.TB, g *graph.Graph, p *graph.Partition) {
	tb.Helper()
	n := g.NumVertices()
	if len(p.PE) != n || len(p.Local) != n || len(p.Members) != p.FPGAs*p.PEs {
		tb.Fatalf("sizes: PE %d Local %d Members %d for V=%d, %dx%d PEs", len(p.PE), len(p.Local), len(p.Members), n, p.FPGAs, p.PEs)
	}
	total := 0
	for pe, m := range p.Members {
		total += len(m)
		if !slices.IsSorted(m) {
			tb.Fatalf("members of PE %d not ascending", pe)
		}
		for i, v := range m {
			if int(p.PE[v]) != pe || int(p.Local[v]) != i {
				tb.Fatalf("Members[%d][%d] = %d, but PE[%d]=%d Local=%d", pe, i, v, v, p.PE[v], p.Local[v])
			}
		}
	}
	if total != n {
		tb.Fatalf("members hold %d vertices, want %d", total, n)
	}
	for v := range n {
		if f := p.FPGA(uint32(v)); f != int(p.PE[v])/p.PEs || f >= p.FPGAs {
			tb.Fatalf("FPGA(%d) = %d with PE %d", v, f, p.PE[v])
		}
	}
}

// ptGreedyGraph: degrees 4, 2, 2, 1, 2, 2, 1 (14 arcs).
var ptGreedyGraph = [][2]uint32{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2}, {4, 5}, {5, 6}}

func TestPartitionHandComputed(t *testing.T) {
	path6 := [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}}
	tests := []struct {
		name      string
		n         int
		directed  bool
		edges     [][2]uint32
		opt       graph.PartitionOptions
		wantPE    []uint16
		wantLocal []uint32
		wantFPGA  []int
	}{
		{
			name:      "robin 2x2 on 7 isolated vertices",
			n:         7,
			opt:       graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.Robin},
			wantPE:    []uint16{0, 1, 2, 3, 0, 1, 2},
			wantLocal: []uint32{0, 0, 0, 0, 1, 1, 1},
			wantFPGA:  []int{0, 0, 1, 1, 0, 0, 1},
		},
		{
			// loads after each vertex: [4 0 0] [4 2 0] [4 2 2] [4 3 2]
			// [4 3 4] [4 5 4] [5 5 4]
			name:      "greedy 1x3, ties to the lowest PE",
			n:         7,
			edges:     ptGreedyGraph,
			opt:       graph.PartitionOptions{FPGAs: 1, PEs: 3, Method: graph.Greedy},
			wantPE:    []uint16{0, 1, 2, 1, 2, 1, 0},
			wantLocal: []uint32{0, 0, 0, 1, 1, 2, 1},
			wantFPGA:  []int{0, 0, 0, 0, 0, 0, 0},
		},
		{
			// [4 0 0 0] [4 2 0 0] [4 2 2 0] [4 2 2 1] [4 2 2 3] [4 4 2 3]
			// [4 4 3 3]
			name:      "greedy is the default, 2x2",
			n:         7,
			edges:     ptGreedyGraph,
			opt:       graph.PartitionOptions{FPGAs: 2, PEs: 2},
			wantPE:    []uint16{0, 1, 2, 3, 3, 1, 2},
			wantLocal: []uint32{0, 0, 0, 0, 1, 1, 1},
			wantFPGA:  []int{0, 0, 1, 1, 1, 0, 1},
		},
		{
			name:      "greedy path 2x2",
			n:         6,
			edges:     path6,
			opt:       graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.Greedy},
			wantPE:    []uint16{0, 1, 2, 3, 0, 1},
			wantLocal: []uint32{0, 0, 0, 0, 1, 1},
			wantFPGA:  []int{0, 0, 1, 1, 0, 0},
		},
		{
			// Degree-0 vertices leave the loads unchanged, so they
			// pile onto the least loaded PE: the rule balances edges,
			// not vertices.
			name:      "greedy isolated vertices",
			n:         4,
			edges:     [][2]uint32{{2, 3}},
			opt:       graph.PartitionOptions{FPGAs: 1, PEs: 2, Method: graph.Greedy},
			wantPE:    []uint16{0, 0, 0, 1},
			wantLocal: []uint32{0, 1, 2, 0},
			wantFPGA:  []int{0, 0, 0, 0},
		},
		{
			name:      "greedy counts out-degree when directed",
			n:         4,
			directed:  true,
			edges:     [][2]uint32{{0, 1}, {0, 2}, {0, 3}, {1, 0}},
			opt:       graph.PartitionOptions{FPGAs: 1, PEs: 2, Method: graph.Greedy},
			wantPE:    []uint16{0, 1, 1, 1},
			wantLocal: []uint32{0, 0, 1, 2},
			wantFPGA:  []int{0, 0, 0, 0},
		},
		{
			name:      "metis with one FPGA is greedy and needs no gpmetis",
			n:         7,
			edges:     ptGreedyGraph,
			opt:       graph.PartitionOptions{FPGAs: 1, PEs: 3, Method: graph.METIS, GPMetis: "gpmetis-not-installed-here"},
			wantPE:    []uint16{0, 1, 2, 1, 2, 1, 0},
			wantLocal: []uint32{0, 0, 0, 1, 1, 2, 1},
			wantFPGA:  []int{0, 0, 0, 0, 0, 0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := ptGraph(t, tt.n, tt.directed, tt.edges)
			p, err := graph.NewPartition(context.Background(), g, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			ptCheck(t, g, p)
			if want := tt.opt.Method; want != "" && p.Method != want {
				t.Errorf("Method = %q, want %q", p.Method, want)
			}
			if !slices.Equal(p.PE, tt.wantPE) {
				t.Errorf("PE = %v, want %v", p.PE, tt.wantPE)
			}
			if !slices.Equal(p.Local, tt.wantLocal) {
				t.Errorf("Local = %v, want %v", p.Local, tt.wantLocal)
			}
			for v, want := range tt.wantFPGA {
				if got := p.FPGA(uint32(v)); got != want {
					t.Errorf("FPGA(%d) = %d, want %d", v, got, want)
				}
			}
		})
	}
}

func TestPartitionDefaultMethodIsGreedy(t *testing.T) {
	g := ptGraph(t, 7, false, ptGreedyGraph)
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 1, PEs: 3})
	if err != nil {
		t.Fatal(err)
	}
	if p.Method != graph.Greedy {
		t.Errorf("Method = %q, want greedy", p.Method)
	}
	want := [][]uint32{{0, 6}, {1, 3, 5}, {2, 4}}
	for pe := range want {
		if !slices.Equal(p.Members[pe], want[pe]) {
			t.Errorf("Members[%d] = %v, want %v", pe, p.Members[pe], want[pe])
		}
	}
}

func TestPartitionOptionsRejected(t *testing.T) {
	g := ptGraph(t, 5, false, [][2]uint32{{0, 1}})
	tests := []struct {
		name string
		opt  graph.PartitionOptions
		want string
	}{
		{"no FPGA", graph.PartitionOptions{FPGAs: 0, PEs: 1}, "need at least 1 FPGA, got 0"},
		{"no PE", graph.PartitionOptions{FPGAs: 2, PEs: -1}, "need at least 1 PE per FPGA, got -1"},
		{"too many PEs", graph.PartitionOptions{FPGAs: 256, PEs: 256}, "256 FPGAs x 256 PEs exceed the limit of 65535 PEs in total"},
		{"overflowing product", graph.PartitionOptions{FPGAs: 1 << 40, PEs: 1 << 40}, "exceed the limit of 65535 PEs"},
		{"negative ufactor", graph.PartitionOptions{FPGAs: 2, PEs: 1, Method: graph.METIS, UFactor: -1}, "ufactor must be >= 0"},
		{"unknown method", graph.PartitionOptions{FPGAs: 1, PEs: 1, Method: "spectral"}, `unknown method "spectral"`},
		{"more FPGAs than vertices", graph.PartitionOptions{FPGAs: 100, PEs: 1, Method: graph.Greedy}, "100 FPGAs for 5 vertices: 95 FPGAs would hold no vertex"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := graph.NewPartition(context.Background(), g, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
	// The limit itself is allowed.
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 5, PEs: 13107, Method: graph.Robin})
	if err != nil {
		t.Fatal(err)
	}
	ptCheck(t, g, p)
}

func TestParsePartitioner(t *testing.T) {
	tests := []struct {
		in   string
		want graph.Partitioner
		err  bool
	}{
		{"", graph.Greedy, false},
		{"greedy", graph.Greedy, false},
		{"Greedy-Edge", graph.Greedy, false},
		{"robin", graph.Robin, false},
		{" round-robin ", graph.Robin, false},
		{"rr", graph.Robin, false},
		{"METIS", graph.METIS, false},
		{"gpmetis", graph.METIS, false},
		{"greedy-sorted", graph.GreedySorted, false},
		{"random", "", true},
	}
	for _, tt := range tests {
		got, err := graph.ParsePartitioner(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("ParsePartitioner(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.err)
		}
	}
	if _, err := graph.ParsePartitioner("random"); err == nil || !strings.Contains(err.Error(), "want robin, greedy, greedy-sorted or metis") {
		t.Errorf("error %v does not list the choices", err)
	}
	for _, m := range graph.Partitioners {
		if got, err := graph.ParsePartitioner(string(m)); err != nil || got != m {
			t.Errorf("ParsePartitioner(%q) = %q, %v", m, got, err)
		}
	}
}

// TestGreedyBalanceRMAT is the balance figure of the issue: on R-MAT scale
// 16, edge factor 16, with 4 FPGAs x 9 PEs, the most loaded PE must be
// within 2 % of the ideal.
//
// The paper's greedy rule depends on the input order. With R-MAT's raw ids
// the hubs come first and the small vertices that follow even the loads out
// (about 0.05 % here). With scrambled ids a hub may arrive late, and the
// rule only guarantees max <= mean + max degree: the figure is logged and
// that bound asserted.
func TestGreedyBalanceRMAT(t *testing.T) {
	for _, scramble := range []bool{false, true} {
		t.Run(fmt.Sprintf("scramble=%v", scramble), func(t *testing.T) {
			g := ptRMATPerm(t, 16, 16, 1, false, false, scramble)
			p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 4, PEs: 9})
			if err != nil {
				t.Fatal(err)
			}
			ptCheck(t, g, p)
			loads := p.GraVFEdgesPerPE(g)
			mean := float64(g.NumArcs()) / float64(len(loads))
			ratio := float64(slices.Max(loads)) / mean
			maxDeg := 0
			for v := range g.NumVertices() {
				maxDeg = max(maxDeg, g.OutDegree(uint32(v)))
			}
			s := graph.ComputeCutStats(g, p)
			t.Logf("%s: V=%d arcs=%d max degree %d, greedy 4x9: edges per PE min %d max %d mean %.1f, max/mean = %.5f; vertices per PE %d..%d",
				g.Name, g.NumVertices(), g.NumArcs(), maxDeg, slices.Min(loads), slices.Max(loads), mean, ratio, s.VerticesPerPEMin, s.VerticesPerPEMax)
			if d := 1 + s.EdgeImbalance - ratio; d > 1e-9 || d < -1e-9 {
				t.Errorf("CutStats.EdgeImbalance = %v, disagrees with %v for an undirected graph", s.EdgeImbalance, ratio-1)
			}
			if float64(slices.Max(loads)) > mean+float64(maxDeg) {
				t.Errorf("max load %d exceeds the greedy bound mean + max degree = %.0f", slices.Max(loads), mean+float64(maxDeg))
			}
			if !scramble && ratio >= 1.02 {
				t.Errorf("greedy max/mean edges per PE = %.4f, want < 1.02", ratio)
			}
			r, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 4, PEs: 9, Method: graph.Robin})
			if err != nil {
				t.Fatal(err)
			}
			rs := graph.ComputeCutStats(g, r)
			t.Logf("robin 4x9 for comparison: max/mean %.4f, vertices per PE %d..%d", 1+rs.EdgeImbalance, rs.VerticesPerPEMin, rs.VerticesPerPEMax)
			if rs.VerticesPerPEMax-rs.VerticesPerPEMin > 1 {
				t.Errorf("robin vertex counts %d..%d differ by more than 1", rs.VerticesPerPEMin, rs.VerticesPerPEMax)
			}
		})
	}
}

func TestMETISPowerGrid(t *testing.T) {
	ptNeedGPMetis(t)
	g := ptReadMETIS(t, datasets.Path(t, "power.graph"))
	if g.NumVertices() != 4941 || g.NumEdges() != 6594 {
		t.Fatalf("power.graph: V=%d E=%d, want 4941 and 6594", g.NumVertices(), g.NumEdges())
	}
	ctx := context.Background()
	opt := graph.PartitionOptions{FPGAs: 4, PEs: 9, Method: graph.METIS, Seed: 7}
	p, err := graph.NewPartition(ctx, g, opt)
	if err != nil {
		t.Fatal(err)
	}
	ptCheck(t, g, p)
	if p.Method != graph.METIS {
		t.Errorf("Method = %q", p.Method)
	}
	r, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 4, PEs: 9, Method: graph.Robin})
	if err != nil {
		t.Fatal(err)
	}
	gr, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 4, PEs: 9, Method: graph.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	ms, rs, gs := graph.ComputeCutStats(g, p), graph.ComputeCutStats(g, r), graph.ComputeCutStats(g, gr)
	fpgaLoad := make([]int, p.FPGAs)
	for v := range g.NumVertices() {
		fpgaLoad[p.FPGA(uint32(v))] += g.OutDegree(uint32(v))
	}
	fpgaImb := float64(slices.Max(fpgaLoad))*float64(p.FPGAs)/float64(g.NumArcs()) - 1
	t.Logf("power.graph 4x9 cross-FPGA arcs of %d: metis %d, greedy %d, robin %d; remote updates with filter: metis %d, greedy %d, robin %d (of %d)",
		g.NumArcs(), ms.CrossFPGAArcs, gs.CrossFPGAArcs, rs.CrossFPGAArcs,
		ms.RemoteUpdatesFiltered, gs.RemoteUpdatesFiltered, rs.RemoteUpdatesFiltered, ms.RemoteUpdatesUnfiltered)
	t.Logf("metis per-FPGA out-degree loads %v (imbalance %.4f), PE edge imbalance %.4f", fpgaLoad, fpgaImb, ms.EdgeImbalance)
	if ms.CrossFPGAArcs >= rs.CrossFPGAArcs {
		t.Errorf("metis cuts %d arcs across FPGAs, robin %d: want fewer", ms.CrossFPGAArcs, rs.CrossFPGAArcs)
	}
	// A power grid is almost planar: a real min-cut partition cuts a
	// small fraction of the arcs.
	if frac := float64(ms.CrossFPGAArcs) / float64(g.NumArcs()); frac > 0.05 {
		t.Errorf("metis cuts %.1f %% of the arcs; gpmetis should cut well under 5 %%", 100*frac)
	}
	if fpgaImb > 0.05 {
		t.Errorf("metis FPGA out-degree imbalance %.4f, want <= 0.05", fpgaImb)
	}
	// Same seed, same partition.
	q, err := graph.NewPartition(ctx, g, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.PE, q.PE) {
		t.Error("two METIS runs with the same seed differ")
	}
}

func TestMETISDirectedCliques(t *testing.T) {
	ptNeedGPMetis(t)
	// Two directed 12-cliques (arcs i->j for i<j inside a clique) joined by
	// one arc 11->12: the only good 2-way cut is that arc.
	const k = 12
	var edges [][2]uint32
	for base := uint32(0); base < 2*k; base += k {
		for i := base; i < base+k; i++ {
			for j := i + 1; j < base+k; j++ {
				edges = append(edges, [2]uint32{i, j})
			}
		}
	}
	edges = append(edges, [2]uint32{k - 1, k})
	g := ptGraph(t, 2*k, true, edges)
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.METIS, UFactor: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	ptCheck(t, g, p)
	s := graph.ComputeCutStats(g, p)
	if s.CrossFPGAArcs != 1 {
		t.Errorf("cross-FPGA arcs = %d, want 1 (the bridge); PE = %v", s.CrossFPGAArcs, p.PE)
	}
}

// ptFakeGPMetis writes a shell script standing in for gpmetis.
func ptFakeGPMetis(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("fake gpmetis is a shell script")
	}
	path := filepath.Join(t.TempDir(), "fake-gpmetis")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMETISWithFakeTool(t *testing.T) {
	ctx := context.Background()
	out := t.TempDir()
	// Records its arguments and input, and puts vertex v on FPGA v mod
	// the number of parts.
	fake := ptFakeGPMetis(t, `echo "$@" > `+out+`/args
cp "$3" `+out+`/input
n=$(head -n 1 "$3" | cut -d' ' -f1)
i=0
while [ $i -lt $n ]; do echo $((i % $4)); i=$((i + 1)); done > "$3.part.$4"
`)
	// Directed: 0->1, 1->0 (one edge of weight 2), 0->2, 3->2; vertex 4 is
	// isolated.
	g := ptGraph(t, 5, true, [][2]uint32{{0, 1}, {1, 0}, {0, 2}, {3, 2}})
	p, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.METIS, Seed: 1<<40 + 7, GPMetis: fake})
	if err != nil {
		t.Fatal(err)
	}
	ptCheck(t, g, p)
	args, _ := os.ReadFile(filepath.Join(out, "args"))
	if got, want := strings.TrimSpace(string(args)), "-ufactor=1 -seed=7 graph.metis 2"; got != want {
		t.Errorf("gpmetis arguments %q, want %q", got, want)
	}
	input, _ := os.ReadFile(filepath.Join(out, "input"))
	// Vertex weight = out-degree, then (1-based neighbour, arc count).
	wantInput := "5 3 011\n2 2 2 3 1\n1 1 2\n0 1 1 4 1\n1 3 1\n0\n"
	if string(input) != wantInput {
		t.Errorf("METIS input:\n%s\nwant:\n%s", input, wantInput)
	}
	// FPGAs 0,1,0,1,0; greedy inside FPGA 0 (PEs 0,1) over 0 (deg 2),
	// 2 (deg 0), 4 (deg 0) and inside FPGA 1 (PEs 2,3) over 1 (deg 1),
	// 3 (deg 1).
	if want := []uint16{0, 2, 1, 3, 1}; !slices.Equal(p.PE, want) {
		t.Errorf("PE = %v, want %v", p.PE, want)
	}

	// Undirected graphs go out as they are stored.
	u := ptGraph(t, 3, false, [][2]uint32{{0, 1}, {1, 2}})
	if _, err := graph.NewPartition(ctx, u, graph.PartitionOptions{FPGAs: 3, PEs: 1, Method: graph.METIS, UFactor: 30, GPMetis: fake}); err != nil {
		t.Fatal(err)
	}
	args, _ = os.ReadFile(filepath.Join(out, "args"))
	input, _ = os.ReadFile(filepath.Join(out, "input"))
	if got, want := strings.TrimSpace(string(args)), "-ufactor=30 -seed=0 graph.metis 3"; got != want {
		t.Errorf("gpmetis arguments %q, want %q", got, want)
	}
	if want := "3 2 010\n1 2\n2 1 3\n1 2\n"; string(input) != want {
		t.Errorf("METIS input:\n%s\nwant:\n%s", input, want)
	}
}

func TestMETISErrors(t *testing.T) {
	ctx := context.Background()
	g := ptGraph(t, 4, false, [][2]uint32{{0, 1}, {2, 3}})
	opt := func(bin string) graph.PartitionOptions {
		return graph.PartitionOptions{FPGAs: 2, PEs: 1, Method: graph.METIS, GPMetis: bin}
	}

	t.Run("missing", func(t *testing.T) {
		_, err := graph.NewPartition(ctx, g, opt("gpmetis-not-installed-here"))
		if !errors.Is(err, graph.ErrNoGPMetis) || !errors.Is(err, exec.ErrNotFound) {
			t.Fatalf("err = %v, want ErrNoGPMetis and exec.ErrNotFound", err)
		}
		want := `metis partitioning needs gpmetis (Debian package metis): exec: "gpmetis-not-installed-here": executable file not found in $PATH`
		if err.Error() != want {
			t.Errorf("err = %q\nwant  %q", err, want)
		}
	})
	t.Run("failing", func(t *testing.T) {
		fake := ptFakeGPMetis(t, "echo 'METIS 5.0 banner'\necho 'Input Error: the graph is broken' >&2\nexit 3\n")
		_, err := graph.NewPartition(ctx, g, opt(fake))
		if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "gpmetis: Input Error: the graph is broken") ||
			!strings.Contains(err.Error(), "gpmetis: METIS 5.0 banner") {
			t.Fatalf("err = %v, want the exit status and gpmetis' output", err)
		}
	})
	t.Run("no partition file", func(t *testing.T) {
		fake := ptFakeGPMetis(t, "echo done\n")
		_, err := graph.NewPartition(ctx, g, opt(fake))
		if err == nil || !strings.Contains(err.Error(), "no partition file") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("bad partition file", func(t *testing.T) {
		fake := ptFakeGPMetis(t, "printf '0\\n1\\n2\\n0\\n' > \"$3.part.$4\"\n")
		_, err := graph.NewPartition(ctx, g, opt(fake))
		if err == nil || !strings.Contains(err.Error(), `line 3: bad part "2" for 2 parts`) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		fake := ptFakeGPMetis(t, "exec sleep 30\n")
		ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err := graph.NewPartition(ctx, g, opt(fake))
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want deadline exceeded", err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("cancellation took %v", d)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 1, PEs: 1}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("no edges", func(t *testing.T) {
		// gpmetis rejects a graph without edges, so it is not run.
		fake := ptFakeGPMetis(t, "exit 1\n")
		e := ptGraph(t, 5, false, nil)
		p, err := graph.NewPartition(ctx, e, graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.METIS, GPMetis: fake})
		if err != nil {
			t.Fatal(err)
		}
		ptCheck(t, e, p)
		if want := []uint16{0, 2, 0, 2, 0}; !slices.Equal(p.PE, want) {
			t.Errorf("PE = %v, want %v", p.PE, want)
		}
	})
}

func BenchmarkGreedyPartition(b *testing.B) {
	g := ptRMAT(b, 16, 16, 1, false, false)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 4, PEs: 9}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(g.NumVertices())*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mvertices/s")
}

// TestGreedyBalanceClassicRMAT pins the figure the functional-core issue
// asks for: greedy-edge within 2 % of the ideal edges per PE on classic
// (unscrambled) rmat:scale=16,ef=16 with 4 x 9 PEs, whose hubs come first
// in the input. The default, scrambled R-MAT is TestGreedySortedBalance's.
func TestGreedyBalanceClassicRMAT(t *testing.T) {
	g, err := graph.Load("rmat:scale=16,ef=16,seed=1,scramble=false", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 4, PEs: 9, Method: graph.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	cs := graph.ComputeCutStats(g, p)
	t.Logf("greedy on %s, 36 PEs: edges per PE %d..%d, imbalance %.3f %%", g.Name, cs.EdgesPerPEMin, cs.EdgesPerPEMax, 100*cs.EdgeImbalance)
	if cs.EdgeImbalance >= 0.02 {
		t.Fatalf("imbalance %.3f %% >= 2 %%", 100*cs.EdgeImbalance)
	}
}

// TestGreedySortedBalance: on the (default, scrambled) R-MAT and on the original
// GraVF authors' scale-14 graph, where input-order greedy leaves several
// percent, degree-sorted greedy balances edges per PE within 0.5 %.
func TestGreedySortedBalance(t *testing.T) {
	g, err := graph.Load("rmat:scale=16,ef=16,seed=1", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var imb [2]float64
	for i, m := range []graph.Partitioner{graph.Greedy, graph.GreedySorted} {
		p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 4, PEs: 9, Method: m})
		if err != nil {
			t.Fatal(err)
		}
		imb[i] = graph.ComputeCutStats(g, p).EdgeImbalance
	}
	t.Logf("scrambled rmat scale 16, 36 PEs: greedy %.3f %%, greedy-sorted %.4f %%", 100*imb[0], 100*imb[1])
	if imb[1] >= 0.005 || imb[1] >= imb[0] {
		t.Fatalf("greedy-sorted imbalance %.4f %% (greedy %.3f %%)", 100*imb[1], 100*imb[0])
	}
}
