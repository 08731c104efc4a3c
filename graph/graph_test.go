package graph

import (
	"slices"
	"testing"
)

func TestBuilder(t *testing.T) {
	tests := []struct {
		name       string
		directed   bool
		edges      [][3]uint32
		wantAdj    [][]uint32
		wantW      [][]uint32
		loops, dup int
		edgesCount int
	}{
		{
			name:       "undirected symmetrises and drops duplicates",
			edges:      [][3]uint32{{0, 1, 5}, {1, 0, 3}, {1, 2, 1}, {2, 2, 9}, {0, 1, 7}},
			wantAdj:    [][]uint32{{1}, {0, 2}, {1}},
			wantW:      [][]uint32{{3}, {3, 1}, {1}},
			loops:      1,
			dup:        2,
			edgesCount: 2,
		},
		{
			name:       "directed keeps reciprocal arcs",
			directed:   true,
			edges:      [][3]uint32{{0, 1, 5}, {1, 0, 3}, {0, 1, 2}, {3, 0, 1}},
			wantAdj:    [][]uint32{{1}, {0}, {}, {0}},
			wantW:      [][]uint32{{2}, {3}, {}, {1}},
			dup:        1,
			edgesCount: 3,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder(0, tc.directed, true)
			for _, e := range tc.edges {
				b.AddEdge(e[0], e[1], e[2])
			}
			g, err := b.Build(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			if g.NumVertices() != len(tc.wantAdj) {
				t.Fatalf("V = %d, want %d", g.NumVertices(), len(tc.wantAdj))
			}
			for v := range tc.wantAdj {
				if got := g.Neighbors(uint32(v)); !slices.Equal(got, tc.wantAdj[v]) {
					t.Errorf("Neighbors(%d) = %v, want %v", v, got, tc.wantAdj[v])
				}
				if got := g.EdgeWeights(uint32(v)); !slices.Equal(got, tc.wantW[v]) {
					t.Errorf("EdgeWeights(%d) = %v, want %v", v, got, tc.wantW[v])
				}
			}
			if g.SelfLoops != tc.loops || g.Duplicates != tc.dup || g.NumEdges() != tc.edgesCount {
				t.Errorf("loops=%d dup=%d E=%d, want %d %d %d", g.SelfLoops, g.Duplicates, g.NumEdges(), tc.loops, tc.dup, tc.edgesCount)
			}
		})
	}
}

func TestBuilderLabels(t *testing.T) {
	b := NewBuilder(0, false, false)
	b.AddLabelEdge(30, 10, 0)
	b.AddLabelEdge(10, 20, 0)
	b.AddLabel(99)
	g, err := b.Build("labels")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Labels, []uint64{10, 20, 30, 99}) {
		t.Fatalf("labels %v", g.Labels)
	}
	if v, ok := g.Lookup(30); !ok || v != 2 || g.Label(v) != 30 {
		t.Fatalf("Lookup(30) = %d, %v", v, ok)
	}
	if _, ok := g.Lookup(15); ok {
		t.Fatal("Lookup(15) found a vertex")
	}
	if !slices.Equal(g.Neighbors(0), []uint32{1, 2}) || g.OutDegree(3) != 0 {
		t.Fatalf("adjacency %v %v", g.Offsets, g.Adj)
	}
}
