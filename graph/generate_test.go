package graph

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// mustGenerate parses spec and generates it.
func mustGenerate(tb testing.TB, spec string) *Graph {
	tb.Helper()
	s, err := ParseSpec(spec)
	if err != nil {
		tb.Fatal(err)
	}
	if s.IsFile() {
		tb.Fatalf("%q parsed as a file", spec)
	}
	g, err := Generate(s.Gen)
	if err != nil {
		tb.Fatal(err)
	}
	return g
}

// bfsDepths returns the BFS distance of every vertex from src (-1 when
// unreachable).
func bfsDepths(g *Graph, src uint32) []int {
	dist := make([]int, g.NumVertices())
	for i := range dist {
		dist[i] = -1
	}
	dist[src] = 0
	queue := []uint32{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, v := range g.Neighbors(u) {
			if dist[v] < 0 {
				dist[v] = dist[u] + 1
				queue = append(queue, v)
			}
		}
	}
	return dist
}

// checkCSR verifies the Graph invariants every generator must keep.
func checkCSR(t *testing.T, g *Graph) {
	t.Helper()
	n := g.NumVertices()
	if len(g.Offsets) != n+1 || int(g.Offsets[n]) != len(g.Adj) {
		t.Fatalf("offsets: len %d, last %d, arcs %d", len(g.Offsets), g.Offsets[n], len(g.Adj))
	}
	if g.Weights != nil && len(g.Weights) != len(g.Adj) {
		t.Fatalf("%d weights for %d arcs", len(g.Weights), len(g.Adj))
	}
	for u := range n {
		nb := g.Neighbors(uint32(u))
		for i, v := range nb {
			if int(v) >= n || v == uint32(u) || (i > 0 && nb[i-1] >= v) {
				t.Fatalf("vertex %d: bad neighbour list %v", u, nb)
			}
			if !g.Directed {
				back := g.Neighbors(v)
				j, ok := slices.BinarySearch(back, uint32(u))
				if !ok {
					t.Fatalf("arc %d->%d has no reverse", u, v)
				}
				if g.Weights != nil && g.EdgeWeights(v)[j] != g.EdgeWeights(uint32(u))[i] {
					t.Fatalf("edge {%d,%d} has two weights", u, v)
				}
			}
		}
	}
}

func TestGenerateExactSizes(t *testing.T) {
	tests := []struct {
		spec            string
		v, e, comp, dup int
		directed        bool
	}{
		{"line:n=5", 5, 4, 1, 0, false},
		{"line:n=1", 1, 0, 1, 0, false},
		{"line:n=5,directed=true", 5, 4, 1, 0, true},
		{"grid:rows=1,cols=1", 1, 0, 1, 0, false},
		{"grid:rows=7,cols=13,drop=0,diag=0", 91, 7*12 + 13*6, 1, 0, false},
		{"grid:rows=7,cols=13,drop=0,diag=1", 91, 7*12 + 13*6 + 6*12, 1, 0, false},
		{"grid:rows=7,cols=13,drop=1,diag=0", 91, 0, 91, 0, false},
		{"grid:rows=4,cols=5,drop=0,diag=0,directed=true", 20, 4*4 + 5*3, 1, 0, true},
		{"layered:w=8,d=5", 40, 8 * 4, 8, 0, false},
		{"layered:w=1,d=10,extra=3", 10, 9, 1, 27, false}, // all 3 cross draws hit the rail
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			g := mustGenerate(t, tc.spec)
			checkCSR(t, g)
			st := ComputeStats(g)
			if st.V != tc.v || st.E != tc.e || st.Components != tc.comp || g.Directed != tc.directed {
				t.Errorf("V=%d E=%d components=%d directed=%v, want %d %d %d %v",
					st.V, st.E, st.Components, g.Directed, tc.v, tc.e, tc.comp, tc.directed)
			}
			if g.SelfLoops != 0 || g.Duplicates != tc.dup {
				t.Errorf("dropped %d self-loops, %d duplicates, want 0, %d", g.SelfLoops, g.Duplicates, tc.dup)
			}
		})
	}
}

