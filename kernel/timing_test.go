package kernel_test

import (
	"testing"

	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

func TestLatency(t *testing.T) {
	tests := []struct {
		kernel                 string
		gather, apply, scatter int
	}{
		{"wcc", 1, 1, 0},
		// pr apply: (1-d)/V + d*sum = fmul(3) + fadd(4), folded constants.
		{"pr", 1 + kernel.LatencyFAdd, 1 + kernel.LatencyFMul + kernel.LatencyFAdd, 1 + kernel.LatencyFCvt + kernel.LatencyFDiv},
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
		if g, a, sc := c.Gather.Latency(), c.Apply.Latency(), c.Scatter.Latency(); g != tc.gather || a != tc.apply || sc != tc.scatter {
			t.Errorf("%s: latencies gather %d apply %d scatter %d, want %d %d %d", tc.kernel, g, a, sc, tc.gather, tc.apply, tc.scatter)
		}
	}
}
