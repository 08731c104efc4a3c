package arch_test

import (
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

func TestLatency(t *testing.T) {
	tests := []struct {
		kernel                 string
		gather, apply, scatter int
	}{
		// The message is the update: scatter is a copy, without a register.
		{"wcc", 1, 1, 0},
		// pr apply: (1-d)/V + d*sum = fmul then fadd, folded constants.
		{"pr", 1 + arch.LatencyFAdd, 1 + arch.LatencyFMul + arch.LatencyFAdd, 1 + arch.LatencyFCvt + arch.LatencyFDiv},
		{"sssp", 1, 1, 1},
	}
	for _, tc := range tests {
		s, err := samples.Kernel(tc.kernel)
		if err != nil {
			t.Fatal(err)
		}
		k, err := s.Bind(kernel.Env{Vertices: 100})
		if err != nil {
			t.Fatal(err)
		}
		c := k.Checked
		if g, a, sc := arch.Latency(c.Gather), arch.Latency(c.Apply), arch.Latency(c.Scatter); g != tc.gather || a != tc.apply || sc != tc.scatter {
			t.Errorf("%s: latencies gather %d apply %d scatter %d, want %d %d %d", tc.kernel, g, a, sc, tc.gather, tc.apply, tc.scatter)
		}
	}
}

// TestKernelLatencies: the latencies the PE, the simulator and the model
// share are the spec's, but for the hand-written WCC gather, which is
// combinational (verilog.gather_latency = 0), so that the paper's detector
// holds a vertex for one cycle, as the RTL's does.
func TestKernelLatencies(t *testing.T) {
	tests := []struct {
		kernel      string
		handWritten bool
		want        arch.Latencies
		hold        int
	}{
		{"wcc", true, arch.Latencies{Gather: 0, Apply: 1, Scatter: 0}, 1},
		{"bfs", false, arch.Latencies{Gather: 1, Apply: 1, Scatter: 0}, 1},
	}
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		s, err := samples.Kernel(tc.kernel)
		if err != nil {
			t.Fatal(err)
		}
		k, err := s.Bind(kernel.Env{Vertices: 100, Params: map[string]string{}})
		if err != nil {
			t.Fatal(err)
		}
		if got := arch.KernelLatencies(k); got != tc.want || arch.HandWritten(k) != tc.handWritten {
			t.Errorf("%s: latencies %+v, hand-written %v; want %+v, %v", tc.kernel, got, arch.HandWritten(k), tc.want, tc.handWritten)
		}
		d, err := arch.Derive(b, k, arch.Options{FPGAs: 2, PEs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if d.Hazard.Hold != tc.hold || d.Latency != tc.want {
			t.Errorf("%s: design's hazard %+v and latencies %+v, want hold %d and %+v", tc.kernel, d.Hazard, d.Latency, tc.hold, tc.want)
		}
	}
}
