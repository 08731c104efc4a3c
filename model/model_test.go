package model

import (
	"errors"
	"math"
	"testing"

	"github.com/gravf-tui/gravf-tui/kernel"
)

const gib = 8 * (1 << 30) // bits per GiB

// paperPlatform is the AC-510 system with the figures of the paper.
func paperPlatform() *Platform {
	return &Platform{
		Name: "ac510", ClockHz: 187.5e6,
		MemBitsPerSec: 21.7 * gib, MemWordBits: 128, MemCapacityBits: 4 * gib,
		OnChipBits:   1080 * 36 * 1024,
		IfBitsPerSec: 5.85 * gib, PairBitsPerSec: 24e9, LinkWordBits: 128,
		MaxFPGAs: 4, MaxPEs: 9, MaxPEsReason: "the paper's evaluation",
		LinkLatencySec: 1e-6, MemLatencySec: 400e-9,
		CPE: map[string]float64{"wcc": 1.05, "bfs": 1.10, "pr": 1.42},
	}
}

// uniformWorkload is a uniform graph of v vertices and average out-degree
// d (arcs/V), every vertex of degree d.
func uniformWorkload(p *Platform, name string, v int, d int, upd, msg int) *Workload {
	cpe, src := p.KernelCPE(name)
	vid := kernel.VertexIDBits(v)
	return &Workload{Kernel: name, CPE: cpe, CPESource: src, Vertices: v, Arcs: int64(v) * int64(d),
		Sizes:   kernel.Sizes{VertexIDBits: vid, Vertex: vid + 1, Update: upd, Message: msg, Edge: vid},
		Degrees: [][2]int64{{int64(d), int64(v)}}}
}

func near(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Abs(b) }

func TestPELimit(t *testing.T) {
	p := paperPlatform()
	tests := []struct {
		kernel string
		want   float64
	}{{"wcc", 6.4286e9}, {"bfs", 6.1364e9}, {"pr", 4.7535e9}}
	for _, tc := range tests {
		w := uniformWorkload(p, tc.kernel, 262144, 32, 19, 19)
		r, err := Evaluate(p, w, Config{FPGAs: 4, PEs: 9})
		if err != nil {
			t.Fatal(err)
		}
		if !near(*r.Limits.PE, tc.want, 1e-4) {
			t.Errorf("%s: L_PE = %.5g, want %.5g", tc.kernel, *r.Limits.PE, tc.want)
		}
	}
}

func TestHandComputedLimits(t *testing.T) {
	p := paperPlatform()
	// WCC, V = 2^18, d = 32: vertexidsize 19, update 19+19+3 = 41 bits, one
	// 128-bit link word unpacked, 3 per word (42.67 bits) packed.
	w := uniformWorkload(p, "wcc", 262144, 32, 19, 19)
	tests := []struct {
		name string
		cfg  Config
		lim  string
		want float64
	}{
		// L_if = BW_if / m_update * nF/(nF-1) * d
		{"if 4 FPGAs", Config{FPGAs: 4, PEs: 9}, LimitIf, 5.85 * gib / 128 * 4 / 3 * 32},
		// With 2 FPGAs the 24 Gbit/s stream binds BW_if.
		{"if 2 FPGAs", Config{FPGAs: 2, PEs: 9}, LimitIf, 24e9 / 128 * 2 / 1 * 32},
		{"if packed", Config{FPGAs: 4, PEs: 9, Packing: true}, LimitIf, 5.85 * gib / (128.0 / 3) * 4 / 3 * 32},
		// GraVF: L_if = BW_if nF^2 / ((nF-1) m_message), m_message = 41 -> 128.
		{"gravf if", Config{FPGAs: 4, PEs: 9, Arch: GraVF}, LimitIf, 5.85 * gib * 16 / (3 * 128)},
		// Memory, granularity ignored: nF BW / m_edge.
		{"mem basic", Config{FPGAs: 4, PEs: 9}, "mem-basic", 4 * 21.7 * gib / 19},
		// Worst case: V/E * 36 = 1.125 >= 1, a whole word per edge.
		{"mem worst", Config{FPGAs: 4, PEs: 9}, "mem-worst", 4 * 21.7 * gib / 128},
		// Expected: 36 lists, each non-empty with 1-(35/36)^32.
		{"mem expected", Config{FPGAs: 4, PEs: 9}, LimitMem, 4 * 21.7 * gib / (19 + 36.0/32*(1-math.Pow(35.0/36, 32))*(128-19))},
		// One FPGA: the network limits do not apply.
		{"one FPGA", Config{FPGAs: 1, PEs: 9}, LimitIf, math.NaN()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Evaluate(p, w, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got float64
			var ok bool
			switch tc.lim {
			case "mem-basic":
				got, ok = r.MemDetail.Basic, true
			case "mem-worst":
				got, ok = r.MemDetail.WorstCase, true
			default:
				got, ok = r.Limits.Get(tc.lim)
			}
			if math.IsNaN(tc.want) {
				if ok {
					t.Fatalf("%s applies (%.4g) but should not", tc.lim, got)
				}
				return
			}
			if !ok || !near(got, tc.want, 1e-9) {
				t.Fatalf("%s = %.6g (applies %v), want %.6g", tc.lim, got, ok, tc.want)
			}
		})
	}
}

