package model

import (
	"context"
	"math"
	"sync"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
)

func handGraph(t *testing.T, n int, edges [][2]uint32) *graph.Graph {
	t.Helper()
	b := graph.NewBuilder(n, false, false)
	for _, e := range edges {
		b.AddEdge(e[0], e[1], 0)
	}
	g, err := b.Build("hand")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func handPartition(t *testing.T, g *graph.Graph, nF, nP int) *graph.Partition {
	t.Helper()
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: nF, PEs: nP, Method: graph.Robin})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLockstepHandComputed follows the recursion by hand on a star: one
// PE, vertex 0 sends to its three neighbours.
func TestLockstepHandComputed(t *testing.T) {
	g := handGraph(t, 4, [][2]uint32{{0, 1}, {0, 2}, {0, 3}})
	part := handPartition(t, g, 1, 1)
	act := NewActivity()
	act.Record(0, []uint32{0}, 3)
	tests := []struct {
		name string
		opt  ProfileOptions
		end  float64
	}{
		// The PE sweeps 4 vertices and its barrier (gather from cycle 5).
		// The update, ready at cycle 0, moves at 0 and is taken at 1; the
		// walker reads edges at 2, 3, 4; with a scatter latency of 1 they
		// could issue at 3, 4, 5 but gather starts at 5: 5, 6, 7. The
		// barrier marker, ready at 4, moves at 4 and is taken at 5. The
		// PE is done after cycle 7.
		{"generated", ProfileOptions{Mem: BRAM, ScatterLatency: 1}, 8},
		// The same with a gather latency of 6: the three messages go to
		// different vertices, so nothing stalls.
		{"hazard-free", ProfileOptions{Mem: BRAM, ScatterLatency: 1, Hazard: Hazard{Hold: 6}}, 8},
		// The paper's PE: the walk starts in the cycle after the take, as
		// the generated PE's does here, so the same.
		{"paper", ProfileOptions{Mem: BRAM, PE: PEPaper, ScatterLatency: 1}, 8},
		// Off-chip, two edges per word, latency 10: requests at 2 and 3,
		// words arrive at 12 and 13; edges unpacked at 12, 13 and 14,
		// gathered at 13, 14, 15.
		{"offchip", ProfileOptions{Mem: OffChip, ScatterLatency: 1, EdgesPerWord: 2, InFlight: 4, MemLatency: 10}, 16},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pr, err := NewProfile(g, part, act, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			s := pr.Steps[0]
			if s.End != tc.end || s.Messages != 3 || s.MaxEdges != 3 || pr.Sweep != 5 {
				t.Fatalf("end %v, messages %d, max edges %d, sweep %d; want end %v, 3, 3, 5", s.End, s.Messages, s.MaxEdges, pr.Sweep, tc.end)
			}
		})
	}
}

// TestLockstepHubHazard: every message goes to one vertex, so with hold h
// each waits h-1 cycles behind the previous one.
func TestLockstepHubHazard(t *testing.T) {
	const n = 40
	var edges [][2]uint32
	for v := uint32(1); v < n; v++ {
		edges = append(edges, [2]uint32{0, v})
	}
	g := handGraph(t, n, edges)
	part := handPartition(t, g, 1, 1)
	act := NewActivity()
	senders := make([]uint32, 0, n-1)
	for v := uint32(1); v < n; v++ {
		senders = append(senders, v)
	}
	act.Record(0, senders, n-1)
	for _, hold := range []int{1, 2, 6} {
		pr, err := NewProfile(g, part, act, ProfileOptions{Mem: BRAM, ScatterLatency: 1, Hazard: Hazard{Hold: hold}})
		if err != nil {
			t.Fatal(err)
		}
		s := pr.Steps[0]
		// The first message issues when the sweep is done (cycle 41); each
		// later one hold cycles after the previous.
		wantStall := float64((n - 2) * (hold - 1))
		if s.Hazard != wantStall || s.Gather != float64(n-1)+wantStall {
			t.Errorf("hold %d: hazard %v, gather %v; want %v, %v", hold, s.Hazard, s.Gather, wantStall, float64(n-1)+wantStall)
		}
		if want := float64(n+1) + float64((n-2)*hold) + 1; s.End != want {
			t.Errorf("hold %d: end %v, want %v", hold, s.End, want)
		}
	}
}

