package graph

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
)

// roundTrip writes g in format f and reads it back with opt (the format
// forced, as a user converting files knows what they wrote).
func roundTrip(t *testing.T, g *Graph, f Format, opt ReadOptions) *Graph {
	t.Helper()
	opt.Format = f
	var back *Graph
	var err error
	if f == FormatVE {
		var v, e bytes.Buffer
		if err := WriteVE(&v, &e, g); err != nil {
			t.Fatal(err)
		}
		back, err = ReadVE(&v, &e, "rt.v", "rt.e", opt)
	} else {
		var b bytes.Buffer
		if err := Write(&b, g, f); err != nil {
			t.Fatal(err)
		}
		back, err = Read(&b, "rt", opt)
	}
	if err != nil {
		t.Fatalf("reading back %s: %v", f, err)
	}
	readWellFormed(t, back)
	return back
}

type labelledArc struct {
	u, v uint64
	w    uint32
}

// arcs lists g's arcs under its labels (or 1-based ranks), sorted, and the
// labels of its vertices (without the isolated ones when dropIsolated).
func arcs(g *Graph, ranks, dropIsolated bool) ([]labelledArc, []uint64) {
	name := g.Label
	if ranks {
		name = func(v uint32) uint64 { return uint64(v) + 1 }
	}
	var as []labelledArc
	touched := make([]bool, g.NumVertices())
	for u := 0; u < g.NumVertices(); u++ {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			a := labelledArc{u: name(uint32(u)), v: name(g.Adj[i])}
			if g.Weights != nil {
				a.w = g.Weights[i]
			}
			as = append(as, a)
			touched[u], touched[g.Adj[i]] = true, true
		}
	}
	var ls []uint64
	for v := range touched {
		if touched[v] || !dropIsolated {
			ls = append(ls, name(uint32(v)))
		}
	}
	return as, ls
}

// checkSame compares a graph with the one read back from format f.
func checkSame(t *testing.T, g, back *Graph, f Format) {
	t.Helper()
	ranks := f == FormatMTX || f == FormatMETIS || f == FormatDIMACS
	dropIsolated := f == FormatEdgeList
	wantArcs, wantLabels := arcs(g, ranks, dropIsolated)
	gotArcs, gotLabels := arcs(back, ranks, false)
	if f == FormatAdj && g.Weights != nil {
		unit := uint32(1) // the format has no weights: read back as weight 1
		if g.FloatWeights {
			unit = math.Float32bits(1)
		}
		for i := range wantArcs {
			wantArcs[i].w = unit
		}
	}
	if f == FormatDIMACS && g.Weights == nil {
		for i := range gotArcs {
			gotArcs[i].w = 0
		}
	}
	if !slices.Equal(wantLabels, gotLabels) {
		t.Errorf("%s: %d vertices read back, want %d (labels differ)", f, len(gotLabels), len(wantLabels))
	}
	if !slices.Equal(wantArcs, gotArcs) {
		t.Errorf("%s: %d arcs read back, want %d (arcs or weights differ)", f, len(gotArcs), len(wantArcs))
	}
	if back.Directed != g.Directed || back.FloatWeights != g.FloatWeights {
		t.Errorf("%s: directed %v float %v, want %v %v", f, back.Directed, back.FloatWeights, g.Directed, g.FloatWeights)
	}
}

