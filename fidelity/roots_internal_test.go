package fidelity

import (
	"context"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	shipped "github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/teps"
)

// TestCorpusRoots: every traversal of the corpus reaches its graph's
// largest component, so no BFS or SSSP point measures an empty run
// (scrambled R-MAT isolates vertex 0 from scale 15 on).
func TestCorpusRoots(t *testing.T) {
	env := Env{Datasets: shipped.Dir(t)}
	seen := map[string]bool{}
	for _, p := range Corpus() {
		key := p.Kernel + " " + p.Graph
		if (p.Kernel != "bfs" && p.Kernel != "sssp") || seen[key] {
			continue
		}
		seen[key] = true
		in, err := load(env, p)
		if err != nil {
			t.Fatal(err)
		}
		sent, _, err := teps.Sent(context.Background(), in.k, in.g)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, s := range sent {
			if s {
				n++
			}
		}
		if want := graph.ComputeStats(in.g).LargestComponent; n != want || 2*n < in.g.NumVertices() {
			t.Errorf("%s: %d vertices send, the largest component has %d of %d", key, n, want, in.g.NumVertices())
		}
	}
}
