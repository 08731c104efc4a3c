package graph

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
)

// readWellFormed fails t unless g keeps the CSR invariants that the rest of
// the tool relies on: monotone offsets, sorted duplicate-free lists without
// self-loops, ids in range, parallel weights, sorted labels, and symmetry
// when undirected.
func readWellFormed(t testing.TB, g *Graph) {
	t.Helper()
	n := g.NumVertices()
	if len(g.Offsets) != n+1 || g.Offsets[0] != 0 || int(g.Offsets[n]) != len(g.Adj) {
		t.Fatalf("offsets: len %d, first %v, last %v, arcs %d", len(g.Offsets), g.Offsets[:min(1, len(g.Offsets))], g.Offsets[len(g.Offsets)-1:], len(g.Adj))
	}
	if g.Weights != nil && len(g.Weights) != len(g.Adj) {
		t.Fatalf("%d weights for %d arcs", len(g.Weights), len(g.Adj))
	}
	if g.Labels != nil {
		if len(g.Labels) != n {
			t.Fatalf("%d labels for %d vertices", len(g.Labels), n)
		}
		for i := 1; i < n; i++ {
			if g.Labels[i] <= g.Labels[i-1] {
				t.Fatalf("labels not strictly increasing at %d: %d, %d", i, g.Labels[i-1], g.Labels[i])
			}
		}
	}
	for v := 0; v < n; v++ {
		if g.Offsets[v] > g.Offsets[v+1] {
			t.Fatalf("offsets decrease at %d", v)
		}
		nb := g.Neighbors(uint32(v))
		for i, u := range nb {
			if int(u) >= n {
				t.Fatalf("vertex %d: neighbour %d out of range %d", v, u, n)
			}
			if int(u) == v {
				t.Fatalf("vertex %d: self-loop", v)
			}
			if i > 0 && nb[i-1] >= u {
				t.Fatalf("vertex %d: list not strictly increasing: %v", v, nb)
			}
		}
	}
	if g.Directed {
		return
	}
	for v := 0; v < n; v++ {
		for i, u := range g.Neighbors(uint32(v)) {
			back := g.Neighbors(u)
			j, found := slices.BinarySearch(back, uint32(v))
			if !found {
				t.Fatalf("undirected graph lacks the arc %d->%d of %d->%d", u, v, v, u)
			}
			if g.Weights != nil && g.EdgeWeights(u)[j] != g.EdgeWeights(uint32(v))[i] {
				t.Fatalf("weights of %d->%d and back differ", v, u)
			}
		}
	}
}

// datasetCase is one file of the shared dataset folder with the counts that
// SOURCES.md gives for it.
type datasetCase struct {
	file     string
	format   Format // the true format, forced in the first pass
	directed bool
	v, e     int
}

var datasetCases = []datasetCase{
	{"karate.mtx", FormatMTX, false, 34, 78},
	{"facebook_combined.txt", FormatEdgeList, false, 4039, 88234},
	{"MIT8.edgelist", FormatEdgeList, false, 6440, 251252},
	{"astro-ph.graph", FormatMETIS, false, 16706, 121251},
	{"power.graph", FormatMETIS, false, 4941, 6594},
	{"wiki-Vote.txt", FormatEdgeList, true, 7115, 103689},
	{"p2p-Gnutella08.txt", FormatEdgeList, true, 6301, 20777},
	{"rome99.gr", FormatDIMACS, true, 3353, 8870}, // arcs in the file, duplicates included
	{"luxembourg_osm.mtx", FormatEdgeList, false, 114599, 119666},
	{"fpgagraphlib-GRCite.graph", FormatEdgeList, false, 1953, 4153},
	{"fpgagraphlib-s13e16.graph", FormatEdgeList, false, 6522, 102220},
	{"fpgagraphlib-s14e16.graph", FormatEdgeList, false, 12522, 213113},
}

// TestReadDatasets reads every public graph that ships with the repository
// (and the large optional ones where they are present), once with its
// format forced and once detected, and checks V and E against SOURCES.md.
func TestReadDatasets(t *testing.T) {
	known := map[string]bool{}
	for _, tc := range datasetCases {
		known[tc.file] = true
	}
	for _, name := range datasets.Names(t) {
		if !known[name] {
			t.Errorf("dataset %s has no case in datasetCases", name)
		}
	}
	for _, tc := range datasetCases {
		path, ok := datasets.Optional(tc.file)
		if !ok {
			t.Logf("%s: a large dataset that does not ship; set $%s to read it too", tc.file, datasets.Env)
			continue
		}
		for _, mode := range []string{"forced", "auto"} {
			t.Run(tc.file+"/"+mode, func(t *testing.T) {
				opt := ReadOptions{Directed: tc.directed}
				if mode == "forced" {
					opt.Format = tc.format
				} else {
					head := make([]byte, detectHeadSize)
					f, err := os.Open(path)
					if err != nil {
						t.Fatal(err)
					}
					k, _ := io.ReadFull(f, head)
					f.Close()
					got, err := DetectFormat(tc.file, head[:k])
					if err != nil || got != tc.format {
						t.Fatalf("DetectFormat = %q, %v; want %q", got, err, tc.format)
					}
				}
				g, err := ReadFile(path, opt)
				if err != nil {
					t.Fatal(err)
				}
				readWellFormed(t, g)
				e := g.NumEdges()
				if tc.file == "rome99.gr" {
					e += g.Duplicates
				}
				if g.NumVertices() != tc.v || e != tc.e {
					t.Errorf("V = %d, E = %d (duplicates %d, self-loops %d); want V = %d, E = %d",
						g.NumVertices(), e, g.Duplicates, g.SelfLoops, tc.v, tc.e)
				}
				if g.Name != tc.file || g.Directed != tc.directed {
					t.Errorf("Name %q Directed %v", g.Name, g.Directed)
				}
				t.Logf("V=%d E=%d arcs=%d self-loops=%d duplicates=%d labels=%v",
					g.NumVertices(), g.NumEdges(), g.NumArcs(), g.SelfLoops, g.Duplicates, g.Labels != nil)
			})
		}
	}
}

