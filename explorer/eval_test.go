package explorer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// small builds a notebook of a small design, saved in a temporary folder.
func small(t testing.TB, extra ...Input) *Notebook {
	t.Helper()
	nb := New("small")
	nb.Path = filepath.Join(t.TempDir(), "small.gravf.toml")
	for _, in := range append([]Input{
		&Platform{Board: "ac510", FPGAs: 2, PEs: 4, Arch: "gravf-m", Mem: "offchip", Filter: true},
		&Kernel{Kernel: "wcc"},
		&Dataset{Graph: "uniform:v=2048,d=16,seed=3", Format: "auto", WeightSeed: 1},
		&Partition{Partitioner: "greedy"},
	}, extra...) {
		if _, err := in.Check(); err != nil {
			t.Fatal(err)
		}
		nb.Append(in)
	}
	return nb
}

func TestStaleness(t *testing.T) {
	nb := small(t, &Model{Latency: true}, &Notes{Text: "x"})
	ctx := context.Background()
	for i := range nb.Cells {
		if !nb.Stale(i) && nb.Cells[i].In.Kind() != KindNotes {
			t.Fatalf("cell %d fresh before evaluation", i+1)
		}
	}
	if _, err := nb.RunAll(ctx, nil); err != nil {
		t.Fatal(err)
	}
	out, _, _ := nb.Result(4)
	before := out.(*ModelOutput)
	for i := range 5 {
		if nb.Stale(i) {
			t.Fatalf("cell %d stale after evaluating the model below it", i+1)
		}
	}
	// Raising the clock marks the platform and everything that depends on
	// it stale, and moves the PE limit; the kernel and dataset stay fresh.
	if err := nb.Edit(0, func(in Input) error { in.(*Platform).Set = map[string]float64{"clock_mhz": 375}; return nil }); err != nil {
		t.Fatal(err)
	}
	want := map[int]bool{0: true, 1: false, 2: false, 3: true, 4: true}
	for i, stale := range want {
		if nb.Stale(i) != stale {
			t.Errorf("cell %d: stale = %v, want %v", i+1, nb.Stale(i), stale)
		}
	}
	out, err := nb.Eval(ctx, 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := out.(*ModelOutput)
	pe0, _ := before.Limits.Get(model.LimitPE)
	pe1, _ := after.Limits.Get(model.LimitPE)
	if r := pe1 / pe0; r < 1.999 || r > 2.001 {
		t.Fatalf("doubling the clock scaled L_PE by %.4f", r)
	}
	// Undo finds the old result by its input hash: nothing is stale.
	if err := nb.Undo(); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if nb.Stale(i) {
			t.Fatalf("cell %d stale after undo", i+1)
		}
	}
	res, _, _ := nb.Result(4)
	if res.(*ModelOutput).TSys != before.TSys {
		t.Fatal("undo did not bring back the cached result")
	}
}

// TestDatasetKeepsItsGraphAcrossKernels checks that another kernel with
// the same edge data leaves the dataset fresh (the graph is not loaded
// again) while the cells that run the kernel go stale, and that a kernel
// that reads edge weights makes the dataset stale too.
func TestDatasetKeepsItsGraphAcrossKernels(t *testing.T) {
	nb := small(t, &Model{Latency: true})
	ctx := context.Background()
	if _, err := nb.RunAll(ctx, nil); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kernel       string
		datasetStale bool
	}{
		{"pr", false},
		{"bfs", false},
		{"sssp", true},
	} {
		if err := nb.Edit(1, func(in Input) error { in.(*Kernel).Kernel = tc.kernel; return nil }); err != nil {
			t.Fatal(err)
		}
		if got := nb.Stale(2); got != tc.datasetStale {
			t.Errorf("kernel %s: dataset stale = %v, want %v", tc.kernel, got, tc.datasetStale)
		}
		for _, i := range []int{1, 3, 4} {
			if !nb.Stale(i) {
				t.Errorf("kernel %s: cell %d fresh", tc.kernel, i+1)
			}
		}
		if _, err := nb.RunAll(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEvalErrorsNameCellAndLine(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) *Notebook {
		p := filepath.Join(dir, "nb.gravf.toml")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		nb, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		return nb
	}
	head := "version = 1\ntitle = \"t\"\n\n"
	tests := []struct {
		name, text string
		want       string
	}{
		{"unknown board", head + "[[cell]]\nkind = \"platform\"\nboard = \"ac999\"\n\n[[cell]]\nkind = \"kernel\"\n\n[[cell]]\nkind = \"dataset\"\n\n[[cell]]\nkind = \"model\"\n",
			"nb.gravf.toml:4: cell 1 (platform): "},
		{"missing file", head + "[[cell]]\nkind = \"platform\"\n\n[[cell]]\nkind = \"kernel\"\n\n[[cell]]\nkind = \"dataset\"\ngraph = \"no-such-graph.mtx\"\n\n[[cell]]\nkind = \"model\"\n",
			"nb.gravf.toml:10: cell 3 (dataset): graph no-such-graph.mtx"},
		{"no platform", head + "[[cell]]\nkind = \"kernel\"\n\n[[cell]]\nkind = \"dataset\"\n\n[[cell]]\nkind = \"model\"\n",
			"nb.gravf.toml:10: cell 3 (model): needs a platform cell above it"},
		{"unknown param", head + "[[cell]]\nkind = \"kernel\"\nkernel = \"bfs\"\nparams = { start = \"1\" }\n",
			"cell 1 (kernel): params: kernel bfs has no parameter \"start\""},
		{"bad width", head + "[[cell]]\nkind = \"kernel\"\nkernel = \"pr\"\nwidths = { \"vertex.nope\" = \"8\" }\n",
			"cell 1 (kernel): widths: kernel pr has no field vertex.nope"},
		{"too many fpgas", head + "[[cell]]\nkind = \"platform\"\nfpgas = 9\n",
			"cell 1 (platform): fpgas 9: ac510 has at most 4 FPGAs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nb := write(tc.text)
			_, err := nb.RunAll(context.Background(), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to contain %q", err, tc.want)
			}
			var ce *CellError
			if !errors.As(err, &ce) || ce.Line == 0 {
				t.Fatalf("not a CellError with a line: %#v", err)
			}
		})
	}
}

