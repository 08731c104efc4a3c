package fidelity_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/fidelity"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestCorpusCovers checks the corpus against the issue's list: every
// public graph, R-MAT scales 12 to 16 scrambled and not, uniform degrees 2
// to 64, grids, layered graphs, the four kernels, 1, 2 and 4 FPGAs x 1, 4
// and 9 PEs, both memories, both architectures, both PE designs, two
// boards, the issue's table in the CI subset, and at least 40 CI points.
func TestCorpusCovers(t *testing.T) {
	ps := fidelity.Corpus()
	seen := map[string]bool{}
	for _, p := range ps {
		if seen[p.Name()] {
			t.Errorf("%s appears twice", p.Name())
		}
		seen[p.Name()] = true
	}
	has := func(what string, f func(fidelity.Point) bool) {
		t.Helper()
		if !slices.ContainsFunc(ps, f) {
			t.Errorf("no corpus point has %s", what)
		}
	}
	for _, k := range fidelity.Kernels {
		has("kernel "+k, func(p fidelity.Point) bool { return p.Kernel == k })
	}
	for _, c := range fidelity.Classes {
		has("class "+c, func(p fidelity.Point) bool { return p.Class == c })
	}
	for _, n := range []int{1, 2, 4} {
		for _, m := range []int{1, 4, 9} {
			has(fmt.Sprintf("%d x %d", n, m), func(p fidelity.Point) bool { return p.FPGAs == n && p.PEs == m })
		}
	}
	for _, m := range []model.MemKind{model.BRAM, model.OffChip} {
		has("mem "+string(m), func(p fidelity.Point) bool { return p.Mem == m })
	}
	for _, a := range []model.Arch{model.GraVFM, model.GraVF} {
		has("arch "+string(a), func(p fidelity.Point) bool { return p.Arch == a })
	}
	for _, d := range []model.PEDesign{model.PEGenerated, model.PEPaper} {
		has("PE "+string(d), func(p fidelity.Point) bool { return p.PE == d })
	}
	for _, b := range []string{"ac510", "u280"} {
		has("board "+b, func(p fidelity.Point) bool { return p.Board == b })
	}
	for scale := 12; scale <= 16; scale++ {
		for _, scr := range []bool{true, false} {
			spec := fmt.Sprintf("rmat:scale=%d,ef=16,seed=1,scramble=%v", scale, scr)
			has(spec, func(p fidelity.Point) bool { return p.Graph == spec })
		}
	}
	for _, d := range []int{2, 4, 8, 16, 32, 64} {
		has(fmt.Sprintf("uniform degree %d", d), func(p fidelity.Point) bool {
			return strings.HasPrefix(p.Graph, "uniform:") && strings.Contains(p.Graph, fmt.Sprintf(",d=%d,", d))
		})
	}
	if dir := datasetDir(t); dir != "" {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() || filepath.Ext(e.Name()) == ".md" {
				continue
			}
			name := strings.TrimSuffix(e.Name(), ".gz") // the shipped copies
			has("dataset "+name, func(p fidelity.Point) bool { return p.Dataset && p.Graph == name })
		}
	}
	ci := fidelity.Filter{CI: true}.Select(ps)
	if len(ci) < 40 {
		t.Errorf("CI subset has %d points, want at least 40", len(ci))
	}
	for _, row := range []string{
		"pr rmat:scale=12,ef=16,seed=1,scramble=false 4x9 bram gravf-m",
		"pr facebook_combined.txt 4x9 offchip gravf-m",
		"pr fpgagraphlib-s14e16.graph 4x9 offchip gravf-m",
		"pr wiki-Vote.txt 4x9 offchip gravf-m",
		"wcc rmat:scale=14,ef=16,seed=1,scramble=false 4x9 bram gravf-m",
	} {
		if !slices.ContainsFunc(ci, func(p fidelity.Point) bool { return p.Name() == row }) {
			t.Errorf("the issue's row %q is not in the CI subset", row)
		}
	}
	t.Logf("%d points, %d in the CI subset", len(ps), len(ci))
}

func datasetDir(t *testing.T) string {
	if testing.Short() && os.Getenv("CI") == "" {
		return fidelity.DatasetDir()
	}
	return datasets.Dir(t)
}

// TestCISubset simulates the CI subset at both levels of detail and holds
// fast detail to its bounds (within 5 % of cycle detail in total cycles
// and 10 % in every superstep of at least 1000 cycles) and the model's
// prediction to its own: within 15 % of cycle detail's throughput on every
// point that traverses at least 100,000 edges, and never above T_sys.
func TestCISubset(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates about 40 designs at cycle detail")
	}
	env := fidelity.Env{Datasets: datasets.Dir(t)}
	pts := fidelity.Filter{CI: true}.Select(fidelity.Corpus())
	ms, err := fidelity.Run(context.Background(), env, pts, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		step := "-"
		if m.WorstStep != nil {
			step = fmt.Sprintf("%+.2f %% in superstep %d", 100*m.WorstStep.Err, m.WorstStep.Index)
		}
		t.Logf("%-62s cycle %8d, fast %+.2f %%, worst superstep %s, model %+.1f %%", m.Name, m.Cycle, 100*m.FastErr, step, 100*m.ModelErr)
		if !m.FastOK() {
			t.Errorf("%s: fast detail %+.2f %% in total (bound %.0f %%), worst superstep %s (bound %.0f %%)",
				m.Name, 100*m.FastErr, 100*fidelity.FastTotalBound, step, 100*fidelity.FastStepBound)
		}
		if !m.ModelOK() {
			t.Errorf("%s: the model predicts %.0f MTEPS, cycle detail runs %.0f (%+.1f %%, bound %.0f %% from %d traversed edges; %d here), T_sys %.0f",
				m.Name, m.Predicted/1e6, m.CycleTEPS/1e6, 100*m.ModelErr, 100*fidelity.ModelBound, fidelity.ModelMinEdges, m.Messages, m.TSys/1e6)
		}
		if m.Messages >= fidelity.ModelMinEdges && m.Predicted <= 0 {
			t.Errorf("%s: the model has no prediction", m.Name)
		}
		if math.IsNaN(m.FastErr) || m.Cycle <= 0 {
			t.Errorf("%s: no cycles measured", m.Name)
		}
	}
	s := fidelity.Summarise(ms, 5)
	t.Logf("fast: median %.2f %%, worst %+.2f %%; model: median %.1f %%, worst %+.1f %% (%d points)",
		100*s.All.Fast.Median, 100*s.All.Fast.Worst, 100*s.All.Model.Median, 100*s.All.Model.Worst, s.All.Model.N)
}

// ExampleFilter selects the CI subset's PageRank points on skewed graphs.
func ExampleFilter() {
	f := fidelity.Filter{Kernels: []string{"pr"}, Classes: []string{"social", "graph500"}, CI: true}
	for _, p := range f.Select(fidelity.Corpus()) {
		fmt.Println(p.Name())
	}
	// Output:
	// pr facebook_combined.txt 4x9 offchip gravf-m
	// pr fpgagraphlib-s14e16.graph 4x9 offchip gravf-m
	// pr wiki-Vote.txt 4x9 offchip gravf-m
	// pr facebook_combined.txt 2x4 offchip gravf-m
}
