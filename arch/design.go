package arch

import (
	"errors"
	"fmt"
	"math"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// Fixed figures of the design, the same in every system. The RTL takes
// them as parameters from the generator, the simulator as Params.
const (
	// RoundBits is the width of the superstep channel ("round") that lets
	// adjacent supersteps share the network, as in the original code base.
	RoundBits = 2
	// HeaderBits is what an item carries on a link besides its sender and
	// payload: the barrier flag, the halt flag of a barrier marker and the
	// round. The crossbar's routing mask stays on the sending FPGA.
	HeaderBits = 2 + RoundBits
	// SuperstepBits is the width of the superstep number (level_in).
	SuperstepBits = 32
	// DegreeBits is the width of an out-degree (degree_in,
	// num_neighbors_in) in the edge index and the vertex info.
	DegreeBits = 32
	// CounterBits is the width of a PE's gathered-message counter.
	CounterBits = 32

	// InputFIFODepth is the depth of a PE's input FIFO, fed by the crossbar.
	InputFIFODepth = 8
	// KernelInputFIFODepth is the depth of the FIFO in front of the scatter
	// kernel; the scatter unit keeps KernelInputSlack entries free for the
	// reads it has in flight.
	KernelInputFIFODepth = 8
	KernelInputSlack     = 3
	// MessageFIFODepth is the depth of the FIFO between the scatter kernel
	// and gather.
	MessageFIFODepth = 8
	// SideFIFODepth is the least depth of the FIFOs that carry a PE's own
	// bookkeeping beside a kernel (local index, mask, halt bit); a kernel
	// deeper than that gets a deeper FIFO (SideDepth).
	SideFIFODepth = 16
	// OrderFIFOExtra is what an off-chip PE's order FIFO holds beyond its
	// requests in flight: a barrier marker and one entry of slack.
	OrderFIFOExtra = 2
	// UpdateQueueExtra is what the update queue holds beyond one update per
	// local vertex: the barrier marker and one entry of slack.
	UpdateQueueExtra = 2
	// LinkSendFIFODepth is the send FIFO per FPGA pair: the external FIFO
	// (8) and the asynchronous FIFO into the stream (64) of the original
	// design. LinkReceiveFIFODepth is the receive FIFO.
	LinkSendFIFODepth    = 8 + 64
	LinkReceiveFIFODepth = 64
	// HazardSlots is the size of the paper's gather hazard detector: one
	// flag per slot, indexed by the low bits of the destination's local
	// index, so vertices that share the low bits stall each other too (as
	// in the original code base). This aliasing is what makes the paper's
	// CPE grow with the gather kernel's latency (WCC 1.05, PR 1.42).
	HazardSlots = 32
	// MinSlotBits is the smallest edge slot in an off-chip memory word.
	MinSlotBits = 8
	// MinLinkWordBits is the smallest link word the design assumes.
	MinLinkWordBits = 8
	// PipelineCycles is the depth of a PE from an update entering the
	// crossbar to its messages being gathered, excluding the user kernels
	// and the memory: crossbar and broadcast FIFO (2), edge-index lookup
	// (2), scatter FIFOs (2), gather read and write-back (3), barrier
	// counter (2), apply hand-over (2), plus the input FIFO that a barrier
	// marker may wait behind. The model's barrier latency uses it.
	PipelineCycles = 13 + InputFIFODepth
)

// Options are the choices of a design point that shape the hardware.
type Options struct {
	// FPGAs and PEs per FPGA (0 counts as 1: the layouts that depend on
	// them, the crossbar's mask, take their smallest form).
	FPGAs, PEs int
	Arch       Arch
	Mem        MemKind
	PE         PEDesign
	// Packing puts several items into one link word.
	Packing bool
}

// Latencies are the pipeline depths of the three kernels in cycles.
type Latencies struct {
	Gather, Apply, Scatter int
}

// Hazard is the gather unit's hazard detector.
type Hazard struct {
	// Exact: the generated detector compares the local index of a message
	// exactly with those of the messages read in the last Hold - 1 cycles,
	// and the gather kernel's result is bypassed to its input, so a message
	// for a vertex in flight waits Hold - 1 cycles. Otherwise the paper's
	// detector: HazardSlots flags indexed by the low bits of the local
	// index, each closed for Hold cycles after its message is read.
	Exact bool
	Hold  int
}

// Slots returns the detector's slots for a PE of n vertices: one per
// vertex for the exact detector; else HazardSlots, or the power of two
// that covers n when the PE is smaller (a slot is the low bits of the
// local index).
func (h Hazard) Slots(n int) int {
	if h.Exact {
		return max(n, 1)
	}
	s := 1
	for s < n && s < HazardSlots {
		s *= 2
	}
	return s
}

// Link is the network between FPGAs as the design uses it.
type Link struct {
	// WordBits is the link's transfer word.
	WordBits int
	// UpdateBits and MessageBits are an update (GraVF-M) and a message
	// (GraVF) on the wire: the header, a vertex id and the payload.
	UpdateBits, MessageBits int
	// UpdateWords and MessageWords are the link words one item occupies
	// (fractional when packed).
	UpdateWords, MessageWords float64
	// PairWordsPerCycle and IfWordsPerCycle are the rates of one FPGA pair
	// and of an FPGA's interface, in link words per cycle.
	PairWordsPerCycle, IfWordsPerCycle float64
	// LatencyCycles is the one-way latency (at least one cycle).
	LatencyCycles int
}

// EdgeMemory is the board's off-chip edge memory as the design reads it: words of
// WordBits, each holding EdgesPerWord edges in power-of-two slots of
// SlotBits (the first edge in the least significant slot; a list starts
// on a word boundary), at most InFlight requests outstanding per PE, each
// answered after LatencyCycles, within WordsPerCycle words per cycle per
// FPGA shared by its PEs.
type EdgeMemory struct {
	Memory             string
	WordBits, SlotBits int
	EdgesPerWord       int
	LatencyCycles      int
	InFlight           int
	WordsPerCycle      float64
}

// Design is the hardware contract of one system: a bound kernel on a
// board at a design point.
type Design struct {
	Options
	Kernel  string
	ClockHz float64
	// VertexIDBits is the width of a global vertex id (vertexidsize).
	VertexIDBits int
	// HandWritten: the kernels are the user's Verilog, whose latency the
	// generator does not know (the simulator assumes the spec's).
	HandWritten bool
	Latency     Latencies
	Hazard      Hazard
	// The kernel's layouts: the update and message payloads, the vertex
	// state and the edge data (the first edge field, which the graph's
	// weight fills).
	Update, Message, State, EdgeData Layout
	// Global is the kernel's globals (none for most kernels): every
	// vertex's apply contributes to them, each PE folds its contributions
	// with a combine unit of GlobalLatency cycles (as many lanes) and sends
	// the partial in its barrier marker's payload, and apply reads the fold
	// of every PE's partial in the next superstep.
	Global         Layout
	GlobalLatency  int
	GlobalIdentity []uint64 // per field: what a vertex that does not contribute gives
	// SideDepth are the depths of the FIFOs beside the scatter, gather and
	// apply kernels: a kernel of latency L holds L + 1 operations (its
	// stages and its output register), so the FIFO beside it holds as many,
	// SideFIFODepth at least and a power of two; hand-written kernels,
	// whose latency the generator does not know, get SideFIFODepth.
	SideDepth Latencies
	// Item is an entry of a PE's update queue, as the crossbar takes it:
	// barrier, halt, round, the mask of remote FPGAs that need it (the
	// update filter), the sender and the payload. LinkItem is what the
	// crossbar writes to the links and to the local PEs: the item without
	// its mask.
	Item, LinkItem Layout
	Link           Link
	// EdgeMemory is the board's default off-chip edge memory (filled for
	// block-RAM designs too, so that a caller may compare).
	EdgeMemory EdgeMemory
}

// MaskBits is the width of the crossbar's routing mask: one bit per
// remote FPGA, at least one.
func (d *Design) MaskBits() int { return max(d.FPGAs-1, 1) }

// PayloadBits is the width of the update payload bus: the update's
// fields, at least one bit (a Verilog bus cannot be empty).
func (d *Design) PayloadBits() int { return max(d.Update.Width(), 1) }

// HandWritten reports whether the export uses the kernel's own Verilog
// (gather.v, apply.v and scatter.v beside its spec).
func HandWritten(k *kernel.Kernel) bool { return len(k.Spec.Verilog) == 3 }

// KernelLatencies returns the kernels' latencies the PE, the simulator and
// the model share: the generated pipelines' depths from the spec, except
// a hand-written gather whose spec declares its own (verilog.gather_latency).
// The PE's paper detector holds a vertex until the gather writes it back,
// so with a combinational hand-written gather it holds for one cycle,
// not for the generated gather's two.
func KernelLatencies(k *kernel.Kernel) Latencies {
	c := k.Checked
	l := Latencies{Gather: Latency(c.Gather), Apply: Latency(c.Apply), Scatter: Latency(c.Scatter)}
	if g := k.Spec.VerilogGatherLatency; g != nil && HandWritten(k) {
		l.Gather = *g
	}
	return l
}

// DetectorFor returns the gather unit's hazard detector of a PE design
// for a gather of the given latency: the generated PE's exact one, with
// the kernel's result bypassed, for generated kernels; the paper's, whose
// slots stay closed for the latency plus one cycle, in the paper's PE and
// for hand-written kernels, whose latency the generator does not know.
func DetectorFor(pe PEDesign, gatherLatency int, handWritten bool) Hazard {
	if pe != PEPaper && !handWritten {
		return Hazard{Exact: true, Hold: max(gatherLatency, 1)}
	}
	return Hazard{Hold: gatherLatency + 1}
}

// Derive computes the contract of a bound kernel on a board at a design
// point.
func Derive(b *boards.Board, k *kernel.Kernel, o Options) (*Design, error) {
	f := b.ClockHz()
	if !(f > 0) {
		return nil, fmt.Errorf("board %s has no clock", b.Name)
	}
	if len(b.Memory) == 0 {
		return nil, fmt.Errorf("board %s has no memory", b.Name)
	}
	o.FPGAs, o.PEs = max(o.FPGAs, 1), max(o.PEs, 1)
	if o.Arch == "" {
		o.Arch = GraVFM
	}
	if o.Mem == "" {
		o.Mem = OffChip
	}
	if o.PE == "" {
		o.PE = PEGenerated
	}
	c := k.Checked
	d := &Design{Options: o, Kernel: k.Spec.Name, ClockHz: f, VertexIDBits: c.VertexIDBits, HandWritten: HandWritten(k),
		Latency: KernelLatencies(k)}
	d.Hazard = DetectorFor(o.PE, d.Latency.Gather, d.HandWritten)
	d.Update = kernelLayout("update payload", k.Spec.Update, c.UpdateT)
	d.Message = kernelLayout("message payload", k.Spec.Message, c.MessageT)
	d.State = kernelLayout("vertex state", k.Spec.Vertex, c.VertexT)
	d.Global = kernelLayout("globals", k.Spec.Global, c.GlobalT)
	d.GlobalLatency, d.GlobalIdentity = ReduceLatency(k), k.GlobalIdentity()
	d.SideDepth = Latencies{Scatter: sideDepth(d.Latency.Scatter, d.HandWritten), Gather: sideDepth(d.Latency.Gather, d.HandWritten),
		Apply: sideDepth(d.Latency.Apply, d.HandWritten)}
	d.EdgeData = Layout{Name: "edge data"}
	if len(k.Spec.Edge) > 0 {
		d.EdgeData.Fields = []Field{{Name: k.Spec.Edge[0].Name, Width: c.EdgeT[0].Width}}
	}
	d.Item = Layout{Name: "crossbar item", Fields: []Field{{"barrier", 1}, {"halt", 1}, {"round", RoundBits},
		{"mask", d.MaskBits()}, {"sender", d.VertexIDBits}, {"payload", d.PayloadBits()}}}
	d.LinkItem = Layout{Name: "link item", Fields: []Field{{"barrier", 1}, {"halt", 1}, {"round", RoundBits},
		{"sender", d.VertexIDBits}, {"payload", d.PayloadBits()}}}
	d.Link = deriveLink(b, f, d, o.Packing)
	var err error
	if d.EdgeMemory, err = deriveEdgeMemory(b.EdgeMemory(), f, c.Sizes()); err != nil {
		return nil, fmt.Errorf("board %s: %w", b.Name, err)
	}
	return d, nil
}

// sideDepth is the depth of the FIFO beside a kernel of the given latency
// (see Design.SideDepth).
func sideDepth(latency int, handWritten bool) int {
	d := SideFIFODepth
	for !handWritten && d < latency+1 {
		d *= 2
	}
	return d
}

func kernelLayout(name string, l kernel.Layout, ts []kernel.Type) Layout {
	out := Layout{Name: name}
	for i, fd := range l {
		out.Fields = append(out.Fields, Field{Name: fd.Name, Width: ts[i].Width})
	}
	return out
}

func deriveLink(b *boards.Board, f float64, d *Design, packing bool) Link {
	l := Link{WordBits: max(b.Network.LinkWordBits, MinLinkWordBits), LatencyCycles: cycles(b.Network.LinkLatencyNs, f)}
	w := float64(l.WordBits)
	l.PairWordsPerCycle = b.PairBitsPerSecond() / f / w
	l.IfWordsPerCycle = b.Network.InterfaceGiBs * boards.GiB * 8 / f / w
	l.UpdateBits = d.LinkItem.Width()
	l.MessageBits = MessageBits(d.VertexIDBits, d.Message.Width())
	l.UpdateWords = LinkBits(l.UpdateBits, l.WordBits, packing) / w
	l.MessageWords = LinkBits(l.MessageBits, l.WordBits, packing) / w
	return l
}

func deriveEdgeMemory(m *boards.Memory, f float64, sz kernel.Sizes) (EdgeMemory, error) {
	if m.WordBits <= 0 {
		return EdgeMemory{}, fmt.Errorf("memory %s: %d-bit words", m.Name, m.WordBits)
	}
	o := EdgeMemory{Memory: m.Name, WordBits: m.WordBits, LatencyCycles: cycles(m.LatencyNs, f), InFlight: max(m.RequestsInFlight, 1),
		WordsPerCycle: m.BitsPerSecond() / f / float64(m.WordBits), SlotBits: SlotBits(sz.Edge)}
	o.EdgesPerWord = max(o.WordBits/o.SlotBits, 1)
	return o, o.Check()
}

// Check reports an off-chip memory the design cannot use.
func (m EdgeMemory) Check() error {
	switch {
	case m.WordBits <= 0 || m.SlotBits <= 0:
		return fmt.Errorf("off-chip memory: %d-bit words, %d-bit edge slots", m.WordBits, m.SlotBits)
	case m.SlotBits > m.WordBits:
		return fmt.Errorf("off-chip memory: an edge slot of %d bits does not fit the %d-bit memory word", m.SlotBits, m.WordBits)
	case m.EdgesPerWord != m.WordBits/m.SlotBits:
		return fmt.Errorf("off-chip memory: %d edges per word of %d bits in %d-bit slots", m.EdgesPerWord, m.WordBits, m.SlotBits)
	case m.InFlight < 1:
		return errors.New("off-chip memory: a PE needs at least one request in flight")
	case m.LatencyCycles < 1:
		return errors.New("off-chip memory: the latency must be at least one cycle")
	case !(m.WordsPerCycle > 0):
		return fmt.Errorf("off-chip memory: bandwidth of %g words per cycle", m.WordsPerCycle)
	}
	return nil
}

// cycles converts a latency in ns to clock cycles, at least one.
func cycles(ns, hz float64) int { return max(int(math.Round(ns*1e-9*hz)), 1) }

// SlotBits is the edge slot of an off-chip word for edges of m_edge bits
// (a vertex id and the edge data): the power of two that holds it, at least
// MinSlotBits. The slot holds the neighbour's local index, no wider than a
// vertex id, above the edge data.
func SlotBits(edgeBits int) int {
	s := MinSlotBits
	for s < edgeBits {
		s *= 2
	}
	return s
}

// UpdateBits is an update on a link for a vertex id of vid bits and a
// payload of the given bits: the header, the sender and the payload (at
// least one bit, as the RTL's bus).
func UpdateBits(vid, payload int) int { return HeaderBits + vid + max(payload, 1) }

// MessageBits is a message of the GraVF baseline on a link: the header,
// the destination and the payload (at least one bit).
func MessageBits(vid, payload int) int { return HeaderBits + vid + max(payload, 1) }

// WireBits returns the on-wire sizes of a bound kernel's updates and
// messages, for the model.
func WireBits(s kernel.Sizes) (update, message int) {
	return UpdateBits(s.VertexIDBits, s.Update), MessageBits(s.VertexIDBits, s.Message)
}

// LinkBits is the link capacity one item of the given bits occupies: whole
// words, or with packing the word divided by the number of items that fit
// it (whole words again when the item is wider than a word). A word of 0
// bits means a bit-serial link: the item's bits.
func LinkBits(bits, word int, packing bool) float64 {
	if word <= 0 {
		return float64(bits)
	}
	whole := float64((bits + word - 1) / word * word)
	if per := word / max(bits, 1); packing && per >= 1 {
		return float64(word) / float64(per)
	}
	return whole
}
