package model_test

import (
	"math"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

func workload(t testing.TB, p *model.Platform, kname, spec string) *model.Workload {
	t.Helper()
	g, err := graph.Load(spec, graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := samples.Kernel(kname)
	if err != nil {
		t.Fatal(err)
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices()})
	if err != nil {
		t.Fatal(err)
	}
	c, src := p.KernelCPE(kname)
	return model.NewWorkload(k, g, c, src, nil)
}

func ac510(t testing.TB) *model.Platform {
	t.Helper()
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	p, err := model.FromBoard(b, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAC510PELimits(t *testing.T) {
	p := ac510(t)
	for _, tc := range []struct {
		k    string
		want float64
	}{{"wcc", 6.4286e9}, {"bfs", 6.1364e9}, {"pr", 4.7535e9}} {
		w := workload(t, p, tc.k, "uniform:v=4096,d=32,seed=1")
		r, err := model.Evaluate(p, w, model.Config{FPGAs: 4, PEs: 9})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(*r.Limits.PE/tc.want-1) > 1e-4 {
			t.Errorf("%s: L_PE %.5g, want %.5g", tc.k, *r.Limits.PE, tc.want)
		}
	}
}

// TestAC510Optimiser is the acceptance case of the model: the paper's
// platform with WCC on a degree-32 uniform graph picks 4 x 9, PE bound;
// on degree 2 the network interface binds at 4 FPGAs and the choice
// follows from the curve.
func TestAC510Optimiser(t *testing.T) {
	p := ac510(t)
	ch, err := model.Optimise(p, workload(t, p, "wcc", "uniform:v=262144,d=32,seed=1"), model.Config{Filter: true})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Best.FPGAs != 4 || ch.Best.PEs != 9 || ch.Best.Binding != model.LimitPE {
		t.Fatalf("d=32: chose %d x %d bound by %s", ch.Best.FPGAs, ch.Best.PEs, ch.Best.Binding)
	}
	for _, filter := range []bool{false, true} {
		ch, err = model.Optimise(p, workload(t, p, "wcc", "uniform:v=262144,d=2,seed=1"), model.Config{Filter: filter})
		if err != nil {
			t.Fatal(err)
		}
		at4 := ch.Curve[3]
		if at4.FPGAs != 4 || at4.Binding != model.LimitIf {
			t.Fatalf("d=2 filter=%v: at 4 FPGAs %s binds, want if", filter, at4.Binding)
		}
		best := ch.Curve[0]
		for _, pt := range ch.Curve {
			t.Logf("d=2 filter=%v: nF=%d nP=%d %.0f MTEPS %s", filter, pt.FPGAs, pt.PEs, pt.TSys/1e6, pt.Binding)
			if pt.TSys > best.TSys {
				best = pt
			}
		}
		if ch.Best.FPGAs != best.FPGAs || math.Abs(ch.Best.TSys/best.TSys-1) > 1e-9 {
			t.Fatalf("chose %d FPGAs at %.0f MTEPS; the curve's best is %d at %.0f", ch.Best.FPGAs, ch.Best.TSys/1e6, best.FPGAs, best.TSys/1e6)
		}
		if ch.Best.FPGAs == 4 && ch.Best.PEs == 9 {
			t.Fatalf("d=2 filter=%v: kept 4 x 9 although the network binds", filter)
		}
		t.Logf("d=2 filter=%v: chose %d x %d; %v", filter, ch.Best.FPGAs, ch.Best.PEs, ch.Why)
	}
}

// TestEveryBoard checks that each shipped board gives a finite, positive
// answer for every sample kernel.
func TestEveryBoard(t *testing.T) {
	for _, name := range boards.Names() {
		b, err := boards.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := model.FromBoard(b, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range samples.KernelNames() {
			ch, err := model.Optimise(p, workload(t, p, k, "rmat:scale=14,ef=16,seed=1"), model.Config{Filter: true})
			if err != nil {
				t.Fatalf("%s/%s: %v", name, k, err)
			}
			if !(ch.Best.TSys > 0) || math.IsInf(ch.Best.TSys, 0) || len(ch.Curve) != p.MaxFPGAs {
				t.Fatalf("%s/%s: T_sys %v, curve %d points", name, k, ch.Best.TSys, len(ch.Curve))
			}
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	p := ac510(b)
	w := workload(b, p, "wcc", "rmat:scale=16,ef=16,seed=1")
	c := model.Config{FPGAs: 4, PEs: 9, Filter: true}
	b.ReportAllocs()
	b.ResetTimer() // the workload's graph is not the evaluation
	for i := 0; i < b.N; i++ {
		if _, err := model.Evaluate(p, w, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateLimits is one evaluation without the reasons' words,
// what sweeps and the optimiser pay per point.
func BenchmarkEvaluateLimits(b *testing.B) {
	p := ac510(b)
	w := workload(b, p, "wcc", "rmat:scale=16,ef=16,seed=1")
	c := model.Config{FPGAs: 4, PEs: 9, Filter: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := model.EvaluateLimits(p, w, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSweep evaluates nF 1..64 x nP 1..64 for the four paper kernels
// on a 64-FPGA variant of the AC-510.
func BenchmarkSweep(b *testing.B) {
	p := ac510(b)
	p.MaxFPGAs, p.MaxPEs = 64, 64
	var ws []*model.Workload
	for _, k := range []string{"wcc", "bfs", "pr", "sssp"} {
		ws = append(ws, workload(b, p, k, "rmat:scale=16,ef=16,seed=1"))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, w := range ws {
			for nF := 1; nF <= 64; nF++ {
				for nP := 1; nP <= 64; nP++ {
					_, _ = model.EvaluateLimits(p, w, model.Config{FPGAs: nF, PEs: nP, Filter: true})
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(4*64*64), "ns/point")
}

// TestKernelPECost checks that a kernel's own per-PE cost replaces the
// board's estimate where the board derives nP max from its resources.
func TestKernelPECost(t *testing.T) {
	b, err := boards.Get("u250")
	if err != nil {
		t.Fatal(err)
	}
	base, _ := model.FromBoard(b, "")
	pr, _ := samples.Kernel("pr")
	withPR, err := model.FromBoardKernel(b, "", pr.PECost)
	if err != nil {
		t.Fatal(err)
	}
	want := min(b.FPGA.LUT/pr.PECost.LUT, b.FPGA.FF/pr.PECost.FF, b.FPGA.BRAM36/pr.PECost.BRAM36, b.FPGA.DSP/pr.PECost.DSP)
	if withPR.MaxPEs != want || !strings.Contains(withPR.MaxPEsReason, "kernel") || base.MaxPEs < 1 {
		t.Fatalf("PR nP max %d (board estimate %d), want %d", withPR.MaxPEs, base.MaxPEs, want)
	}
	a, _ := boards.Get("ac510")
	fixed, _ := model.FromBoardKernel(a, "", pr.PECost)
	if fixed.MaxPEs != 9 {
		t.Fatalf("the AC-510 fixes nP max at 9, got %d", fixed.MaxPEs)
	}
}

// TestOptimiserNonMonotonePEs: with the clock doubled on the AC-510 the
// memory limit binds, and it is higher with fewer PEs (longer edge lists
// fill memory words better), so the best design is not at nP max.
func TestOptimiserNonMonotonePEs(t *testing.T) {
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	fast := *b
	fast.ClockMHz = 375
	p, err := model.FromBoard(&fast, "")
	if err != nil {
		t.Fatal(err)
	}
	w := workload(t, p, "wcc", "uniform:v=65536,d=32,seed=1")
	ch, err := model.Optimise(p, w, model.Config{FPGAs: 4, Filter: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range ch.PECurve {
		if pt.Fits && pt.TSys > ch.Best.TSys*(1+1e-9) {
			t.Fatalf("%d PEs give %.4g TEPS, more than the chosen %d PEs (%.4g)", pt.PEs, pt.TSys, ch.Best.PEs, ch.Best.TSys)
		}
	}
	atMax := ch.PECurve[len(ch.PECurve)-1]
	if !(ch.Best.TSys > atMax.TSys*1.01) || ch.Best.PEs >= atMax.PEs {
		t.Fatalf("chose %d PEs at %.4g TEPS; nP max gives %.4g", ch.Best.PEs, ch.Best.TSys, atMax.TSys)
	}
	fixed, err := model.Optimise(p, w, model.Config{FPGAs: 4, PEs: 9, Filter: true})
	if err != nil || fixed.Best.PEs != 9 {
		t.Fatalf("a fixed nP was not kept: %d, %v", fixed.Best.PEs, err)
	}
}