// TestReadDatasetsOneBased checks that the 1-based formats report the file's
// own ids, and that METIS mirrors are not counted as duplicates.
func TestReadDatasetsOneBased(t *testing.T) {
	for _, file := range []string{"karate.mtx", "power.graph", "astro-ph.graph", "rome99.gr"} {
		t.Run(file, func(t *testing.T) {
			g, err := ReadFile(datasets.Path(t, file), ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			n := g.NumVertices()
			if g.Label(0) != 1 || g.Label(uint32(n-1)) != uint64(n) {
				t.Errorf("labels run %d..%d, want 1..%d", g.Label(0), g.Label(uint32(n-1)), n)
			}
			if file != "rome99.gr" && (g.Duplicates != 0 || g.SelfLoops != 0) {
				t.Errorf("duplicates %d self-loops %d, want none", g.Duplicates, g.SelfLoops)
			}
		})
	}
}

// TestReadWikiVoteLabels checks the label mapping on non-contiguous ids.
func TestReadWikiVoteLabels(t *testing.T) {
	g, err := ReadFile(datasets.Path(t, "wiki-Vote.txt"), ReadOptions{Directed: true})
	if err != nil {
		t.Fatal(err)
	}
	if g.Labels == nil {
		t.Fatal("no labels for ids 3..8297")
	}
	n := g.NumVertices()
	if g.Label(0) != 3 || g.Label(uint32(n-1)) != 8297 {
		t.Errorf("labels run %d..%d, want 3..8297", g.Label(0), g.Label(uint32(n-1)))
	}
	for v := 0; v < n; v++ {
		if u, ok := g.Lookup(g.Label(uint32(v))); !ok || u != uint32(v) {
			t.Fatalf("Lookup(Label(%d)) = %d, %v", v, u, ok)
		}
	}
	if _, ok := g.Lookup(0); ok {
		t.Error("label 0 does not occur in the file but was found")
	}
	// The first edge of the file: 30 -> 1412.
	u, ok1 := g.Lookup(30)
	v, ok2 := g.Lookup(1412)
	if !ok1 || !ok2 {
		t.Fatal("labels 30 or 1412 missing")
	}
	if _, found := slices.BinarySearch(g.Neighbors(u), v); !found {
		t.Error("arc 30 -> 1412 missing")
	}
	if _, found := slices.BinarySearch(g.Neighbors(v), u); found {
		t.Error("directed read added the reverse arc 1412 -> 30")
	}
}

// TestReadRome99 checks DIMACS weights and the duplicate arcs of rome99.
func TestReadRome99(t *testing.T) {
	g, err := ReadFile(datasets.Path(t, "rome99.gr"), ReadOptions{Directed: true, Weighted: true})
	if err != nil {
		t.Fatal(err)
	}
	readWellFormed(t, g)
	if g.Weights == nil {
		t.Fatal("no weights")
	}
	if g.Duplicates != 11 || g.NumEdges() != 8870-11 {
		t.Errorf("duplicates %d arcs %d, want 11 and 8859", g.Duplicates, g.NumEdges())
	}
	arc := func(u, v uint64) uint32 {
		t.Helper()
		x, _ := g.Lookup(u)
		y, _ := g.Lookup(v)
		j, found := slices.BinarySearch(g.Neighbors(x), y)
		if !found {
			t.Fatalf("arc %d -> %d missing", u, v)
		}
		return g.EdgeWeights(x)[j]
	}
	// "a 1 2 193"; "a 744 745 54" and "a 744 745 53": the lighter duplicate stays.
	if w := arc(1, 2); w != 193 {
		t.Errorf("weight of 1 -> 2 = %d, want 193", w)
	}
	if w := arc(744, 745); w != 53 {
		t.Errorf("weight of 744 -> 745 = %d, want 53 (the lighter of 54 and 53)", w)
	}
}

func TestReadLuxembourgForcedMTX(t *testing.T) {
	_, err := ReadFile(datasets.Path(t, "luxembourg_osm.mtx"), ReadOptions{Format: FormatMTX})
	want := `luxembourg_osm.mtx:1: missing the %%MatrixMarket banner`
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "--format edgelist") {
		t.Fatalf("err = %v, want prefix %q and a hint at --format edgelist", err, want)
	}
}

// TestReadWrongForcedFormat reads dataset files in the wrong format: each
// must fail rather than produce a graph.
func TestReadWrongForcedFormat(t *testing.T) {
	tests := []struct {
		file   string
		format Format
		want   string
	}{
		{"fpgagraphlib-GRCite.graph", FormatMETIS, "fpgagraphlib-GRCite.graph:3: neighbour 406 out of range 1..258"},
		{"power.graph", FormatEdgeList, "power.graph:3: the line has 4 columns"},
		{"karate.mtx", FormatEdgeList, "karate.mtx:1: this is a Matrix Market file"},
		{"rome99.gr", FormatMETIS, "rome99.gr:1: header"},
		{"astro-ph.graph", FormatDIMACS, "astro-ph.graph:1: line starts with \"16706\""},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			_, err := ReadFile(datasets.Path(t, tc.file), ReadOptions{Format: tc.format})
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v, want prefix %q", err, tc.want)
			}
		})
	}
}

