package boards

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// GiB is the number of bytes in a GiB (2^30). Every *_gib and *_gib_s
// figure of a board file is in these units, because the paper reports its
// measured memory and network bandwidths in GiB/s.
const GiB = 1 << 30

// Gbit is the number of bits in a Gbit (10^9): link rates are quoted in
// decimal units by the standards (100GbE, PCIe) and so in board files.
const Gbit = 1e9

// Board is one multi-FPGA platform: what the model, the simulator and the
// generator need to know about it. Its fields mirror the board file; the
// methods turn them into the bit/s figures of SPEC §3.
type Board struct {
	// Name is the short id used on the command line ("ac510").
	Name string `toml:"name" json:"name" check:"required,id" doc:"short board id"`
	// Title is a one-line description for tables.
	Title string `toml:"title" json:"title" check:"required,nonempty" doc:"one-line description"`
	// Doc is a longer description, trimmed of surrounding space.
	Doc string `toml:"doc" json:"doc,omitempty"`
	// Source says where the figures come from, so that a reader can check
	// them: data sheet names, paper sections.
	Source string `toml:"source" json:"source" check:"required,nonempty" doc:"where the figures come from"`
	// PriceUSD is the approximate list price of one FPGA board, the cost
	// axis of Pareto fronts; 0 means unknown.
	PriceUSD float64 `toml:"price_usd" json:"price_usd" check:"[0,1e9]" doc:"USD per FPGA board, 0 = unknown"`
	// ClockMHz is f_clk of the GraVF-M design on this board, the clock the
	// model and the simulator use. The built-in boards set it to the clock
	// published designs of this kind closed at, where one is known.
	ClockMHz float64 `toml:"clock_mhz" json:"clock_mhz" check:"required,(0,2000]" doc:"f_clk of the design" board:"set"`
	// ClockMaxMHz is the fastest clock the part or platform offers a
	// design (its data sheet or platform guide); 0 means not stated.
	ClockMaxMHz float64 `toml:"clock_max_mhz" json:"clock_max_mhz" check:"[0,2000]" doc:"the platform's fastest design clock, 0 = not stated"`
	// PublishedClockMHz is the clock that published designs of this kind
	// (graph accelerators on this board) closed timing at; a clock above
	// it draws a warning. 0 means none is known.
	PublishedClockMHz float64 `toml:"published_clock_mhz" json:"published_clock_mhz" check:"[0,2000]" doc:"the clock published designs closed at, 0 = none known"`
	// PublishedClockSource names those designs and where they say so.
	PublishedClockSource string `toml:"published_clock_source" json:"published_clock_source,omitempty" doc:"the designs behind published_clock_mhz"`
	// Retired says when and why the platform stopped being offered; the
	// board stays usable, with a warning.
	Retired string `toml:"retired" json:"retired,omitempty" doc:"when the platform was retired"`
	// MaxFPGAs is the largest number of FPGAs the platform has; the
	// optimiser never picks more.
	MaxFPGAs int `toml:"max_fpgas" json:"max_fpgas" check:"required,[1,4096]" doc:"largest number of FPGAs" board:"set"`
	// PE is the processing element's cost and measured speed.
	PE PE `toml:"pe" json:"pe" check:"required" doc:"a [pe] table"`
	// FPGA is the part on every board of the platform.
	FPGA FPGA `toml:"fpga" json:"fpga" check:"required" doc:"a [fpga] table"`
	// Memory lists the off-chip memories of one FPGA; the first is the
	// default edge memory.
	Memory []Memory `toml:"memory" json:"memory"`
	// Network describes how the FPGAs talk to each other.
	Network Network `toml:"network" json:"network" check:"required" doc:"a [network] table"`
	// File is where the board was read from ("boards/data/ac510.toml" for
	// built-in boards), so that later messages can point at it.
	File string `toml:"-" json:"file"`
}

