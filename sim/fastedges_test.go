package sim_test

import (
	"context"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

// TestFastWideKeys runs the exact detector on a PE of more than 65,536
// vertices, where fast detail stores its keys (the neighbours' local
// indexes) in four bytes instead of two. Every vertex w is a neighbour of
// w-1 and w+1 and of the vertices 65,537 away, so a list holds pairs of
// vertices that agree in their low 16 bits next to each other: keys cut to
// two bytes would make the detector hold the second of each pair. Edges
// in block RAM, where fast detail agrees with cycle detail to the cycle.
func TestFastWideKeys(t *testing.T) {
	if testing.Short() {
		t.Skip("two runs on 140,000 vertices")
	}
	const n, far = 140000, 1<<16 + 1
	b := graph.NewBuilder(n, false, false)
	for u := uint32(0); u+1 < n; u++ {
		b.AddEdge(u, u+1, 0)
		if u+far < n {
			b.AddEdge(u, u+far, 0)
		}
	}
	g, err := b.Build("wide keys")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := samples.Kernel("pr")
	if err != nil {
		t.Fatal(err)
	}
	k, err := sp.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	var cycles [2]int64
	for i, d := range []sim.Detail{sim.Cycle, sim.Fast} {
		r, err := sim.Run(context.Background(), &sim.Setup{Board: board(t, "ac510"), Kernel: k, Graph: g, FPGAs: 1, PEs: 1,
			Mem: model.BRAM, PE: sim.PEGenerated, Filter: true, Detail: d})
		if err != nil {
			t.Fatal(err)
		}
		cycles[i] = r.Cycles
	}
	if cycles[0] != cycles[1] {
		t.Errorf("fast detail %d cycles, cycle detail %d", cycles[1], cycles[0])
	}
}