// TestReadMalformed checks that every malformed input fails with the file
// and line of the problem.
func TestReadMalformed(t *testing.T) {
	const mm = "%%MatrixMarket matrix coordinate pattern symmetric\n"
	tests := []struct {
		name   string
		format Format
		opt    ReadOptions
		in     string
		want   string // the whole message, or its prefix when it ends in "..."
	}{
		// Edge lists.
		{"el", FormatEdgeList, ReadOptions{}, "1 2\n3\n", "el:2: only one field; an edge needs two vertex ids"},
		{"el", FormatEdgeList, ReadOptions{}, "# c\n1 2\n1 x\n", `el:3: vertex id "x" is not an integer`},
		{"el", FormatEdgeList, ReadOptions{}, "1 2\n\n-1 2\n", `el:3: vertex id "-1" is negative`},
		{"el", FormatEdgeList, ReadOptions{}, "18446744073709551616 1\n", `el:1: vertex id "18446744073709551616" exceeds 18446744073709551615`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 3\r\n2 3 -4\r\n", `el:2: weight "-4" is negative`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 4294967296\n", `el:1: weight "4294967296" exceeds 4294967295`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 abc\n", `el:1: weight "abc" is not a number`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 NaN\n", `el:1: weight "NaN" is not a finite number`},
		{"el", FormatEdgeList, ReadOptions{}, "1,2\n", `el:1: vertex id "1,2" is not an integer`},
		// Issue 16 item 7: a real weight that is negative or beyond the
		// integer range is an error at its line, whatever its spelling.
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 3\n2 3 -3.0\n", `el:2: weight "-3.0" is negative`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 -7.5\n", `el:1: weight "-7.5" is negative`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 -1e-9\n", `el:1: weight "-1e-9" is negative`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 1e30\n", `el:1: weight "1e30" exceeds 4294967295, the largest integer weight...`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 4294967296.0\n", `el:1: weight "4294967296.0" exceeds 4294967295, the largest integer weight...`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 1e999\n", `el:1: weight "1e999" exceeds 4294967295, the largest integer weight...`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true, FloatWeights: true}, "1 2 1e39\n", `el:1: weight "1e39" exceeds the f32 range...`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true, FloatWeights: true}, "1 2 -0.5\n", `el:1: weight "-0.5" is negative`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "1 2 -Inf\n", `el:1: weight "-Inf" is not a finite number`},
		{"m.mtx", FormatMTX, ReadOptions{Weighted: true}, "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 -3.0\n", `m.mtx:3: weight "-3.0" is negative`},
		{"m.mtx", FormatMTX, ReadOptions{Weighted: true}, "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1e30\n", `m.mtx:3: weight "1e30" exceeds 4294967295...`},
		// Issue 16 item 8: extra columns are errors, and the adjacency
		// format is named where the line looks like one.
		{"el", FormatEdgeList, ReadOptions{}, "0 1 2 3\n", `el:1: the line has 4 columns: an edge list line is "u v" or "u v weight"; if every line is a vertex followed by its neighbours (the LDBC Graphalytics adjacency format), read the file with --format adj`},
		{"el", FormatEdgeList, ReadOptions{Weighted: true}, "0 1 2\n0 1 2.5 x\n", `el:2: the line has 4 columns: an edge list line is "u v" or "u v weight"`},
		{"el", FormatAuto, ReadOptions{}, "0 1 foo\n", `el:1: third column "foo" is not a number: an edge list line is "u v" or "u v weight" (read as edgelist...`},
		{"g.e", FormatEdgeList, ReadOptions{}, "1 2 0.5 7\n", `g.e:1: the line has 4 columns: an edge list line is "u v" or "u v weight"`},
		// The adjacency format.
		{"a", FormatAdj, ReadOptions{}, "1 2 3\n2 x\n", `a:2: neighbour: vertex id "x" is not an integer (an adjacency line is a vertex followed by its neighbours' ids)`},
		{"a", FormatAdj, ReadOptions{}, "-1 2 3\n", `a:1: vertex id "-1" is negative`},
		{"a", FormatAdj, ReadOptions{}, "1 2 3\n2 3\n1 4\n", `a:3: vertex 1 has a second line (the first is line 1)`},
		{"a", FormatAuto, ReadOptions{}, "1 2 3 4\n2 3.5\n", `a:1: the line has 4 columns...`},
		{"a.v", FormatVE, ReadOptions{}, "1\n2\n", `a.v: the ve format is a pair of files (NAME.v and NAME.e): give the path of the .e file`},
		{"el", FormatEdgeList, ReadOptions{}, "1 2\r\r\n2 3\r4 5\r", "el:2: carriage return inside the line: the file seems to end its lines with CR alone; convert them to LF"},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3 1\ra 1 2 3\r", "r.gr:1: carriage return inside the line: the file seems to end its lines with CR alone; convert them to LF"},
		{"el", FormatEdgeList, ReadOptions{}, "% made by a tool\n6 5\n0 1\n1 2\n2 3\n3 4\n4 5\n", `el:2: the line "6 5" looks like a header "vertices edges": exactly 5 edges follow, all between ids up to 6; an edge list has no header: delete the line or make it a '#' comment`},
		{"el", FormatAuto, ReadOptions{}, "6 5\n1 2\n2 3\n3 4\n4 5\n5 6\n", `el:1: the line "6 5" looks like a header...`},
		// Matrix Market.
		{"m.mtx", FormatMTX, ReadOptions{}, "", "m.mtx: empty file: missing the %%MatrixMarket banner"},
		{"m.mtx", FormatMTX, ReadOptions{}, "1 2\n", `m.mtx:1: missing the %%MatrixMarket banner (the line is "1 2"): not a Matrix Market file; if it is a plain edge list, read it with --format edgelist`},
		{"m.mtx", FormatMTX, ReadOptions{}, "%%MatrixMarket matrix array real general\n", "m.mtx:1: Matrix Market array (dense) format is not supported..."},
		{"m.mtx", FormatMTX, ReadOptions{}, "%%MatrixMarket matrix coordinate pattern\n", "m.mtx:1: banner has 3 of the 4 words after %%MatrixMarket (object format field symmetry)"},
		{"m.mtx", FormatMTX, ReadOptions{}, "%%MatrixMarket matrix coordinate bool general\n", `m.mtx:1: Matrix Market field "bool" is unknown...`},
		{"m.mtx", FormatMTX, ReadOptions{}, "%%MatrixMarket vector coordinate real general\n", `m.mtx:1: Matrix Market object "vector" is not supported...`},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "%c\n", "m.mtx:2: file ends before the size line \"rows cols entries\""},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "3 4 1\n1 2\n", "m.mtx:2: the matrix is 3 x 4: an adjacency matrix must be square"},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "3 3\n", `m.mtx:2: size line "3 3" needs 3 numbers: rows cols entries`},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "%\n3 3 2\n1 2\n4 1\n", "m.mtx:5: row index 4 out of range 1..3"},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "3 3 2\n1 0\n", "m.mtx:3: column index 0 out of range 1..3"},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "3 3 3\n1 2\n2 3\n", "m.mtx:4: file ends after 2 of the 3 entries declared on line 2 (truncated?)"},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "3 3 1\n1 2\n2 3\n", "m.mtx:4: more entries than the 1 declared on line 2"},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "3 3 1\n1 2 7\n", `m.mtx:3: entry "1 2 7" has 3 fields: pattern entries have 2 (row column)`},
		{"m.mtx", FormatMTX, ReadOptions{}, "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2\n", `m.mtx:3: entry "1 2" has 2 fields: integer entries have 3 (row column value)`},
		{"m.mtx", FormatMTX, ReadOptions{}, "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n", `m.mtx:3: value "1.5" is not an integer`},
		{"m.mtx", FormatMTX, ReadOptions{Weighted: true}, "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 -5\n", `m.mtx:3: weight "-5" is negative`},
		{"m.mtx", FormatMTX, ReadOptions{}, "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 x\n", `m.mtx:3: value "x" is not a number`},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "5000000000 5000000000 0\n", "m.mtx:2: 5000000000 vertices exceed the 32-bit id range (at most 4294967294)"},
		{"m.mtx", FormatMTX, ReadOptions{}, mm + "4000000000 4000000000 10\n", "m.mtx:2: 4000000000 vertices but only 10 entries: more than 16777216 vertices would be isolated, the header looks corrupt"},
		// METIS.
		{"g.graph", FormatMETIS, ReadOptions{}, "", "g.graph: no METIS header \"n m [fmt [ncon]]\": the file has no content"},
		{"g.graph", FormatMETIS, ReadOptions{}, "% c\n3\n", `g.graph:2: header "3" must be "n m [fmt [ncon]]"`},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2 2\n", `g.graph:1: header: fmt "2" must be up to 3 binary digits...`},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2 0 2\n", `g.graph:1: header: ncon "2" given but fmt "0" declares no vertex weights`},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2\n2\n1 3\n4\n", "g.graph:4: neighbour 4 out of range 1..3"},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2\n2\n0 3\n2\n", "g.graph:3: neighbour 0 out of range 1..3"},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2\n2\n1 x\n2\n", `g.graph:3: neighbour "x" is not a positive integer`},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2\n2\n1 3\n", "g.graph:3: file ends after 2 of the 3 vertex lines declared on line 1 (truncated?)"},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2\n2\n1 3\n2\n\n1\n", "g.graph:6: more vertex lines than the 3 declared on line 1"},
		{"g.graph", FormatMETIS, ReadOptions{}, "%\n3 3\n2\n1 3\n2\n", "g.graph:2: the header declares 3 edges, but the adjacency lines list 4 neighbours (expected 6, each edge on the lines of both ends)"},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2 1\n2 5\n1 5 3\n2\n", "g.graph:3: neighbour 3 has no edge weight (fmt 001 declares edge weights)"},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2 1\n2 5\n1 5 3 -1\n2 1\n", `g.graph:3: weight "-1" is negative`},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2 11\n\n1 3\n2 1\n", "g.graph:2: vertex 1: the line has 0 fields, fmt needs 1 (size and vertex weights) before the neighbours"},
		{"g.graph", FormatMETIS, ReadOptions{}, "3 2 10 2\n7 1 4\n", "g.graph:2: neighbour 4 out of range 1..3"},
		{"g.graph", FormatMETIS, ReadOptions{}, "5000000000 1\n", "g.graph:1: 5000000000 vertices exceed the 32-bit id range (at most 4294967294)"},
		{"g.graph", FormatMETIS, ReadOptions{}, "4000000000 1\n2\n", "g.graph:2: file ends after 1 of the 4000000000 vertex lines declared on line 1 (truncated?)"},
		// DIMACS.
		{"r.gr", FormatDIMACS, ReadOptions{}, "", "r.gr: no problem line \"p sp N M\": the file has no content"},
		{"r.gr", FormatDIMACS, ReadOptions{}, "c x\n", "r.gr: no problem line \"p sp N M\""},
		{"r.gr", FormatDIMACS, ReadOptions{}, "c x\na 1 2 3\n", "r.gr:2: arc before the problem line \"p sp N M\""},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p edge 3 2\n", `r.gr:1: problem type "edge" is not supported: only shortest-path graphs ("p sp N M")`},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3\n", `r.gr:1: problem line "p sp 3" must be "p sp N M"`},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3 1\np sp 3 1\n", "r.gr:2: second problem line (the first is on line 1)"},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3 2\na 1 2 5\na 1 4 5\n", "r.gr:3: vertex 4 out of range 1..3"},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3 2\na 1 2\n", `r.gr:2: arc line "a 1 2" has no weight; it must be "a u v w"`},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3 2\na 1 2 x\n", `r.gr:2: weight "x" is not an integer`},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3 2\na 1 2 3\n", "r.gr:2: file ends after 1 of the 2 arcs declared on line 1 (truncated?)"},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3 1\na 1 2 3\na 2 3 4\n", "r.gr:3: more arcs than the 1 declared on line 1"},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 3 1\ne 1 2\n", `r.gr:2: line starts with "e": a DIMACS .gr line is "c ...", "p sp N M" or "a u v w"`},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 1000000000000 1\n", "r.gr:1: 1000000000000 vertices exceed the 32-bit id range (at most 4294967294)"},
		{"r.gr", FormatDIMACS, ReadOptions{}, "p sp 4000000000 0\n", "r.gr:1: 4000000000 vertices but only 0 entries: more than 16777216 vertices would be isolated, the header looks corrupt"},
		// Detected formats say so.
		{"bad.graph", FormatAuto, ReadOptions{}, "3 2\n2\n1 3\n2\n\n1\n", "bad.graph:6: more vertex lines than the 3 declared on line 1 (read as metis, detected from the content; if the file is in another format, force it with --format edgelist|mtx|dimacs|adj)"},
		{"bad.txt", FormatAuto, ReadOptions{}, "1 2\n3 x\n", `bad.txt:2: vertex id "x" is not an integer (read as edgelist, detected from the content; if the file is in another format, force it with --format mtx|metis|dimacs|adj)`},
		{"empty.txt", FormatAuto, ReadOptions{}, " \n\n", "empty.txt: the file is empty; nothing to detect a format from"},
		{"x.gz", FormatAuto, ReadOptions{}, "\x1f\x8b\x08\x00", "x.gz: unexpected EOF"},
		{"x", FormatAuto, ReadOptions{}, "hello world\n", `x: cannot detect the format: the first line "hello world" is neither...`},
		{"x", Format("csv"), ReadOptions{}, "1,2\n", `x: unknown format "csv"; valid formats are auto, edgelist (or snap), mtx, metis, dimacs (or gr), adj, ve`},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			opt := tc.opt
			opt.Format = tc.format
			g, err := Read(strings.NewReader(tc.in), tc.name, opt)
			if err == nil {
				t.Fatalf("no error; got a graph with V=%d E=%d", g.NumVertices(), g.NumEdges())
			}
			if prefix, ok := strings.CutSuffix(tc.want, "..."); ok {
				if !strings.HasPrefix(err.Error(), prefix) {
					t.Fatalf("err = %q\nwant prefix %q", err, prefix)
				}
			} else if err.Error() != tc.want {
				t.Fatalf("err = %q\nwant        %q", err, tc.want)
			}
		})
	}
}

