package boards

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

//go:embed data/*.toml
var dataFS embed.FS

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
	Name string `toml:"name" json:"name"`
	// Title is a one-line description for tables.
	Title string `toml:"title" json:"title"`
	// Doc is a longer description, trimmed of surrounding space.
	Doc string `toml:"doc" json:"doc,omitempty"`
	// Source says where the figures come from, so that a reader can check
	// them: data sheet names, paper sections.
	Source string `toml:"source" json:"source"`
	// PriceUSD is the approximate list price of one FPGA board, the cost
	// axis of Pareto fronts; 0 means unknown.
	PriceUSD float64 `toml:"price_usd" json:"price_usd"`
	// ClockMHz is f_clk of the GraVF-M design on this board.
	ClockMHz float64 `toml:"clock_mhz" json:"clock_mhz"`
	// MaxFPGAs is the largest number of FPGAs the platform has; the
	// optimiser never picks more.
	MaxFPGAs int `toml:"max_fpgas" json:"max_fpgas"`
	// FPGA is the part on every board of the platform.
	FPGA FPGA `toml:"fpga" json:"fpga"`
	// Memory lists the off-chip memories of one FPGA; the first is the
	// default edge memory.
	Memory []Memory `toml:"memory" json:"memory"`
	// Network describes how the FPGAs talk to each other.
	Network Network `toml:"network" json:"network"`
	// PE is the processing element's cost and measured speed.
	PE PE `toml:"pe" json:"pe"`
	// File is where the board was read from ("boards/data/ac510.toml" for
	// built-in boards), so that later messages can point at it.
	File string `toml:"-" json:"file"`
}

// FPGA is the part and its resources. The counts are device totals, so
// that they can be checked against a data sheet; a platform shell that
// takes part of the fabric is noted in the board file's comments.
type FPGA struct {
	// Part is the full part name, as Vivado takes it.
	Part string `toml:"part" json:"part"`
	// Family is the value of yosys synth_xilinx -family: "xc7"
	// (7-series), "xcu" (UltraScale) or "xcup" (UltraScale+), so that the
	// generator's synthesis script maps to the right primitives.
	Family string `toml:"family" json:"family"`
	// LUT is the number of CLB LUTs (6-input).
	LUT int `toml:"lut" json:"lut"`
	// FF is the number of CLB flip-flops.
	FF int `toml:"ff" json:"ff"`
	// BRAM36 is the number of 36 Kb block RAMs.
	BRAM36 int `toml:"bram36" json:"bram36"`
	// URAM is the number of 288 Kb UltraRAMs (UltraScale+ only).
	URAM int `toml:"uram" json:"uram"`
	// DSP is the number of DSP slices.
	DSP int `toml:"dsp" json:"dsp"`
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
	Name string `toml:"name" json:"name"`
	// Kind is one of MemoryKinds.
	Kind string `toml:"kind" json:"kind"`
	// CapacityGiB is the capacity per FPGA, GiB.
	CapacityGiB float64 `toml:"capacity_gib" json:"capacity_gib"`
	// PeakGiBs is the peak bandwidth per FPGA, GiB/s.
	PeakGiBs float64 `toml:"peak_gib_s" json:"peak_gib_s"`
	// SustainedGiBs is a measured sustained bandwidth per FPGA, GiB/s, for
	// an access pattern like GraVF-M's; 0 means not measured.
	SustainedGiBs float64 `toml:"sustained_gib_s" json:"sustained_gib_s"`
	// ModelBandwidth says which figure the performance model uses as
	// BW_mem: "sustained" (the default when one was measured) or "peak"
	// (when the measured configuration is known not to match the design,
	// as on the AC-510).
	ModelBandwidth string `toml:"model_bandwidth" json:"model_bandwidth,omitempty"`
	// WordBits is the access word m_memword, bits.
	WordBits int `toml:"word_bits" json:"word_bits"`
	// LatencyNs is the typical read round trip, ns.
	LatencyNs float64 `toml:"latency_ns" json:"latency_ns"`
	// RequestsInFlight is the number of outstanding reads per PE port.
	RequestsInFlight int `toml:"requests_in_flight" json:"requests_in_flight"`
	// Channels is the number of independent ports per FPGA.
	Channels int `toml:"channels" json:"channels"`
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
	Topology string `toml:"topology" json:"topology"`
	// LinksPerFPGA is the number of links of one FPGA.
	LinksPerFPGA int `toml:"links_per_fpga" json:"links_per_fpga"`
	// LinkGbits is the payload rate of one link, per direction, Gbit/s.
	LinkGbits float64 `toml:"link_gbit_s" json:"link_gbit_s"`
	// LinkWordBits is the width of a link's user interface, bits.
	LinkWordBits int `toml:"link_word_bits" json:"link_word_bits"`
	// LinkLatencyNs is the one-way latency of a link, ns.
	LinkLatencyNs float64 `toml:"link_latency_ns" json:"link_latency_ns"`
	// InterfaceGiBs is BW_if: what one FPGA can send (and receive) over all
	// its links at once, GiB/s.
	InterfaceGiBs float64 `toml:"interface_gib_s" json:"interface_gib_s"`
	// TotalGiBs is BW_net, the total of the network, GiB/s; 0 means
	// unlimited (it never binds).
	TotalGiBs float64 `toml:"total_gib_s" json:"total_gib_s"`
	// FPGAsPerNode is, for hierarchical networks, the number of FPGAs of a
	// node; 1 otherwise.
	FPGAsPerNode int `toml:"fpgas_per_node" json:"fpgas_per_node"`
	// NodeLinkGbits is, for hierarchical networks, the rate between two
	// nodes per direction, Gbit/s.
	NodeLinkGbits float64 `toml:"node_link_gbit_s" json:"node_link_gbit_s"`
	// NodeInterfaceGiBs is, for hierarchical networks, what one node can
	// send to the other nodes at once, GiB/s.
	NodeInterfaceGiBs float64 `toml:"node_interface_gib_s" json:"node_interface_gib_s"`
}

