package sim

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestFastMemoryRates: at rates a board cannot be set to (below one word
// per cycle, where the bucket grants a word every few cycles, and just
// above it), fast detail's memory scheduler still grants every word in
// the cycle cycle detail does.
func TestFastMemoryRates(t *testing.T) {
	bd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kernel, graph string
		fpgas, pes    int
		pe            PEDesign
		rate          float64
	}{
		{"wcc", "rmat:scale=8,ef=8,seed=1", 2, 4, PEGenerated, 0.45},
		{"bfs", "uniform:v=600,d=8,seed=3", 2, 3, PEPaper, 0.3},
		{"pr", "rmat:scale=8,ef=8,seed=2", 2, 4, PEGenerated, 1.5},
		{"sssp", "uniform:v=800,d=8,seed=1", 4, 9, PEGenerated, 2.25},
	} {
		t.Run(fmt.Sprintf("%s/%s/%dx%d/%g", tc.kernel, tc.graph, tc.fpgas, tc.pes, tc.rate), func(t *testing.T) {
			k, g := loadCase(t, tc.kernel, tc.graph)
			var res [2]*Result
			for i, d := range []Detail{Cycle, Fast} {
				s := &Setup{Board: bd, Kernel: k, Graph: g, FPGAs: tc.fpgas, PEs: tc.pes, Mem: model.OffChip, PE: tc.pe, Filter: true, Detail: d}
				if err := s.applyDefaults(); err != nil {
					t.Fatal(err)
				}
				ds, err := s.design()
				if err != nil {
					t.Fatal(err)
				}
				p := NewParams(ds)
				p.MemWordsPerCycle = tc.rate
				if s.partition, err = graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: tc.fpgas, PEs: tc.pes, Method: s.Partitioner}); err != nil {
					t.Fatal(err)
				}
				r, _, err := s.simulate(context.Background(), p)
				if err != nil {
					t.Fatal(err)
				}
				res[i] = r
			}
			if res[1].Cycles != res[0].Cycles || !slices.Equal(res[1].PerSuperstep, res[0].PerSuperstep) {
				t.Errorf("fast detail %d cycles, cycle detail %d", res[1].Cycles, res[0].Cycles)
			}
			var words int64
			for _, st := range res[0].PerPE {
				words += st.MemWords
			}
			if words == 0 {
				t.Error("no words were requested")
			}
		})
	}
}
