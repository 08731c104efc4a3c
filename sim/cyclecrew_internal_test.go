package sim

import (
	"context"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestCycleCoresIdentical runs cycle detail with its FPGAs stepped by one
// core, by a crew of two and of four, and with the crew resting for a
// while (the caller alone), on variedDesigns and two more: every
// figure of the result is the same, and no helper outlives its run.
func TestCycleCoresIdentical(t *testing.T) {
	bd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	goroutines := runtime.NumGoroutine()
	designs := append(slices.Clone(variedDesigns),
		designCase{"sssp-f32", "rmat:scale=9,ef=8,seed=3", 2, 4, model.BRAM, PEGenerated},
		designCase{"wcc", "rmat:scale=11,ef=16,seed=1", 1, 9, model.OffChip, PEGenerated})
	for _, tc := range designs {
		t.Run(tc.kernel+"/"+tc.graph, func(t *testing.T) {
			k, g := loadCase(t, tc.kernel, tc.graph)
			s := &Setup{Board: bd, Kernel: k, Graph: g, FPGAs: tc.fpgas, PEs: tc.pes, Mem: tc.mem, PE: tc.pe, Filter: true, Detail: Cycle}
			p := prepare(t, s)
			var want *Result
			for _, v := range []struct{ workers, alone int }{{1, 0}, {2, 0}, {4, 0}, {2, 500}} {
				m := newMachine(s, p)
				m.workers = v.workers
				m.pace.RestFor(v.alone)
				if err := m.run(context.Background()); err != nil {
					t.Fatal(err)
				}
				got := m.result()
				if want == nil {
					want = got
					continue
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%d cores (%d cycles alone first): %d cycles, %d messages; one core: %d cycles, %d messages",
						v.workers, v.alone, got.Cycles, got.Messages, want.Cycles, want.Messages)
				}
			}
		})
	}
	for range 100 {
		if runtime.NumGoroutine() <= goroutines {
			return
		}
		runtime.Gosched()
	}
	t.Errorf("%d goroutines after the runs, %d before", runtime.NumGoroutine(), goroutines)
}
