package graph

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// TestEdgeListDedupWhileReading reads edge lists full of repeats and
// self-loops with the compaction while reading forced to run every few
// edges, and wants exactly the graph (and the counts of dropped edges) read
// without it.
func TestEdgeListDedupWhileReading(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var text strings.Builder
	for range 3000 {
		u, v := rng.IntN(40), rng.IntN(40)
		if rng.IntN(3) == 0 {
			u *= 1000 // labels that are not ranks
		}
		fmt.Fprintf(&text, "%d %d %d\n", u, v, 1+rng.IntN(9))
	}
	for _, opt := range []ReadOptions{{}, {Directed: true}, {Weighted: true}, {Directed: true, Weighted: true}} {
		read := func(first int) *Graph {
			defer func(f int) { dedupFirst = f }(dedupFirst)
			dedupFirst = first
			opt.Format = FormatEdgeList
			g, err := Read(strings.NewReader(text.String()), "dups.txt", opt)
			if err != nil {
				t.Fatal(err)
			}
			return g
		}
		want, got := read(1<<40), read(16)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: the graph differs when repeats are dropped while reading (duplicates %d/%d, self-loops %d/%d)",
				opt, got.Duplicates, want.Duplicates, got.SelfLoops, want.SelfLoops)
		}
		if want.Duplicates == 0 || want.SelfLoops == 0 {
			t.Errorf("%+v: the test file should have repeats and self-loops", opt)
		}
	}
}

// TestEdgeListHeaderWithDedup wants a count header found when the edges
// after it repeat (and are compacted while reading).
func TestEdgeListHeaderWithDedup(t *testing.T) {
	defer func(f int) { dedupFirst = f }(dedupFirst)
	dedupFirst = 4
	text := "3 6\n0 1\n0 1\n1 2\n1 2\n2 3\n2 3\n"
	_, err := Read(strings.NewReader(text), "h.txt", ReadOptions{Format: FormatEdgeList})
	if err == nil || !strings.Contains(err.Error(), "looks like a header") {
		t.Fatalf("err = %v, want the header error", err)
	}
}
