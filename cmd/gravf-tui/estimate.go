package main

import (
	"context"
	"fmt"
	"io"
	"math"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
)

func estimate(ctx context.Context, w io.Writer, b *boards.Board, k *kernel.Kernel, g *graph.Graph, nF, nP int, part graph.Partitioner, filter bool, mem model.MemKind) error {
	d, err := arch.Derive(b, k, arch.Options{FPGAs: nF, PEs: nP, Mem: mem})
	if err != nil {
		return err
	}
	s, err := gen.GenerateSystem(ctx, gen.SystemOptions{Design: d, Kernel: k, Graph: g, Partitioner: part, Filter: filter})
	if err != nil {
		return err
	}
	fpga, pe, err := gen.Estimate(ctx, s, b.FPGA.Family)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "yosys synth_xilinx -family %s, %s on %s, FPGA 0 of %d x %d PEs, edges in %s\n\n", b.FPGA.Family, k.Spec.Name, g.Name, nF, nP, edgeStorage(mem))
	fmt.Fprintf(w, "  %-10s %10s %10s %10s %8s\n", "", "LUT", "FF", "BRAM36", "DSP")
	fmt.Fprintf(w, "  %-10s %10d %10d %10.1f %8d\n", "per PE", pe.LUT, pe.FF, pe.BRAM36, pe.DSP)
	fmt.Fprintf(w, "  %-10s %10d %10d %10.1f %8d\n", "FPGA 0", fpga.LUT, fpga.FF, fpga.BRAM36, fpga.DSP)
	fmt.Fprintf(w, "  %-10s %10d %10d %10d %8d\n", b.FPGA.Part, b.FPGA.LUT, b.FPGA.FF, b.FPGA.BRAM36, b.FPGA.DSP)
	fit := math.MaxInt
	for _, r := range [][2]float64{{float64(b.FPGA.LUT), float64(pe.LUT)}, {float64(b.FPGA.FF), float64(pe.FF)}, {float64(b.FPGA.BRAM36), pe.BRAM36}, {float64(b.FPGA.DSP), float64(pe.DSP)}} {
		if r[1] > 0 {
			fit = min(fit, int(r[0]/r[1]))
		}
	}
	fmt.Fprintf(w, "\nPEs that fit one %s by this estimate: %d (routing and the crossbar need margin)\n", b.FPGA.Part, fit)
	if mem == model.OffChip {
		// The model's nP max is derived from the block-RAM design, whose PE
		// holds its edges on chip; an off-chip PE's cost is not cached.
		fmt.Fprintf(w, "not cached for the model: it uses the cost of the block-RAM PE (--mem bram)\n")
		return nil
	}
	cost := kernel.PECost{LUT: pe.LUT, FF: pe.FF, BRAM36: int(math.Ceil(pe.BRAM36)), DSP: pe.DSP}
	f, err := gen.SavePECost(b.Name, k.Spec.Name, g.NumVertices(), cost)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "cached for the model: %s\n", f)
	return nil
}

// edgeStorage names where a design keeps its edge lists.
func edgeStorage(m model.MemKind) string {
	if m == model.OffChip {
		return "off-chip memory"
	}
	return "block RAM"
}
