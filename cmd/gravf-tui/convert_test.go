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

// TestWeightsAndColumnsCLI is issue 16's items 7 and 8 at the command
// line: rounded real weights are said once, negative and out-of-range ones
// and extra columns are errors at their line, SSSP does not wrap.
func TestWeightsAndColumnsCLI(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	real := write("real.txt", "0 1 0.4\n1 2 2.6\n2 3 7\n")
	_, stderr, err := runCLI(t, "ref", "--kernel", "sssp", "--graph", real, "-q", "--out", filepath.Join(dir, "out.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(stderr, "note:") != 1 || !strings.Contains(stderr, "2 real edge weights were rounded to integers (the first at real.txt:1: 0.4 became 1)") {
		t.Errorf("stderr:\n%s", stderr)
	}
	for _, tc := range []struct{ file, text, want string }{
		{"neg.txt", "0 1 3\n1 2 -3.0\n", `neg.txt:2: weight "-3.0" is negative`},
		{"big.txt", "0 1 1e30\n", `big.txt:1: weight "1e30" exceeds 4294967295`},
		{"cols.txt", "0 1 2 3\n", "cols.txt:1: the line has 4 columns"},
		{"foo.txt", "0 1 foo\n", `foo.txt:1: third column "foo" is not a number`},
	} {
		p := write(tc.file, tc.text)
		args := []string{"ref", "--kernel", "sssp", "--graph", p, "--format", "edgelist", "-q"}
		if tc.file == "foo.txt" || tc.file == "cols.txt" {
			args = []string{"graph", "stats", "--graph", p, "--format", "edgelist"}
		}
		if _, _, err := runCLI(t, args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v\nwant %s", tc.file, err, tc.want)
		}
	}
	big := write("wrap.txt", "0 1 3000000000\n1 2 3000000000\n0 2 4000000000\n")
	out, stderr, err := runCLI(t, "ref", "--kernel", "sssp", "--graph", big, "--param", "root=0", "--param", "weightsize=32", "-q")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "1\t3000000000\t0\n2\t4000000000\t0\n") || !strings.Contains(stderr, "satadd sums did not fit") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, stderr)
	}
}

// TestGraphConvertOntoInput: converting a file onto itself (or a .v/.e
// pair onto its own .v) is refused before anything is read or written.
func TestGraphConvertOntoInput(t *testing.T) {
	dir := t.TempDir()
	el := filepath.Join(dir, "g.txt")
	if err := os.WriteFile(el, []byte("0 1\n1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"g.v", "g.e"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(map[string]string{"g.v": "0\n1\n2\n", "g.e": "0 1 1.5\n"}[f]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ in, out, to string }{
		{el, el, "edgelist"},
		{filepath.Join(dir, "g.e"), filepath.Join(dir, "g.e"), "ve"},
		{el, filepath.Join(dir, "g.e"), "ve"}, // writes g.v and g.e over the other pair: not an input, allowed
	} {
		_, _, err := runCLI(t, "graph", "convert", "--graph", c.in, "--out", c.out, "--to", c.to)
		wantErr := c.in == c.out
		if wantErr != (err != nil) || wantErr && !strings.Contains(err.Error(), "is the input") {
			t.Errorf("convert %s -> %s: %v", c.in, c.out, err)
		}
	}
	if b, _ := os.ReadFile(el); string(b) != "0 1\n1 2\n" {
		t.Errorf("the input was changed: %q", b)
	}
}
