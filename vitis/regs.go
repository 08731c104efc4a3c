package vitis

import (
	"fmt"
	"sort"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// The register map of a GraVF-M kernel: one place from which the kernel
// top's decoder, kernel.xml, the host program's header, the testbench's
// register writes and the exported README are all written.

// arg is a kernel argument: a buffer address, a scalar, or an AXI4-Stream
// link port (which has no register).
type arg struct {
	Name   string
	Kind   argKind
	Offset int    // byte offset in s_axi_control (buffers and scalars)
	Bytes  int    // 8 for addresses and 64-bit scalars, 4 for 32-bit scalars
	Port   string // the interface it belongs to
	Value  uint64 // scalars: the value the design was built for
	Doc    string
}

type argKind int

const (
	argBuffer argKind = iota
	argScalar
	argStream
)

// status is a read-only status register.
type status struct {
	Name   string
	Offset int
	Doc    string
}

// statusBase is the byte address of the first status register.
const statusBase = 0x400

// regMap is one FPGA kernel's register map.
type regMap struct {
	Args   []arg
	Status []status
}

// newRegMap lays out the registers: the buffer addresses first (from 0x10),
// then the kernel's parameters (64 bits each, in name order; every 64-bit
// register on an 8-byte boundary), then the vertex count, then the link
// streams (no register); the status registers from statusBase.
func newRegMap(k *kernel.Kernel, edgePorts, links int) regMap {
	var m regMap
	off := 0x10
	add := func(a arg) {
		if a.Kind != argStream {
			a.Offset = off
			off += a.Bytes
		}
		m.Args = append(m.Args, a)
	}
	add(arg{Name: "image", Kind: argBuffer, Bytes: 8, Port: "m_axi_image", Doc: "device address of the image buffer: every PE's edge index, edges or id table, and vertex info"})
	add(arg{Name: "state", Kind: argBuffer, Bytes: 8, Port: "m_axi_image", Doc: "device address of the state buffer: initial vertex states, replaced by the final ones"})
	for p := 0; p < edgePorts; p++ {
		add(arg{Name: fmt.Sprintf("edges%d", p), Kind: argBuffer, Bytes: 8, Port: fmt.Sprintf("m_axi_edges%d", p),
			Doc: fmt.Sprintf("device address of edge buffer %d", p)})
	}
	// 64-bit scalars on 8-byte boundaries, the 32-bit vertex count last.
	for _, n := range paramNames(k) {
		p := k.Checked.Params[n]
		add(arg{Name: n, Kind: argScalar, Bytes: 8, Port: "s_axi_control", Value: p.Bits,
			Doc: fmt.Sprintf("kernel parameter %s; the kernel runs only if this is the value it was built for", n)})
	}
	add(arg{Name: "nvertices", Kind: argScalar, Bytes: 4, Port: "s_axi_control", Value: uint64(k.Vertices),
		Doc: "vertices of the graph; the kernel runs only if this is the count it was built for"})
	for j := 0; j < links; j++ {
		add(arg{Name: fmt.Sprintf("tx%d", j), Kind: argStream, Port: fmt.Sprintf("tx%d", j), Doc: fmt.Sprintf("link %d, words to the other FPGA", j)})
		add(arg{Name: fmt.Sprintf("rx%d", j), Kind: argStream, Port: fmt.Sprintf("rx%d", j), Doc: fmt.Sprintf("link %d, words from the other FPGA", j)})
	}
	st := statusBase
	addS := func(name, doc string) {
		m.Status = append(m.Status, status{Name: name, Offset: st, Doc: doc})
		st += 4
	}
	addS("flags", "bit 0 arguments mismatch, bit 1 load or write-back AXI error, bit 2 edge read AXI error, bit 3 link receive overflow")
	addS("id", "0x4776 in bits 31:16 (\"Gv\"), the FPGA's index in bits 15:8, the number of FPGAs in bits 7:0")
	addS("run_cycles_lo", "cycles from the start of the first superstep to termination, low word")
	addS("run_cycles_hi", "the same, high word")
	addS("load_cycles", "cycles spent loading the tables from the buffers")
	addS("wb_cycles", "cycles spent writing the final states back")
	addS("messages", "messages gathered by this FPGA's PEs")
	for j := 0; j < links; j++ {
		addS(fmt.Sprintf("link%d_credits", j), fmt.Sprintf("link %d: credits held (free slots in the other FPGA's receive buffer)", j))
		addS(fmt.Sprintf("link%d_sent", j), fmt.Sprintf("link %d: data words sent", j))
		addS(fmt.Sprintf("link%d_received", j), fmt.Sprintf("link %d: data words received", j))
	}
	return m
}

// paramNames are a kernel's parameters in name order.
func paramNames(k *kernel.Kernel) []string {
	var ns []string
	for n := range k.Checked.Params {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// argWords is the number of 32-bit argument registers.
func (m regMap) argWords() int {
	n := 0
	for _, a := range m.Args {
		n += a.Bytes / 4
	}
	return n
}

// arg returns the argument of that name.
func (m regMap) arg(name string) arg {
	for _, a := range m.Args {
		if a.Name == name {
			return a
		}
	}
	panic("vitis: no argument " + name)
}
