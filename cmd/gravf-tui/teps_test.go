package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestTEPSGraph500 checks sim and model with --teps graph500 on BFS: one
// run per root, every undirected edge of the component counted once (half
// the messages), the harmonic mean between the smallest and the largest
// root's figure, and the definition named in the text and the JSON.
func TestTEPSGraph500(t *testing.T) {
	base := []string{"--board", "ac510", "--kernel", "bfs", "--graph", "rmat:scale=9,ef=8,seed=2", "--fpgas", "2", "--pes", "2", "--teps", "graph500", "--roots", "5"}
	for _, cmd := range []string{"sim", "model"} {
		out, _, err := runCLI(t, append(append([]string{cmd}, base...), "--json")...)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Schema   string `json:"schema"`
			Def      string `json:"teps_definition"`
			Graph500 Graph500
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		g := doc.Graph500
		if doc.Schema != "gravf-tui/"+cmd+"/1" || doc.Def != "gravf" || len(g.Runs) != 5 {
			t.Fatalf("%s: schema %q, definition %q, %d runs", cmd, doc.Schema, doc.Def, len(g.Runs))
		}
		lo, hi := g.Runs[0].TEPS, g.Runs[0].TEPS
		roots := map[uint64]bool{}
		for _, r := range g.Runs {
			if r.Root == nil || r.Edges == 0 || r.Messages != 2*r.Edges {
				t.Errorf("%s: run %+v: want a root and messages = 2 x edges", cmd, r)
				continue
			}
			roots[*r.Root] = true
			lo, hi = min(lo, r.TEPS), max(hi, r.TEPS)
		}
		if len(roots) != 5 || g.TEPS < lo || g.TEPS > hi {
			t.Errorf("%s: %d distinct roots, harmonic mean %v outside [%v, %v]", cmd, len(roots), g.TEPS, lo, hi)
		}
		text, _, err := runCLI(t, append([]string{cmd}, base...)...)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"gravf TEPS: messages (traversed arcs) per second", "graph500 TEPS: input edges of the traversed component per second; 5 roots"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s text lacks %q", cmd, want)
			}
		}
	}
	// With the root given there is one run; a kernel without a root too.
	for _, args := range [][]string{{"--param", "root=3"}, {"--kernel", "wcc"}} {
		out, _, err := runCLI(t, append(append([]string{"sim"}, base...), append(args, "--json")...)...)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Graph500 Graph500 }
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Graph500.Runs) != 1 {
			t.Errorf("%v: %v, %d runs", args, err, len(doc.Graph500.Runs))
		}
	}
	if _, _, err := runCLI(t, append([]string{"sim"}, append(base[:len(base)-4], "--teps", "mteps")...)...); err == nil {
		t.Error("--teps mteps: no error")
	}
}
