package gen

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/outfile"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// TestTablesMatchWholeLayout: the lists of every FPGA's own layout, the
// per-PE edge and off-chip word counts and the extent are those of the
// whole graph's edge layout, which the export read before, on varied
// graphs (scrambled and unscrambled R-MAT, uniform, a weighted grid, a
// layered graph and a road network) and system shapes, for one worker and
// for several (the counts are cut in chunks, one per worker), whether the
// lists hold local indexes or, for a PE of more than 65,536 vertices,
// vertex ids.
func TestTablesMatchWholeLayout(t *testing.T) {
	cases := []struct {
		spec   string
		nF, nP int
	}{
		{"rmat:scale=11,ef=8,seed=1", 4, 9},
		{"rmat:scale=10,ef=16,seed=2,scramble=false", 3, 5},
		{"uniform:v=3000,d=6,seed=3", 2, 4},
		{"grid:rows=30,cols=40,seed=2,maxw=40", 2, 3},
		{"layered:w=16,d=40", 1, 4},
		{"line:n=50", 5, 1},
		// A PE of more vertices than 16 bits index: lists of vertex ids.
		{"line:n=70000", 1, 1},
	}
	for _, c := range cases {
		for _, procs := range []int{1, 2, 3} {
			t.Run(fmt.Sprintf("%s/%dx%d/procs=%d", c.spec, c.nF, c.nP, procs), func(t *testing.T) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				checkFPGATables(t, c.spec, c.nF, c.nP)
			})
		}
	}
}

func checkFPGATables(t *testing.T, spec string, nF, nP int) {
	g, err := graph.Load(spec, graph.ReadOptions{Weighted: strings.Contains(spec, "maxw")})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := samples.Kernel("sssp")
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: map[string]string{"root": "0"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: nF, PEs: nP, Method: graph.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	mem := memory(128, 32, 4, 4, 1)
	tb, ext, err := newTables(testDesign(t, k, nF, nP, 1, mem), k, g, p, true)
	if err != nil {
		t.Fatal(err)
	}
	whole := graph.NewEdgeLayout(g, p)
	if !slices.Equal(tb.edges, whole.EdgesPerPE()) {
		t.Fatalf("edges per PE %v, the whole layout's %v", tb.edges, whole.EdgesPerPE())
	}
	words := make([]int, p.NumPEs())
	for i := 0; i < whole.NumRuns(); i++ {
		pe, nbrs, _ := whole.Run(i)
		words[pe] += (len(nbrs) + mem.EdgesPerWord - 1) / mem.EdgesPerWord
	}
	if !slices.Equal(tb.words, words) {
		t.Fatalf("off-chip words per PE %v, want %v", tb.words, words)
	}
	most := 1
	for f := 0; f < nF; f++ {
		most = max(most, tb.fpgaWords(f))
	}
	if ext.MaxWords != most || ext.MaxEdges != slices.Max(tb.edges) {
		t.Fatalf("extent %+v: %d words, %d edges", ext, most, slices.Max(tb.edges))
	}
	for pe := 0; pe < p.NumPEs(); pe++ {
		l := tb.lists(p.FPGAOfPE(pe))
		for u := uint32(0); int(u) < g.NumVertices(); u++ {
			e := tb.listOf(l, pe, u)
			var n1 []uint32
			for i := range e.len() {
				if v := e.global(i, pe, p); e.local(i, p) != p.Local[v] {
					t.Fatalf("PE %d vertex %d: neighbour %d has local index %d, the partition's %d", pe, u, v, e.local(i, p), p.Local[v])
				} else {
					n1 = append(n1, v)
				}
			}
			n2, w2 := whole.Local(pe, u)
			if !slices.Equal(n1, n2) || !slices.Equal(e.weights, w2) {
				t.Fatalf("PE %d vertex %d: lists %v %v, the whole layout's %v %v", pe, u, n1, e.weights, n2, w2)
			}
		}
	}
	if tb.layouts != nF {
		t.Fatalf("%d FPGA layouts built for %d FPGAs, read in order", tb.layouts, nF)
	}
}

// TestWriteGroupsBuildEachLayoutOnce: writing a project group by group
// builds every FPGA's lists once, and every image of a group reads only
// its FPGA's.
func TestWriteGroupsBuildEachLayoutOnce(t *testing.T) {
	g, err := graph.Load("rmat:scale=9,ef=8,seed=4", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := samples.Kernel("wcc")
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices()})
	if err != nil {
		t.Fatal(err)
	}
	for _, mem := range []bool{false, true} {
		d := testDesign(t, k, 3, 2, 1, nil)
		if mem {
			d = testDesign(t, k, 3, 2, 1, memory(128, 32, 4, 4, 1))
		}
		sys, err := GenerateSystem(context.Background(), SystemOptions{Design: d, Kernel: k, Graph: g, Filter: true})
		if err != nil {
			t.Fatal(err)
		}
		groups := sys.WriteGroups()
		var all []string
		for _, grp := range groups {
			all = append(all, grp...)
		}
		slices.Sort(all)
		if !slices.Equal(all, sys.Paths()) {
			t.Fatalf("groups hold %d paths, the system %d", len(all), len(sys.Paths()))
		}
		for i, grp := range groups[1:] {
			for _, p := range grp {
				if err := sys.WriteFile(io.Discard, p); err != nil {
					t.Fatal(err)
				}
				if sys.tables.fpga != i {
					t.Fatalf("%s of group %d reads FPGA %d's lists", p, i+1, sys.tables.fpga)
				}
			}
		}
		if sys.tables.layouts != 3 {
			t.Fatalf("off-chip %v: %d layouts built for 3 FPGAs", mem, sys.tables.layouts)
		}
	}
}

// TestWriteFilesReportsFirstFailure: when several files fail, the error is
// the first failing file's in order, whatever the workers met first, and
// no file after a failure is started once it is known.
func TestWriteFilesReportsFirstFailure(t *testing.T) {
	for range 20 {
		d, err := outfile.CreateDir(filepath.Join(t.TempDir(), "proj"))
		if err != nil {
			t.Fatal(err)
		}
		var paths []string
		for i := range 40 {
			paths = append(paths, fmt.Sprintf("f%02d", i))
		}
		err = writeFiles(context.Background(), d, paths, func(w io.Writer, p string) error {
			if p == "f07" || p == "f08" || p == "f31" {
				return errors.New("broken " + p)
			}
			_, err := io.WriteString(w, p)
			return err
		})
		if err == nil || !strings.Contains(err.Error(), "broken f07") {
			t.Fatalf("error %v, want f07's", err)
		}
		d.Discard()
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, err := outfile.CreateDir(filepath.Join(t.TempDir(), "proj"))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Discard()
	if err := writeFiles(ctx, d, []string{"a", "b"}, func(io.Writer, string) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestGraphSHA256 compares the buffered hash with the hash of the CSR
// arrays written entry by entry, on a weighted graph whose arrays span
// several buffers.
func TestGraphSHA256(t *testing.T) {
	g, err := graph.Load("grid:rows=150,cols=200,seed=2,maxw=40", graph.ReadOptions{Weighted: true})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, xs := range [][]uint32{g.Offsets, g.Adj, g.Weights} {
		for _, x := range xs {
			h.Write([]byte{byte(x), byte(x >> 8), byte(x >> 16), byte(x >> 24)})
		}
	}
	if got, want := GraphSHA256(g), hex.EncodeToString(h.Sum(nil)); got != want || len(g.Adj) < 1<<15 {
		t.Fatalf("%s, want %s (%d arcs)", got, want, len(g.Adj))
	}
}