// PE is the cost and speed of one GraVF-M processing element on this
// board. The model divides the fabric by the cost to find the largest
// number of PEs per FPGA, unless MaxPerFPGA fixes it.
type PE struct {
	// MaxPerFPGA fixes the number of PEs per FPGA; 0 derives it from the
	// fabric (see Board.MaxPEs).
	MaxPerFPGA int `toml:"max_per_fpga" json:"max_per_fpga"`
	// LUT, FF, BRAM36 and DSP are the estimated cost of one PE.
	LUT    int `toml:"lut" json:"lut"`
	FF     int `toml:"ff" json:"ff"`
	BRAM36 int `toml:"bram36" json:"bram36"`
	DSP    int `toml:"dsp" json:"dsp"`
	// CPE maps a kernel name to its measured PE cycles per edge.
	CPE map[string]float64 `toml:"cpe" json:"cpe,omitempty"`
}

// ClockHz returns f_clk in Hz, the unit of L_PE = nF * nP * f_clk / CPE.
func (b *Board) ClockHz() float64 { return b.ClockMHz * 1e6 }

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

type resource struct {
	name      string
	have, per int
}

func (b *Board) resources() []resource {
	return []resource{
		{"LUTs", b.FPGA.LUT, b.PE.LUT},
		{"flip-flops", b.FPGA.FF, b.PE.FF},
		{"BRAM36s", b.FPGA.BRAM36, b.PE.BRAM36},
		{"DSPs", b.FPGA.DSP, b.PE.DSP},
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

// Error is one problem with a board file, located so that the user can fix
// it: "my.toml:12: memory[0].word_bits: must be a positive multiple of 8,
// got 0".
type Error struct {
	// File is the file name as given to Parse.
	File string
	// Line is the 1-based line of the offending key, or of the table it is
	// missing from; 0 when the board was not read from a file.
	Line int
	// Field is the dotted key, with array indices: "memory[1].kind".
	Field string
	// Msg says what is wrong and what was found.
	Msg string
}

// Error formats the problem as "file:line: field: message", the form
// editors and terminals link to the file.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// ErrorList is every problem of one board file, in file order, so that a
// user fixes them in one pass.
type ErrorList []*Error

// Error puts one problem on each line, in file order.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// dataDir is where the built-in boards are embedded, and the prefix their
// errors and Board.File carry.
const dataDir = "data"

// Names lists the built-in boards, sorted.
func Names() []string {
	ents, err := fs.ReadDir(dataFS, dataDir)
	if err != nil {
		panic(err) // embedded at build time
	}
	var names []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Source returns the text of a built-in board file, so that a user can
// start a board of their own from it.
func Source(name string) ([]byte, error) {
	if !slices.Contains(Names(), name) {
		return nil, unknownBoard(name)
	}
	return dataFS.ReadFile(path.Join(dataDir, name+".toml"))
}

func unknownBoard(name string) error {
	return fmt.Errorf("unknown board %q (built-in boards: %s; or give the path of a .toml file)", name, strings.Join(Names(), ", "))
}

// Get returns a built-in board by name. Each call returns a fresh copy
// that the caller may change.
func Get(name string) (*Board, error) {
	data, err := Source(name)
	if err != nil {
		return nil, err
	}
	return Parse("boards/"+dataDir+"/"+name+".toml", data)
}

// LoadFile reads and checks a board file on disk.
func LoadFile(p string) (*Board, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return Parse(p, data)
}

// Load resolves what a user typed: a path to a .toml file (anything ending
// in .toml or holding a path separator), which overrides the built-in
// boards, or else the name of a built-in board.
func Load(nameOrPath string) (*Board, error) {
	if strings.HasSuffix(nameOrPath, ".toml") || strings.ContainsAny(nameOrPath, `/\`) {
		return LoadFile(nameOrPath)
	}
	return Get(nameOrPath)
}

// Parse reads and checks board file content; file names it in errors.
// Decoding is strict: unknown keys and values of the wrong type are
// errors, and every value is checked against its range and the others
// (sustained <= peak bandwidth, PEs that fit the part, a direct network
// with a link to every other FPGA...). On failure the error is an
// ErrorList holding every problem, in file order; only a TOML syntax
// error stops at the first.
func Parse(file string, data []byte) (*Board, error) {
	// Syntax first: go-toml reports the position of the first error.
	var probe map[string]any
	if err := toml.Unmarshal(data, &probe); err != nil {
		return nil, syntaxError(file, data, err)
	}
	doc, err := scan(data)
	if err != nil {
		return nil, ErrorList{{File: file, Msg: err.Error()}}
	}
	errs, bad := doc.checkSchema(file)
	src := data
	var removed []string
	if len(bad) > 0 {
		// Drop the bad keys and decode the rest, so that its values are
		// checked too and the user sees every problem in one pass.
		removed = prune(probe, bad)
		out, err := toml.Marshal(probe)
		if err != nil {
			return nil, sorted(errs)
		}
		src = out
	}
	var b Board
	dec := toml.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		if len(errs) > 0 {
			return nil, sorted(errs)
		}
		// checkSchema has seen every key and type; this is a backstop.
		return nil, syntaxError(file, data, err)
	}
	b.File = file
	b.Doc = strings.TrimSpace(b.Doc)
	c := checker{file: file, at: doc.at}
	c.validate(&b)
	for _, e := range c.errs {
		if !underAny(e.Field, removed) {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return nil, sorted(errs)
	}
	if b.Network.FPGAsPerNode == 0 {
		b.Network.FPGAsPerNode = 1
	}
	return &b, nil
}

// underAny says whether field is one of paths or inside one of them.
func underAny(field string, paths []string) bool {
	for _, p := range paths {
		if field == p || strings.HasPrefix(field, p+".") || strings.HasPrefix(field, p+"[") {
			return true
		}
	}
	return false
}

// Validate checks a board's values, for boards built or changed in code
// (a TUI cell, a sweep over clock rates). The errors carry b.File but no
// line.
func (b *Board) Validate() error {
	c := checker{file: b.File, at: func(string) (int, bool) { return 0, true }}
	c.validate(b)
	if len(c.errs) > 0 {
		return c.errs
	}
	return nil
}

func sorted(l ErrorList) ErrorList {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Line < l[j].Line })
	return l
}

// syntaxError turns a go-toml error into a positioned one.
func syntaxError(file string, data []byte, err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, _ := de.Position()
		field := strings.Join(de.Key(), ".")
		if doc, err := scan(data); err == nil && field != "" {
			field = doc.fieldAt(field, row)
		}
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if field == "" {
			msg = "invalid TOML: " + msg
		}
		return ErrorList{{File: file, Line: row, Field: field, Msg: msg}}
	}
	var se *toml.StrictMissingError
	if errors.As(err, &se) {
		var l ErrorList
		for _, e := range se.Errors {
			row, _ := e.Position()
			l = append(l, &Error{File: file, Line: row, Field: strings.Join(e.Key(), "."), Msg: "unknown key"})
		}
		return sorted(l)
	}
	return ErrorList{{File: file, Msg: err.Error()}}
}

// The schema of a board file: the kind of every key, with array elements
// written "memory[]" and CPE entries "pe.cpe.*".
type valueKind int

const (
	kString valueKind = iota + 1
	kInt
	kFloat
	kTable
	kTables
)

func (k valueKind) String() string {
	switch k {
	case kString:
		return "a string"
	case kInt:
		return "an integer"
	case kFloat:
		return "a number"
	case kTable:
		return "a table"
	default:
		return "an array of tables"
	}
}

func (k valueKind) accepts(n unstable.Kind) bool {
	switch k {
	case kString:
		return n == unstable.String
	case kInt:
		return n == unstable.Integer
	case kFloat:
		return n == unstable.Integer || n == unstable.Float
	case kTable:
		return n == unstable.Table || n == unstable.InlineTable || n == unstable.ArrayTable
	default:
		return n == unstable.Array
	}
}

func kindName(n unstable.Kind) string {
	switch n {
	case unstable.String:
		return "a string"
	case unstable.Integer:
		return "an integer"
	case unstable.Float:
		return "a float"
	case unstable.Bool:
		return "a boolean"
	case unstable.Array:
		return "an array"
	case unstable.Table, unstable.InlineTable:
		return "a table"
	case unstable.ArrayTable:
		return "an array of tables"
	default:
		return "a date or time"
	}
}

var schema = map[string]valueKind{
	"name": kString, "title": kString, "doc": kString, "source": kString,
	"price_usd": kFloat, "clock_mhz": kFloat, "max_fpgas": kInt,

	"fpga": kTable, "fpga.part": kString, "fpga.family": kString,
	"fpga.lut": kInt, "fpga.ff": kInt, "fpga.bram36": kInt, "fpga.uram": kInt, "fpga.dsp": kInt,

	"memory": kTables, "memory[]": kTable,
	"memory[].name": kString, "memory[].kind": kString,
	"memory[].capacity_gib": kFloat, "memory[].peak_gib_s": kFloat, "memory[].sustained_gib_s": kFloat, "memory[].model_bandwidth": kString,
	"memory[].word_bits": kInt, "memory[].latency_ns": kFloat,
	"memory[].requests_in_flight": kInt, "memory[].channels": kInt,

	"network": kTable, "network.topology": kString,
	"network.links_per_fpga": kInt, "network.link_gbit_s": kFloat, "network.link_word_bits": kInt,
	"network.link_latency_ns": kFloat, "network.interface_gib_s": kFloat, "network.total_gib_s": kFloat,
	"network.fpgas_per_node": kInt, "network.node_link_gbit_s": kFloat, "network.node_interface_gib_s": kFloat,

	"pe": kTable, "pe.max_per_fpga": kInt,
	"pe.lut": kInt, "pe.ff": kInt, "pe.bram36": kInt, "pe.dsp": kInt,
	"pe.cpe": kTable, "pe.cpe.*": kFloat,
}

var indexRE = regexp.MustCompile(`\[[0-9]+\]`)

// normalize maps a concrete key ("memory[2].kind") to its schema key.
func normalize(p string) string {
	p = indexRE.ReplaceAllString(p, "[]")
	if rest, ok := strings.CutPrefix(p, "pe.cpe."); ok && !strings.ContainsAny(rest, ".[") {
		return "pe.cpe.*"
	}
	return p
}

// seg is one step of a key path: a key, or an index into an array.
type seg struct {
	key string
	idx int // the array index, or -1 for a key
}

// keyPath is a key with array indices: memory[0].word_bits.
type keyPath []seg

func (p keyPath) add(s ...seg) keyPath { return append(slices.Clip(p), s...) }

func keys(k []string) []seg {
	s := make([]seg, len(k))
	for i, v := range k {
		s[i] = seg{v, -1}
	}
	return s
}

var bareKeyRE = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// String writes the path as errors show it; a key that is not bare is
// quoted, as TOML would need it.
func (p keyPath) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.idx >= 0:
			fmt.Fprintf(&b, "[%d]", s.idx)
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			if bareKeyRE.MatchString(s.key) {
				b.WriteString(s.key)
			} else {
				b.WriteString(strconv.Quote(s.key))
			}
		}
	}
	return b.String()
}

// docEntry is one key of the file: a table header or a key/value pair.
type docEntry struct {
	toks keyPath
	path string // toks.String(): "memory[0].word_bits"
	line int
	kind unstable.Kind
}

// docIndex is what the unstable parser tells about a file: every key in
// file order with its line, so that errors can point into the file.
type docIndex struct {
	entries []docEntry
	lines   map[string]int // path -> line of its first appearance
	arrays  map[string]int // array-of-tables path -> elements so far
}

// at returns the line of a key and whether the file has it; for a missing
// key, the line of the nearest table that holds it (or 1).
func (d *docIndex) at(p string) (int, bool) {
	if l, ok := d.lines[p]; ok {
		return l, true
	}
	for {
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			return 1, false
		}
		p = p[:i]
		if l, ok := d.lines[p]; ok {
			return l, false
		}
	}
}

// fieldAt turns a go-toml key ("memory.word_bits", without indices) into
// the concrete key on that line ("memory[1].word_bits").
func (d *docIndex) fieldAt(key string, line int) string {
	for _, e := range d.entries {
		if e.line == line && indexRE.ReplaceAllString(e.path, "") == key {
			return e.path
		}
	}
	return key
}

// add records a key, and its enclosing tables when the file names them
// only through dotted keys ("fpga.lut = 1" without a [fpga] header).
func (d *docIndex) add(p keyPath, line int, kind unstable.Kind) {
	d.entries = append(d.entries, docEntry{p, p.String(), line, kind})
	for i := len(p); i > 0; i-- {
		q := p[:i].String()
		if _, ok := d.lines[q]; !ok {
			d.lines[q] = line
		}
	}
}

// scan walks the file with the unstable parser (as kernel/spec.go does for
// kernel files) and records every key with its line.
func scan(data []byte) (*docIndex, error) {
	d := &docIndex{lines: map[string]int{}, arrays: map[string]int{}}
	lineStarts := []int{0}
	for i, c := range data {
		if c == '\n' {
			lineStarts = append(lineStarts, i+1)
		}
	}
	lineOf := func(off int) int {
		i, found := slices.BinarySearch(lineStarts, off)
		if !found {
			i--
		}
		return i + 1
	}
	keyOf := func(it unstable.Iterator) ([]string, int) {
		var k []string
		line := 0
		for it.Next() {
			n := it.Node()
			if line == 0 && n.Raw.Length > 0 {
				line = lineOf(int(n.Raw.Offset))
			}
			k = append(k, string(n.Data))
		}
		return k, line
	}
	// resolve names a table header: an intermediate key that is an array
	// of tables refers to its last element, as TOML says.
	resolve := func(k []string) keyPath {
		var p keyPath
		for i, s := range k {
			p = p.add(seg{s, -1})
			if i < len(k)-1 {
				if n := d.arrays[p.String()]; n > 0 {
					p = p.add(seg{idx: n - 1})
				}
			}
		}
		return p
	}
	var visit func(p keyPath, line int, n *unstable.Node)
	visit = func(p keyPath, line int, n *unstable.Node) {
		if first := firstRaw(n); first >= 0 {
			line = lineOf(first)
		}
		d.add(p, line, n.Kind)
		switch n.Kind {
		case unstable.InlineTable:
			it := n.Children()
			for it.Next() {
				kv := it.Node()
				k, kl := keyOf(kv.Key())
				if kl == 0 {
					kl = line
				}
				visit(p.add(keys(k)...), kl, kv.Value())
			}
		case unstable.Array:
			it := n.Children()
			i := 0
			for it.Next() {
				visit(p.add(seg{idx: i}), line, it.Node())
				i++
			}
			d.arrays[p.String()] = i
		}
	}
	var p unstable.Parser
	p.Reset(data)
	var table keyPath
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			k, line := keyOf(e.Key())
			table = resolve(k)
			d.add(table, line, unstable.Table)
		case unstable.ArrayTable:
			k, line := keyOf(e.Key())
			base := resolve(k)
			n := d.arrays[base.String()]
			d.arrays[base.String()]++
			table = base.add(seg{idx: n})
			d.add(base, line, unstable.Array)
			d.add(table, line, unstable.ArrayTable)
		case unstable.KeyValue:
			k, line := keyOf(e.Key())
			visit(table.add(keys(k)...), line, e.Value())
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	return d, nil
}

// prune deletes the bad keys from the decoded document, so that what is
// left can still be decoded and checked. A bad array element takes its
// whole array. It returns the paths it removed.
func prune(doc map[string]any, bad []keyPath) []string {
	var removed []string
	for _, p := range bad {
		for len(p) > 0 && p[len(p)-1].idx >= 0 {
			p = p[:len(p)-1]
		}
		if len(p) == 0 {
			continue
		}
		var cur any = doc
		for _, s := range p[:len(p)-1] {
			switch c := cur.(type) {
			case map[string]any:
				cur = nil
				if s.idx < 0 {
					cur = c[s.key]
				}
			case []any:
				cur = nil
				if s.idx >= 0 && s.idx < len(c) {
					cur = c[s.idx]
				}
			case []map[string]any:
				cur = nil
				if s.idx >= 0 && s.idx < len(c) {
					cur = c[s.idx]
				}
			default:
				cur = nil
			}
		}
		if m, ok := cur.(map[string]any); ok {
			delete(m, p[len(p)-1].key)
			removed = append(removed, p.String())
		}
	}
	return removed
}

// firstRaw returns the offset of the first node under n that carries raw
// bytes, or -1.
func firstRaw(n *unstable.Node) int {
	if n.Raw.Length > 0 {
		return int(n.Raw.Offset)
	}
	it := n.Children()
	for it.Next() {
		if o := firstRaw(it.Node()); o >= 0 {
			return o
		}
	}
	return -1
}

// checkSchema reports every unknown key and every value of the wrong
// kind, and returns their paths. Keys under a bad one are not reported
// again.
func (d *docIndex) checkSchema(file string) (ErrorList, []keyPath) {
	var errs ErrorList
	var bad []string
	var badToks []keyPath
	under := func(p string) bool {
		for _, b := range bad {
			if strings.HasPrefix(p, b+".") || strings.HasPrefix(p, b+"[") {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	for _, e := range d.entries {
		if under(e.path) || seen[e.path+"\x00"+e.kind.String()] {
			continue
		}
		seen[e.path+"\x00"+e.kind.String()] = true
		norm := normalize(e.path)
		want, ok := schema[norm]
		if !ok {
			errs = append(errs, &Error{File: file, Line: e.line, Field: e.path, Msg: "unknown key" + hint(norm)})
			bad = append(bad, e.path)
			badToks = append(badToks, e.toks)
			continue
		}
		if !want.accepts(e.kind) {
			msg := "must be " + want.String() + ", got " + kindName(e.kind)
			if want == kTables {
				msg += fmt.Sprintf(" (write [[%s]] tables)", e.path)
			}
			errs = append(errs, &Error{File: file, Line: e.line, Field: e.path, Msg: msg})
			bad = append(bad, e.path)
			badToks = append(badToks, e.toks)
		}
	}
	return errs, badToks
}

// hint lists the keys a table accepts, after an unknown key.
func hint(norm string) string {
	parent := ""
	if i := strings.LastIndexByte(norm, '.'); i >= 0 {
		parent = norm[:i]
	}
	if parent == "pe.cpe" {
		return ""
	}
	var keys []string
	for k := range schema {
		kp, leaf := "", k
		if i := strings.LastIndexByte(k, '.'); i >= 0 {
			kp, leaf = k[:i], k[i+1:]
		}
		if kp == parent && !strings.HasSuffix(leaf, "[]") && leaf != "*" {
			keys = append(keys, leaf)
		}
	}
	if len(keys) == 0 {
		return ""
	}
	slices.Sort(keys)
	where := "at the top level"
	if parent != "" {
		where = "in " + strings.TrimSuffix(parent, "[]")
	}
	return " (known keys " + where + ": " + strings.Join(keys, ", ") + ")"
}

// Limits that keep the arithmetic of the model far from overflow and catch
// unit mistakes (a clock in Hz, a bandwidth in bit/s).
const (
	maxCount     = 100_000_000 // resources of one FPGA
	maxClockMHz  = 2000
	maxFPGAs     = 4096
	maxGiB       = 1_000_000 // capacity and bandwidth, GiB and GiB/s
	maxGbits     = 100_000
	maxWordBits  = 65536
	maxLatencyNs = 1e9
	maxInFlight  = 1_000_000
	maxChannels  = 4096
	maxPEs       = 1_000_000
	maxCPE       = 1000
	maxPriceUSD  = 1e9
)

// checker validates a decoded board and collects located errors.
type checker struct {
	file string
	at   func(path string) (line int, present bool)
	errs ErrorList
}

func (c *checker) add(p, format string, args ...any) {
	line, _ := c.at(p)
	c.errs = append(c.errs, &Error{File: c.file, Line: line, Field: p, Msg: fmt.Sprintf(format, args...)})
}

// missing reports a required key the file does not have, and says whether
// it did.
func (c *checker) missing(p, what string) bool {
	if _, ok := c.at(p); !ok {
		c.add(p, "missing (%s)", what)
		return true
	}
	return false
}

func (c *checker) str(p, v, what string) {
	if c.missing(p, what) {
		return
	}
	if strings.TrimSpace(v) == "" {
		c.add(p, "must not be empty (%s)", what)
	}
}

func (c *checker) oneOf(p, v string, set []string, what string) {
	if c.missing(p, what) {
		return
	}
	if !slices.Contains(set, v) {
		c.add(p, "must be one of %s, got %q", quoteAll(set), v)
	}
}

// count checks lo <= v <= hi for an integer key; required keys must be
// present.
func (c *checker) count(p string, v, lo, hi int, required bool, what string) {
	if required && c.missing(p, what) {
		return
	}
	switch {
	case v < lo && lo == 1:
		c.add(p, "must be a positive count (%s), got %d", what, v)
	case v < lo:
		c.add(p, "must be at least %d (%s), got %d", lo, what, v)
	case v > hi:
		c.add(p, "must be at most %d (%s), got %d", hi, what, v)
	}
}

// num checks a float key: positive (or >= 0 when zeroOK) and at most hi.
func (c *checker) num(p string, v float64, zeroOK bool, hi float64, required bool, what string) {
	if required && c.missing(p, what) {
		return
	}
	ok := v > 0 || (zeroOK && v == 0)
	switch {
	case !ok && zeroOK:
		c.add(p, "must be zero or positive (%s), got %s", what, fmtNum(v))
	case !ok:
		c.add(p, "must be positive (%s), got %s", what, fmtNum(v))
	case v > hi:
		c.add(p, "must be at most %s (%s), got %s", fmtNum(hi), what, fmtNum(v))
	}
}

func (c *checker) wordBits(p string, v int, required bool, what string) {
	if required && c.missing(p, what) {
		return
	}
	switch {
	case v <= 0 || v%8 != 0:
		c.add(p, "must be a positive multiple of 8, got %d", v)
	case v > maxWordBits:
		c.add(p, "must be at most %d (%s), got %d", maxWordBits, what, v)
	}
}

func (c *checker) validate(b *Board) {
	if !c.missing("name", "short board id") && !validName(b.Name) {
		c.add("name", "must be a lower-case id of letters, digits, '-' and '_' starting with a letter, got %q", b.Name)
	}
	c.str("title", b.Title, "one-line description")
	c.str("source", b.Source, "where the figures come from")
	c.num("price_usd", b.PriceUSD, true, maxPriceUSD, false, "USD per FPGA board, 0 = unknown")
	c.num("clock_mhz", b.ClockMHz, false, maxClockMHz, true, "f_clk in MHz")
	c.count("max_fpgas", b.MaxFPGAs, 1, maxFPGAs, true, "largest number of FPGAs")

	f := &b.FPGA
	if !c.missing("fpga", "a [fpga] table") {
		if !c.missing("fpga.part", "FPGA part name") {
			if err := CheckPart(f.Part); err != nil {
				c.add("fpga.part", "%v", err)
			}
		}
		c.oneOf("fpga.family", f.Family, Families, "yosys synth_xilinx -family")
		c.count("fpga.lut", f.LUT, 1, maxCount, true, "CLB LUTs")
		c.count("fpga.ff", f.FF, 1, maxCount, true, "CLB flip-flops")
		c.count("fpga.bram36", f.BRAM36, 1, maxCount, true, "36 Kb block RAMs")
		c.count("fpga.uram", f.URAM, 0, maxCount, false, "288 Kb UltraRAMs")
		c.count("fpga.dsp", f.DSP, 1, maxCount, true, "DSP slices")
		if f.URAM > 0 && (f.Family == "xc7" || f.Family == "xcu") {
			c.add("fpga.uram", "must be 0 for family %q: only UltraScale+ (xcup) parts have UltraRAM, got %d", f.Family, f.URAM)
		}
	}

	if len(b.Memory) == 0 {
		c.add("memory", "at least one [[memory]] table is required (the first is the default edge memory)")
	}
	names := map[string]int{}
	for i := range b.Memory {
		m := &b.Memory[i]
		p := fmt.Sprintf("memory[%d].", i)
		if !c.missing(p+"name", "memory name") {
			if !validName(m.Name) {
				c.add(p+"name", "must be a lower-case id of letters, digits, '-' and '_' starting with a letter, got %q", m.Name)
			} else if j, dup := names[m.Name]; dup {
				c.add(p+"name", "%q is already the name of memory[%d]", m.Name, j)
			} else {
				names[m.Name] = i
			}
		}
		c.oneOf(p+"kind", m.Kind, MemoryKinds, "memory technology")
		c.num(p+"capacity_gib", m.CapacityGiB, false, maxGiB, true, "GiB per FPGA")
		c.num(p+"peak_gib_s", m.PeakGiBs, false, maxGiB, true, "peak GiB/s per FPGA")
		c.num(p+"sustained_gib_s", m.SustainedGiBs, true, maxGiB, false, "measured GiB/s per FPGA, 0 = not measured")
		if m.SustainedGiBs > m.PeakGiBs && m.PeakGiBs > 0 {
			c.add(p+"sustained_gib_s", "must not exceed peak_gib_s = %s, got %s", fmtNum(m.PeakGiBs), fmtNum(m.SustainedGiBs))
		}
		if m.ModelBandwidth != "" {
			c.oneOf(p+"model_bandwidth", m.ModelBandwidth, []string{"peak", "sustained"}, "the figure the model uses")
		}
		c.wordBits(p+"word_bits", m.WordBits, true, "bits per access")
		c.num(p+"latency_ns", m.LatencyNs, false, maxLatencyNs, true, "read round trip in ns")
		c.count(p+"requests_in_flight", m.RequestsInFlight, 1, maxInFlight, true, "outstanding reads per PE port")
		c.count(p+"channels", m.Channels, 1, maxChannels, true, "independent ports per FPGA")
	}

	c.validateNetwork(b)

	pe := &b.PE
	if !c.missing("pe", "a [pe] table") {
		c.count("pe.max_per_fpga", pe.MaxPerFPGA, 0, maxPEs, false, "PEs per FPGA, 0 = derive")
		c.count("pe.lut", pe.LUT, 1, maxCount, true, "LUTs per PE")
		c.count("pe.ff", pe.FF, 1, maxCount, true, "flip-flops per PE")
		c.count("pe.bram36", pe.BRAM36, 0, maxCount, false, "BRAM36s per PE")
		c.count("pe.dsp", pe.DSP, 0, maxCount, false, "DSPs per PE")
		c.validateFit(b)
		for _, k := range b.CPEKernels() {
			p := "pe.cpe." + k
			if !validName(k) {
				c.add(p, "kernel name must be a lower-case id of letters, digits, '-' and '_' starting with a letter")
			}
			v := pe.CPE[k]
			if !(v >= 1 && v <= maxCPE) {
				c.add(p, "must be between 1 and %d cycles per edge (a PE takes at most one edge per cycle), got %s", maxCPE, fmtNum(v))
			}
		}
	}
}

func (c *checker) validateNetwork(b *Board) {
	n := &b.Network
	if c.missing("network", "a [network] table") {
		return
	}
	c.oneOf("network.topology", n.Topology, Topologies, "how the FPGAs are joined")
	multi := b.MaxFPGAs > 1
	c.count("network.links_per_fpga", n.LinksPerFPGA, b2i(multi), maxChannels, multi, "links of one FPGA")
	c.num("network.link_gbit_s", n.LinkGbits, !multi, maxGbits, multi, "Gbit/s per link and direction")
	if multi || n.LinkWordBits != 0 {
		c.wordBits("network.link_word_bits", n.LinkWordBits, multi, "link interface width")
	}
	c.num("network.link_latency_ns", n.LinkLatencyNs, true, maxLatencyNs, false, "one-way link latency in ns")
	c.num("network.interface_gib_s", n.InterfaceGiBs, !multi, maxGiB, multi, "BW_if in GiB/s")
	c.num("network.total_gib_s", n.TotalGiBs, true, maxGiB, false, "BW_net in GiB/s, 0 = unlimited")
	if !slices.Contains(Topologies, n.Topology) {
		return // the checks below depend on the topology
	}
	if n.Topology == TopologyDirect && multi && n.LinksPerFPGA >= 1 && n.LinksPerFPGA < b.MaxFPGAs-1 {
		c.add("network.links_per_fpga", "a direct network needs a link to each of the other max_fpgas-1 = %d FPGAs, got %d", b.MaxFPGAs-1, n.LinksPerFPGA)
	}
	if n.Topology == TopologyHierarchical {
		fpn := n.FPGAsPerNode
		switch {
		case c.missing("network.fpgas_per_node", "FPGAs per node"):
		case fpn < 2:
			c.add("network.fpgas_per_node", "must be at least 2 for a hierarchical network, got %d", fpn)
		case b.MaxFPGAs%fpn != 0 || b.MaxFPGAs/fpn < 2:
			c.add("network.fpgas_per_node", "must divide max_fpgas = %d into at least two nodes, got %d", b.MaxFPGAs, fpn)
		}
		c.num("network.node_link_gbit_s", n.NodeLinkGbits, false, maxGbits, true, "Gbit/s between two nodes")
		c.num("network.node_interface_gib_s", n.NodeInterfaceGiBs, false, maxGiB, true, "GiB/s one node sends")
		return
	}
	if n.FPGAsPerNode != 0 && n.FPGAsPerNode != 1 {
		c.add("network.fpgas_per_node", "must be 1 unless topology = %q, got %d", TopologyHierarchical, n.FPGAsPerNode)
	}
	if n.NodeLinkGbits != 0 {
		c.add("network.node_link_gbit_s", "is only used by topology = %q; remove it or set 0, got %s", TopologyHierarchical, fmtNum(n.NodeLinkGbits))
	}
	if n.NodeInterfaceGiBs != 0 {
		c.add("network.node_interface_gib_s", "is only used by topology = %q; remove it or set 0, got %s", TopologyHierarchical, fmtNum(n.NodeInterfaceGiBs))
	}
}

// validateFit checks that the PEs fit the part: a fixed max_per_fpga must
// fit every resource, and a derived one must be at least 1.
func (c *checker) validateFit(b *Board) {
	pe := &b.PE
	if pe.LUT < 1 || pe.FF < 1 || pe.BRAM36 < 0 || pe.DSP < 0 || pe.MaxPerFPGA < 0 || pe.MaxPerFPGA > maxPEs {
		return // reported already
	}
	for _, r := range b.resources() {
		if r.have < 1 || r.have > maxCount || r.per > maxCount {
			return // reported already
		}
	}
	if pe.MaxPerFPGA > 0 {
		for _, r := range b.resources() {
			if need := int64(pe.MaxPerFPGA) * int64(r.per); need > int64(r.have) {
				c.add("pe.max_per_fpga", "%d PEs need %d %s, the part has %d", pe.MaxPerFPGA, need, r.name, r.have)
			}
		}
		return
	}
	for _, r := range b.resources() {
		if r.per > r.have {
			c.add("pe."+resourceKey(r.name), "one PE needs %d %s, the part has %d", r.per, r.name, r.have)
		}
	}
}

func resourceKey(name string) string {
	switch name {
	case "LUTs":
		return "lut"
	case "flip-flops":
		return "ff"
	case "BRAM36s":
		return "bram36"
	default:
		return "dsp"
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func validName(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