// TestLockstepHoldsTheBroadcast: vertex 1 (PE 1) has a 40-edge list on
// PE 0, and the 40 vertices after it each send one edge back to vertex 1.
// On one FPGA, the paper's PE 0 walks the long list while its input FIFO
// fills, which stops the crossbar for PE 1; with the two PEs on two FPGAs
// PE 1 works through its items meanwhile.
func TestLockstepHoldsTheBroadcast(t *testing.T) {
	var edges [][2]uint32
	for v := uint32(2); v <= 80; v += 2 {
		edges = append(edges, [2]uint32{1, v})
	}
	g := handGraph(t, 82, edges)
	act := NewActivity()
	senders := []uint32{1}
	for v := uint32(2); v <= 80; v += 2 {
		senders = append(senders, v)
	}
	act.Record(0, senders, 80)
	// The link latency (50 cycles) exceeds PE 0's 40 own items: FPGA 0's
	// crossbar has moved them to FPGA 1 before vertex 1's update arrives.
	opt := ProfileOptions{Mem: BRAM, PE: PEPaper, ScatterLatency: 1, Filter: true, LinkLatency: 50}
	end := map[int]float64{}
	for _, nF := range []int{1, 2} {
		pr, err := NewProfile(g, handPartition(t, g, nF, 2/nF), act, opt)
		if err != nil {
			t.Fatal(err)
		}
		end[nF] = pr.Steps[0].End
		if pr.LinkIn {
			end[nF] -= float64(opt.LinkLatency)
		}
	}
	if end[1] < end[2]+20 {
		t.Fatalf("one FPGA ends at %v, two at %v: the broadcast was not held", end[1], end[2])
	}
}

// TestCrossbarTakesItemsAsTheyArrive: on two FPGAs of one PE each (robin:
// even vertices on FPGA 0, odd on FPGA 1, 100 each), FPGA 1's PE queues
// ten updates with local lists at the start of its sweep, and FPGA 0's
// last vertex sends FPGA 1 one update at the end of FPGA 0's sweep. FPGA
// 1's crossbar moves its own updates as its sweep queues them, and FPGA
// 0's update and barrier marker arrive one link latency after FPGA 0's
// crossbar moved them: the superstep ends a link latency after the sweeps
// (and the 19 messages gather within it), not with FPGA 1's own updates
// queued behind FPGA 0's.
func TestCrossbarTakesItemsAsTheyArrive(t *testing.T) {
	var edges [][2]uint32
	for v := uint32(1); v <= 19; v += 2 {
		edges = append(edges, [2]uint32{v, v + 2})
	}
	edges = append(edges, [2]uint32{198, 199})
	g := handGraph(t, 200, edges)
	var senders []uint32
	var msgs int64
	for v := uint32(1); v <= 19; v += 2 {
		senders = append(senders, v)
		msgs += int64(g.OutDegree(v))
	}
	senders = append(senders, 198)
	msgs++
	act := NewActivity()
	act.Record(0, senders, msgs)
	const lat = 30
	pr, err := NewProfile(g, handPartition(t, g, 2, 1), act, ProfileOptions{Mem: BRAM, Filter: true, ScatterLatency: 1, LinkLatency: lat})
	if err != nil {
		t.Fatal(err)
	}
	st := pr.Steps[0]
	// The barrier markers queue at cycle 100, after the 100 vertices.
	if !pr.LinkIn || st.End < 100+lat || st.End > 100+lat+6 {
		t.Fatalf("the superstep ends at %v (link latency in the ends: %v), want a link latency after the sweeps' markers (%d..%d)", st.End, pr.LinkIn, 100+lat, 100+lat+6)
	}
	if st.Messages != msgs || st.PerFPGA[0].Need[1] != 1 || st.PerFPGA[1].Need[0] != 0 {
		t.Fatalf("%d messages (want %d), FPGA 0 sends FPGA 1 %d updates (want 1), FPGA 1 sends FPGA 0 %d (want 0)", st.Messages, msgs, st.PerFPGA[0].Need[1], st.PerFPGA[1].Need[0])
	}
}

func TestActivityInterns(t *testing.T) {
	a := NewActivity()
	a.Record(0, []uint32{0, 1, 2}, 10)
	a.Record(1, []uint32{0, 1, 2}, 10)
	a.Record(2, []uint32{1}, 3)
	a.Record(3, nil, 0)
	a.Record(4, []uint32{0, 1, 2}, 10)
	if len(a.Sets) != 2 || a.Steps[0].Set != a.Steps[1].Set || a.Steps[4].Set != 0 || a.Steps[3].Set != -1 {
		t.Fatalf("sets %v, steps %+v", a.Sets, a.Steps)
	}
	if a.Messages() != 33 || len(a.Supersteps()) != 5 || a.Supersteps()[2].Active != 1 {
		t.Fatalf("messages %d, supersteps %+v", a.Messages(), a.Supersteps())
	}
}