// TestWriteRoundTripDatasets writes every shipped dataset, the
// Graphalytics graphs and some generated graphs in every format and reads
// them back: the same vertices, arcs and weights, under the same labels
// where the format keeps labels (edge lists drop only isolated vertices).
func TestWriteRoundTripDatasets(t *testing.T) {
	type source struct {
		name string
		load func(opt ReadOptions) (*Graph, error)
		opts []ReadOptions
	}
	var srcs []source
	directed := map[string]bool{"wiki-Vote.txt": true, "p2p-Gnutella08.txt": true, "rome99.gr": true}
	forced := map[string]Format{"luxembourg_osm.mtx": FormatEdgeList, "fpgagraphlib-GRCite.graph": FormatEdgeList, "fpgagraphlib-s13e16.graph": FormatEdgeList}
	for _, name := range datasets.Names(t) {
		path := datasets.Path(t, name)
		opts := []ReadOptions{{}, {Weighted: true, RandomWeights: 1000, Seed: 3}}
		if directed[name] {
			opts = append(opts, ReadOptions{Directed: true, Weighted: true})
		}
		srcs = append(srcs, source{name, func(opt ReadOptions) (*Graph, error) {
			opt.Format = forced[name]
			return ReadFile(path, opt)
		}, opts})
	}
	ga := filepath.Join(datasets.Dir(t), "graphalytics")
	for _, p := range []string{"example/example-directed.e", "example/example-undirected.e", "sssp/dir-input.e", "sssp/undir-input.e", "bfs/dir-input", "wcc/undir-input"} {
		path := filepath.Join(ga, p)
		srcs = append(srcs, source{p, func(opt ReadOptions) (*Graph, error) { return ReadFile(path, opt) },
			[]ReadOptions{{}, {Directed: true}, {Directed: true, Weighted: true, FloatWeights: true}, {Weighted: true}}})
	}
	for _, spec := range []string{"rmat:scale=10,ef=8,seed=2", "grid:rows=7,cols=9,maxw=50", "line:n=5"} {
		srcs = append(srcs, source{spec, func(opt ReadOptions) (*Graph, error) { return Load(spec, opt) },
			[]ReadOptions{{}, {Directed: true, Weighted: true, FloatWeights: true}}})
	}
	for _, src := range srcs {
		for _, opt := range src.opts {
			g, err := src.load(opt)
			if err != nil {
				t.Fatalf("%s: %v", src.name, err)
			}
			for _, f := range Writable {
				t.Run(fmt.Sprintf("%s/directed=%v,weighted=%v,float=%v/%s", src.name, opt.Directed, opt.Weighted, opt.FloatWeights, f), func(t *testing.T) {
					if err := CheckWrite(g, f); err != nil {
						if f != FormatMETIS && f != FormatDIMACS {
							t.Fatal(err)
						}
						return
					}
					back := roundTrip(t, g, f, ReadOptions{Directed: g.Directed, Weighted: g.Weights != nil, FloatWeights: g.FloatWeights})
					checkSame(t, g, back, f)
				})
			}
		}
	}
}

// TestWriteFormats pins the text of every format for one small weighted
// graph with a label gap and an isolated vertex.
func TestWriteFormats(t *testing.T) {
	g, err := ReadVE(strings.NewReader("1\n2\n4\n9\n"), strings.NewReader("1 2 0.5\n2 4 3\n"), "g.v", "g.e", ReadOptions{Weighted: true, FloatWeights: true})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Write(&b, g, FormatEdgeList); err != nil {
		t.Fatal(err)
	}
	if want := "# g.e: 4 vertices, 2 edges, undirected\n1\t2\t0.5\n2\t4\t3\n"; b.String() != want {
		t.Errorf("edge list:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := Write(&b, g, FormatMTX); err != nil {
		t.Fatal(err)
	}
	if want := "%%MatrixMarket matrix coordinate real symmetric\n% g.e: undirected\n4 4 2\n2 1 0.5\n3 2 3\n"; b.String() != want {
		t.Errorf("mtx:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := Write(&b, g, FormatAdj); err != nil {
		t.Fatal(err)
	}
	if want := "1 2\n2 1 4\n4 2\n9\n"; b.String() != want {
		t.Errorf("adj:\n%s\nwant\n%s", b.String(), want)
	}
	if err := CheckWrite(g, FormatMETIS); err == nil || !strings.Contains(err.Error(), "integers") {
		t.Errorf("METIS with float weights: %v", err)
	}
	notes := strings.Join(append(WriteNotes(g, FormatMTX), WriteNotes(g, FormatEdgeList)...), "\n")
	for _, want := range []string{"the labels 1..9 become their ranks 1..4", "1 are not written"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	var v, e bytes.Buffer
	if err := WriteVE(&v, &e, g); err != nil {
		t.Fatal(err)
	}
	if v.String() != "1\n2\n4\n9\n" || e.String() != "1 2 0.5\n2 4 3\n" {
		t.Errorf("ve:\n%s\n%s", v.String(), e.String())
	}
}
