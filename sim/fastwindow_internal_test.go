package sim

import (
	"context"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/boards"
)

// TestFastWindowsIdentical runs fast detail of GraVF-M on one core and on
// several, with the link latency as the window and with shorter windows
// (still conservative, so exact), and requires every result to be the
// same field by field: cycles, supersteps, every PE's breakdown, every
// link's words, on variedDesigns (in the last, senders pause on their
// credit). Six cores on four FPGAs leave helpers with nothing to claim;
// the crews that start resting (pace) are called in mid-run.
func TestFastWindowsIdentical(t *testing.T) {
	bd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	pauses := 0
	goroutines := runtime.NumGoroutine()
	for _, tc := range variedDesigns {
		t.Run(tc.kernel+"/"+tc.graph, func(t *testing.T) {
			k, g := loadCase(t, tc.kernel, tc.graph)
			s := &Setup{Board: bd, Kernel: k, Graph: g, FPGAs: tc.fpgas, PEs: tc.pes, Mem: tc.mem, PE: tc.pe, Filter: true, Detail: Fast}
			p := prepare(t, s)
			var want *Result
			for _, v := range []struct {
				workers   int
				lookahead int64
				alone     int // the first windows the caller steps alone
			}{{1, 0, 0}, {2, 0, 0}, {4, 0, 0}, {2, 1, 0}, {3, 7, 0}, {2, 61, 0}, {6, 0, 0}, {2, 0, 50}, {3, 3, 300}} {
				f := newFastM(context.Background(), s, p)
				f.workers = v.workers
				f.pace.RestFor(v.alone)
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
	// Every crew's helpers end with the advance that started them (they
	// see its stop at once or when it wakes them).
	for deadline := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > goroutines; {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after the runs, %d before", runtime.NumGoroutine(), goroutines)
		}
		time.Sleep(time.Millisecond)
	}
}
