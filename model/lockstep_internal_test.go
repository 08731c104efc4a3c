package model

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/graph"
)

// TestReadyOrderIsTheSweepOrder checks the items of dense and sparse
// supersteps against the apply sweeps walked cycle by cycle: FPGA by
// FPGA, every cycle of its sweeps, its PEs in order, each queueing the
// update of its vertex of that cycle when it sends, or its barrier marker
// in the cycle after its last vertex.
func TestReadyOrderIsTheSweepOrder(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		nF, nP int
		every  int // senders: every every-th vertex
	}{
		{"rmat:scale=12,ef=8,seed=1", 2, 3, 1},
		{"rmat:scale=12,ef=8,seed=1", 2, 3, 3},
		{"rmat:scale=12,ef=8,seed=1", 4, 9, 1},
		{"rmat:scale=12,ef=8,seed=1", 4, 9, 997},
		{"uniform:v=5000,d=4,seed=2", 3, 4, 2},
		{"grid:rows=5,cols=7", 4, 9, 1},
	} {
		t.Run(fmt.Sprintf("%s/%dx%d/every%d", tc.spec, tc.nF, tc.nP, tc.every), func(t *testing.T) {
			g, part := partitioned(t, tc.spec, tc.nF, tc.nP)
			lists := newPELists(g, part, Hazard{Hold: 1}, nil)
			w := newProfiler(g, part, ProfileOptions{Arch: GraVFM}, lists, 1)
			var senders []uint32
			sends := make([]bool, g.NumVertices())
			for u := 0; u < g.NumVertices(); u += tc.every {
				senders, sends[u] = append(senders, uint32(u)), true
			}
			var want []readyItem
			for f := range tc.nF {
				pes := part.Members[f*tc.nP : (f+1)*tc.nP]
				most := 0
				for _, m := range pes {
					most = max(most, len(m))
				}
				for at := 0; at <= most; at++ {
					for l, m := range pes {
						q := uint16(f*tc.nP + l)
						switch {
						case at < len(m) && sends[m[at]]:
							want = append(want, readyItem{rank: lists.rank[m[at]], at: int32(at), pe: q})
						case at == len(m):
							want = append(want, readyItem{at: int32(at), pe: q, barrier: true})
						}
					}
				}
			}
			if got := w.lk.readyOrder(senders); !slices.Equal(got, want) {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Fatalf("%d items, want %d; first difference at %d", len(got), len(want), i)
			}
		})
	}
}

// TestLockstepEndsAtAnyLinkLatency follows a superstep on two FPGAs with
// link latencies of 0 and below, where no window of the schedule reaches
// past its earliest move: it must end (the recursion moves one item at a
// time there) and deliver every item.
func TestLockstepEndsAtAnyLinkLatency(t *testing.T) {
	g, err := graph.Load("rmat:scale=10,ef=8,seed=1", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	part, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 2, PEs: 3})
	if err != nil {
		t.Fatal(err)
	}
	senders := make([]uint32, g.NumVertices())
	for v := range senders {
		senders[v] = uint32(v)
	}
	for _, lat := range []int{0, -1, -40} {
		opt := ProfileOptions{Arch: GraVFM, Mem: OffChip, PE: PEGenerated, Filter: true,
			Hazard: Hazard{Hold: 2, Slots: HazardSlots}, EdgesPerWord: 4, InFlight: 8, MemLatency: 20, LinkLatency: lat}
		w := newProfiler(g, part, opt, newPELists(g, part, opt.Hazard, nil), 2)
		done := make(chan StepWork, 1)
		go func() { done <- w.step(senders) }()
		select {
		case st := <-done:
			if st.Messages != int64(g.NumArcs()) {
				t.Errorf("link latency %d: %d messages, want the %d arcs", lat, st.Messages, g.NumArcs())
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("link latency %d: the superstep did not end", lat)
		}
	}
}

