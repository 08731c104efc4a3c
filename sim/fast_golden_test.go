package sim_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// fastGolden is what TestFastGolden keeps of a fast-detail run: every
// timing figure it reports (the states are the reference engine's and
// checked elsewhere).
type fastGolden struct {
	Design       string          `json:"design"`
	Cycles       int64           `json:"cycles"`
	Messages     int64           `json:"messages"`
	PerSuperstep []sim.Superstep `json:"per_superstep"`
	PerPE        []sim.PEStats   `json:"per_pe"`
	Links        []sim.LinkStats `json:"links"`
}

// TestFastGolden pins fast detail's results, field by field (cycles,
// every superstep, every PE's breakdown, every link's words), on varied
// designs: uniform, R-MAT scrambled and classic, grid, road, social and
// layered graphs; WCC, BFS, PR and SSSP; 1 x 1 to 4 x 9; edges in block
// RAM and off-chip; both PE designs; GraVF-M and GraVF; AC-510 and U280.
// A change that is meant to make fast detail faster, not different, must
// leave testdata/fast_golden.json as it is; a change of the model
// refreshes it with -update.
func TestFastGolden(t *testing.T) {
	dir := datasets.Dir(t)
	type design struct {
		kernel, graph string
		opt           graph.ReadOptions
		board         string
		nF, nP        int
		mem           model.MemKind
		arch          model.Arch
		pe            sim.PEDesign
	}
	social := filepath.Join(dir, "facebook_combined.txt")
	road := filepath.Join(dir, "rome99.gr")
	wiki := filepath.Join(dir, "wiki-Vote.txt")
	designs := []design{
		{"pr", "rmat:scale=12,ef=16,seed=1", graph.ReadOptions{}, "ac510", 4, 9, model.OffChip, model.GraVFM, sim.PEGenerated},
		{"pr", "rmat:scale=12,ef=16,seed=1", graph.ReadOptions{}, "ac510", 4, 9, model.BRAM, model.GraVFM, sim.PEGenerated},
		{"pr", "rmat:scale=11,ef=16,seed=1,scramble=false", graph.ReadOptions{}, "ac510", 4, 4, model.BRAM, model.GraVFM, sim.PEPaper},
		{"wcc", "rmat:scale=12,ef=16,seed=2", graph.ReadOptions{}, "ac510", 4, 9, model.OffChip, model.GraVFM, sim.PEGenerated},
		{"wcc", "rmat:scale=12,ef=8,seed=3,scramble=false", graph.ReadOptions{}, "u280", 2, 9, model.OffChip, model.GraVFM, sim.PEPaper},
		{"bfs", "rmat:scale=12,ef=16,seed=1", graph.ReadOptions{}, "ac510", 4, 9, model.OffChip, model.GraVFM, sim.PEGenerated},
		{"bfs", "uniform:v=4000,d=16,seed=2", graph.ReadOptions{}, "u280", 4, 4, model.BRAM, model.GraVFM, sim.PEGenerated},
		{"sssp", "uniform:v=3000,d=8,seed=4", graph.ReadOptions{}, "ac510", 2, 4, model.OffChip, model.GraVFM, sim.PEGenerated},
		{"wcc", "uniform:v=3000,d=32,seed=2", graph.ReadOptions{}, "ac510", 3, 2, model.BRAM, model.GraVFM, sim.PEGenerated},
		{"pr", "uniform:v=2000,d=2,seed=5", graph.ReadOptions{}, "ac510", 1, 1, model.BRAM, model.GraVFM, sim.PEGenerated},
		{"pr", "uniform:v=2000,d=64,seed=6", graph.ReadOptions{}, "u280", 1, 9, model.OffChip, model.GraVFM, sim.PEPaper},
		{"sssp", "grid:rows=30,cols=40,seed=1,maxw=50", graph.ReadOptions{}, "ac510", 4, 1, model.OffChip, model.GraVFM, sim.PEPaper},
		{"bfs", "grid:rows=40,cols=40,seed=2", graph.ReadOptions{}, "ac510", 2, 2, model.BRAM, model.GraVFM, sim.PEGenerated},
		{"bfs", "layered:w=256,d=8,extra=4", graph.ReadOptions{}, "ac510", 2, 9, model.OffChip, model.GraVFM, sim.PEGenerated},
		{"wcc", "layered:w=128,d=12,extra=2", graph.ReadOptions{}, "u280", 4, 9, model.BRAM, model.GraVFM, sim.PEPaper},
		{"sssp", road, graph.ReadOptions{Directed: true}, "ac510", 4, 9, model.OffChip, model.GraVFM, sim.PEGenerated},
		{"wcc", road, graph.ReadOptions{Directed: true}, "ac510", 2, 4, model.BRAM, model.GraVFM, sim.PEGenerated},
		{"pr", social, graph.ReadOptions{}, "ac510", 4, 9, model.OffChip, model.GraVFM, sim.PEGenerated},
		{"wcc", social, graph.ReadOptions{}, "ac510", 4, 9, model.BRAM, model.GraVFM, sim.PEPaper},
		{"bfs", wiki, graph.ReadOptions{Directed: true}, "u280", 2, 9, model.OffChip, model.GraVFM, sim.PEGenerated},
		{"pr", "rmat:scale=10,ef=16,seed=1", graph.ReadOptions{}, "ac510", 4, 9, model.OffChip, model.GraVF, sim.PEGenerated},
		{"wcc", "uniform:v=1500,d=8,seed=7", graph.ReadOptions{}, "ac510", 2, 3, model.BRAM, model.GraVF, sim.PEGenerated},
		{"bfs", "grid:rows=20,cols=20,seed=3", graph.ReadOptions{}, "u280", 4, 2, model.OffChip, model.GraVF, sim.PEPaper},
		{"sssp", "rmat:scale=9,ef=8,seed=3", graph.ReadOptions{}, "ac510", 1, 4, model.BRAM, model.GraVF, sim.PEGenerated},
	}
	var got []fastGolden
	for _, d := range designs {
		name := fmt.Sprintf("%s/%s/%s/%dx%d/%s/%s/%s", d.kernel, filepath.Base(d.graph), d.board, d.nF, d.nP, d.mem, d.arch, d.pe)
		fx := load(t, d.kernel, d.graph, d.opt)
		res, err := sim.Run(context.Background(), &sim.Setup{Board: board(t, d.board), Kernel: fx.k, Graph: fx.g,
			FPGAs: d.nF, PEs: d.nP, Mem: d.mem, Arch: d.arch, PE: d.pe, Filter: true, Detail: sim.Fast})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got = append(got, fastGolden{Design: name, Cycles: res.Cycles, Messages: res.Messages,
			PerSuperstep: res.PerSuperstep, PerPE: res.PerPE, Links: res.Links})
	}
	file := filepath.Join("testdata", "fast_golden.json")
	b, err := json.MarshalIndent(got, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(b, want) {
		return
	}
	var old []fastGolden
	if err := json.Unmarshal(want, &old); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if i >= len(old) {
			t.Errorf("%s: not in the golden file", got[i].Design)
			continue
		}
		g, _ := json.Marshal(got[i])
		w, _ := json.Marshal(old[i])
		if !bytes.Equal(g, w) {
			t.Errorf("%s: %d cycles, golden %d (%s)", got[i].Design, got[i].Cycles, old[i].Cycles, old[i].Design)
		}
	}
	if len(old) != len(got) {
		t.Errorf("%d designs, golden %d", len(got), len(old))
	}
}