func TestGenerateNameIsCanonicalSpec(t *testing.T) {
	g := mustGenerate(t, "line:n=5")
	if want := "line:n=5,seed=1,maxw=0,directed=false"; g.Name != want {
		t.Errorf("Name = %q, want %q", g.Name, want)
	}
	s, err := ParseSpec(g.Name)
	if err != nil || s.Gen.N != 5 {
		t.Errorf("name does not parse back: %v %+v", err, s)
	}
}

func TestGenerateUniform(t *testing.T) {
	for _, tc := range []struct {
		spec string
		v    int
		d    float64
	}{
		{"uniform:v=100000,d=16,seed=3", 100000, 16},
		{"uniform:v=50000,d=7.5,seed=4,directed=true", 50000, 7.5},
		{"uniform:v=200000,d=3", 200000, 3},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			g := mustGenerate(t, tc.spec)
			checkCSR(t, g)
			if g.NumVertices() != tc.v {
				t.Fatalf("V = %d, want %d", g.NumVertices(), tc.v)
			}
			if got := g.AvgDegree(); math.Abs(got-tc.d)/tc.d > 0.01 {
				t.Errorf("average degree %.4f, want within 1%% of %g", got, tc.d)
			}
			draws := int(math.Round(float64(tc.v) * tc.d))
			if !g.Directed {
				draws /= 2
			}
			if got := g.NumEdges() + g.SelfLoops + g.Duplicates; got != draws {
				t.Errorf("E + self-loops + duplicates = %d, want %d draws", got, draws)
			}
			// Uniform endpoints: no vertex should be far above the
			// Poisson-like tail (mean d, so max well below 4d at this size).
			if st := ComputeStats(g); float64(st.MaxDeg) > 4*tc.d+20 {
				t.Errorf("max degree %d is too high for uniform d=%g", st.MaxDeg, tc.d)
			}
		})
	}
	// d = 0 is a valid, empty graph.
	g := mustGenerate(t, "uniform:v=10,d=0")
	if g.NumVertices() != 10 || g.NumEdges() != 0 {
		t.Errorf("d=0: V=%d E=%d", g.NumVertices(), g.NumEdges())
	}
}

func TestGenerateRMAT(t *testing.T) {
	g := mustGenerate(t, "rmat:scale=14,ef=16,seed=2,scramble=true")
	checkCSR(t, g)
	st := ComputeStats(g)
	if st.V != 1<<14 {
		t.Fatalf("V = %d", st.V)
	}
	draws := 16 << 14
	if got := st.E + st.SelfLoops + st.Duplicates; got != draws {
		t.Errorf("E + self-loops + duplicates = %d, want %d", got, draws)
	}
	if float64(st.MaxDeg) < 20*st.AvgDeg {
		t.Errorf("max degree %d not >> average %.1f: not skewed", st.MaxDeg, st.AvgDeg)
	}
	if st.Isolated < st.V/10 {
		t.Errorf("only %d isolated vertices; R-MAT at ef=16 leaves many", st.Isolated)
	}
	t.Logf("rmat scale 14: %d edges, avg %.1f, max %d, isolated %d, dups %d, loops %d",
		st.E, st.AvgDeg, st.MaxDeg, st.Isolated, st.Duplicates, st.SelfLoops)

	// Without scrambling, vertex 0 is the hub (quadrant a at every bit);
	// scrambling moves it elsewhere but keeps the degree sequence.
	plain := mustGenerate(t, "rmat:scale=14,ef=16,seed=2,scramble=false")
	if d0, ps := plain.OutDegree(0), ComputeStats(plain); d0 != ps.MaxDeg {
		t.Errorf("unscrambled vertex 0 has degree %d, max is %d", d0, ps.MaxDeg)
	}
	degs := func(g *Graph) []int {
		d := make([]int, g.NumVertices())
		for v := range d {
			d[v] = g.OutDegree(uint32(v))
		}
		slices.Sort(d)
		return d
	}
	if !slices.Equal(degs(g), degs(plain)) {
		t.Error("scrambling changed the degree sequence")
	}
	if g.OutDegree(0) == st.MaxDeg {
		t.Error("scrambled graph still has its hub at vertex 0")
	}
}

