package graph

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
)

// TestReadGraphalyticsFiles reads every LDBC Graphalytics validation graph
// in both of its formats where it has both (the vertex-based adjacency file
// and the .v/.e pair) and checks that they give the same graph, with the
// .v file's isolated vertices, and that the pair keeps real weights.
func TestReadGraphalyticsFiles(t *testing.T) {
	dir := filepath.Join(datasets.Dir(t), "graphalytics")
	tests := []struct {
		input, pair string // either may be empty
		directed    bool
		v, arcs     int
	}{
		{"example/example-directed-input", "example/example-directed.e", true, 10, 17},
		{"example/example-undirected-input", "example/example-undirected.e", false, 9, 24},
		{"bfs/dir-input", "", true, 10, 17},
		{"wcc/undir-input", "", false, 8, 14},
		{"", "sssp/dir-input.e", true, 10, 13},
		{"", "sssp/undir-input.e", false, 12, 28},
	}
	for _, tc := range tests {
		var gs []*Graph
		if tc.input != "" {
			path := filepath.Join(dir, tc.input)
			head, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if f, err := DetectFormat(filepath.Base(path), head); err != nil || f != FormatAdj {
				t.Errorf("%s: DetectFormat = %q, %v; want adj", tc.input, f, err)
			}
			g, err := ReadFile(path, ReadOptions{Directed: tc.directed})
			if err != nil {
				t.Fatal(err)
			}
			gs = append(gs, g)
		}
		if tc.pair != "" {
			for _, format := range []Format{FormatAuto, FormatVE} {
				g, err := ReadFile(filepath.Join(dir, tc.pair), ReadOptions{Format: format, Directed: tc.directed, Weighted: true, FloatWeights: true})
				if err != nil {
					t.Fatal(err)
				}
				gs = append(gs, g)
			}
		}
		for _, g := range gs {
			readWellFormed(t, g)
			if g.NumVertices() != tc.v || g.NumArcs() != tc.arcs {
				t.Errorf("%s %s: V = %d, arcs = %d; want %d, %d", tc.input, tc.pair, g.NumVertices(), g.NumArcs(), tc.v, tc.arcs)
			}
			if g.Name != filepath.Base(tc.input) && g.Name != filepath.Base(tc.pair) {
				t.Errorf("name %q", g.Name)
			}
		}
		for _, g := range gs[1:] {
			if !equalTopology(gs[0], g) {
				t.Errorf("%s: the adjacency file and the pair give different graphs", tc.input)
			}
		}
	}
	// Real weights survive as float32, and weights sit with their arcs.
	g, err := ReadFile(filepath.Join(dir, "sssp/dir-input.e"), ReadOptions{Directed: true, Weighted: true, FloatWeights: true})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := g.Lookup(7)
	w, _ := g.Lookup(8)
	found := false
	for i, nb := range g.Neighbors(u) {
		found = found || nb == w
		if nb == w && g.Weight(int(g.Offsets[u])+i) != float64(float32(3.2)) {
			t.Errorf("weight 7->8 = %v, want 3.2", g.Weight(int(g.Offsets[u])+i))
		}
	}
	if !found {
		t.Error("no arc 7->8")
	}
	if !g.FloatWeights || g.Rounded.Count != 0 {
		t.Errorf("FloatWeights %v, rounded %d", g.FloatWeights, g.Rounded.Count)
	}
}

// equalTopology compares labels and arcs.
func equalTopology(a, b *Graph) bool {
	if a.NumVertices() != b.NumVertices() || a.NumArcs() != b.NumArcs() {
		return false
	}
	for v := 0; v < a.NumVertices(); v++ {
		if a.Label(uint32(v)) != b.Label(uint32(v)) {
			return false
		}
		na, nb := a.Neighbors(uint32(v)), b.Neighbors(uint32(v))
		if len(na) != len(nb) {
			return false
		}
		for i := range na {
			if na[i] != nb[i] {
				return false
			}
		}
	}
	return true
}

