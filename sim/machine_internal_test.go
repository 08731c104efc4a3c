package sim

import (
	"context"
	"slices"
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// cycleMachine builds the cycle-level GraVF-M machine of a setup as Run
// does, for tests that change one of its shortcuts before running it.
func cycleMachine(t *testing.T, s *Setup) *machine {
	t.Helper()
	if err := s.applyDefaults(); err != nil {
		t.Fatal(err)
	}
	d, err := s.design()
	if err != nil {
		t.Fatal(err)
	}
	part, err := graph.NewPartition(context.Background(), s.Graph, graph.PartitionOptions{FPGAs: s.FPGAs, PEs: s.PEs, Method: s.Partitioner})
	if err != nil {
		t.Fatal(err)
	}
	s.partition = part
	return newMachine(s, NewParams(d))
}

func runMachine(t *testing.T, m *machine) *Result {
	t.Helper()
	if err := m.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m.result()
}

// TestPerSenderScatterMatchesPerEdge runs PageRank, whose scatter reads
// only the update and the sender's degree, with the message computed
// once per update (msgPay) and once per edge through the scatter unit's
// payload slots, and compares every figure of the two runs: the shortcut
// must change only the work.
func TestPerSenderScatterMatchesPerEdge(t *testing.T) {
	sp, err := samples.Kernel("pr")
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		graph      string
		fpgas, pes int
		mem        arch.MemKind
	}{
		{"rmat:scale=9,ef=8,seed=3", 2, 3, MemOffChip},
		{"uniform:v=300,d=6,seed=2", 1, 4, MemBRAM},
	} {
		g, err := graph.Load(tc.graph, graph.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		k, err := sp.Bind(kernel.Env{Vertices: g.NumVertices(), Params: map[string]string{"iterations": "4"}})
		if err != nil {
			t.Fatal(err)
		}
		run := func(perSender bool) *Result {
			s := &Setup{Board: b, Kernel: k, Graph: g, FPGAs: tc.fpgas, PEs: tc.pes, Mem: tc.mem, Filter: true, Detail: Cycle}
			m := cycleMachine(t, s)
			if m.msgPay[0] == nil {
				t.Fatalf("%s: PR's scatter is not computed once per update", tc.graph)
			}
			if !perSender {
				m.msgPay = [3][]uint64{}
			}
			return runMachine(t, m)
		}
		once, each := run(true), run(false)
		if once.Cycles != each.Cycles || !slices.Equal(once.PerSuperstep, each.PerSuperstep) || !slices.Equal(once.PerPE, each.PerPE) {
			t.Errorf("%s: %d cycles once per update, %d once per edge", tc.graph, once.Cycles, each.Cycles)
		}
		if !slices.Equal(once.States, each.States) {
			t.Errorf("%s: the final states differ", tc.graph)
		}
	}
}

// TestBroadcastFindsEveryLocalList checks the run the crossbar attaches
// to each copy of an update against a search of the sender's runs for
// the PE, for every vertex and every PE of a 3 x 4 system.
func TestBroadcastFindsEveryLocalList(t *testing.T) {
	sp, err := samples.Kernel("wcc")
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load("rmat:scale=9,ef=8,seed=5", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := sp.Bind(kernel.Env{Vertices: g.NumVertices()})
	if err != nil {
		t.Fatal(err)
	}
	m := cycleMachine(t, &Setup{Board: b, Kernel: k, Graph: g, FPGAs: 3, PEs: 4, Filter: true, Detail: Cycle})
	for _, fp := range m.fpgas {
		for u := uint32(0); int(u) < g.NumVertices(); u++ {
			m.broadcast(fp, item{v: u, kind: kindUpdate})
			for _, q := range fp.pes {
				it := q.in.pop()
				want := int32(-1)
				lo, hi := m.layout.Runs(u)
				for i := lo; i < hi; i++ {
					if pe, _, _ := m.layout.Run(i); pe == q.id {
						want = int32(i)
					}
				}
				if it.run != want {
					t.Fatalf("vertex %d on PE %d: run %d, want %d", u, q.id, it.run, want)
				}
			}
		}
		m.broadcast(fp, item{v: 0, kind: kindBarrier})
		for _, q := range fp.pes {
			if it := q.in.pop(); it.run != -1 {
				t.Fatalf("a barrier carries run %d", it.run)
			}
		}
	}
}
