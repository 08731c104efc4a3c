package model

import "testing"

// TestNetFlowEndsWithLargeCounts: the flow of a superstep ends when its
// crossbars have moved every update, whatever the counts' magnitude.
// Summed shares of a million updates never return their count exactly;
// with an absolute slack the flow ran to its step cap (134 million
// cycles) on rmat:scale=20 instead of about a million.
func TestNetFlowEndsWithLargeCounts(t *testing.T) {
	for _, scale := range []float64{1e2, 1e4, 1e5, 3e5, 1e6} {
		n := &netFlow{sweep: 29128, pair: 1, iface: 2, latency: 188, rxCap: LinkRxFIFODepth + 2*188}
		work := 0.0
		for f := range 4 {
			local := scale * (1 + 0.01*float64(f))
			need := make([]float64, 4)
			for g := range need {
				if g != f {
					need[g] = 0.76 * local
				}
			}
			n.local = append(n.local, local)
			n.need = append(n.need, need)
			n.rate = append(n.rate, 0.45)
			work = max(work, 4*local/0.45)
		}
		got := n.cycles()
		if limit := 2*work + n.sweep + 4*n.latency + 1000; got > limit {
			t.Errorf("%g updates per FPGA: the flow ends after %g cycles, more than %g", scale, got, limit)
		}
	}
}
