package sim

import (
	"fmt"
	"math"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
)

// FIFO depths of the generated design (as in the original GraVF-M code:
// 8-deep FIFOs between units, 64-deep asynchronous FIFOs on the links).
const (
	InFIFODepth     = 8
	MsgFIFODepth    = 8
	LinkTxFIFODepth = 8 + 64 // the external FIFO plus the asynchronous FIFO into the stream
	LinkRxFIFODepth = 64
	// HazardSlots is the size of the gather hazard detector: one flag per
	// slot, indexed by the low bits of the destination's local index, so
	// two vertices that share the low bits stall each other too (as in the
	// original GraVF code base, and as the generated RTL builds it). This
	// aliasing is what makes the measured CPE grow with the gather
	// kernel's latency (WCC 1.05, PR 1.42).
	HazardSlots = 32
	// HeaderBits: the 2-bit superstep channel and the barrier flag.
	HeaderBits = model.DefaultHeaderBits
)

// Params are the physical parameters of one simulated system, all in
// clock cycles and link or memory words. They come from the board file and
// the kernel; nothing in them is fitted to a result.
type Params struct {
	ClockHz float64
	// Link: words of LinkWordBits; per ordered FPGA pair and per FPGA
	// interface, in words per cycle; one-way latency in cycles.
	LinkWordBits      int
	PairWordsPerCycle float64
	IfWordsPerCycle   float64
	LinkLatency       int
	// Items on the wire, in link words (fractional when packed).
	UpdateWords, MessageWords float64
	// Off-chip edge memory: words of MemWordBits per cycle per FPGA,
	// latency, requests in flight per PE; edges per word.
	MemWordBits      int
	MemWordsPerCycle float64
	MemLatency       int
	InFlight         int
	EdgeSlotBits     int
	EdgesPerWord     int
	// Kernel pipeline latencies (kernel.CheckedProgram.Latency).
	GatherLatency, ApplyLatency, ScatterLatency int
}

// NewParams derives the parameters from a board and a bound kernel.
func NewParams(b *boards.Board, k *kernel.Kernel, packing bool) (Params, error) {
	f := b.ClockHz()
	if f <= 0 {
		return Params{}, fmt.Errorf("board %s has no clock", b.Name)
	}
	sz := k.Sizes()
	p := Params{
		ClockHz:        f,
		LinkWordBits:   max(b.Network.LinkWordBits, 8),
		LinkLatency:    int(math.Round(b.Network.LinkLatencyNs * 1e-9 * f)),
		GatherLatency:  k.Checked.Gather.Latency(),
		ApplyLatency:   k.Checked.Apply.Latency(),
		ScatterLatency: k.Checked.Scatter.Latency(),
	}
	w := float64(p.LinkWordBits)
	p.PairWordsPerCycle = b.PairBitsPerSecond() / f / w
	p.IfWordsPerCycle = b.Network.InterfaceGiBs * boards.GiB * 8 / f / w
	words := func(bits int) float64 {
		if packing && bits <= p.LinkWordBits {
			return 1 / float64(p.LinkWordBits/bits)
		}
		return math.Ceil(float64(bits) / w)
	}
	p.UpdateWords = words(sz.Update + sz.VertexIDBits + HeaderBits)
	p.MessageWords = words(sz.Message + sz.VertexIDBits + HeaderBits)
	m := b.EdgeMemory()
	p.MemWordBits = m.WordBits
	p.MemWordsPerCycle = m.BitsPerSecond() / f / float64(m.WordBits)
	p.MemLatency = int(math.Round(m.LatencyNs * 1e-9 * f))
	p.InFlight = max(m.RequestsInFlight, 1)
	slot := 8
	for slot < sz.Edge {
		slot *= 2
	}
	p.EdgeSlotBits = slot
	p.EdgesPerWord = max(m.WordBits/slot, 1)
	return p, nil
}

// hazardSlots returns the detector's slots for a PE of n vertices: 32, or
// the power of two that covers n when the PE is smaller (the slot is the
// low bits of the local index).
func hazardSlots(n int) int {
	s := 1
	for s < n && s < HazardSlots {
		s *= 2
	}
	return s
}