// TestStallPerMessage checks the random-order detector on cases with a
// closed form.
func TestStallPerMessage(t *testing.T) {
	tests := []struct {
		name   string
		h      Hazard
		counts []int64
		want   float64
		tol    float64
	}{
		// Every message to one vertex: each waits hold-1 behind the last.
		{"one hub", Hazard{Hold: 6}, []int64{1000}, 5 * 999.0 / 1000, 1e-9},
		{"latency 1", Hazard{Hold: 1}, []int64{1000}, 0, 0},
		{"all distinct", Hazard{Hold: 6}, ones(1000), 0, 0},
		// Two slots drawn at random with hold 4: the Markov chain over
		// the two slots' remaining holds gives a mean stall of 11/6.
		{"two slots", Hazard{Hold: 4, Slots: 2}, []int64{5000, 5000}, 11.0 / 6, 0.03},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.h.stallPerMessage(tc.counts, 1)
			if math.Abs(got-tc.want) > tc.tol {
				t.Errorf("stall %.4f per message, want %.4f", got, tc.want)
			}
			if again := tc.h.stallPerMessage(tc.counts, 1); again != got {
				t.Errorf("not reproducible: %v then %v", got, again)
			}
		})
	}
}

func ones(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// TestProfilesOnce: concurrent requests for one design point compute it
// once; a cancelled request is not remembered.
func TestProfilesOnce(t *testing.T) {
	g := handGraph(t, 64, ringEdges(64))
	act := NewActivity()
	act.Record(0, []uint32{0, 5, 9}, 6)
	ps := NewProfiles(g, act, graph.PartitionOptions{})
	var wg sync.WaitGroup
	got := make([]*Profile, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _ = ps.Get(context.Background(), 2, 2, ProfileOptions{Mem: BRAM})
		}()
	}
	wg.Wait()
	for _, p := range got {
		if p == nil || p != got[0] {
			t.Fatal("concurrent requests did not share one profile")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ps.Get(ctx, 1, 3, ProfileOptions{Mem: BRAM}); err == nil {
		t.Fatal("a cancelled request succeeded")
	}
	if ps.Len() != 1 {
		t.Fatalf("%d profiles kept, want 1", ps.Len())
	}
	if p, err := ps.Get(context.Background(), 1, 3, ProfileOptions{Mem: BRAM}); err != nil || p.PEs != 3 {
		t.Fatalf("after cancel: %v, %v", p, err)
	}
}

func ringEdges(n uint32) [][2]uint32 {
	var e [][2]uint32
	for v := uint32(0); v < n; v++ {
		e = append(e, [2]uint32{v, (v + 1) % n})
	}
	return e
}

// TestProfileProgress: a profile reports its design point, then every
// sender set as it is done, one report at a time; a profile already
// computed reports nothing.
func TestProfileProgress(t *testing.T) {
	g := handGraph(t, 64, ringEdges(64))
	act := NewActivity()
	act.Record(0, []uint32{0, 5, 9}, 6)
	act.Record(1, []uint32{1, 2}, 4)
	act.Record(2, []uint32{3}, 2)
	ps := NewProfiles(g, act, graph.PartitionOptions{Method: graph.Robin})
	var got []ProfileProgress
	ctx := WithProfileProgress(context.Background(), func(p ProfileProgress) { got = append(got, p) })
	if _, err := ps.Get(ctx, 2, 3, ProfileOptions{Mem: BRAM}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 || got[0].Done != 0 || got[3].Done != 3 || got[3].Total != 3 || got[3].FPGAs != 2 || got[3].PEs != 3 || got[3].Partitioner != graph.Robin {
		t.Fatalf("reports %+v", got)
	}
	if want := "prediction: profile of 2 FPGAs x 3 PEs (robin partition), 3 of 3 sender sets"; got[3].String() != want {
		t.Errorf("%q, want %q", got[3].String(), want)
	}
	got = nil
	if _, err := ps.Get(ctx, 2, 3, ProfileOptions{Mem: BRAM}); err != nil || len(got) != 0 {
		t.Fatalf("a kept profile: %v, reports %+v", err, got)
	}
}
