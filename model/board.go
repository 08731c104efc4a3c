package model

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/boards"
)

// DefaultPipelineCycles is the depth of a PE from an update entering the
// crossbar to its messages being gathered, excluding the user kernels and
// the memory: crossbar and broadcast FIFO (2), edge-index lookup (2),
// scatter FIFOs (2), gather read and write-back (3), barrier counter (2),
// apply hand-over (2), plus the 8-deep input FIFO that a barrier marker
// may wait behind. It enters t_sync only.
const DefaultPipelineCycles = 21

// FromBoard builds the model's view of a board. mem names the edge memory
// ("" for the board's default); it is ignored for BRAM edge storage.
func FromBoard(b *boards.Board, mem string) (*Platform, error) {
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
		FPGAsPerNode:    max(b.Network.FPGAsPerNode, 1),
		MaxFPGAs:        b.MaxFPGAs,
		MaxPEs:          b.MaxPEs(),
		LinkLatencySec:  b.Network.LinkLatencyNs * 1e-9,
		MemLatencySec:   m.LatencyNs * 1e-9,
		PipelineCycles:  DefaultPipelineCycles,
		CPE:             b.PE.CPE,
	}
	if b.Network.Topology == boards.TopologyHierarchical {
		p.NodeNetBitsPerSec = p.NetBitsPerSec
	}
	if b.PE.MaxPerFPGA > 0 {
		p.MaxPEsReason = fmt.Sprintf("fixed by the %s board file", b.Name)
	} else {
		p.MaxPEsReason = fmt.Sprintf("estimated per-PE cost %d LUT, %d FF, %d BRAM36, %d DSP on %s", b.PE.LUT, b.PE.FF, b.PE.BRAM36, b.PE.DSP, b.FPGA.Part)
	}
	return p, nil
}