// FPGA is the part and its resources. The counts are device totals, so
// that they can be checked against a data sheet; a platform shell that
// takes part of the fabric is noted in the board file's comments.
type FPGA struct {
	// Part is the full part name, as Vivado takes it.
	Part string `toml:"part" json:"part" check:"required,nonempty" doc:"FPGA part name"`
	// Family is the value of yosys synth_xilinx -family: "xc7"
	// (7-series), "xcu" (UltraScale) or "xcup" (UltraScale+), so that the
	// generator's synthesis script maps to the right primitives.
	Family string `toml:"family" json:"family" check:"required" doc:"yosys synth_xilinx -family"`
	// LUT is the number of CLB LUTs (6-input).
	LUT int `toml:"lut" json:"lut" check:"required,[1,1e8]" doc:"CLB LUTs"`
	// FF is the number of CLB flip-flops.
	FF int `toml:"ff" json:"ff" check:"required,[1,1e8]" doc:"CLB flip-flops"`
	// BRAM36 is the number of 36 Kb block RAMs.
	BRAM36 int `toml:"bram36" json:"bram36" check:"required,[1,1e8]" doc:"36 Kb block RAMs"`
	// URAM is the number of 288 Kb UltraRAMs (UltraScale+ only).
	URAM int `toml:"uram" json:"uram" check:"[0,1e8]" doc:"288 Kb UltraRAMs"`
	// DSP is the number of DSP slices.
	DSP int `toml:"dsp" json:"dsp" check:"required,[1,1e8]" doc:"DSP slices"`
}

// Families are the accepted values of FPGA.Family, in the order yosys
// documents them.
var Families = []string{"xc7", "xcu", "xcup"}

// Memory kinds: the technologies a board's memory may use. The simulator
// keys its timing model on them.
const (
	KindHMC  = "hmc"
	KindDDR4 = "ddr4"
	KindHBM2 = "hbm2"
	KindBRAM = "bram"
)

// MemoryKinds are the accepted values of Memory.Kind.
var MemoryKinds = []string{KindHMC, KindDDR4, KindHBM2, KindBRAM}

// Memory is one off-chip (or on-chip) memory of an FPGA that can hold the
// edge lists. Bandwidths and capacity are per FPGA.
type Memory struct {
	// Name identifies the memory within the board ("hbm", "ddr4").
	Name string `toml:"name" json:"name" check:"required,id" doc:"memory name"`
	// Kind is one of MemoryKinds.
	Kind string `toml:"kind" json:"kind" check:"required" doc:"memory technology"`
	// CapacityGiB is the capacity per FPGA, GiB.
	CapacityGiB float64 `toml:"capacity_gib" json:"capacity_gib" check:"required,(0,1e6]" doc:"capacity per FPGA"`
	// PeakGiBs is the peak bandwidth per FPGA, GiB/s.
	PeakGiBs float64 `toml:"peak_gib_s" json:"peak_gib_s" check:"required,(0,1e6]" doc:"peak bandwidth per FPGA" board:"set"`
	// SustainedGiBs is a measured sustained bandwidth per FPGA, GiB/s, for
	// an access pattern like GraVF-M's; 0 means not measured.
	SustainedGiBs float64 `toml:"sustained_gib_s" json:"sustained_gib_s" check:"[0,1e6]" doc:"measured bandwidth per FPGA, 0 = not measured" board:"set"`
	// ModelBandwidth says which figure the performance model uses as
	// BW_mem: "sustained" (the default when one was measured) or "peak"
	// (when the measured configuration is known not to match the design,
	// as on the AC-510).
	ModelBandwidth string `toml:"model_bandwidth" json:"model_bandwidth,omitempty" doc:"the figure the model uses"`
	// WordBits is the access word m_memword, bits.
	WordBits int `toml:"word_bits" json:"word_bits" check:"required,bits,[8,65536]" doc:"access word" board:"set"`
	// LatencyNs is the typical read round trip, ns.
	LatencyNs float64 `toml:"latency_ns" json:"latency_ns" check:"required,(0,1e9]" doc:"read round trip" board:"set"`
	// RequestsInFlight is the number of outstanding reads per PE port.
	RequestsInFlight int `toml:"requests_in_flight" json:"requests_in_flight" check:"required,[1,1e6]" doc:"outstanding reads per PE port"`
	// Channels is the number of independent ports per FPGA.
	Channels int `toml:"channels" json:"channels" check:"required,[1,4096]" doc:"independent ports per FPGA"`
}

// Topologies: how the FPGAs of a platform are joined. They decide how the
// network-interface bandwidth depends on the number of FPGAs.
const (
	// TopologyDirect has one link per FPGA pair, as the AC-510 streams.
	TopologyDirect = "direct"
	// TopologyRing joins each FPGA to its neighbours; updates travel hop
	// by hop.
	TopologyRing = "ring"
	// TopologySwitch joins every FPGA to one switch.
	TopologySwitch = "switch"
	// TopologyHierarchical groups FPGAs into nodes on a fast local fabric
	// and joins the nodes by a slower one.
	TopologyHierarchical = "hierarchical"
)

