package gen

import (
	"context"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

func TestParseYosysStat(t *testing.T) {
	text := `
=== leaf ===

   Number of cells:                 3
     FDRE                            2
     LUT6                            1

=== mid ===

   Number of cells:                 3
     leaf                            2
     RAMB18E2                        1

=== top ===

   Number of cells:                 2
     mid                             1
     DSP48E2                         1
     RAM64M8                         1

=== design hierarchy ===

   top                               1
     mid                             1
`
	got := ParseYosysStat(text)
	want := Resources{LUT: 2 + 8, FF: 4, BRAM36: 0.5, DSP: 1, LUTRAM: 8}
	if got["top"] != want {
		t.Fatalf("top = %+v, want %+v", got["top"], want)
	}
	if got["mid"].FF != 4 || got["leaf"].LUT != 1 {
		t.Fatalf("mid %+v leaf %+v", got["mid"], got["leaf"])
	}
}

// TestEstimate synthesises a small WCC system with yosys and checks that
// the PE and FPGA figures are real and consistent.
func TestEstimate(t *testing.T) {
	testenv.NeedTool(t, "yosys")
	g, _ := graph.Load("uniform:v=256,d=8,seed=1", graph.ReadOptions{})
	spec, _ := samples.Kernel("bfs")
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
	if err != nil {
		t.Fatal(err)
	}
	s, err := GenerateSystem(context.Background(), SystemOptions{Design: testDesign(t, k, 2, 2, 10, nil), Kernel: k, Graph: g, Filter: true})
	if err != nil {
		t.Fatal(err)
	}
	fpga, pe, err := Estimate(context.Background(), s, "xcu")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("per PE %+v; FPGA %+v", pe, fpga)
	if pe.LUT < 100 || pe.FF < 50 || fpga.LUT < 2*pe.LUT || fpga.FF < 2*pe.FF {
		t.Fatalf("implausible figures: PE %+v, FPGA %+v", pe, fpga)
	}
}
