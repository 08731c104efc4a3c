package graph_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestPartitionNeverLeavesFPGAsEmptySilently is issue 16 item 12: more
// FPGAs than vertices, or a METIS result that leaves FPGAs without a
// vertex, is an OptionError, not a partition with idle FPGAs.
func TestPartitionNeverLeavesFPGAsEmptySilently(t *testing.T) {
	ctx := context.Background()
	g, err := graph.Load("uniform:v=20,d=3", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var oe *graph.OptionError
	for _, m := range []graph.Partitioner{graph.Robin, graph.Greedy, graph.GreedySorted, graph.METIS} {
		_, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 100, PEs: 1, Method: m})
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), "100 FPGAs for 20 vertices") {
			t.Errorf("%s: err = %v", m, err)
		}
	}
	// A METIS result with empty parts (here: every vertex on FPGA 0).
	fake := ptFakeGPMetis(t, `n=$(head -n 1 "$3" | cut -d' ' -f1)
i=0
while [ $i -lt $n ]; do echo 0; i=$((i + 1)); done > "$3.part.$4"
`)
	_, err = graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 4, PEs: 1, Method: graph.METIS, GPMetis: fake})
	if !errors.As(err, &oe) || !strings.Contains(err.Error(), "gpmetis left 3 of 4 FPGAs without a vertex") {
		t.Fatalf("err = %v", err)
	}
	// The real gpmetis on 20 vertices and 15 parts.
	testenv.NeedTool(t, "gpmetis")
	if _, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: 15, PEs: 1, Method: graph.METIS}); err != nil && !errors.As(err, &oe) {
		t.Fatalf("gpmetis: %v", err)
	}
}

// TestComplexMatrixRefused is issue 16 item 12: a complex Matrix Market
// file is not read as a graph.
func TestComplexMatrixRefused(t *testing.T) {
	_, err := graph.Read(strings.NewReader("%%MatrixMarket matrix coordinate complex general\n3 3 2\n1 2 1.0 0.5\n2 3 2.0 0.0\n"), "c.mtx", graph.ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "c.mtx:1:") || !strings.Contains(err.Error(), "complex is not supported") {
		t.Fatalf("err = %v", err)
	}
}
