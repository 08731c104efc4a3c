package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
)

// TestGraphConvert converts a dataset to every format through the command
// line and reads each file back with graph stats: the same V and E, the
// notes on what a format cannot keep, and the .v file beside the .e file.
func TestGraphConvert(t *testing.T) {
	dir := t.TempDir()
	astro := datasets.Path(t, "astro-ph.graph") // 660 isolated vertices
	for _, tc := range []struct {
		out, to, format, note string
		v                     string
	}{
		{"a.txt", "", "edgelist", "an edge list cannot hold isolated vertices: 660 are not written", "vertices    16046"},
		{"a.mtx", "", "mtx", "", "vertices    16706"},
		{"a.graph", "", "metis", "", "vertices    16706"},
		{"a.gr", "", "dimacs", "DIMACS arcs carry a weight: every arc is written with weight 1", "vertices    16706"},
		{"a.adjacency", "adj", "adj", "", "vertices    16706"},
		{"a.e", "", "ve", "", "vertices    16706"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			args := []string{"graph", "convert", "--graph", astro, "--out", filepath.Join(dir, tc.out)}
			if tc.to != "" {
				args = append(args, "--to", tc.to)
			}
			_, stderr, err := runCLI(t, args...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(stderr, "("+tc.format+")") || !strings.Contains(stderr, tc.note) {
				t.Errorf("stderr:\n%s", stderr)
			}
			out, _, err := runCLI(t, "graph", "stats", "--graph", filepath.Join(dir, tc.out), "--format", tc.format)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, tc.v) || !strings.Contains(out, "edges       121251 ") {
				t.Errorf("stats of the converted file:\n%s", out)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "a.v")); err != nil {
		t.Error(err)
	}
	for _, bad := range [][]string{
		{"--graph", astro, "--out", filepath.Join(dir, "x.unknown")},
		{"--graph", astro, "--out", filepath.Join(dir, "x.graph"), "--directed"},
		{"--graph", astro, "--out", filepath.Join(dir, "x.gr"), "--float-weights"},
	} {
		if _, _, err := runCLI(t, append([]string{"graph", "convert"}, bad...)...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}
