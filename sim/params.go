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
	// HazardSlots is the size of the paper's gather hazard detector (and
	// the generated PE's with hand-written kernels): one flag per slot,
	// indexed by the low bits of the destination's local index, so two
	// vertices that share the low bits stall each other too (as in the
	// original GraVF code base). This aliasing is what makes the paper's
	// CPE grow with the gather kernel's latency (WCC 1.05, PR 1.42); the
	// generated PE compares local indices exactly (PEGenerated).
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

// PEDesign names the processing element's micro-architecture; the model
// owns the names because it sets the cycles per edge.
type PEDesign = model.PEDesign

const (
	// PEGenerated is the PE that the RTL generator builds (the default).
	// Its scatter unit looks up the next update's edge list while it walks
	// the current one, so lists follow each other without a gap (BRAM
	// edges), and it counts barrier markers as they arrive. Its hazard
	// detector compares the local index exactly with the messages in the
	// gather kernel and bypasses the kernel's result to its input, so a
	// message for a vertex in flight waits GatherLatency - 1 cycles (none
	// for a kernel of latency 1). With hand-written kernels, whose latency
	// the generator does not know, the detector is the paper's.
	PEGenerated = model.PEGenerated
	// PEPaper is the PE of the published design and the original code
	// base, on which the paper measured its CPE: one lookup cycle at the
	// start of every edge list (BRAM edges), barrier markers counted only
	// when the scatter unit is idle, and a hazard detector of HazardSlots
	// aliased flags without a bypass (a message waits until the earlier
	// one for its slot has been written back). The calibration against the
	// paper's figures simulates this PE.
	PEPaper = model.PEPaper
)

// hazard is the gather unit's hazard detector: how many slots a PE of n
// vertices has (a slot is the local index modulo the slot count) and for
// how many cycles after a message is read its slot, and the whole unit
// before a barrier, stays closed.
type hazard struct {
	exact bool
	hold  int64
}

func newHazard(d PEDesign, k *kernel.Kernel, p Params) hazard {
	if d != PEPaper && len(k.Spec.Verilog) != 3 {
		return hazard{exact: true, hold: int64(max(p.GatherLatency, 1))}
	}
	return hazard{hold: int64(p.GatherLatency + 1)}
}

// slots returns the detector's slots for a PE of n vertices: one per
// vertex for the exact detector; else 32, or the power of two that covers
// n when the PE is smaller (the slot is the low bits of the local index).
func (h hazard) slots(n int) int {
	if h.exact {
		return max(n, 1)
	}
	s := 1
	for s < n && s < HazardSlots {
		s *= 2
	}
	return s
}