// TestReadMalformedFixtures reads the malformed files of testdata/read and
// checks each error's file:line.
func TestReadMalformedFixtures(t *testing.T) {
	tests := []struct {
		file string
		opt  ReadOptions
		want string
	}{
		{"truncated.mtx", ReadOptions{Format: FormatMTX}, "truncated.mtx:9: file ends after 4 of the 6 entries declared on line 5 (truncated?)"},
		{"truncated.mtx", ReadOptions{}, "truncated.mtx:9: file ends after 4 of the 6 entries declared on line 5 (truncated?) (read as mtx, detected from the content; if the file is in another format, force it with --format edgelist|metis|dimacs|adj)"},
		{"out-of-range.graph", ReadOptions{}, "out-of-range.graph:7: neighbour 5000 out of range 1..4941 (read as metis, detected from the content; if the file is in another format, force it with --format edgelist|mtx|dimacs|adj)"},
		{"out-of-range.graph", ReadOptions{Format: FormatMETIS}, "out-of-range.graph:7: neighbour 5000 out of range 1..4941"},
		{"short-arcs.gr", ReadOptions{}, "short-arcs.gr:5: file ends after 3 of the 4 arcs declared on line 2 (truncated?) (read as dimacs, detected from the content; if the file is in another format, force it with --format edgelist|mtx|metis|adj)"},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			_, err := ReadFile(filepath.Join("testdata", "read", tc.file), tc.opt)
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v\nwant    %s", err, tc.want)
			}
		})
	}
}

