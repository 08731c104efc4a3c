package sim

import (
	"context"
	"reflect"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestFastWindowsIdentical runs fast detail of GraVF-M on one core and on
// several, with the link latency as the window and with shorter windows
// (still conservative, so exact), and requires every result to be the
// same field by field: cycles, supersteps, every PE's breakdown, every
// link's words. The last design's receive FIFOs fill (four FPGAs send to
// a crossbar that takes one item per cycle), so senders pause on their
// credit.
func TestFastWindowsIdentical(t *testing.T) {
	bd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	pauses := 0
	for _, tc := range []struct {
		kernel, graph string
		fpgas, pes    int
		mem           model.MemKind
		pe            PEDesign
	}{
		{"pr", "rmat:scale=10,ef=16,seed=1", 4, 9, model.OffChip, PEGenerated},
		{"pr", "rmat:scale=10,ef=16,seed=1,scramble=false", 4, 4, model.BRAM, PEPaper},
		{"wcc", "uniform:v=3000,d=32,seed=2", 3, 2, model.BRAM, PEGenerated},
		{"bfs", "layered:w=256,d=8,extra=4", 2, 9, model.OffChip, PEGenerated},
		{"sssp", "grid:rows=30,cols=40,seed=1,maxw=50", 4, 1, model.OffChip, PEPaper},
		{"pr", "rmat:scale=13,ef=8,seed=1", 4, 9, model.OffChip, PEGenerated},
	} {
		t.Run(tc.kernel+"/"+tc.graph, func(t *testing.T) {
			k, g := loadCase(t, tc.kernel, tc.graph)
			s := &Setup{Board: bd, Kernel: k, Graph: g, FPGAs: tc.fpgas, PEs: tc.pes, Mem: tc.mem, PE: tc.pe, Filter: true, Detail: Fast}
			p := prepare(t, s)
			var want *Result
			for _, v := range []struct {
				workers   int
				lookahead int64
			}{{1, 0}, {2, 0}, {4, 0}, {2, 1}, {3, 7}, {2, 61}} {
				f := newFastM(context.Background(), s, p)
				f.workers = v.workers
				if v.lookahead > 0 {
					f.lookahead = min(f.lookahead, v.lookahead)
				}
				ref, err := f.run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range f.fpgas {
					pauses += x.pauses
				}
				got := f.result(ref)
				if want == nil {
					want = got
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%d cores, window %d: %d cycles %v links %v, one core: %d cycles %v links %v", v.workers, f.lookahead,
						got.Cycles, got.PerSuperstep, got.Links, want.Cycles, want.PerSuperstep, want.Links)
				}
			}
		})
	}
	if pauses == 0 {
		t.Error("no sender paused on its credit: the designs do not test it")
	}
}
