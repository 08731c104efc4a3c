package model

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

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
		// The per-pair and per-FPGA figures of a direct network, as the
		// simulator's links use them; IfFunc gives the limits' BW_if.
		PairBitsPerSec:      b.PairBitsPerSecond(),
		IfBitsPerSec:        b.Network.InterfaceGiBs * boards.GiB * 8,
		MemRequestsInFlight: m.RequestsInFlight,
		CPE:                 b.PE.CPE,
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

// PredictFor returns the model's prediction for a bound kernel on a graph
// at one design point, as TSysFor returns T_sys: with the CPE of the PE
// design, any nP, and ps, the reference run's activity with the profiles
// of the partitioner the simulation uses (it makes the same partition).
// What a simulation of the same configuration is compared with
// (sim.Setup.ModelPredictedTEPS).
func PredictFor(ctx context.Context, b *boards.Board, k *kernel.Kernel, g *graph.Graph, c Config, pe PEDesign, ps *Profiles) (Prediction, error) {
	p, err := FromBoardKernel(b, "", k.Spec.PECost)
	if err != nil {
		return Prediction{}, err
	}
	p.MaxPEs = 0
	cpe, src := p.CPEFor(k.Spec.Name, pe)
	w := NewWorkload(k, g, cpe, src, nil)
	w.PE = pe
	w.Attach(ps)
	r, err := Evaluate(p, w, c)
	if err != nil && !errors.Is(err, ErrCapacity) {
		return Prediction{}, err
	}
	return PredictContext(ctx, p, w, r)
}