// Topologies are the accepted values of Network.Topology.
var Topologies = []string{TopologyDirect, TopologyRing, TopologySwitch, TopologyHierarchical}

// Network describes how the FPGAs of a platform talk to each other.
type Network struct {
	// Topology is one of Topologies.
	Topology string `toml:"topology" json:"topology" check:"required" doc:"how the FPGAs are joined"`
	// LinksPerFPGA is the number of links of one FPGA.
	LinksPerFPGA int `toml:"links_per_fpga" json:"links_per_fpga" check:"[0,4096]" doc:"links of one FPGA"`
	// LinkGbits is the payload rate of one link, per direction, Gbit/s.
	LinkGbits float64 `toml:"link_gbit_s" json:"link_gbit_s" check:"[0,1e5]" doc:"rate of one link per direction" board:"set"`
	// InterfaceGiBs is BW_if: what one FPGA can send (and receive) over all
	// its links at once, GiB/s.
	InterfaceGiBs float64 `toml:"interface_gib_s" json:"interface_gib_s" check:"[0,1e6]" doc:"BW_if: all links of one FPGA" board:"set"`
	// TotalGiBs is BW_net, the total of the network, GiB/s; 0 means
	// unlimited (it never binds).
	TotalGiBs float64 `toml:"total_gib_s" json:"total_gib_s" check:"[0,1e6]" doc:"BW_net, 0 = unlimited" board:"set"`
	// LinkWordBits is the width of a link's user interface, bits.
	LinkWordBits int `toml:"link_word_bits" json:"link_word_bits" check:"[0,65536]" doc:"link transfer word" board:"set"`
	// LinkLatencyNs is the one-way latency of a link, ns.
	LinkLatencyNs float64 `toml:"link_latency_ns" json:"link_latency_ns" check:"[0,1e9]" doc:"one-way link latency" board:"set"`
	// FPGAsPerNode is, for hierarchical networks, the number of FPGAs of a
	// node; 1 otherwise.
	FPGAsPerNode int `toml:"fpgas_per_node" json:"fpgas_per_node" check:"[1,4096],default=1" doc:"FPGAs per node"`
	// NodeLinkGbits is, for hierarchical networks, the rate between two
	// nodes per direction, Gbit/s.
	NodeLinkGbits float64 `toml:"node_link_gbit_s" json:"node_link_gbit_s" check:"[0,1e5]" doc:"rate between two nodes per direction"`
	// NodeInterfaceGiBs is, for hierarchical networks, what one node can
	// send to the other nodes at once, GiB/s.
	NodeInterfaceGiBs float64 `toml:"node_interface_gib_s" json:"node_interface_gib_s" check:"[0,1e6]" doc:"what one node sends at once"`
}

// PE is the cost and speed of one GraVF-M processing element on this
// board. The model divides the fabric by the cost to find the largest
// number of PEs per FPGA, unless MaxPerFPGA fixes it.
type PE struct {
	// MaxPerFPGA fixes the number of PEs per FPGA; 0 derives it from the
	// fabric (see Board.MaxPEs).
	MaxPerFPGA int `toml:"max_per_fpga" json:"max_per_fpga" check:"[0,1e6]" doc:"PEs per FPGA, 0 = from the fabric" board:"set"`
	// LUT, FF, BRAM36 and DSP are the estimated cost of one PE.
	LUT    int `toml:"lut" json:"lut" check:"required,[1,1e8]" doc:"LUTs per PE"`
	FF     int `toml:"ff" json:"ff" check:"required,[1,1e8]" doc:"flip-flops per PE"`
	BRAM36 int `toml:"bram36" json:"bram36" check:"[0,1e8]" doc:"BRAM36s per PE"`
	DSP    int `toml:"dsp" json:"dsp" check:"[0,1e8]" doc:"DSPs per PE"`
	// CPE maps a built-in kernel's name to its measured PE cycles per
	// edge.
	CPE map[string]float64 `toml:"cpe" json:"cpe,omitempty"`
}

// ClockHz returns f_clk in Hz, the unit of L_PE = nF * nP * f_clk / CPE.
func (b *Board) ClockHz() float64 { return b.ClockMHz * 1e6 }

