package graph_test

import (
	"context"
	"fmt"

	"github.com/gravf-tui/gravf-tui/graph"
)

// A path of six vertices on 2 FPGAs with 2 PEs each: the greedy partition,
// where the update of vertex 3 is scattered, and what the filter saves.
func ExampleNewPartition() {
	b := graph.NewBuilder(6, false, false)
	for v := uint32(0); v < 5; v++ {
		b.AddEdge(v, v+1, 0)
	}
	g, err := b.Build("path")
	if err != nil {
		panic(err)
	}
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 2, PEs: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println("method:", p.Method)
	for v := range uint32(g.NumVertices()) {
		fmt.Printf("vertex %d: fpga %d, pe %d, local index %d\n", v, p.FPGA(v), p.PE[v], p.Local[v])
	}

	l := graph.NewEdgeLayout(g, p)
	l.ForEachPE(3, func(pe int, nbrs, _ []uint32) {
		fmt.Printf("update of 3 is scattered by pe %d to %v\n", pe, nbrs)
	})
	f := graph.NewFilter(g, p)
	fmt.Println("remote FPGAs that need vertex 3:", f.Targets(3))

	s := graph.ComputeCutStats(g, p)
	fmt.Printf("arcs crossing FPGAs: %d of %d\n", s.CrossFPGAArcs, s.Arcs)
	fmt.Printf("remote update copies: %d, %d with the filter (%.0f%% saved)\n",
		s.RemoteUpdatesUnfiltered, s.RemoteUpdatesFiltered, 100*s.FilterSaving)
	fmt.Println("edges per PE:", l.EdgesPerPE())
	// Output:
	// method: greedy
	// vertex 0: fpga 0, pe 0, local index 0
	// vertex 1: fpga 0, pe 1, local index 0
	// vertex 2: fpga 1, pe 2, local index 0
	// vertex 3: fpga 1, pe 3, local index 0
	// vertex 4: fpga 0, pe 0, local index 1
	// vertex 5: fpga 0, pe 1, local index 1
	// update of 3 is scattered by pe 0 to [4]
	// update of 3 is scattered by pe 2 to [2]
	// remote FPGAs that need vertex 3: 1
	// arcs crossing FPGAs: 4 of 10
	// remote update copies: 6, 4 with the filter (33% saved)
	// edges per PE: [3 3 2 2]
}

// ParsePartitioner accepts the names users type.
func ExampleParsePartitioner() {
	for _, s := range []string{"", "round-robin", "METIS"} {
		m, err := graph.ParsePartitioner(s)
		fmt.Printf("%q -> %s %v\n", s, m, err)
	}
	// Output:
	// "" -> greedy <nil>
	// "round-robin" -> robin <nil>
	// "METIS" -> metis <nil>
}