// TestRMATQuadrants checks the quadrant probabilities on the top bit of
// directed, unscrambled draws: P(source bit 1) = c+d, P(target bit 1) = b+d.
func TestRMATQuadrants(t *testing.T) {
	for _, tc := range []struct{ a, b, c float64 }{{0.57, 0.19, 0.19}, {0.25, 0.25, 0.25}, {0.4, 0.1, 0.3}} {
		spec := fmt.Sprintf("rmat:scale=16,ef=4,a=%g,b=%g,c=%g,scramble=false,directed=true", tc.a, tc.b, tc.c)
		t.Run(spec, func(t *testing.T) {
			g := mustGenerate(t, spec)
			half := uint32(1 << 15)
			var srcHi, dstHi int
			for u := range uint32(g.NumVertices()) {
				for _, v := range g.Neighbors(u) {
					if u >= half {
						srcHi++
					}
					if v >= half {
						dstHi++
					}
				}
			}
			d := 1 - tc.a - tc.b - tc.c
			arcs := float64(g.NumArcs())
			if got := float64(srcHi) / arcs; math.Abs(got-(tc.c+d)) > 0.01 {
				t.Errorf("P(source top bit) = %.4f, want %.4f", got, tc.c+d)
			}
			if got := float64(dstHi) / arcs; math.Abs(got-(tc.b+d)) > 0.01 {
				t.Errorf("P(target top bit) = %.4f, want %.4f", got, tc.b+d)
			}
		})
	}
}

func TestGenerateLayered(t *testing.T) {
	const w, d = 16, 12
	// extra=0: w disjoint paths; BFS from 0 walks its own rail.
	g := mustGenerate(t, fmt.Sprintf("layered:w=%d,d=%d", w, d))
	checkCSR(t, g)
	dist := bfsDepths(g, 0)
	reached, deepest := 0, 0
	for v, x := range dist {
		if x >= 0 {
			reached++
			deepest = max(deepest, x)
			if v%w != 0 || x != v/w {
				t.Errorf("vertex %d at distance %d, want only rail 0 at its level", v, x)
			}
		}
	}
	if reached != d || deepest != d-1 {
		t.Errorf("BFS from 0 reached %d vertices, depth %d; want %d, %d", reached, deepest, d, d-1)
	}

	// extra>0: edges join the same or adjacent levels only, distance is at
	// least the level and exactly the level on rail 0, and the random
	// edges connect the graph.
	for _, extra := range []int{1, 3} {
		g := mustGenerate(t, fmt.Sprintf("layered:w=%d,d=%d,extra=%d,seed=5", w, d, extra))
		checkCSR(t, g)
		for u := range uint32(g.NumVertices()) {
			for _, v := range g.Neighbors(u) {
				if lu, lv := int(u)/w, int(v)/w; lu-lv > 1 || lv-lu > 1 {
					t.Fatalf("extra=%d: edge %d-%d skips from level %d to %d", extra, u, v, lu, lv)
				}
			}
		}
		dist := bfsDepths(g, 0)
		deepest := 0
		for v, x := range dist {
			if x < 0 {
				t.Fatalf("extra=%d: vertex %d unreachable", extra, v)
			}
			if x < v/w || (v%w == 0 && x != v/w) {
				t.Fatalf("extra=%d: vertex %d (level %d) at distance %d", extra, v, v/w, x)
			}
			deepest = max(deepest, x)
		}
		if deepest < d-1 {
			t.Errorf("extra=%d: BFS depth %d < %d", extra, deepest, d-1)
		}
		want := 2 + 4*float64(extra)
		if got := g.AvgDegree(); got < 0.75*want || got > want {
			t.Errorf("extra=%d: average degree %.2f, want a little below %.0f", extra, got, want)
		}
	}
}

