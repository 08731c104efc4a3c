package graph

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func buildGraph(t *testing.T, n int, directed bool, edges [][2]uint32) *Graph {
	t.Helper()
	b := NewBuilder(n, directed, false)
	for _, e := range edges {
		b.AddEdge(e[0], e[1], 0)
	}
	g, err := b.Build("test")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestComputeStats(t *testing.T) {
	// A triangle, a path of 4, a star of 8 leaves around vertex 9, two
	// isolated vertices (7, 8), one self-loop and one duplicate.
	edges := [][2]uint32{{0, 1}, {1, 2}, {2, 0}, {3, 4}, {4, 5}, {5, 6}, {1, 1}, {1, 0}}
	for leaf := uint32(10); leaf < 18; leaf++ {
		edges = append(edges, [2]uint32{9, leaf})
	}
	g := buildGraph(t, 18, false, edges)
	got := ComputeStats(g)
	want := Stats{
		Name: "test", V: 18, E: 14, Arcs: 28, AvgDeg: 28.0 / 18,
		MinDeg: 0, MaxDeg: 8,
		DegreeHist: []DegreeBucket{
			{0, 0, 2}, {1, 1, 10}, {2, 3, 5}, {4, 7, 0}, {8, 15, 1},
		},
		Isolated: 2, Components: 5, LargestComponent: 9,
		SelfLoops: 1, Duplicates: 1,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestComputeStatsDirectedWeak(t *testing.T) {
	// 0->1 and 2->1 make one weak component although no vertex reaches all
	// others; 1 has out-degree 0 but is not isolated; 3 is.
	g := buildGraph(t, 4, true, [][2]uint32{{0, 1}, {2, 1}})
	st := ComputeStats(g)
	if st.Components != 2 || st.LargestComponent != 3 || st.Isolated != 1 {
		t.Errorf("components %d largest %d isolated %d, want 2 3 1", st.Components, st.LargestComponent, st.Isolated)
	}
	if !st.Directed || st.E != 2 || st.Arcs != 2 || st.MinDeg != 0 || st.MaxDeg != 1 {
		t.Errorf("%+v", st)
	}
}

func TestComputeStatsGenerated(t *testing.T) {
	tests := []struct {
		spec                 string
		comps, largest, isol int
	}{
		{"line:n=1000", 1, 1000, 0},
		{"layered:w=5,d=7", 5, 7, 0},
		{"grid:rows=10,cols=10,drop=1,diag=0", 100, 1, 100},
		{"grid:rows=10,cols=20,drop=0,diag=0,directed=true", 1, 200, 0},
	}
	for _, tc := range tests {
		st := ComputeStats(mustGenerate(t, tc.spec))
		if st.Components != tc.comps || st.LargestComponent != tc.largest || st.Isolated != tc.isol {
			t.Errorf("%s: components %d largest %d isolated %d, want %d %d %d",
				tc.spec, st.Components, st.LargestComponent, st.Isolated, tc.comps, tc.largest, tc.isol)
		}
	}
}

func TestComputeStatsEmpty(t *testing.T) {
	st := ComputeStats(&Graph{})
	if st.V != 0 || st.Components != 0 || st.DegreeHist != nil || st.MinDeg != 0 {
		t.Errorf("%+v", st)
	}
	_ = st.String()
}

func TestStatsJSONAndString(t *testing.T) {
	st := ComputeStats(mustGenerate(t, "line:n=5"))
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"name", "v", "e", "arcs", "directed", "weighted", "min_deg", "max_deg", "avg_deg",
		"degree_hist", "isolated", "components", "largest_component", "self_loops", "duplicates"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, data)
		}
	}
	if len(m) != 15 {
		t.Errorf("JSON has %d keys: %s", len(m), data)
	}
	if !strings.Contains(string(data), `"degree_hist":[{"min":0,"max":0,"count":0},{"min":1,"max":1,"count":2},{"min":2,"max":3,"count":3}]`) {
		t.Errorf("histogram JSON: %s", data)
	}
	s := st.String()
	for _, w := range []string{
		"graph       line:n=5,seed=1,maxw=0,directed=false\n",
		"vertices    5 (0 isolated, 0.0%)\n",
		"edges       4 (8 arcs, undirected)\n",
		"out-degree  min 1, avg 1.60, max 2\n",
		"components  1 (largest 5 vertices, 100.0%)\n",
		"dropped     0 self-loops, 0 duplicates\n",
		"  2-3                    3 ########################################\n",
	} {
		if !strings.Contains(s, w) {
			t.Errorf("String() lacks %q:\n%s", w, s)
		}
	}
}

func TestGiantVertex(t *testing.T) {
	tests := []struct {
		name     string
		n        int
		directed bool
		edges    [][2]uint32
		want     uint32
	}{
		{"empty", 0, false, nil, 0},
		{"vertex 0 in the largest", 5, false, [][2]uint32{{0, 3}, {3, 4}, {1, 2}}, 0},
		{"vertex 0 isolated", 6, false, [][2]uint32{{2, 5}, {5, 3}, {1, 4}}, 2},
		{"a tie goes to the lowest first vertex", 6, false, [][2]uint32{{4, 5}, {1, 3}}, 1},
		{"weak for a directed graph", 5, true, [][2]uint32{{4, 2}, {3, 2}, {0, 1}}, 2},
	}
	for _, tc := range tests {
		if got := GiantVertex(buildGraph(t, tc.n, tc.directed, tc.edges)); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	// Scrambled R-MAT isolates vertex 0 at scale 15; the root it gives
	// reaches the giant component.
	g := mustGenerate(t, "rmat:scale=15,ef=16,seed=1,scramble=true")
	if g.OutDegree(0) != 0 {
		t.Fatalf("vertex 0 has %d edges: pick another graph for this check", g.OutDegree(0))
	}
	v := GiantVertex(g)
	parent, size := weakForest(g), 0
	for _, r := range parent {
		if r == parent[v] {
			size++
		}
	}
	if st := ComputeStats(g); size != st.LargestComponent || size < g.NumVertices()/2 {
		t.Errorf("vertex %d: component of %d, largest %d of %d", v, size, st.LargestComponent, g.NumVertices())
	}
}
