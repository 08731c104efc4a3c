package teps_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/teps"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]teps.Definition{"": teps.GraVF, "gravf": teps.GraVF, " Graph500 ": teps.Graph500} {
		if got, err := teps.Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := teps.Parse("mteps"); err == nil || !strings.Contains(err.Error(), "want gravf") {
		t.Errorf("Parse(mteps): %v", err)
	}
}

// TestTraversedEdges counts the component of a BFS on a graph of two
// components, undirected and directed: an undirected BFS sends along every
// edge of its component from both ends, so its messages are twice the
// graph500 edges.
func TestTraversedEdges(t *testing.T) {
	in := "0 1\n1 2\n2 0\n2 3\n10 11\n11 12\n"
	for _, directed := range []bool{false, true} {
		g, err := graph.Read(strings.NewReader(in), "two.txt", graph.ReadOptions{Directed: directed})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := samples.Kernel("bfs")
		k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: map[string]string{"root": "0"}, Lookup: g.Lookup})
		if err != nil {
			t.Fatal(err)
		}
		sent, res, err := teps.Sent(context.Background(), k, g)
		if err != nil {
			t.Fatal(err)
		}
		e := teps.TraversedEdges(g, sent)
		want, msgs := int64(4), int64(8)
		if directed {
			want, msgs = 4, 4 // 0->1, 1->2, 2->0, 2->3
		}
		if e != want || res.Messages != msgs {
			t.Errorf("directed=%v: %d edges, %d messages; want %d, %d", directed, e, res.Messages, want, msgs)
		}
	}
}

func TestRoots(t *testing.T) {
	g, err := graph.Read(strings.NewReader("0 1\n1 2\n5 6\n7 7\n9 8\n"), "g.txt", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := teps.Roots(g, 64, 1)
	if len(r) != 7 { // 0 1 2 5 6 8 9; 7 has only a self-loop, dropped
		t.Fatalf("%d roots: %v", len(r), r)
	}
	seen := map[uint32]bool{}
	for _, v := range r {
		if seen[v] || g.OutDegree(v) == 0 {
			t.Errorf("root %d repeated or isolated", v)
		}
		seen[v] = true
	}
	if !slices.Equal(r, teps.Roots(g, 64, 1)) {
		t.Error("roots differ between two draws with the same seed")
	}
	if got := teps.Roots(g, 3, 2); len(got) != 3 {
		t.Errorf("3 roots: %v", got)
	}
}

func TestHarmonicMean(t *testing.T) {
	if got := teps.HarmonicMean([]float64{1, 2, 4}); math.Abs(got-12.0/7) > 1e-12 {
		t.Errorf("HarmonicMean = %v", got)
	}
	if teps.HarmonicMean([]float64{1, 0}) != 0 || teps.HarmonicMean(nil) != 0 {
		t.Error("a zero rate or no rate gives 0")
	}
}