// Warnings are what a user should know before trusting figures for this
// board: a clock above the platform's maximum or above the one published
// designs of this kind closed at, and a retired platform.
func (b *Board) Warnings() []string {
	var w []string
	if b.ClockMaxMHz > 0 && b.ClockMHz > b.ClockMaxMHz {
		w = append(w, fmt.Sprintf("%s: f_clk %s MHz is above the %s MHz the platform offers a design", b.Name, fmtNum(b.ClockMHz), fmtNum(b.ClockMaxMHz)))
	} else if b.PublishedClockMHz > 0 && b.ClockMHz > b.PublishedClockMHz {
		w = append(w, fmt.Sprintf("%s: f_clk %s MHz is above the %s MHz that published designs of this kind closed timing at (%s): the figures assume a clock that may not close",
			b.Name, fmtNum(b.ClockMHz), fmtNum(b.PublishedClockMHz), b.PublishedClockSource))
	}
	if b.Retired != "" {
		w = append(w, fmt.Sprintf("%s is retired: %s", b.Name, b.Retired))
	}
	return w
}

// PeakBitsPerSecond returns the memory's peak bandwidth per FPGA in bit/s.
func (m *Memory) PeakBitsPerSecond() float64 { return m.PeakGiBs * GiB * 8 }

// BitsPerSecond returns BW_mem of the performance model in bit/s: the
// sustained figure when one was measured (a measured figure is the better
// predictor of what the PEs will see), else the peak, unless the board
// says model_bandwidth = "peak".
func (m *Memory) BitsPerSecond() float64 {
	if m.SustainedGiBs > 0 && m.ModelBandwidth != "peak" {
		return m.SustainedGiBs * GiB * 8
	}
	return m.PeakBitsPerSecond()
}

// CapacityBits returns the memory's capacity per FPGA in bits, for the
// check that the edge storage fits.
func (m *Memory) CapacityBits() float64 { return m.CapacityGiB * GiB * 8 }

// EdgeMemory returns the default edge memory, the first one of the board
// file. Every valid board has one.
func (b *Board) EdgeMemory() *Memory { return &b.Memory[0] }

// MemoryNamed returns the memory called name, so that a user can put the
// edges in a board's second memory (the U280's DDR4, say).
func (b *Board) MemoryNamed(name string) (*Memory, error) {
	var names []string
	for i := range b.Memory {
		if b.Memory[i].Name == name {
			return &b.Memory[i], nil
		}
		names = append(names, b.Memory[i].Name)
	}
	return nil, fmt.Errorf("board %s has no memory %q (memories: %s)", b.Name, name, strings.Join(names, ", "))
}

// VertexMemoryBits returns M_board of SPEC §3, the on-chip memory per FPGA
// that can hold vertex state: every 36 Kb block RAM and 288 Kb UltraRAM.
// It is an upper bound; the PEs' queues and FIFOs take their share.
func (b *Board) VertexMemoryBits() int64 {
	return int64(b.FPGA.BRAM36)*36*1024 + int64(b.FPGA.URAM)*288*1024
}

// MaxPEs returns the largest number of PEs per FPGA (nP max of SPEC §3):
// PE.MaxPerFPGA when the board file fixes it, else the number of PEs whose
// estimated cost fits every resource of the part.
func (b *Board) MaxPEs() int {
	if b.PE.MaxPerFPGA > 0 {
		return b.PE.MaxPerFPGA
	}
	n := math.MaxInt
	for _, r := range b.resources() {
		if r.per > 0 {
			n = min(n, r.have/r.per)
		}
	}
	if n == math.MaxInt {
		return 0
	}
	return n
}

// resource is one kind of fabric: what the part has and one PE needs,
// with pointers to the fields for located errors.
type resource struct {
	name            string
	have, per       int
	havePtr, perPtr *int
}

func (b *Board) resources() []resource {
	f, pe := &b.FPGA, &b.PE
	return []resource{
		{"LUTs", f.LUT, pe.LUT, &f.LUT, &pe.LUT},
		{"flip-flops", f.FF, pe.FF, &f.FF, &pe.FF},
		{"BRAM36s", f.BRAM36, pe.BRAM36, &f.BRAM36, &pe.BRAM36},
		{"DSPs", f.DSP, pe.DSP, &f.DSP, &pe.DSP},
	}
}

