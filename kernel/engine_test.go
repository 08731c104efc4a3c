package kernel_test

import (
	"container/heap"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// The tests below check the BSP engine, running the sample specs, against
// plain-Go implementations of the same algorithms that do not go through
// the spec language.

type testGraph struct {
	name string
	load func(t *testing.T) *graph.Graph
}

func datasetGraphs(t *testing.T) []testGraph {
	dir := datasets.Dir(t)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	formats := map[string]graph.Format{
		"fpgagraphlib-GRCite.graph": graph.FormatEdgeList, "fpgagraphlib-s13e16.graph": graph.FormatEdgeList,
		"fpgagraphlib-s14e16.graph": graph.FormatEdgeList, "astro-ph.graph": graph.FormatMETIS, "power.graph": graph.FormatMETIS,
		"luxembourg_osm.mtx": graph.FormatEdgeList,
	}
	directed := map[string]bool{"wiki-Vote.txt": true, "p2p-Gnutella08.txt": true, "rome99.gr": true}
	var gs []testGraph
	for _, e := range ents {
		name := e.Name()
		if name == "SOURCES.md" || e.IsDir() {
			continue
		}
		gs = append(gs, testGraph{name, func(t *testing.T) *graph.Graph {
			g, err := graph.ReadFile(filepath.Join(dir, name), graph.ReadOptions{Format: formats[name], Directed: directed[name], Weighted: true})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}})
	}
	for _, spec := range []string{"uniform:v=2000,d=8,seed=3", "rmat:scale=12,ef=8,seed=1", "layered:w=16,d=40,seed=2", "line:n=300", "grid:rows=30,cols=40,seed=5,maxw=100"} {
		spec := spec
		gs = append(gs, testGraph{spec, func(t *testing.T) *graph.Graph {
			g, err := graph.Load(spec, graph.ReadOptions{Weighted: true})
			if err != nil {
				t.Fatal(err)
			}
			return g
		}})
	}
	return gs
}

func run(t *testing.T, name string, g *graph.Graph, params map[string]string) *kernel.Result {
	t.Helper()
	s, err := samples.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	res, err := kernel.Run(context.Background(), k, g, kernel.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged {
		t.Fatalf("%s did not converge", name)
	}
	return res
}

// root picks a vertex of high degree, so that BFS and SSSP reach far.
func root(g *graph.Graph) uint32 {
	best := uint32(0)
	for v := 0; v < g.NumVertices(); v++ {
		if g.OutDegree(uint32(v)) > g.OutDegree(best) {
			best = uint32(v)
		}
	}
	return best
}

func TestEngineAgainstPlainGo(t *testing.T) {
	for _, tg := range datasetGraphs(t) {
		t.Run(tg.name, func(t *testing.T) {
			g := tg.load(t)
			r := root(g)
			rootParam := map[string]string{"root": strconv.FormatUint(g.Label(r), 10)}
			none32 := uint64(math.MaxUint32)

			t.Run("wcc", func(t *testing.T) {
				res := run(t, "wcc", g, nil)
				want := plainWCC(g)
				if g.Directed {
					want = plainMinReaching(g)
				}
				for v := range want {
					if got := res.State(uint32(v))[0]; got != uint64(want[v]) {
						t.Fatalf("vertex %d: label %d, want %d", g.Label(uint32(v)), got, want[v])
					}
				}
			})
			t.Run("bfs", func(t *testing.T) {
				res := run(t, "bfs", g, rootParam)
				level := plainBFS(g, r)
				// The parent is the lowest-id in-neighbour one level closer.
				wantParent := make([]uint64, g.NumVertices())
				for v := range wantParent {
					wantParent[v] = math.MaxUint64
				}
				for u := 0; u < g.NumVertices(); u++ {
					for _, v := range g.Neighbors(uint32(u)) {
						if level[u] >= 0 && level[v] == level[u]+1 && wantParent[v] == math.MaxUint64 {
							wantParent[v] = uint64(u)
						}
					}
				}
				vnone := uint64(1)<<kernel.VertexIDBits(g.NumVertices()) - 1
				reached := 0
				for v := range level {
					p := res.State(uint32(v))[0]
					switch {
					case level[v] < 0:
						if p != vnone {
							t.Fatalf("unreached vertex %d has parent %d", v, p)
						}
					case uint32(v) == r:
						if p != uint64(r) {
							t.Fatalf("root's parent is %d", p)
						}
					default:
						reached++
						if want := wantParent[v]; p != want {
							t.Fatalf("vertex %d (level %d): parent %d, want %d", v, level[v], p, want)
						}
					}
				}
				if reached == 0 && g.OutDegree(r) > 0 {
					t.Fatal("BFS reached nothing")
				}
				if got, want := len(res.Supersteps), maxLevel(level)+2; got != want {
					t.Errorf("supersteps %d, want depth+2 = %d", got, want)
				}
			})
			t.Run("sssp", func(t *testing.T) {
				res := run(t, "sssp", g, rootParam)
				want := plainDijkstra(g, r, false)
				for v := range want {
					w := want[v]
					if w == math.MaxUint64 {
						w = none32
					}
					if got := res.State(uint32(v))[0]; got != w {
						t.Fatalf("vertex %d: dist %d, want %d", v, got, w)
					}
				}
			})
			t.Run("sswp", func(t *testing.T) {
				res := run(t, "sswp", g, rootParam)
				want := plainDijkstra(g, r, true)
				for v := range want {
					if got := res.State(uint32(v))[0]; got != want[v] {
						t.Fatalf("vertex %d: width %d, want %d", v, got, want[v])
					}
				}
			})
			t.Run("bfs-depth", func(t *testing.T) {
				res := run(t, "bfs-depth", g, rootParam)
				for v, l := range plainBFS(g, r) {
					want := uint64(l)
					if l < 0 {
						want = none32
					}
					if got := res.State(uint32(v))[0]; got != want {
						t.Fatalf("vertex %d: depth %d, want %d", g.Label(uint32(v)), got, want)
					}
				}
			})
			t.Run("sssp-f32", func(t *testing.T) {
				fg := floatWeights(g)
				res := run(t, "sssp-f32", fg, rootParam)
				want := plainDijkstra(g, r, false) // integer sums below 2^24 are exact in f32
				for v := range want {
					w := float32(math.Inf(1))
					if want[v] != math.MaxUint64 {
						w = float32(want[v])
					}
					if got := math.Float32frombits(uint32(res.State(uint32(v))[0])); got != w {
						t.Fatalf("vertex %d: dist %v, want %v", v, got, w)
					}
				}
			})
			t.Run("pr-graphalytics", func(t *testing.T) {
				res := run(t, "pr-graphalytics", g, map[string]string{"iterations": "20"})
				want := plainPRDangling(g, 0.85, 20)
				worst := 0.0
				for v := range want {
					got := float64(math.Float32frombits(uint32(res.State(uint32(v))[0])))
					worst = max(worst, math.Abs(got-want[v])/want[v])
				}
				if worst > 1e-4 {
					t.Fatalf("worst relative error %.3g > 1e-4", worst)
				}
			})
			t.Run("pr", func(t *testing.T) {
				res := run(t, "pr", g, nil)
				want := plainPR(g, 0.85, 30)
				worst := 0.0
				for v := range want {
					got := float64(math.Float32frombits(uint32(res.State(uint32(v))[0])))
					rel := math.Abs(got-want[v]) / want[v]
					worst = max(worst, rel)
				}
				if worst > 1e-4 {
					t.Fatalf("worst relative error %.3g > 1e-4", worst)
				}
				if len(res.Supersteps) != 31 {
					t.Fatalf("%d supersteps, want 31 (30 sending, 1 final)", len(res.Supersteps))
				}
			})
		})
	}
}

func maxLevel(l []int) int {
	m := 0
	for _, x := range l {
		m = max(m, x)
	}
	return m
}

// plainWCC labels every vertex with the lowest id of its weak component.
func plainWCC(g *graph.Graph) []uint32 {
	n := g.NumVertices()
	parent := make([]uint32, n)
	for i := range parent {
		parent[i] = uint32(i)
	}
	find := func(x uint32) uint32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for u := 0; u < n; u++ {
		for _, v := range g.Neighbors(uint32(u)) {
			a, b := find(uint32(u)), find(v)
			if a < b {
				parent[b] = a
			} else if b < a {
				parent[a] = b
			}
		}
	}
	out := make([]uint32, n)
	for v := range out {
		out[v] = find(uint32(v))
	}
	return out
}

// plainMinReaching labels every vertex of a directed graph with the lowest
// id that reaches it along arcs (itself included): what label propagation
// along out-arcs computes.
func plainMinReaching(g *graph.Graph) []uint32 {
	n := g.NumVertices()
	label := make([]uint32, n)
	seen := make([]bool, n)
	for s := 0; s < n; s++ {
		if seen[s] {
			continue
		}
		seen[s] = true
		label[s] = uint32(s)
		q := []uint32{uint32(s)}
		for len(q) > 0 {
			u := q[0]
			q = q[1:]
			for _, v := range g.Neighbors(u) {
				if !seen[v] {
					seen[v] = true
					label[v] = uint32(s)
					q = append(q, v)
				}
			}
		}
	}
	return label
}

// plainBFS returns hop levels from r along out-arcs (-1: unreached).
func plainBFS(g *graph.Graph, r uint32) []int {
	level := make([]int, g.NumVertices())
	for i := range level {
		level[i] = -1
	}
	level[r] = 0
	q := []uint32{r}
	for len(q) > 0 {
		u := q[0]
		q = q[1:]
		for _, v := range g.Neighbors(u) {
			if level[v] < 0 {
				level[v] = level[u] + 1
				q = append(q, v)
			}
		}
	}
	return level
}

type item struct {
	v uint32
	d uint64
}
type pq struct {
	items []item
	less  func(a, b uint64) bool
}

func (p *pq) Len() int           { return len(p.items) }
func (p *pq) Less(i, j int) bool { return p.less(p.items[i].d, p.items[j].d) }
func (p *pq) Swap(i, j int)      { p.items[i], p.items[j] = p.items[j], p.items[i] }
func (p *pq) Push(x any)         { p.items = append(p.items, x.(item)) }
func (p *pq) Pop() any {
	it := p.items[len(p.items)-1]
	p.items = p.items[:len(p.items)-1]
	return it
}

// plainDijkstra computes shortest distances (MaxUint64: unreachable) or,
// when widest, widest-path widths (root: MaxUint32, unreachable: 0).
func plainDijkstra(g *graph.Graph, r uint32, widest bool) []uint64 {
	n := g.NumVertices()
	best := make([]uint64, n)
	init, rootVal := uint64(math.MaxUint64), uint64(0)
	better := func(a, b uint64) bool { return a < b }
	if widest {
		init, rootVal = 0, math.MaxUint32
		better = func(a, b uint64) bool { return a > b }
	}
	for i := range best {
		best[i] = init
	}
	best[r] = rootVal
	h := &pq{less: better}
	heap.Push(h, item{r, rootVal})
	for h.Len() > 0 {
		it := heap.Pop(h).(item)
		if it.d != best[it.v] {
			continue
		}
		ws := g.EdgeWeights(it.v)
		for i, v := range g.Neighbors(it.v) {
			w := uint64(1)
			if ws != nil {
				w = uint64(ws[i])
			}
			var d uint64
			if widest {
				d = min(it.d, w)
			} else {
				d = it.d + w
			}
			if better(d, best[v]) {
				best[v] = d
				heap.Push(h, item{v, d})
			}
		}
	}
	return best
}

// floatWeights returns g with its weights (1 when it has none) as float32.
func floatWeights(g *graph.Graph) *graph.Graph {
	c := *g
	c.Weights = make([]uint32, len(g.Adj))
	for i := range c.Weights {
		c.Weights[i] = math.Float32bits(float32(g.Weight(i)))
	}
	c.FloatWeights = true
	return &c
}

// plainPRDangling is float64 PageRank as LDBC Graphalytics defines it: the
// rank of the vertices without out-arcs is spread over every vertex.
func plainPRDangling(g *graph.Graph, d float64, iters int) []float64 {
	n := g.NumVertices()
	r := make([]float64, n)
	next := make([]float64, n)
	for i := range r {
		r[i] = 1 / float64(n)
	}
	for it := 0; it < iters; it++ {
		dangling := 0.0
		for i := range next {
			next[i] = 0
			if g.OutDegree(uint32(i)) == 0 {
				dangling += r[i]
			}
		}
		for u := 0; u < n; u++ {
			deg := g.OutDegree(uint32(u))
			for _, v := range g.Neighbors(uint32(u)) {
				next[v] += r[u] / float64(deg)
			}
		}
		for i := range next {
			next[i] = (1-d)/float64(n) + d*(next[i]+dangling/float64(n))
		}
		r, next = next, r
	}
	return r
}

// plainPR is float64 Pregel-style PageRank.
func plainPR(g *graph.Graph, d float64, iters int) []float64 {
	n := g.NumVertices()
	r := make([]float64, n)
	next := make([]float64, n)
	for i := range r {
		r[i] = 1 / float64(n)
	}
	for it := 0; it < iters; it++ {
		for i := range next {
			next[i] = 0
		}
		for u := 0; u < n; u++ {
			deg := g.OutDegree(uint32(u))
			for _, v := range g.Neighbors(uint32(u)) {
				next[v] += r[u] / float64(deg)
			}
		}
		for i := range next {
			next[i] = (1-d)/float64(n) + d*next[i]
		}
		r, next = next, r
	}
	return r
}
