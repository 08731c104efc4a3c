package model_test

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestProfileGolden pins every figure of the profiles of varied graphs,
// kernels and designs (both architectures, both PE designs, edges in BRAM
// and off chip, one to four FPGAs, two boards, every partitioner but
// METIS): the profile's computation may get faster, never different.
// Refresh with -update only for a change of the mechanisms themselves.
//
// The profiles and predictions read back from the cache (an empty one,
// then the same one filled) must print the same.
func TestProfileGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("the golden profiles take a few seconds")
	}
	store := diskcache.New(t.TempDir(), 1<<30)
	for _, tc := range []struct {
		what  string
		store *diskcache.Store
	}{{"without a cache", nil}, {"with an empty cache", store}, {"with the cache filled", store}} {
		t.Run(tc.what, func(t *testing.T) { checkProfileGolden(t, tc.store) })
	}
}

// checkProfileGolden compares the profiles of every case, through store
// (nil: none), with the golden file.
func checkProfileGolden(t *testing.T, store *diskcache.Store) {
	shipped := datasets.Dir(t)
	graphs := []string{
		"rmat:scale=11,ef=16,seed=1", "rmat:scale=11,ef=16,seed=2,scramble=false",
		"uniform:v=3000,d=6,seed=1", "grid:rows=16,cols=24", "layered:w=32,d=16",
		filepath.Join(shipped, "karate.mtx"), filepath.Join(shipped, "power.graph"),
	}
	type design struct {
		board string
		pe    model.PEDesign
		c     model.Config
	}
	designs := []design{
		{"ac510", model.PEGenerated, model.Config{FPGAs: 1, PEs: 4, Mem: model.BRAM}},
		{"ac510", model.PEGenerated, model.Config{FPGAs: 4, PEs: 9, Mem: model.OffChip, Filter: true}},
		{"ac510", model.PEPaper, model.Config{FPGAs: 2, PEs: 3, Mem: model.BRAM, Filter: true}},
		{"ac510", model.PEPaper, model.Config{FPGAs: 3, PEs: 5, Mem: model.OffChip}},
		{"ac510", model.PEGenerated, model.Config{FPGAs: 4, PEs: 2, Mem: model.BRAM, Arch: model.GraVF}},
		{"ac510", model.PEGenerated, model.Config{FPGAs: 2, PEs: 4, Mem: model.OffChip, Arch: model.GraVF}},
		{"u280", model.PEGenerated, model.Config{FPGAs: 2, PEs: 8, Mem: model.OffChip, Filter: true}},
	}
	var out strings.Builder
	for _, spec := range graphs {
		for _, kn := range []string{"wcc", "bfs", "pr", "sssp"} {
			g, k, act := goldenActivity(t, kn, spec, store)
			for i, d := range designs {
				method := []graph.Partitioner{graph.Greedy, graph.Robin, graph.GreedySorted}[i%3]
				b, err := boards.Get(d.board)
				if err != nil {
					t.Fatal(err)
				}
				p, err := model.FromBoard(b, "")
				if err != nil {
					t.Fatal(err)
				}
				w := model.NewWorkload(k, g, 1, "golden", nil)
				w.PE = d.pe
				part, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: d.c.FPGAs, PEs: d.c.PEs, Method: method, Seed: 1})
				if err != nil {
					t.Fatal(err)
				}
				c := d.c
				if c.Arch == "" {
					c.Arch = model.GraVFM
				}
				pr, err := model.NewProfile(g, part, act, p.ProfileFor(w, c))
				if err != nil {
					t.Fatal(err)
				}
				// The prediction composed from the same partition.
				ps := model.NewProfiles(g, act, graph.PartitionOptions{Method: method, Seed: 1})
				ps.Use(part)
				w.Attach(ps)
				r, err := model.Evaluate(p, w, c)
				if err != nil {
					t.Fatal(err)
				}
				pred, err := model.PredictContext(context.Background(), p, w, r)
				if err != nil {
					t.Fatal(err)
				}
				if store != nil { // the profile the prediction read
					if pr, err = ps.Get(context.Background(), c.FPGAs, c.PEs, p.ProfileFor(w, c)); err != nil {
						t.Fatal(err)
					}
				}
				fmt.Fprintf(&out, "%s %s %s %s %dx%d %s %s %s filter=%v: sweep %d pe %d\n", filepath.Base(spec), kn, d.board, d.pe, c.FPGAs, c.PEs, c.Arch, c.Mem, method, c.Filter, pr.Sweep, pr.SweepPE)
				fmt.Fprintf(&out, "  predicted %.12g TEPS, %.12g s:", pred.TEPS, pred.Seconds)
				for _, m := range pred.Breakdown {
					fmt.Fprintf(&out, " %s %.9g", m.Mechanism, m.Seconds)
				}
				out.WriteString("\n")
				for s, st := range pr.Steps {
					// Every FPGA's share, as a digest.
					h := sha256.New()
					for _, f := range st.PerFPGA {
						fmt.Fprintf(h, "%d %v %d %g;", f.Local, f.Need, f.Items, f.End)
					}
					fmt.Fprintf(&out, "  %d: msgs %d max %d@%d mean %.6g gather %g@%d hazard %g scatter %g xbar %d end %g@%d link %d if %d mem %d set %d fpgas %x\n",
						s, st.Messages, st.MaxEdges, st.MaxEdgesPE, st.MeanEdges, st.Gather, st.GatherPE, st.Hazard, st.Scatter, st.Crossbar, st.End, st.EndFPGA, st.LinkItems, st.IfItems, st.MemWords, st.Set, h.Sum(nil)[:6])
				}
			}
		}
	}
	path := filepath.Join("testdata", "profiles.golden")
	if *update && store == nil {
		if err := os.WriteFile(path, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if *update {
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("profiles differ from %s at line %d:\n got %s\nwant %s", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("profiles differ from %s: %d lines, want %d", path, len(gl), len(wl))
	}
}

// goldenActivity loads a graph and records a kernel's activity on it (PR
// with five iterations).
func goldenActivity(t testing.TB, kn, spec string, store *diskcache.Store) (*graph.Graph, *kernel.Kernel, *model.Activity) {
	t.Helper()
	s, err := samples.Kernel(kn)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load(spec, graph.ReadOptions{Weighted: len(s.Edge) > 0, RandomWeights: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]string{}
	if kn == "pr" {
		params["iterations"] = "5"
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup, Params: params})
	if err != nil && (kn == "bfs" || kn == "sssp") {
		params["root"] = "1" // files whose ids start at 1
		k, err = s.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup, Params: params})
	}
	if err != nil {
		t.Fatal(err)
	}
	act, err := model.ReferenceActivity(context.Background(), k, g, kernel.RunOptions{}, store)
	if err != nil {
		t.Fatal(err)
	}
	return g, k, act
}
