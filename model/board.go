package model

import (
	"errors"
	"fmt"
	"math"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// DefaultPipelineCycles is the depth of a PE from an update entering the
// crossbar to its messages being gathered, excluding the user kernels and
// the memory (arch.PipelineCycles). It enters t_sync only.
const DefaultPipelineCycles = arch.PipelineCycles

// FromBoard builds the model's view of a board. mem names the edge memory
// ("" for the board's default); it is ignored for BRAM edge storage.
func FromBoard(b *boards.Board, mem string) (*Platform, error) {
	return FromBoardKernel(b, mem, nil)
}

// FromBoardKernel is FromBoard with a kernel's own per-PE cost, which
// replaces the board's estimate when the board does not fix nP max.
func FromBoardKernel(b *boards.Board, mem string, cost *kernel.PECost) (*Platform, error) {
	m := b.EdgeMemory()
	if mem != "" {
		var err error
		if m, err = b.MemoryNamed(mem); err != nil {
			return nil, err
		}
	}
	p := &Platform{
		Name:            b.Name,
		ClockHz:         b.ClockHz(),
		MemBitsPerSec:   m.BitsPerSecond(),
		MemWordBits:     m.WordBits,
		MemCapacityBits: m.CapacityBits(),
		OnChipBits:      float64(b.VertexMemoryBits()),
		IfFunc:          b.NodeInterfaceBitsPerSecond,
		GroupsFunc:      b.Nodes,
		NetBitsPerSec:   b.NetworkBitsPerSecond(),
		LinkWordBits:    b.Network.LinkWordBits,
		MaxFPGAs:        b.MaxFPGAs,
		MaxPEs:          b.MaxPEs(),
		LinkLatencySec:  b.Network.LinkLatencyNs * 1e-9,
		MemLatencySec:   m.LatencyNs * 1e-9,
		PipelineCycles:  DefaultPipelineCycles,
		CPE:             b.PE.CPE,
	}
	switch {
	case b.PE.MaxPerFPGA > 0:
		p.MaxPEsReason = fmt.Sprintf("fixed by the %s board file", b.Name)
	case cost != nil:
		n := math.MaxInt
		for _, r := range [][2]int{{b.FPGA.LUT, cost.LUT}, {b.FPGA.FF, cost.FF}, {b.FPGA.BRAM36, cost.BRAM36}, {b.FPGA.DSP, cost.DSP}} {
			if r[1] > 0 {
				n = min(n, r[0]/r[1])
			}
		}
		p.MaxPEs = n
		p.MaxPEsReason = fmt.Sprintf("the kernel's per-PE cost %d LUT, %d FF, %d BRAM36, %d DSP on %s", cost.LUT, cost.FF, cost.BRAM36, cost.DSP, b.FPGA.Part)
	default:
		p.MaxPEsReason = fmt.Sprintf("estimated per-PE cost %d LUT, %d FF, %d BRAM36, %d DSP on %s", b.PE.LUT, b.PE.FF, b.PE.BRAM36, b.PE.DSP, b.FPGA.Part)
	}
	return p, nil
}

// TSysFor returns the model's T_sys for a bound kernel on a graph at one
// design point, with the CPE of the PE design and any nP (the board's nP
// max does not apply): what a simulation of the same configuration is
// compared with (sim.Setup.ModelTSys). A configuration whose data does not
// fit still has its limits; 0 means the model cannot evaluate it.
func TSysFor(b *boards.Board, k *kernel.Kernel, g *graph.Graph, c Config, pe PEDesign) float64 {
	p, err := FromBoardKernel(b, "", k.Spec.PECost)
	if err != nil {
		return 0
	}
	p.MaxPEs = 0
	cpe, src := p.CPEFor(k.Spec.Name, pe)
	r, err := Evaluate(p, NewWorkload(k, g, cpe, src, nil), c)
	if err != nil && !errors.Is(err, ErrCapacity) {
		return 0
	}
	return r.TSys
}