// TestReadValid checks the graphs read from small valid inputs of every
// format, with and without weights and direction.
func TestReadValid(t *testing.T) {
	type arc struct{ u, v, w uint64 }
	tests := []struct {
		name     string
		opt      ReadOptions
		in       string
		format   Format // what detection must find
		v        int
		labels   []uint64 // nil: 0..V-1
		arcs     []arc    // all stored arcs, by label; w checked when weighted
		loops    int
		dups     int
		directed bool
	}{
		{
			name:   "snap edge list with comments and CRLF",
			in:     "# Nodes: 3\r\n% also a comment\r\n\r\n10\t20\r\n20 30\r\n30 10  \r\n10 10\r\n20 10\r\n",
			format: FormatEdgeList, v: 3, labels: []uint64{10, 20, 30},
			arcs:  []arc{{10, 20, 0}, {10, 30, 0}, {20, 10, 0}, {20, 30, 0}, {30, 10, 0}, {30, 20, 0}},
			loops: 1, dups: 1,
		},
		{
			name:   "weighted edge list, missing weight is 1, real weight rounded",
			opt:    ReadOptions{Weighted: true, Directed: true},
			in:     "0 1 7\n1 2\n2 0 2.6\n0 1 5\n",
			format: FormatEdgeList, v: 3,
			arcs: []arc{{0, 1, 5}, {1, 2, 1}, {2, 0, 3}},
			dups: 1, directed: true,
		},
		{
			name:   "tiny edge list whose first edge could be a count header",
			in:     "3 2\n0 1\n1 2\n",
			format: FormatEdgeList, v: 4,
			arcs: []arc{{0, 1, 0}, {1, 0, 0}, {1, 2, 0}, {2, 1, 0}, {2, 3, 0}, {3, 2, 0}},
		},
		{
			name:   "edge list with a numeric third column read unweighted",
			in:     "5 6 1234567\n",
			format: FormatEdgeList, v: 2, labels: []uint64{5, 6},
			arcs: []arc{{5, 6, 0}, {6, 5, 0}},
		},
		{
			name:   "graphalytics adjacency, directed, with a vertex alone and one only as a neighbour",
			opt:    ReadOptions{Directed: true},
			in:     "1 3 5\n2 4 5 10\n3 1 5 8 10\n4\n",
			format: FormatAdj, v: 7, labels: []uint64{1, 2, 3, 4, 5, 8, 10},
			arcs:     []arc{{1, 3, 0}, {1, 5, 0}, {2, 4, 0}, {2, 5, 0}, {2, 10, 0}, {3, 1, 0}, {3, 5, 0}, {3, 8, 0}, {3, 10, 0}},
			directed: true,
		},
		{
			name:   "graphalytics adjacency, undirected, both directions listed",
			opt:    ReadOptions{Weighted: true},
			in:     "1 2 3\n2 1 3 4\n3 1 2\n4 2\n",
			format: FormatAdj, v: 4, labels: []uint64{1, 2, 3, 4},
			arcs: []arc{{1, 2, 1}, {1, 3, 1}, {2, 1, 1}, {2, 3, 1}, {2, 4, 1}, {3, 1, 1}, {3, 2, 1}, {4, 2, 1}},
			dups: 4,
		},
		{
			name:   "edge list with sparse 64-bit labels",
			in:     "1000000000000 5\n18446744073709551615 5\n",
			format: FormatEdgeList, v: 3, labels: []uint64{5, 1000000000000, 18446744073709551615},
			arcs: []arc{{5, 1000000000000, 0}, {5, 18446744073709551615, 0}, {1000000000000, 5, 0}, {18446744073709551615, 5, 0}},
		},
		{
			name:   "mtx symmetric pattern with isolated vertex",
			in:     "%%MatrixMarket matrix coordinate pattern symmetric\n% c\n4 4 3\n2 1\n3 1\n3 3\n",
			format: FormatMTX, v: 4, labels: []uint64{1, 2, 3, 4},
			arcs:  []arc{{1, 2, 0}, {1, 3, 0}, {2, 1, 0}, {3, 1, 0}},
			loops: 1,
		},
		{
			name:   "mtx symmetric read directed gives both arcs",
			opt:    ReadOptions{Directed: true, Weighted: true},
			in:     "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.2\n3 2 2.5e1\n",
			format: FormatMTX, v: 3, labels: []uint64{1, 2, 3},
			arcs:     []arc{{1, 2, 1}, {2, 1, 1}, {2, 3, 25}, {3, 2, 25}},
			directed: true,
		},
		{
			name:   "mtx general integer directed",
			opt:    ReadOptions{Directed: true, Weighted: true},
			in:     "%%matrixmarket MATRIX Coordinate INTEGER General\n3 3 2\n1 2 9\n3 1 0\n",
			format: FormatMTX, v: 3, labels: []uint64{1, 2, 3},
			arcs:     []arc{{1, 2, 9}, {3, 1, 0}},
			directed: true,
		},
		{
			name:   "metis plain with isolated last vertex",
			in:     "% comment\n4 2\n2 3\n1\n1\n\n",
			format: FormatMETIS, v: 4, labels: []uint64{1, 2, 3, 4},
			arcs: []arc{{1, 2, 0}, {1, 3, 0}, {2, 1, 0}, {3, 1, 0}},
		},
		{
			name:   "metis fmt 1 edge weights",
			opt:    ReadOptions{Weighted: true},
			in:     "3 2 1\n2 5 3 7\n1 5\n1 7\n",
			format: FormatMETIS, v: 3, labels: []uint64{1, 2, 3},
			arcs: []arc{{1, 2, 5}, {1, 3, 7}, {2, 1, 5}, {3, 1, 7}},
		},
		{
			name:   "metis fmt 11 with ncon 2",
			opt:    ReadOptions{Weighted: true},
			in:     "3 2 011 2\n4 4 2 5 3 7\n1 1 1 5\n9 9 1 7\n",
			format: FormatMETIS, v: 3, labels: []uint64{1, 2, 3},
			arcs: []arc{{1, 2, 5}, {1, 3, 7}, {2, 1, 5}, {3, 1, 7}},
		},
		{
			name:   "metis fmt 10 vertex weights, unweighted edges weigh 1",
			opt:    ReadOptions{Weighted: true},
			in:     "3 2 10\n4 2 3\n1 1\n9 1\n",
			format: FormatMETIS, v: 3, labels: []uint64{1, 2, 3},
			arcs: []arc{{1, 2, 1}, {1, 3, 1}, {2, 1, 1}, {3, 1, 1}},
		},
		{
			name:   "metis fmt 100 vertex sizes",
			in:     "3 2 100\n4 2 3\n1 1\n9 1\n",
			format: FormatMETIS, v: 3, labels: []uint64{1, 2, 3},
			arcs: []arc{{1, 2, 0}, {1, 3, 0}, {2, 1, 0}, {3, 1, 0}},
		},
		{
			name:   "metis directed keeps listed arcs",
			opt:    ReadOptions{Directed: true},
			in:     "3 2\n2 3\n1\n1\n",
			format: FormatMETIS, v: 3, labels: []uint64{1, 2, 3},
			arcs:     []arc{{1, 2, 0}, {1, 3, 0}, {2, 1, 0}, {3, 1, 0}},
			directed: true,
		},
		{
			name:   "metis edges listed from one end only, m counts entries",
			in:     "3 3\n2 3\n3\n\n",
			format: FormatMETIS, v: 3, labels: []uint64{1, 2, 3},
			arcs: []arc{{1, 2, 0}, {1, 3, 0}, {2, 1, 0}, {2, 3, 0}, {3, 1, 0}, {3, 2, 0}},
		},
		{
			name:   "metis repeated neighbour is a duplicate, mirror is not",
			in:     "2 2\n2 2\n1 1\n",
			format: FormatMETIS, v: 2, labels: []uint64{1, 2},
			arcs: []arc{{1, 2, 0}, {2, 1, 0}},
			dups: 1,
		},
		{
			name:   "dimacs weighted directed",
			opt:    ReadOptions{Directed: true, Weighted: true},
			in:     "c road\n\np sp 4 3\nc arcs\na 1 2 10\na 2 1 11\na 3 2 0\n",
			format: FormatDIMACS, v: 4, labels: []uint64{1, 2, 3, 4},
			arcs:     []arc{{1, 2, 10}, {2, 1, 11}, {3, 2, 0}},
			directed: true,
		},
		{
			name:   "dimacs undirected keeps the lighter reciprocal arc",
			opt:    ReadOptions{Weighted: true},
			in:     "p sp 2 2\na 1 2 10\na 2 1 11\n",
			format: FormatDIMACS, v: 2, labels: []uint64{1, 2},
			arcs: []arc{{1, 2, 10}, {2, 1, 10}},
			dups: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := DetectFormat("input", []byte(tc.in)); err != nil || got != tc.format {
				t.Fatalf("DetectFormat = %q, %v; want %q", got, err, tc.format)
			}
			for _, format := range []Format{FormatAuto, tc.format} {
				opt := tc.opt
				opt.Format = format
				g, err := Read(strings.NewReader(tc.in), "input", opt)
				if err != nil {
					t.Fatal(err)
				}
				readWellFormed(t, g)
				if g.NumVertices() != tc.v || !slices.Equal(g.Labels, tc.labels) || g.Directed != tc.directed {
					t.Fatalf("V = %d labels %v directed %v, want %d %v %v", g.NumVertices(), g.Labels, g.Directed, tc.v, tc.labels, tc.directed)
				}
				if (g.Weights != nil) != opt.Weighted {
					t.Fatalf("weights %v with Weighted %v", g.Weights, opt.Weighted)
				}
				var got []arc
				for u := 0; u < g.NumVertices(); u++ {
					for i, v := range g.Neighbors(uint32(u)) {
						a := arc{g.Label(uint32(u)), g.Label(v), 0}
						if g.Weights != nil {
							a.w = uint64(g.EdgeWeights(uint32(u))[i])
						}
						got = append(got, a)
					}
				}
				if !slices.Equal(got, tc.arcs) {
					t.Fatalf("arcs %v\nwant %v", got, tc.arcs)
				}
				if g.SelfLoops != tc.loops || g.Duplicates != tc.dups {
					t.Fatalf("self-loops %d duplicates %d, want %d %d", g.SelfLoops, g.Duplicates, tc.loops, tc.dups)
				}
			}
		})
	}
}