// TestNetworkRatio checks that GraVF-M's network gain over GraVF is
// (d/nF) * (m_message/m_update), without the filter.
func TestNetworkRatio(t *testing.T) {
	p := paperPlatform()
	p.NetBitsPerSec = 40 * gib
	for _, d := range []int{2, 8, 32, 64} {
		for _, nF := range []int{2, 3, 4} {
			w := uniformWorkload(p, "pr", 1<<16, d, 32, 32)
			m, _ := Evaluate(p, w, Config{FPGAs: nF, PEs: 9})
			g, _ := Evaluate(p, w, Config{FPGAs: nF, PEs: 9, Arch: GraVF})
			want := float64(d) / float64(nF) * m.Sizes.Message.Used / m.Sizes.Update.Used
			for _, lim := range []string{LimitIf, LimitNet} {
				a, _ := m.Limits.Get(lim)
				b, _ := g.Limits.Get(lim)
				if !near(a/b, want, 1e-9) {
					t.Errorf("d=%d nF=%d %s: ratio %.6g, want %.6g", d, nF, lim, a/b, want)
				}
			}
		}
	}
}

// TestFilterNeverBelowGraVF sweeps sparse and dense graphs: with the
// filter, GraVF-M's network limits are never below GraVF's.
func TestFilterNeverBelowGraVF(t *testing.T) {
	p := paperPlatform()
	p.MaxFPGAs, p.NetBitsPerSec = 64, 100*gib
	for _, d := range []int{1, 2, 3, 5, 8, 16, 64} {
		for nF := 2; nF <= 64; nF *= 2 {
			w := uniformWorkload(p, "wcc", 1<<16, d, 17, 17)
			m, err := Evaluate(p, w, Config{FPGAs: nF, PEs: 1, Filter: true})
			if err != nil {
				t.Fatal(err)
			}
			g, _ := Evaluate(p, w, Config{FPGAs: nF, PEs: 1, Arch: GraVF})
			for _, lim := range []string{LimitIf, LimitNet} {
				a, _ := m.Limits.Get(lim)
				b, _ := g.Limits.Get(lim)
				if a < b*(1-1e-12) {
					t.Errorf("d=%d nF=%d %s: GraVF-M %.4g < GraVF %.4g", d, nF, lim, a, b)
				}
			}
		}
	}
}

func TestCapacity(t *testing.T) {
	p := paperPlatform()
	// 2^22 vertices of WCC: 23+1 bits of state plus a 23-bit queued update
	// and its id: 70 bits x 4M = 294 Mbit, ~7.4 KU060s of BRAM.
	w := uniformWorkload(p, "wcc", 1<<22, 16, 23, 23)
	_, err := Evaluate(p, w, Config{FPGAs: 4, PEs: 9})
	if !errors.Is(err, ErrCapacity) {
		t.Fatalf("want a capacity error, got %v", err)
	}
	_, err = Optimise(p, w, Config{})
	if err == nil || !errors.Is(err, ErrCapacity) {
		t.Fatalf("optimiser: want a capacity error, got %v", err)
	}
	want := "needs at least 8 FPGAs"
	if got := err.Error(); !contains(got, want) {
		t.Fatalf("error %q does not say %q", got, want)
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

func TestOptimiserPaperPoint(t *testing.T) {
	p := paperPlatform()
	w := uniformWorkload(p, "wcc", 262144, 32, 19, 19)
	ch, err := Optimise(p, w, Config{Filter: true})
	if err != nil {
		t.Fatal(err)
	}
	if ch.Best.FPGAs != 4 || ch.Best.PEs != 9 || ch.Best.Binding != LimitPE {
		t.Fatalf("chose %d x %d bound by %s, want 4 x 9 bound by pe; curve %+v", ch.Best.FPGAs, ch.Best.PEs, ch.Best.Binding, ch.Curve)
	}
	if len(ch.Curve) != 4 {
		t.Fatalf("curve has %d points, want nF = 1..4", len(ch.Curve))
	}
}

func TestOptimiserSparse(t *testing.T) {
	p := paperPlatform()
	w := uniformWorkload(p, "wcc", 262144, 2, 19, 19)
	ch, err := Optimise(p, w, Config{})
	if err != nil {
		t.Fatal(err)
	}
	last := ch.Curve[len(ch.Curve)-1]
	if last.FPGAs != 4 || last.Binding != LimitIf {
		t.Fatalf("at 4 FPGAs the binding limit is %s, want if", last.Binding)
	}
	best := ch.Curve[0]
	for _, pt := range ch.Curve {
		t.Logf("nF=%d nP=%d T_sys=%.0f MTEPS bound by %s", pt.FPGAs, pt.PEs, pt.TSys/1e6, pt.Binding)
		if pt.TSys > best.TSys {
			best = pt
		}
	}
	if ch.Best.FPGAs != best.FPGAs || ch.Best.FPGAs == 4 {
		t.Fatalf("chose %d FPGAs; the curve's best is %d", ch.Best.FPGAs, best.FPGAs)
	}
}

func TestImpossible(t *testing.T) {
	p := paperPlatform()
	w := uniformWorkload(p, "wcc", 4096, 8, 13, 13)
	for _, c := range []Config{{FPGAs: 5, PEs: 1}, {FPGAs: 1, PEs: 10}, {FPGAs: 0, PEs: 1}} {
		if _, err := Evaluate(p, w, c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}