// BenchmarkLockstep follows the lockstep recursion over three sender sets
// (every vertex, every third, every 17th) of an R-MAT graph at 4 x 9 PEs
// on the AC-510 (edges off chip, the filter), with WCC's aliased detector
// and with the exact detector of PageRank's f32 gather (a hold of six
// cycles), the lists split beforehand: the part of a profile that every
// sender set pays, on one core and on two (the crew), at scales 16, 18
// and 20 (where a table per local vertex no longer stays in the cache).
// cpu-s/op is the CPU time of the whole process.
func BenchmarkLockstep(b *testing.B) {
	detectors := []struct {
		name string
		h    Hazard
	}{
		{"aliased", Hazard{Hold: 2, Slots: HazardSlots}},
		{"exact", Hazard{Hold: 6}},
	}
	for _, scale := range []int{16, 18, 20} {
		b.Run(fmt.Sprintf("scale=%d", scale), func(b *testing.B) {
			g, part := partitioned(b, fmt.Sprintf("rmat:scale=%d,ef=16,seed=1,scramble=true", scale), 4, 9)
			var sets [][]uint32
			for _, every := range []int{1, 3, 17} {
				var s []uint32
				for v := 0; v < g.NumVertices(); v += every {
					s = append(s, uint32(v))
				}
				sets = append(sets, s)
			}
			for _, d := range detectors {
				opt := ProfileOptions{Arch: GraVFM, Mem: OffChip, PE: PEGenerated, Filter: true,
					Hazard: d.h, EdgesPerWord: 4, InFlight: 64, MemLatency: 75, LinkLatency: 188}
				lists := newPELists(g, part, opt.Hazard, nil)
				for _, cores := range []int{1, 2} {
					b.Run(fmt.Sprintf("%s/cores=%d", d.name, cores), func(b *testing.B) {
						w := newProfiler(g, part, opt, lists, cores)
						c0 := processCPU()
						for range b.N {
							for _, s := range sets {
								w.step(s)
							}
						}
						b.ReportMetric((processCPU()-c0).Seconds()/float64(b.N), "cpu-s/op")
					})
				}
			}
		})
	}
}

// TestLockstepCrewMovesAsOneCore follows supersteps of varied graphs and
// designs with the recursion on one core and with a crew of two and
// three: every figure of every superstep must be the same, since within
// a window no FPGA reads what another writes.
func TestLockstepCrewMovesAsOneCore(t *testing.T) {
	offChip := ProfileOptions{Arch: GraVFM, Mem: OffChip, PE: PEGenerated, Filter: true,
		Hazard: Hazard{Hold: 2, Slots: HazardSlots}, EdgesPerWord: 4, InFlight: 8, MemLatency: 20, LinkLatency: 40}
	bram := ProfileOptions{Arch: GraVFM, Mem: BRAM, PE: PEGenerated, Filter: true, Hazard: Hazard{Hold: 5}, LinkLatency: 188}
	paper := ProfileOptions{Arch: GraVFM, Mem: BRAM, PE: PEPaper, Hazard: Hazard{Hold: 1}, LinkLatency: 3}
	for _, tc := range []struct {
		spec   string
		nF, nP int
		opt    ProfileOptions
	}{
		{"rmat:scale=12,ef=16,seed=1", 4, 9, offChip},
		{"rmat:scale=12,ef=16,seed=1,scramble=false", 4, 9, bram},
		{"uniform:v=6000,d=8,seed=2", 3, 4, offChip},
		{"grid:rows=60,cols=70", 2, 3, paper},
		{"layered:w=64,d=64", 4, 2, bram},
	} {
		t.Run(fmt.Sprintf("%s/%dx%d/%s", tc.spec, tc.nF, tc.nP, tc.opt.Mem), func(t *testing.T) {
			g, part := partitioned(t, tc.spec, tc.nF, tc.nP)
			lists := newPELists(g, part, tc.opt.Hazard, nil)
			one := newProfiler(g, part, tc.opt, lists, 1)
			for _, cores := range []int{2, 3} {
				crew := newProfiler(g, part, tc.opt, lists, cores)
				for _, every := range []int{1, 2, 7, 301} {
					var senders []uint32
					for v := 0; v < g.NumVertices(); v += every {
						senders = append(senders, uint32(v))
					}
					want, got := one.step(senders), crew.step(senders)
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%d cores, every %d-th vertex sends: %+v, want %+v", cores, every, got, want)
					}
				}
				if crew.lk.dealt == 0 {
					t.Errorf("%d cores: no window was dealt out", cores)
				}
			}
		})
	}
}

// partitioned loads graph spec and partitions it over nF x nP PEs with
// the default partitioner.
func partitioned(t testing.TB, spec string, nF, nP int) (*graph.Graph, *graph.Partition) {
	t.Helper()
	g, err := graph.Load(spec, graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	part, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: nF, PEs: nP})
	if err != nil {
		t.Fatal(err)
	}
	return g, part
}
