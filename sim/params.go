package sim

import (
	"github.com/gravf-tui/gravf-tui/arch"
)

// FIFO depths of the design (the hardware contract's, package arch): a
// PE's input and message FIFOs, and the send and receive FIFOs of a link.
const (
	InFIFODepth     = arch.InputFIFODepth
	MsgFIFODepth    = arch.MessageFIFODepth
	LinkTxFIFODepth = arch.LinkSendFIFODepth
	LinkRxFIFODepth = arch.LinkReceiveFIFODepth
	// OrderFIFOExtra is what an off-chip PE's order FIFO holds beyond its
	// requests in flight; UpdateQueueExtra what the update queue holds
	// beyond one entry per local vertex.
	OrderFIFOExtra   = arch.OrderFIFOExtra
	UpdateQueueExtra = arch.UpdateQueueExtra
)

// Params are the physical parameters of one simulated system, all in
// clock cycles and link or memory words: the hardware contract
// (arch.Derive, from the board file and the kernel) in the simulator's
// terms. Nothing in them is fitted to a result.
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
	// Kernel pipeline latencies (arch.Latency).
	GatherLatency, ApplyLatency, ScatterLatency int
	// Hazard is the gather unit's hazard detector.
	Hazard arch.Hazard
}

// NewParams returns the simulator's view of a design.
func NewParams(d *arch.Design) Params {
	m := d.EdgeMemory
	return Params{
		ClockHz:           d.ClockHz,
		LinkWordBits:      d.Link.WordBits,
		PairWordsPerCycle: d.Link.PairWordsPerCycle,
		IfWordsPerCycle:   d.Link.IfWordsPerCycle,
		LinkLatency:       d.Link.LatencyCycles,
		UpdateWords:       d.Link.UpdateWords,
		MessageWords:      d.Link.MessageWords,
		MemWordBits:       m.WordBits,
		MemWordsPerCycle:  m.WordsPerCycle,
		MemLatency:        m.LatencyCycles,
		InFlight:          m.InFlight,
		EdgeSlotBits:      m.SlotBits,
		EdgesPerWord:      m.EdgesPerWord,
		GatherLatency:     d.Latency.Gather,
		ApplyLatency:      d.Latency.Apply,
		ScatterLatency:    d.Latency.Scatter,
		Hazard:            d.Hazard,
	}
}

// design derives the hardware contract of a setup (its defaults applied).
func (s *Setup) design() (*arch.Design, error) {
	return arch.Derive(s.Board, s.Kernel, arch.Options{FPGAs: s.FPGAs, PEs: s.PEs, Arch: s.Arch, Mem: s.Mem, PE: s.PE, Packing: s.Packing})
}

// PEDesign names the processing element's micro-architecture (see
// arch.PEDesign).
type PEDesign = arch.PEDesign

const (
	// PEGenerated is the PE that the RTL generator builds (the default).
	PEGenerated = arch.PEGenerated
	// PEPaper is the PE of the published design and the original code
	// base, on which the paper measured its CPE; the calibration against
	// the paper's figures simulates it.
	PEPaper = arch.PEPaper
)

// hazard is the gather unit's hazard detector in the simulator's units:
// whether it compares vertices exactly, for how many cycles after a
// message is read its slot, and the whole unit before a barrier, stays
// closed, and how many slots a PE of n vertices has (a slot is the local
// index modulo the slot count).
type hazard struct {
	exact bool
	hold  int64
}

func newHazard(p Params) hazard {
	return hazard{exact: p.Hazard.Exact, hold: int64(p.Hazard.Hold)}
}

func (h hazard) slots(n int) int { return arch.Hazard{Exact: h.exact}.Slots(n) }