func TestGenerateGridRoadLike(t *testing.T) {
	g := mustGenerate(t, "grid:rows=300,cols=300,seed=9")
	checkCSR(t, g)
	st := ComputeStats(g)
	if st.AvgDeg < 2.5 || st.AvgDeg > 3.5 {
		t.Errorf("average degree %.3f, want road-like 2.5..3.5", st.AvgDeg)
	}
	if st.LargestComponent < st.V*9/10 {
		t.Errorf("largest component %d of %d: drop default disconnects too much", st.LargestComponent, st.V)
	}
	if st.MaxDeg > 6 {
		t.Errorf("max degree %d > 6 in a grid with down-right diagonals", st.MaxDeg)
	}
	// A BFS needs many supersteps: the diameter is at least rows+cols-2
	// minus what diagonals save.
	dist := bfsDepths(g, 0)
	if deepest := slices.Max(dist); deepest < 300 {
		t.Errorf("BFS depth %d, want a road-like large diameter", deepest)
	}
}

func TestGenerateWeights(t *testing.T) {
	for _, spec := range []string{
		"uniform:v=2000,d=8,seed=7",
		"rmat:scale=10,ef=8,seed=7",
		"layered:w=10,d=10,extra=2,seed=7",
		"line:n=100",
		"grid:rows=30,cols=30,seed=7",
	} {
		t.Run(spec, func(t *testing.T) {
			plain := mustGenerate(t, spec)
			if plain.Weights != nil {
				t.Fatal("maxw=0 graph has weights")
			}
			g := mustGenerate(t, spec+",maxw=10")
			checkCSR(t, g)
			if g.Weights == nil {
				t.Fatal("maxw=10 graph has no weights")
			}
			if !slices.Equal(g.Offsets, plain.Offsets) || !slices.Equal(g.Adj, plain.Adj) {
				t.Error("weights changed the topology")
			}
			seen := map[uint32]bool{}
			for _, w := range g.Weights {
				if w < 1 || w > 10 {
					t.Fatalf("weight %d outside [1, 10]", w)
				}
				seen[w] = true
			}
			if len(g.Weights) >= 200 && len(seen) != 10 {
				t.Errorf("only %d distinct weights over %d arcs", len(seen), len(g.Weights))
			}
			ones := mustGenerate(t, spec+",maxw=1")
			for _, w := range ones.Weights {
				if w != 1 {
					t.Fatalf("maxw=1 weight %d", w)
				}
			}
		})
	}
}

func graphHash(g *Graph) uint64 {
	h := fnv.New64a()
	for _, a := range [][]uint32{g.Offsets, g.Adj, g.Weights} {
		for _, x := range a {
			h.Write([]byte{byte(x), byte(x >> 8), byte(x >> 16), byte(x >> 24)})
		}
		h.Write([]byte{0xff})
	}
	return h.Sum64()
}

// TestGenerateDeterministic checks that a seed fixes the graph and that
// another seed changes it, and pins a hash of each generator's output: a
// spec string in an old report must rebuild the same graph, so any change to
// these hashes is a breaking change to be made deliberately.
func TestGenerateDeterministic(t *testing.T) {
	tests := []struct {
		spec, other string
		golden      uint64
	}{
		{"uniform:v=1000,d=6,seed=1,maxw=50", "uniform:v=1000,d=6,seed=2,maxw=50", 0x3d629aa84944c97b},
		{"rmat:scale=10,ef=8,seed=1,maxw=50,scramble=true", "rmat:scale=10,ef=8,seed=2,maxw=50,scramble=true", 0x2a6d7570fe5e7f38},
		{"rmat:scale=9,ef=4,seed=1,scramble=false,directed=true", "rmat:scale=9,ef=4,seed=2,scramble=false,directed=true", 0xcc5ea9baa30dcedc},
		{"layered:w=20,d=10,extra=2,seed=1,maxw=50", "layered:w=20,d=10,extra=2,seed=2,maxw=50", 0x754a2a54be328ce3},
		{"line:n=50,maxw=50", "line:n=50,maxw=50,seed=2", 0x14c7fa3c15d04ef0},
		{"grid:rows=20,cols=30,seed=1,maxw=50", "grid:rows=20,cols=30,seed=2,maxw=50", 0xac271adb4427a577},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			a, b := mustGenerate(t, tc.spec), mustGenerate(t, tc.spec)
			if !slices.Equal(a.Offsets, b.Offsets) || !slices.Equal(a.Adj, b.Adj) || !slices.Equal(a.Weights, b.Weights) {
				t.Fatal("same spec, different graphs")
			}
			c := mustGenerate(t, tc.other)
			if slices.Equal(a.Adj, c.Adj) && slices.Equal(a.Weights, c.Weights) {
				t.Error("different seed, identical graph")
			}
			if h := graphHash(a); h != tc.golden {
				t.Errorf("hash %#x, want %#x: the generator's output changed", h, tc.golden)
			}
		})
	}
}