// TestReadVEErrors checks the located errors of the pair, and that the
// error names the file at fault.
func TestReadVEErrors(t *testing.T) {
	tests := []struct{ v, e, want string }{
		{"1\n2\n", "1 3 0.5\n", "g.e:1: vertex 3 is not in g.v"},
		{"1\n2\n2\n", "1 2\n", "g.v:3: vertex 2 has a second line (the first is line 2)"},
		{"1 2\n", "", "g.v:1: the line has 2 columns: a line of a .v file is one vertex id"},
		{"1\nx\n", "", `g.v:2: vertex id "x" is not an integer`},
		{"1\n2\n", "1 2 0.5\n2 1 -2\n", `g.e:2: weight "-2" is negative`},
		{"1\n2\n", "1 2 0.5 9\n", `g.e:1: the line has 4 columns: an edge list line is "u v" or "u v weight"`},
	}
	for _, tc := range tests {
		_, err := ReadVE(strings.NewReader(tc.v), strings.NewReader(tc.e), "g.v", "g.e", ReadOptions{Weighted: true})
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("err = %v\nwant   %s", err, tc.want)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "g.e"), []byte("1 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(filepath.Join(dir, "g.e"), ReadOptions{Format: FormatVE})
	if err == nil || !strings.Contains(err.Error(), "g.v") || !strings.Contains(err.Error(), "the .v file beside the .e file") {
		t.Errorf("missing .v: %v", err)
	}
	// Without the .v file, auto detection reads the .e file as an edge list.
	g, err := ReadFile(filepath.Join(dir, "g.e"), ReadOptions{})
	if err != nil || g.NumVertices() != 2 {
		t.Errorf("g.e alone: %v", err)
	}
}

// TestReadRoundedWeights checks that real weights stored as integers are
// rounded (a positive one to at least 1), counted, and reported once with
// the first; and that the same file read with float weights keeps them.
func TestReadRoundedWeights(t *testing.T) {
	in := "1 2 3\n2 3 0.3\n3 4 2.5\n4 5 7.0\n5 6 1e3\n"
	g, err := Read(strings.NewReader(in), "w.txt", ReadOptions{Weighted: true, Directed: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []uint32{3, 1, 3, 7, 1000}
	for i, w := range want {
		if g.Weights[i] != w {
			t.Errorf("weight %d = %d, want %d", i, g.Weights[i], w)
		}
	}
	if g.Rounded != (Rounding{Count: 2, File: "w.txt", Line: 2, Text: "0.3", To: 1}) {
		t.Errorf("Rounded = %+v", g.Rounded)
	}
	notes := g.Notes()
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "2 real edge weights were rounded to integers (the first at w.txt:2: 0.3 became 1)") {
		t.Errorf("notes %q", notes)
	}
	f, err := Read(strings.NewReader(in), "w.txt", ReadOptions{Weighted: true, Directed: true, FloatWeights: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []float32{3, 0.3, 2.5, 7, 1000} {
		if got := math.Float32frombits(f.Weights[i]); got != w {
			t.Errorf("float weight %d = %v, want %v", i, got, w)
		}
	}
	if f.Notes() != nil {
		t.Errorf("float weights: notes %q", f.Notes())
	}
	// Unweighted reading keeps no weights and reports nothing.
	u, err := Read(strings.NewReader(in), "w.txt", ReadOptions{})
	if err != nil || u.Weights != nil || u.Notes() != nil {
		t.Errorf("unweighted: %v %v %q", err, u.Weights, u.Notes())
	}
}

// TestReadGzip reads the compressed datasets of the repository as they are
// stored and checks that they give the graphs of the decompressed files,
// and that a truncated archive is a located error.
func TestReadGzip(t *testing.T) {
	stored := filepath.Join("..", "testdata", "datasets")
	for _, name := range []string{"karate.mtx", "power.graph", "rome99.gr", "wiki-Vote.txt"} {
		opt := ReadOptions{Directed: name == "wiki-Vote.txt"}
		want, err := ReadFile(datasets.Path(t, name), opt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(filepath.Join(stored, name+".gz"), opt)
		if err != nil {
			t.Fatal(err)
		}
		if !equalTopology(want, got) || got.Name != name+".gz" {
			t.Errorf("%s.gz reads as another graph (%s)", name, got.Name)
		}
	}
	data, err := os.ReadFile(filepath.Join(stored, "power.graph.gz"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Read(bytes.NewReader(data[:len(data)/2]), "power.graph.gz", ReadOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "power.graph.gz:") || !strings.Contains(err.Error(), "gzip-compressed data: unexpected EOF") {
		t.Errorf("truncated archive: %v", err)
	}
}
