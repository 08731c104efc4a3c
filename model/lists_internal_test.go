package model

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/graph"
)

// TestPEListsMatchTheGraph checks every vertex's runs and their detector
// slots or local indices against its adjacency list, on graphs of more
// vertices than one worker splits at a time (listChunk), so that the
// bounds across chunks are covered, and for every detector the lists
// serve; in new arrays and in the arrays of another partition's lists
// filled with garbage (WithListReuse), which must all be overwritten.
func TestPEListsMatchTheGraph(t *testing.T) {
	for _, tc := range []struct {
		spec   string
		nF, nP int
		h      Hazard
	}{
		{"uniform:v=40000,d=6,seed=1", 4, 9, Hazard{Hold: 2, Slots: HazardSlots}},
		{"rmat:scale=15,ef=8,seed=2", 3, 5, Hazard{Hold: 4}},
		{"rmat:scale=15,ef=8,seed=3", 2, 4, Hazard{Hold: 1}},
		{"grid:rows=5,cols=7", 4, 9, Hazard{Hold: 2, Slots: HazardSlots}},
		// More PEs than one word of the splitter's marks holds, and more
		// than one word of the words' marks.
		{"rmat:scale=14,ef=8,seed=4", 3, 50, Hazard{Hold: 4}},
		{"uniform:v=20000,d=40,seed=5", 2, 2100, Hazard{Hold: 2, Slots: HazardSlots}},
	} {
		t.Run(fmt.Sprintf("%s/%dx%d/%+v", tc.spec, tc.nF, tc.nP, tc.h), func(t *testing.T) {
			g, part := partitioned(t, tc.spec, tc.nF, tc.nP)
			pl := newPELists(g, part, tc.h, nil)
			for u := range uint32(g.NumVertices()) {
				checkPEList(t, g, part, pl, tc.h, u)
			}
			other, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: tc.nF, PEs: tc.nP + 1, Method: graph.Robin})
			if err != nil {
				t.Fatal(err)
			}
			b := newPELists(g, other, tc.h, nil).bufs
			for _, a := range [][]uint32{b.rank, b.bound, b.aoff, b.loc} {
				for i := range a {
					a[i] = 0xabcdef
				}
			}
			for i := range b.loc16 {
				b.loc16[i] = 0xabcd
			}
			for i := range b.slot {
				b.slot[i] = 0xab
			}
			pl = newPELists(g, part, tc.h, b)
			for u := range uint32(g.NumVertices()) {
				checkPEList(t, g, part, pl, tc.h, u)
			}
		})
	}
}

// checkPEList compares vertex u's runs on every FPGA with its neighbours
// grouped by PE, in ascending PE order and, within a PE, adjacency order;
// no run is empty.
func checkPEList(t *testing.T, g *graph.Graph, part *graph.Partition, pl *peLists, h Hazard, u uint32) {
	t.Helper()
	p := pl.rank[u]
	list, arc := pl.listAt(p), uint32(0) // arc: in the vertex's list
	for f := range part.FPGAs {
		if pl.from(p, f) != arc {
			t.Fatalf("vertex %d, FPGA %d: arcs start at %d, want %d", u, f, pl.from(p, f), arc)
		}
		for _, r := range pl.on(p, f) {
			if int(r.pe)/part.PEs != f {
				t.Fatalf("vertex %d: a run on PE %d among FPGA %d's", u, r.pe, f)
			}
			var want []uint32
			for _, v := range g.Neighbors(u) {
				if part.PE[v] == r.pe {
					want = append(want, part.Local[v])
				}
			}
			if len(want) == 0 {
				t.Fatalf("vertex %d: an empty run on PE %d", u, r.pe)
			}
			if n := r.end - arc; int(n) != len(want) {
				t.Fatalf("vertex %d, PE %d: run of %d edges, want %d", u, r.pe, n, len(want))
			}
			for k, l := range want {
				switch {
				case pl.slot != nil:
					if s := uint32(pl.slot[list+arc+uint32(k)]); s != l%uint32(h.slotsFor(len(part.Members[r.pe]))) {
						t.Fatalf("vertex %d, PE %d, edge %d: slot %d for local index %d", u, r.pe, k, s, l)
					}
				case pl.loc != nil:
					if pl.loc[list+arc+uint32(k)] != l {
						t.Fatalf("vertex %d, PE %d, edge %d: local index %d, want %d", u, r.pe, k, pl.loc[list+arc+uint32(k)], l)
					}
				case pl.loc16 != nil:
					if uint32(pl.loc16[list+arc+uint32(k)]) != l {
						t.Fatalf("vertex %d, PE %d, edge %d: local index %d, want %d", u, r.pe, k, pl.loc16[list+arc+uint32(k)], l)
					}
				}
			}
			arc = r.end
		}
	}
	if total := countRuns(pl, p); total != g.OutDegree(u) {
		t.Fatalf("vertex %d: runs hold %d edges, want its degree %d", u, total, g.OutDegree(u))
	}
}

// countRuns returns the edges of the runs of the vertex of rank p: where
// its last one ends.
func countRuns(pl *peLists, p uint32) int {
	n := 0
	for f := range pl.nF {
		for _, r := range pl.on(p, f) {
			n = int(r.end)
		}
	}
	return n
}

// BenchmarkPELists splits the lists of rmat:scale=18 and 20 (ef=16) for
// 4 x 9 PEs with the aliased detector (WCC's on the paper's PE) and the
// exact one (the generated PE's), the part of a profile that reads every
// arc's destination; cpu-s/op is the CPU time of all cores.
func BenchmarkPELists(b *testing.B) {
	for _, scale := range []int{18, 20} {
		g, part := partitioned(b, fmt.Sprintf("rmat:scale=%d,ef=16,seed=1,scramble=true", scale), 4, 9)
		for _, d := range []struct {
			name string
			h    Hazard
		}{
			{"aliased", Hazard{Hold: 2, Slots: HazardSlots}},
			{"exact", Hazard{Hold: 6}}, // the generated PE's f32 adder
		} {
			b.Run(fmt.Sprintf("scale=%d/%s", scale, d.name), func(b *testing.B) {
				c0 := processCPU()
				for range b.N {
					newPELists(g, part, d.h, nil)
				}
				b.ReportMetric((processCPU()-c0).Seconds()/float64(b.N), "cpu-s/op")
			})
		}
	}
}

// processCPU is the process's user and system time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