func TestGenerateInvalid(t *testing.T) {
	for _, s := range []GenSpec{
		{Kind: "nope"},
		{Kind: KindRMAT, Scale: 10}, // a, b, c and ef not set: start from DefaultGenSpec
		{Kind: KindUniform, V: 0, Degree: 1},
		{Kind: KindGrid, Rows: 3, Cols: 3, Drop: 1.5},
		{Kind: KindLine, N: 3_000_000_000}, // 6e9 arcs
	} {
		if _, err := Generate(s); err == nil {
			t.Errorf("Generate(%+v) succeeded", s)
		} else {
			t.Log(err)
		}
	}
	s, err := DefaultGenSpec(KindRMAT)
	if err != nil {
		t.Fatal(err)
	}
	s.Scale = 6
	if _, err := Generate(s); err != nil {
		t.Errorf("DefaultGenSpec + scale: %v", err)
	}
}

func TestLoadGenerator(t *testing.T) {
	tests := []struct {
		spec     string
		opt      ReadOptions
		name     string
		directed bool
		weights  string // "", "ones", "random"
	}{
		{"line:n=5", ReadOptions{}, "line:n=5,seed=1,maxw=0,directed=false", false, ""},
		{"line:n=5", ReadOptions{Directed: true}, "line:n=5,seed=1,maxw=0,directed=true", true, ""},
		{"line:n=5", ReadOptions{Weighted: true}, "line:n=5,seed=1,maxw=1,directed=false", false, "ones"},
		{"line:n=5", ReadOptions{Weighted: true, RandomWeights: 9, Seed: 4}, "line:n=5,seed=1,maxw=9,directed=false", false, "random"},
		{"line:n=5", ReadOptions{RandomWeights: 9}, "line:n=5,seed=1,maxw=0,directed=false", false, ""},
		{"line:n=5,maxw=3", ReadOptions{Weighted: true, RandomWeights: 9}, "line:n=5,seed=1,maxw=3,directed=false", false, "random"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s %+v", tc.spec, tc.opt), func(t *testing.T) {
			g, err := Load(tc.spec, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if g.Name != tc.name || g.Directed != tc.directed {
				t.Errorf("name %q directed %v, want %q %v", g.Name, g.Directed, tc.name, tc.directed)
			}
			switch tc.weights {
			case "":
				if g.Weights != nil {
					t.Error("unexpected weights")
				}
			case "ones":
				if g.Weights == nil || slices.ContainsFunc(g.Weights, func(w uint32) bool { return w != 1 }) {
					t.Errorf("weights %v, want all 1", g.Weights)
				}
			case "random":
				if g.Weights == nil {
					t.Error("no weights")
				}
			}
			// The name reproduces the graph.
			again, err := Load(g.Name, ReadOptions{})
			if err != nil || !slices.Equal(again.Adj, g.Adj) || !slices.Equal(again.Weights, g.Weights) || again.Directed != g.Directed {
				t.Errorf("Load(name) differs: %v", err)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	if _, err := Load("rmat:scale=99", ReadOptions{}); err == nil {
		t.Error("scale=99 accepted")
	}
	_, err := Load("rmta:scale=3", ReadOptions{})
	if err == nil {
		t.Fatal("mistyped generator loaded")
	}
	t.Log(err)
}

// BenchmarkGenerateRMAT times the Graph500-sized default workload: scale 20,
// edge factor 16, i.e. 16.8M edge draws and about 33M arcs after
// symmetrisation.
func BenchmarkGenerateRMAT(b *testing.B) {
	s, err := DefaultGenSpec(KindRMAT)
	if err != nil {
		b.Fatal(err)
	}
	s.Scale = 20
	var g *Graph
	n := 0
	for b.Loop() {
		g, err = Generate(s)
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(g.NumEdges())*float64(n)/sec, "edges/s")
	b.ReportMetric(float64(s.EdgeFactor<<s.Scale)*float64(n)/sec, "draws/s")
	b.ReportMetric(float64(g.MemoryBytes())/float64(g.NumEdges()), "B/edge")
}

// TestPCGJump: the PCG written out (pcgStep) gives math/rand/v2's
// outputs, and jumping a stream ahead by k gives the outputs after k steps.
func TestPCGJump(t *testing.T) {
	for _, k := range []uint64{0, 1, 2, 3, 63, 64, 1000, 65537} {
		a := rand.NewPCG(7, genStreamTopology)
		for range k {
			a.Uint64()
		}
		st := pcgJump(u128{7, genStreamTopology}, k)
		hi, lo := st.hi, st.lo
		for i := range 4 {
			var y uint64
			hi, lo, y = pcgStep(hi, lo)
			if x := a.Uint64(); x != y {
				t.Fatalf("k=%d output %d: %#x from math/rand, %#x after the jump", k, i, x, y)
			}
		}
	}
}

// TestGenerateParallelUnchanged pins graphs big enough to span many draw
// chunks and build goroutines, as the single-stream generator and the
// sorting Build made them, and checks that neither the chunk size nor the
// number of cores changes them.
func TestGenerateParallelUnchanged(t *testing.T) {
	tests := []struct {
		spec              string
		golden            uint64
		loops, duplicates int
	}{
		{"rmat:scale=16,ef=16", 0x340c58197b54f973, 538, 139179},
		{"rmat:scale=15,ef=8,maxw=100,directed=true,scramble=false", 0xce83a6c7270ea900, 205, 18097},
		{"rmat:scale=15,ef=16,maxw=7", 0xfe5b1c6e08d61b5a, 411, 82553},
		{"uniform:v=50000,d=20,maxw=1000,directed=true", 0x40b49aff1bf52762, 18, 208},
		{"rmat:scale=17,ef=3,a=0.7,b=0.1,c=0.1,seed=5", 0xf0b7a30850cca445, 8906, 89055},
	}
	defer func(c int) { rmatChunk = c }(rmatChunk)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range tests {
		for _, cfg := range []struct{ procs, chunk int }{{runtime.NumCPU(), 1 << 16}, {1, 1 << 16}, {3, 1000}, {8, 777}} {
			runtime.GOMAXPROCS(cfg.procs)
			rmatChunk = cfg.chunk
			g := mustGenerate(t, tc.spec)
			if h := graphHash(g); h != tc.golden || g.SelfLoops != tc.loops || g.Duplicates != tc.duplicates {
				t.Errorf("%s with %d cores, chunks of %d: hash %#x, %d self-loops, %d duplicates; want %#x, %d, %d",
					tc.spec, cfg.procs, cfg.chunk, h, g.SelfLoops, g.Duplicates, tc.golden, tc.loops, tc.duplicates)
			}
		}
	}
}

// TestGenerateScale20Unchanged pins the benchmarks' graph.
func TestGenerateScale20Unchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 33 M arcs")
	}
	g := mustGenerate(t, "rmat:scale=20,ef=16")
	if h := graphHash(g); h != 0xdcb505ba821fec64 || g.SelfLoops != 1122 || g.Duplicates != 1075288 {
		t.Errorf("hash %#x, %d self-loops, %d duplicates", h, g.SelfLoops, g.Duplicates)
	}
}

// TestBuildOrderFree: Build makes the same graph from the same edges in
// any order (edges in order, nearly in order, shuffled), weights and
// duplicates included.
func TestBuildOrderFree(t *testing.T) {
	src := mustGenerate(t, "rmat:scale=12,ef=8,maxw=5")
	type edge struct{ u, v, w uint32 }
	var edges []edge
	for v := range src.NumVertices() {
		for i, u := range src.Neighbors(uint32(v)) {
			if uint32(v) < u {
				edges = append(edges, edge{uint32(v), u, src.EdgeWeights(uint32(v))[i]})
				if i%5 == 0 { // a heavier duplicate, which must be dropped
					edges = append(edges, edge{uint32(v), u, src.EdgeWeights(uint32(v))[i] + 3})
				}
			}
		}
	}
	build := func(es []edge) *Graph {
		b := NewBuilder(src.NumVertices(), false, true)
		for _, e := range es {
			b.AddEdge(e.u, e.v, e.w)
		}
		g, err := b.Build("t")
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	want := build(edges)
	if !slices.Equal(want.Adj, src.Adj) || !slices.Equal(want.Weights, src.Weights) {
		t.Fatal("rebuilt graph differs from the generated one")
	}
	r := rand.New(rand.NewPCG(1, 2))
	nearly := slices.Clone(edges)
	for range len(nearly) / 1000 {
		i, j := r.IntN(len(nearly)), r.IntN(len(nearly))
		nearly[i], nearly[j] = nearly[j], nearly[i]
	}
	shuffled := slices.Clone(edges)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for name, es := range map[string][]edge{"nearly sorted": nearly, "shuffled": shuffled} {
		g := build(es)
		if !slices.Equal(g.Offsets, want.Offsets) || !slices.Equal(g.Adj, want.Adj) || !slices.Equal(g.Weights, want.Weights) || g.Duplicates != want.Duplicates {
			t.Errorf("%s edges: another graph", name)
		}
	}
}

// TestRMATInPlaceMatchesBuilder: an unweighted R-MAT graph built in its
// draws' array is the graph the Builder makes from the same draws, for
// directed and undirected specs, scrambled or not, odd and even scales, on
// one core and several, with chunks that split the parts unevenly.
func TestRMATInPlaceMatchesBuilder(t *testing.T) {
	defer func(c int) { rmatChunk = c }(rmatChunk)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	specs := []string{
		"rmat:scale=14,ef=8,seed=3",
		"rmat:scale=13,ef=16,seed=4,directed=true",
		"rmat:scale=15,ef=4,seed=5,scramble=false",
		"rmat:scale=12,ef=8,seed=6,scramble=false,directed=true",
		"rmat:scale=9,ef=64,a=0.7,b=0.1,c=0.1,seed=7",
		"rmat:scale=3,ef=16,seed=8",
		"rmat:scale=1,ef=8,seed=9,directed=true",
	}
	for _, spec := range specs {
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		b := NewBuilder(s.Gen.numVertices(), s.Gen.Directed, false)
		rmatEdges(s.Gen, b)
		want, err := b.Build(spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, cfg := range []struct{ procs, chunk int }{{1, 1 << 10}, {2, 1 << 10}, {8, 333}} {
			runtime.GOMAXPROCS(cfg.procs)
			rmatChunk = cfg.chunk
			g, err := genRMAT(s.Gen, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(g.Offsets, want.Offsets) || !slices.Equal(g.Adj, want.Adj) || g.Weights != nil ||
				g.SelfLoops != want.SelfLoops || g.Duplicates != want.Duplicates || g.Directed != want.Directed {
				t.Errorf("%s on %d cores, chunks of %d: %d arcs, %d self-loops, %d duplicates; the Builder's %d, %d, %d",
					spec, cfg.procs, cfg.chunk, len(g.Adj), g.SelfLoops, g.Duplicates, len(want.Adj), want.SelfLoops, want.Duplicates)
			}
		}
	}
}
