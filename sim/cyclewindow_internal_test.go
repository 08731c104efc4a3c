package sim

import (
	"context"
	"reflect"
	"slices"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestCycleWindowsIdentical runs cycle detail cycle by cycle and in
// windows of the link latency and shorter ones, on one core and on a crew
// of two, on variedDesigns and more (a congested link, a cycle limit, a
// superstep limit): every figure of the result, the stall breakdown and
// the links' words included, is the same.
func TestCycleWindowsIdentical(t *testing.T) {
	bd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	type tcase struct {
		designCase
		maxCycles int64
		maxSteps  int
	}
	var cases []tcase
	for _, d := range append(slices.Clone(variedDesigns),
		designCase{"pr", "rmat:scale=12,ef=16,seed=1", 4, 9, model.OffChip, PEGenerated},
		designCase{"wcc", "rmat:scale=11,ef=16,seed=1,scramble=false", 2, 9, model.OffChip, PEGenerated},
		designCase{"bfs", "uniform:v=2000,d=8,seed=3", 3, 4, model.BRAM, PEPaper}) {
		cases = append(cases, tcase{designCase: d})
	}
	cases = append(cases,
		tcase{designCase{"pr", "rmat:scale=10,ef=16,seed=1", 4, 9, model.OffChip, PEGenerated}, 20000, 0},
		tcase{designCase{"pr", "rmat:scale=10,ef=16,seed=1", 2, 4, model.BRAM, PEGenerated}, 0, 8})
	for _, tc := range cases {
		t.Run(tc.kernel+"/"+tc.graph, func(t *testing.T) {
			k, g := loadCase(t, tc.kernel, tc.graph)
			s := &Setup{Board: bd, Kernel: k, Graph: g, FPGAs: tc.fpgas, PEs: tc.pes, Mem: tc.mem, PE: tc.pe, Filter: true, Detail: Cycle,
				MaxCycles: tc.maxCycles, MaxSupersteps: tc.maxSteps}
			p := prepare(t, s)
			run := func(workers int, window int64) (*Result, error) {
				m := newMachine(s, p)
				m.workers, m.window = workers, window
				err := m.run(context.Background())
				if window > 0 && m.windows == 0 {
					t.Errorf("%d cores, windows of %d: no window stepped", workers, window)
				}
				if testing.Verbose() {
					t.Logf("%d cores, windows of %d: %d windows, %d pauses", workers, window, m.windows, m.pauses)
				}
				return m.result(), err
			}
			want, wantErr := run(1, 0)
			for _, v := range []struct {
				workers int
				window  int64
			}{{1, int64(p.LinkLatency)}, {2, int64(p.LinkLatency)}, {1, minWindow}, {2, int64(p.LinkLatency) / 3}} {
				got, err := run(v.workers, v.window)
				if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
					t.Fatalf("%d cores, windows of %d: error %v, cycle by cycle %v", v.workers, v.window, err, wantErr)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%d cores, windows of %d: %d cycles, %d messages, %+v; cycle by cycle: %d cycles, %d messages, %+v",
						v.workers, v.window, got.Cycles, got.Messages, got.Stalls, want.Cycles, want.Messages, want.Stalls)
				}
			}
		})
	}
}