func TestKernelWidthEdit(t *testing.T) {
	nb := small(t, &Model{})
	if err := nb.Edit(1, func(in Input) error {
		in.(*Kernel).Widths = map[string]string{"update.label": "32"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The gather assigns the update's label to the vertex's: a wider update
	// alone does not type-check, and the kernel cell says so.
	if _, err := nb.Eval(context.Background(), 1, nil); err == nil || !strings.Contains(err.Error(), "does not fit label") {
		t.Fatalf("err = %v", err)
	}
	if err := nb.Edit(1, func(in Input) error {
		in.(*Kernel).Widths = map[string]string{"update.label": "32", "vertex.label": "32"}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	out, err := nb.Eval(context.Background(), 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := out.(*ModelOutput)
	// The edit makes the update label 32 bits on the wire, beside the
	// sender id and the header bits, and the message (the same layout) too.
	if w := 32 + m.Sizes.VertexIDBits + arch.HeaderBits; m.Sizes.UpdateWire.Bits != w || m.Sizes.MessageWire.Bits != w {
		t.Fatalf("update %d, message %d bits", m.Sizes.UpdateWire.Bits, m.Sizes.MessageWire.Bits)
	}
	k, _, _ := nb.Result(1)
	if ko := k.(*KernelOutput); !ko.Layouts[0].Fields[0].Edited || !ko.Layouts[1].Fields[0].Edited || len(ko.HandWritten) != 0 || ko.Sizes.Vertex != 33 {
		t.Fatalf("kernel output %+v", ko.Layouts)
	}
}

func sweepJSON(t *testing.T, nb *Notebook, i int) (*SweepOutput, []byte) {
	t.Helper()
	out, err := nb.Eval(context.Background(), i, nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return out.(*SweepOutput), data
}

func TestShardsMergeToTheWholeSweep(t *testing.T) {
	grid := "arch=gravf-m|gravf,packing=false|true,fpgas=1..3,pes=2|4"
	whole, wholeJSON := sweepJSON(t, small(t, &Sweep{Grid: grid, Simulate: true, Detail: "fast", Cost: "pes"}), 4)
	if whole.Total != 24 || len(whole.Points) != 24 || !whole.Complete {
		t.Fatalf("whole sweep: %d of %d points", len(whole.Points), whole.Total)
	}
	var parts []*SweepOutput
	for i := range 3 {
		// A fresh notebook per shard, as on separate machines.
		p, _ := sweepJSON(t, small(t, &Sweep{Grid: grid, Simulate: true, Detail: "fast", Cost: "pes", Shard: Shard{i, 3}.String()}), 4)
		if len(p.Points) != 8 {
			t.Fatalf("shard %d has %d points", i, len(p.Points))
		}
		// Round trip through JSON, as explore merge reads the parts.
		data, _ := json.Marshal(p)
		var back SweepOutput
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, &back)
	}
	merged, err := Merge([]*SweepOutput{parts[2], parts[0], parts[1]})
	if err != nil {
		t.Fatal(err)
	}
	mergedJSON, _ := json.Marshal(merged)
	if !bytes.Equal(mergedJSON, wholeJSON) {
		t.Fatalf("merged shards differ from the whole sweep:\n%s\n%s", mergedJSON, wholeJSON)
	}
	if _, err := Merge(parts[:2]); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("merge of 2 of 3 shards: %v", err)
	}
	if _, err := Merge([]*SweepOutput{parts[0], parts[0], parts[1], parts[2]}); err == nil {
		t.Fatal("merge accepted a shard twice")
	}
	other, _ := sweepJSON(t, small(t, &Sweep{Grid: grid, Cost: "pes", Detail: "fast", Shard: "0/3"}), 4)
	if _, err := Merge([]*SweepOutput{other, parts[1], parts[2]}); err == nil || !strings.Contains(err.Error(), "another sweep") {
		t.Fatalf("merge across sweeps: %v", err)
	}
	// The conclusions are real: GraVF-M beats GraVF at 3 FPGAs, and the
	// simulation stays below the model.
	best := whole.Point(whole.Best)
	if best.Point.Arch != "gravf-m" || best.Point.FPGAs != 3 {
		t.Errorf("best point %+v", best.Point)
	}
	for _, p := range whole.Points {
		if p.Sim == nil || p.Sim.Error != "" || p.Sim.Efficiency <= 0.3 || p.Sim.Efficiency > 1.0 {
			t.Errorf("point %d: sim %+v", p.Index, p.Sim)
		}
	}
	if len(whole.Disagree) != 5 || len(whole.Pareto) == 0 {
		t.Errorf("summary %+v", whole.Summary)
	}
}

func TestSweepCancelKeepsFinishedPoints(t *testing.T) {
	nb := small(t, &Sweep{Grid: "fpgas=1..4,pes=1..4", Simulate: true, Detail: "fast", Cost: "pes", Workers: 1})
	ctx, cancel := context.WithCancel(context.Background())
	var sims atomic.Int64
	out, err := nb.Eval(ctx, 4, func(p Progress) {
		if strings.HasPrefix(p.Text, "simulated") && sims.Add(1) == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	part := out.(*SweepOutput)
	if part.Complete || len(part.Points) < 3 || len(part.Points) >= 16 {
		t.Fatalf("cancelled sweep kept %d points, complete %v", len(part.Points), part.Complete)
	}
	if !nb.Stale(4) {
		t.Fatal("a cancelled sweep was cached as the cell's result")
	}
	// Running again simulates only what is missing.
	sims.Store(0)
	full, err := nb.Eval(context.Background(), 4, func(p Progress) {
		if strings.HasPrefix(p.Text, "simulated") {
			sims.Add(1)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(full.(*SweepOutput).Points); got != 16 {
		t.Fatalf("%d points", got)
	}
	for _, p := range part.Points {
		q := full.(*SweepOutput).Point(p.Index)
		if q.Sim.Cycles != p.Sim.Cycles {
			t.Fatalf("point %d: %d cycles, then %d", p.Index, p.Sim.Cycles, q.Sim.Cycles)
		}
	}
}

func TestRecommendationsSayWhereLimitsBind(t *testing.T) {
	// Degree 2 on the AC-510: the network binds from 2 FPGAs on and packing
	// helps (the paper's Fig. 9 regime).
	nb := New("d2")
	nb.Append(&Platform{Board: "ac510", Arch: "gravf-m", Mem: "offchip", Filter: true})
	nb.Append(&Kernel{Kernel: "wcc"})
	nb.Append(&Dataset{Graph: "uniform:v=262144,d=2,seed=1", Format: "auto", WeightSeed: 1})
	nb.Append(&Model{})
	out, err := nb.Eval(context.Background(), 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(out.(*ModelOutput).Recommendations, "\n")
	for _, want := range []string{"chosen by the optimiser", "The network interface binds from 2 FPGAs on", "Pack updates to gain", "To move the binding limit"} {
		if !strings.Contains(text, want) {
			t.Errorf("recommendations lack %q:\n%s", want, text)
		}
	}
}

// TestSampleNotebooksRun evaluates every built-in sample in a folder of its
// own with no dataset folder set: their graphs are generated or built in.
func TestSampleNotebooksRun(t *testing.T) {
	t.Setenv(DatasetsEnv, "")
	for _, name := range samples.NotebookNames() {
		t.Run(name, func(t *testing.T) {
			nb, err := Sample(name)
			if err != nil {
				t.Fatal(err)
			}
			if name == "partitioners" {
				testenv.NeedTool(t, "gpmetis")
			}
			nb.Path = filepath.Join(t.TempDir(), name+".gravf.toml")
			var cells []CellResult
			for i, c := range nb.Cells {
				if c.In.Kind() == KindExport {
					continue // exercised by the cmd tests with a small graph
				}
				out, err := nb.Eval(context.Background(), i, nil)
				if err != nil {
					t.Fatal(err)
				}
				cells = append(cells, CellResult{Kind: c.In.Kind(), Output: out})
				if d, ok := out.(*DatasetOutput); ok && d.File != "" && !strings.HasPrefix(d.File, builtinPrefix) {
					t.Errorf("the dataset was read from %s, not from the built-in data", d.File)
				}
			}
			checkSample(t, name, cells)
		})
	}
}

// checkSample asserts what each sample notebook is there to show.
func checkSample(t *testing.T, name string, cells []CellResult) {
	var sw *SweepOutput
	for _, c := range cells {
		if s, ok := c.Output.(*SweepOutput); ok {
			sw = s
		}
	}
	switch name {
	case "scaling":
		// GraVF-M scales over 1..4 FPGAs and beats GraVF at 4 by more than
		// 2x in simulation (the paper: 3.2x on its graphs).
		m, g := map[int]float64{}, map[int]float64{}
		for _, p := range sw.Points {
			if p.Point.Arch == "gravf-m" {
				m[p.Point.FPGAs] = p.Sim.TEPS
			} else {
				g[p.Point.FPGAs] = p.Sim.TEPS
			}
		}
		for f := 2; f <= 4; f++ {
			if m[f] <= m[f-1] {
				t.Errorf("GraVF-M does not scale from %d to %d FPGAs: %v", f-1, f, m)
			}
		}
		if r := m[4] / g[4]; r < 2 {
			t.Errorf("GraVF-M/GraVF at 4 FPGAs = %.2f", r)
		}
	case "degree":
		prev := 0.0
		for _, p := range sw.Points {
			if p.Sim.TEPS <= prev {
				t.Errorf("simulated throughput does not rise with the degree at %s", p.Point.Dataset)
			}
			prev = p.Sim.TEPS
		}
	case "partitioners":
		by := map[string]PointResult{}
		for _, p := range sw.Points {
			by[string(p.Point.Partitioner)] = p
		}
		if len(by) != 4 {
			t.Fatalf("partitioners %v", by)
		}
		var part *PartitionOutput
		for _, c := range cells {
			if p, ok := c.Output.(*PartitionOutput); ok {
				part = p
			}
		}
		if part == nil || part.Method != "metis" || part.Cut.CrossFPGAArcs <= 0 || part.Cut.CrossFPGAArcs >= part.Cut.Arcs/2 {
			t.Errorf("metis partition %+v", part)
		}
	case "default":
		var sim *SimulateOutput
		var tr *TraceOutput
		for _, c := range cells {
			switch o := c.Output.(type) {
			case *SimulateOutput:
				sim = o
			case *TraceOutput:
				tr = o
			}
		}
		if sim.Result.Efficiency < 0.7 || sim.Result.Efficiency > 1 || tr.Summary.Cycles != sim.Result.Cycles || tr.Samples < 100 {
			t.Errorf("default: efficiency %.3f, trace %d cycles (%d samples), sim %d", sim.Result.Efficiency, tr.Summary.Cycles, tr.Samples, sim.Result.Cycles)
		}
	}
}

func TestCacheKeepsWhatIsRead(t *testing.T) {
	c := newCache()
	c.limit = 3
	c.put("graph", entry{})
	for i := range 10 {
		c.put(string(rune('a'+i)), entry{})
		if _, ok := c.get("graph"); !ok {
			t.Fatalf("the entry read after every put was evicted after %d puts", i+1)
		}
	}
	if _, ok := c.get("a"); ok {
		t.Fatal("the oldest unread entry was kept")
	}
	if len(c.items) != 3 || len(c.order) != 3 {
		t.Fatalf("%d items, %d in order", len(c.items), len(c.order))
	}
}

// TestSynthesisedPECost: a per-PE cost cached by export --estimate-only
// sets the model's nP max on boards that do not fix it, and saving one
// makes the model cell stale.
func TestSynthesisedPECost(t *testing.T) {
	nb := small(t, &Model{})
	if err := nb.Edit(0, func(in Input) error {
		p := in.(*Platform)
		p.Board, p.FPGAs, p.PEs = "u250", 2, 0
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	out, err := nb.Eval(context.Background(), 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	before := out.(*ModelOutput)
	if _, err := gen.SavePECost("u250", "wcc", 2048, kernel.PECost{LUT: 200000, FF: 1000, BRAM36: 10}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(gen.PECostFile("u250", "wcc", 2048)) })
	if !nb.Stale(4) {
		t.Fatal("a new synthesised cost did not make the model stale")
	}
	out, err = nb.Eval(context.Background(), 4, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := out.(*ModelOutput)
	// The U250 has 1,728,000 LUTs: 200,000 per PE leave 8 PEs.
	if last := after.PECurve[len(after.PECurve)-1]; last.PEs >= before.PECurve[len(before.PECurve)-1].PEs || last.PEs > 8 {
		t.Fatalf("nP max %d before, %d with the synthesised cost", before.PECurve[len(before.PECurve)-1].PEs, last.PEs)
	}
}