// TestReadRandomWeights checks that missing weights are drawn from
// [1, RandomWeights], deterministically for a seed, and only with Weighted.
func TestReadRandomWeights(t *testing.T) {
	var in strings.Builder
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&in, "%d %d\n", i, i+1)
	}
	read := func(opt ReadOptions) *Graph {
		t.Helper()
		g, err := Read(strings.NewReader(in.String()), "w", opt)
		if err != nil {
			t.Fatal(err)
		}
		readWellFormed(t, g)
		return g
	}
	a := read(ReadOptions{Weighted: true, RandomWeights: 10, Seed: 7})
	b := read(ReadOptions{Weighted: true, RandomWeights: 10, Seed: 7})
	c := read(ReadOptions{Weighted: true, RandomWeights: 10, Seed: 8})
	if !slices.Equal(a.Weights, b.Weights) {
		t.Error("same seed, different weights")
	}
	if slices.Equal(a.Weights, c.Weights) {
		t.Error("different seeds, same weights")
	}
	seen := map[uint32]bool{}
	for _, w := range a.Weights {
		if w < 1 || w > 10 {
			t.Fatalf("weight %d outside [1,10]", w)
		}
		seen[w] = true
	}
	if len(seen) != 10 {
		t.Errorf("%d distinct weights in 1000 arcs, want all 10", len(seen))
	}
	if g := read(ReadOptions{RandomWeights: 10}); g.Weights != nil {
		t.Error("RandomWeights without Weighted added weights")
	}
	if g := read(ReadOptions{Weighted: true}); slices.ContainsFunc(g.Weights, func(w uint32) bool { return w != 1 }) {
		t.Error("default weight is not 1")
	}
	// File weights win over random ones.
	g, err := Read(strings.NewReader("p sp 2 1\na 1 2 42\n"), "w.gr", ReadOptions{Weighted: true, RandomWeights: 5})
	if err != nil || !slices.Equal(g.Weights, []uint32{42, 42}) {
		t.Fatalf("weights %v, %v; want the file's 42", g.Weights, err)
	}
}

