package arch_test

import (
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
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