// CPE returns the measured cycles per edge of a kernel on this board, and
// whether the board file has one; without it the model must assume a
// figure and should say so.
func (b *Board) CPE(kernel string) (float64, bool) {
	c, ok := b.PE.CPE[kernel]
	return c, ok
}

// CPEKernels returns the kernels with a measured CPE, sorted.
func (b *Board) CPEKernels() []string {
	var k []string
	for n := range b.PE.CPE {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}

// LinkBitsPerSecond returns the payload rate of one link, per direction,
// in bit/s.
func (b *Board) LinkBitsPerSecond() float64 { return b.Network.LinkGbits * Gbit }

// PairBitsPerSecond returns the most one FPGA can stream to one other
// (inside its node, for hierarchical networks), in bit/s. In a direct
// network a pair shares one link; in a ring a neighbour is one link away;
// through a switch (or a node's local switch) a pair can use all of an
// FPGA's links. The interface bandwidth caps all of them.
func (b *Board) PairBitsPerSecond() float64 {
	n := &b.Network
	pair := b.LinkBitsPerSecond()
	if n.Topology == TopologySwitch || n.Topology == TopologyHierarchical {
		pair *= float64(n.LinksPerFPGA)
	}
	return min(pair, n.InterfaceGiBs*GiB*8)
}

// InterfaceBitsPerSecond returns BW_if of SPEC §3 for nF FPGAs, in bit/s:
// what one FPGA can send to the others at once.
//
// In a direct network an FPGA reaches its nF-1 partners over one link
// each, so BW_if = min(interface_gib_s, (nF-1) * link). This reproduces the
// AC-510's measured 2.79, 5.59 and 5.85 GiB/s for nF = 2, 3 and 4: with one
// or two partners the 128-bit, 187.5 MHz streams bind. Through a switch,
// and in a ring where each hop hands an update to one more FPGA (so a
// broadcast to nF-1 FPGAs costs nF-1 link transfers, as in the direct
// case), an FPGA can use all its links whatever nF is: min(interface,
// links * link). In a hierarchical network this is the figure inside a
// node, whose FPGAs share a local switch; see NodeInterfaceBitsPerSecond
// for the network between nodes. With nF < 2 there is no network and the
// result is 0.
func (b *Board) InterfaceBitsPerSecond(nF int) float64 {
	if nF < 2 {
		return 0
	}
	n := &b.Network
	ifc := n.InterfaceGiBs * GiB * 8
	link := b.LinkBitsPerSecond()
	if n.Topology == TopologyDirect {
		return min(ifc, float64(nF-1)*link)
	}
	return min(ifc, float64(n.LinksPerFPGA)*link)
}

// Nodes returns the number of nodes nF FPGAs occupy: nF for flat networks
// (every FPGA is its own node), ceil(nF / fpgas_per_node) for hierarchical
// ones. SPEC §3 applies the network formulas to this count.
func (b *Board) Nodes(nF int) int {
	if nF < 1 {
		return 0
	}
	if b.Network.Topology != TopologyHierarchical || b.Network.FPGAsPerNode < 2 {
		return nF
	}
	return (nF + b.Network.FPGAsPerNode - 1) / b.Network.FPGAsPerNode
}

// NodeInterfaceBitsPerSecond returns, for nF FPGAs, what one node can send
// to the other nodes at once, in bit/s: the BW_if to use with the node
// count in place of nF. For a hierarchical network that is
// min(node_interface_gib_s, (nodes-1) * node_link_gbit_s), and 0 when the
// FPGAs fit in one node. For a flat network a node is an FPGA and this
// equals InterfaceBitsPerSecond(nF).
func (b *Board) NodeInterfaceBitsPerSecond(nF int) float64 {
	n := &b.Network
	if n.Topology != TopologyHierarchical {
		return b.InterfaceBitsPerSecond(nF)
	}
	nodes := b.Nodes(nF)
	if nodes < 2 {
		return 0
	}
	return min(n.NodeInterfaceGiBs*GiB*8, float64(nodes-1)*n.NodeLinkGbits*Gbit)
}

// NetworkBitsPerSecond returns BW_net of SPEC §3 in bit/s; 0 means the
// network has no total limit that binds (L_net does not apply).
func (b *Board) NetworkBitsPerSecond() float64 { return b.Network.TotalGiBs * GiB * 8 }