// TestBuildLabelledMatchesBuilder checks the linear-time label ranking of
// edge lists against Builder.AddLabelEdge, which sorts.
func TestBuildLabelledMatchesBuilder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, span := range []uint64{3, 50, 1000, 1 << 40} {
		for _, opt := range []ReadOptions{{}, {Directed: true}, {Weighted: true}} {
			pairs := make([]uint64, 2*200)
			var wts []uint32
			for i := range pairs {
				pairs[i] = rng.Uint64N(span) + span/3
			}
			if opt.Weighted {
				for range len(pairs) / 2 {
					wts = append(wts, rng.Uint32N(9))
				}
			}
			got, err := buildLabelled("x", pairs, wts, nil, opt)
			if err != nil {
				t.Fatal(err)
			}
			b := NewBuilder(0, opt.Directed, opt.Weighted)
			for i := 0; i < len(pairs); i += 2 {
				var w uint32
				if wts != nil {
					w = wts[i/2]
				}
				b.AddLabelEdge(pairs[i], pairs[i+1], w)
			}
			want, err := b.Build("x")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Labels, want.Labels) || !slices.Equal(got.Offsets, want.Offsets) ||
				!slices.Equal(got.Adj, want.Adj) || !slices.Equal(got.Weights, want.Weights) ||
				got.SelfLoops != want.SelfLoops || got.Duplicates != want.Duplicates {
				t.Fatalf("span %d %+v: buildLabelled differs from Builder", span, opt)
			}
		}
	}
}

