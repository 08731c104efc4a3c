package main

import (
	"strings"
	"testing"
)

// TestCompletion asks the completion machinery what the shell would offer.
func TestCompletion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"sim", "--teps", ""}, []string{"gravf", "graph500"}},
		{[]string{"graph", "convert", "--to", ""}, []string{"edgelist", "mtx", "metis", "dimacs", "adj", "ve"}},
		{[]string{"ref", "--kernel", ""}, []string{"bfs-depth", "pr-graphalytics", "sssp-f32", "wcc"}},
		{[]string{"model", "--board", ""}, []string{"ac510", "u250"}},
		{[]string{"run", ""}, []string{"default", "partitioners"}},
		{[]string{"graph", "stats", "--format", ""}, []string{"auto", "adj", "ve"}},
	} {
		out, _, err := runCLI(t, append([]string{"__complete"}, tc.args...)...)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(out, "\n")
		for _, w := range tc.want {
			found := false
			for _, l := range lines {
				found = found || l == w
			}
			if !found {
				t.Errorf("%v: %q not offered in\n%s", tc.args, w, out)
			}
		}
	}
}