// TestDetectFormat covers the detection rules, in particular METIS against
// edge lists under lying extensions.
func TestDetectFormat(t *testing.T) {
	tests := []struct {
		name, head string
		want       Format
	}{
		{"a.txt", "%%MatrixMarket matrix coordinate pattern general\n1 1 0\n", FormatMTX},
		{"a.txt", "\xef\xbb\xbf%%MatrixMarket matrix coordinate pattern general\n", FormatMTX},
		{"a.mtx", "2 1\n1113 1\n3 2\n", FormatEdgeList},
		{"a.txt", "c comment\np sp 2 1\na 1 2 3\n", FormatDIMACS},
		{"a.txt", "c----\np sp 2 1\n", FormatDIMACS},
		{"a.txt", "p sp 2 1\na 1 2 3\n", FormatDIMACS},
		{"a.gr", "1 2\n", FormatEdgeList},
		{"a.graph", "# comment\n3 2\n2 3\n1\n1\n", FormatEdgeList},
		{"a.graph", "3 2\n2 3\n1\n1\n", FormatMETIS},                       // one-field lines
		{"a.txt", "3 2\n2 3\n1\n1\n", FormatMETIS},                         // the content decides
		{"a.txt", "% c\n\n3 2 0\n2 3\n1\n1\n", FormatMETIS},                // comment, blank, then header
		{"a.graph", "258 1\n108 1\n406 1\n224 1\n", FormatEdgeList},        // out of range
		{"a.graph", "3 1\n1 2\n2 3\n", FormatEdgeList},                     // too many entries
		{"a.graph", "4 4\n2 4\n1 3\n2 4\n1 3\n", FormatMETIS},              // a cycle: all lines of two fields, but mirrored
		{"a.txt", "4 4\n2 4\n1 3\n2 4\n1 3\n", FormatMETIS},                // same without the hint
		{"a.graph", "4 8\n2 3\n3 4\n4 1\n1 2\n", FormatEdgeList},           // edge-shaped and not mirrored
		{"a.graph", "5 9\n2 3\n3 4\n", FormatEdgeList},                     // whole file: too few lines
		{"a.graph", "1 0\n\n", FormatMETIS},                                // nothing tells: extension
		{"a.txt", "1 0\n\n", FormatEdgeList},                               // nothing tells: extension
		{"a.graph", "1 0\n", FormatEdgeList},                               // METIS would need a vertex line
		{"a.graph", "% only a comment\n", FormatMETIS},                     // nothing tells: extension
		{"a.txt", "% only a comment\n", FormatEdgeList},                    // nothing tells: extension
		{"a.txt", "0\t1\r\n0\t2\r\n", FormatEdgeList},                      // vertex 0 is no METIS id
		{"a.txt", "% sym unweighted\n% 3 2 2\n1 2\n1 3\n", FormatEdgeList}, // KONECT
	}
	for _, tc := range tests {
		t.Run(tc.name+" "+tc.head, func(t *testing.T) {
			got, err := DetectFormat(tc.name, []byte(tc.head))
			if err != nil || got != tc.want {
				t.Fatalf("DetectFormat = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestDetectFormatPartialHead checks that a head cut mid-line (a file larger
// than the head) is judged on its complete lines only, and without the
// exact counts that only the whole file allows.
func TestDetectFormatPartialHead(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("100000 100000\n")
	for v := 1; b.Len() < 2*detectHeadSize; v++ {
		// A ring: v lists its two neighbours, a METIS file whose lines
		// all have two fields.
		fmt.Fprintf(&b, "%d %d\n", (v+99998)%100000+1, v%100000+1)
	}
	head := b.Bytes()[:detectHeadSize]
	if got, err := DetectFormat("ring.txt", head); err != nil || got != FormatMETIS {
		t.Fatalf("DetectFormat = %q, %v; want metis", got, err)
	}
	// The same lines without the header are an edge list.
	all := b.Bytes()
	rest := all[bytes.IndexByte(all, '\n')+1:][:detectHeadSize]
	if got, err := DetectFormat("ring.graph", rest); err != nil || got != FormatEdgeList {
		t.Fatalf("DetectFormat = %q, %v; want edgelist", got, err)
	}
}

func TestParseFormat(t *testing.T) {
	tests := []struct {
		in   string
		want Format
	}{
		{"", FormatAuto}, {"auto", FormatAuto}, {"edgelist", FormatEdgeList}, {"SNAP", FormatEdgeList},
		{"mtx", FormatMTX}, {"metis", FormatMETIS}, {" dimacs ", FormatDIMACS}, {"gr", FormatDIMACS},
	}
	for _, tc := range tests {
		if got, err := ParseFormat(tc.in); err != nil || got != tc.want {
			t.Errorf("ParseFormat(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, f := range Formats {
		if got, err := ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	_, err := ParseFormat("csv")
	if err == nil || err.Error() != `unknown format "csv"; valid formats are auto, edgelist (or snap), mtx, metis, dimacs (or gr), adj, ve` {
		t.Errorf("ParseFormat(csv) error %v", err)
	}
}

// TestReadLongLine reads a METIS hub whose line is longer than the read
// buffer, and an edge list whose last line has no line end.
func TestReadLongLine(t *testing.T) {
	const n = 300000
	var b bytes.Buffer
	fmt.Fprintf(&b, "%d %d\n", n, n-1)
	for v := 2; v <= n; v++ {
		fmt.Fprintf(&b, "%d ", v)
	}
	b.WriteString("\n")
	for v := 2; v <= n; v++ {
		b.WriteString("1\n")
	}
	if b.Len() < 2*readBufferSize {
		t.Fatalf("test input of %d bytes does not exceed the buffer", b.Len())
	}
	g, err := Read(&b, "star.graph", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g.NumVertices() != n || g.NumEdges() != n-1 || g.OutDegree(0) != n-1 {
		t.Fatalf("V=%d E=%d deg0=%d", g.NumVertices(), g.NumEdges(), g.OutDegree(0))
	}
	g, err = Read(strings.NewReader("1 2\n2 3"), "nolf", ReadOptions{})
	if err != nil || g.NumEdges() != 2 {
		t.Fatalf("E=%d err %v", g.NumEdges(), err)
	}
}

// TestReadErrors checks errors of the reader and of the file system.
func TestReadErrors(t *testing.T) {
	boom := errors.New("boom")
	_, err := Read(io.MultiReader(strings.NewReader("1 2\n3 4\n"), iotest.ErrReader(boom)), "r.txt", ReadOptions{Format: FormatEdgeList})
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "r.txt:3: read error: boom") {
		t.Errorf("err = %v", err)
	}
	_, err = Read(iotest.ErrReader(boom), "r.txt", ReadOptions{})
	if !errors.Is(err, boom) || err.Error() != "r.txt: boom" {
		t.Errorf("err = %v", err)
	}
	_, err = ReadFile(filepath.Join(t.TempDir(), "missing.txt"), ReadOptions{})
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v", err)
	}
}

// BenchmarkReadFile reads MIT8.edgelist (251,252 edges) and reports the read
// speed and the memory of the resulting CSR per edge.
func BenchmarkReadFile(b *testing.B) {
	path := datasets.Path(b, "MIT8.edgelist")
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(st.Size())
	var g *Graph
	for b.Loop() {
		if g, err = ReadFile(path, ReadOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(g.MemoryBytes())/float64(g.NumEdges()), "B/edge")
}
