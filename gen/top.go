package gen

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/arch"
)

// maxPEs is the most PEs of a system the RTL names images for
// (gravf_fpga's four-digit PE numbers).
const maxPEs = 10000

// peFile is the name of a PE's memory image, as gravf_fpga builds it: the
// global PE number with the digits of the system's largest.
func peFile(dir string, g, npe int, kind string) string {
	digits := len(strconv.Itoa(max(npe-1, 0)))
	return fmt.Sprintf("%s/pe%0*d_%s.hex", dir, digits, g, kind)
}

// perPE writes a table of gravf_fpga: one 32-bit entry per PE of the
// system, PE 0 in the least significant bits (written last).
func perPE(vals []int) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[len(vals)-1-i] = fmt.Sprintf("32'd%d", v)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// topParams are the parameter values of gravf_fpga for a design: the
// design's figures from the contract and the per-PE tables.
func topParams(s *System) []vparam {
	d, w := s.Design, s.Words
	var nlocal, nedges []int
	for i := 0; i < d.FPGAs*d.PEs; i++ {
		nlocal = append(nlocal, max(len(s.Part.Members[i]), 1))
		nedges = append(nedges, max(s.tables.edges[i], 1))
	}
	npe := len(nlocal)
	offchip, ea := 0, w.EdgeAddrBits
	m := d.EdgeMemory
	if s.OffChip() {
		offchip, ea = 1, w.ListLenBits
	}
	exact := 0
	if d.Hazard.Exact {
		exact = 1
	}
	itoa := strconv.Itoa
	ps := []vparam{
		{"FPGA", "FPGA", "which FPGA of the design"},
		{"NF", itoa(d.FPGAs), "FPGAs"}, {"NP", itoa(d.PEs), "PEs per FPGA"}, {"NVERTICES", itoa(len(s.Part.Local)), "vertices of the graph"},
		{"VID", itoa(d.VertexIDBits), "bits of a vertex id"}, {"UPW", itoa(d.PayloadBits()), "update payload bus: " + layoutDoc(d.Update)},
		{"MPW", itoa(max(d.Message.Width(), 1)), "message payload bus: " + layoutDoc(d.Message)},
		{"STW", itoa(w.State.Width()), "vertex state: " + layoutDoc(w.State)}, {"ED", itoa(d.EdgeData.Width()), "edge data: " + layoutDoc(d.EdgeData)},
		{"LA", itoa(w.LocalBits), "bits of a local index"}, {"OFFCHIP", itoa(offchip), "edges in " + map[int]string{0: "block RAM", 1: "off-chip memory"}[offchip]},
		{"EA", itoa(ea), map[int]string{0: "bits of an edge address", 1: "bits of a list length"}[offchip]},
	}
	if s.OffChip() {
		ps = append(ps, vparam{"MA", itoa(w.MemAddrBits), "bits of a memory word address"}, vparam{"WORD", itoa(m.WordBits), "bits of a memory word (" + m.Memory + ")"},
			vparam{"SLOT", itoa(m.SlotBits), fmt.Sprintf("bits of an edge slot: %d edges per word", m.EdgesPerWord)},
			vparam{"INFLIGHT", itoa(m.InFlight), "memory requests outstanding per PE at most"})
	} else {
		ps = append(ps, vparam{"MA", "1", "no edge memory: the unused port's buses are one bit per PE"}, vparam{"WORD", "1", ""})
	}
	ps = append(ps,
		vparam{"EXACT_HAZARD", itoa(exact), hazardDoc(d)}, vparam{"GATHER_LATENCY", itoa(d.Latency.Gather), "cycles of the gather kernel"},
		vparam{"HAZARD_SLOTS", itoa(arch.HazardSlots), "slots of the paper's hazard detector at most"},
		vparam{"IN_DEPTH", itoa(arch.InputFIFODepth), "FIFO depths"}, vparam{"KIN_DEPTH", itoa(arch.KernelInputFIFODepth), ""},
		vparam{"KIN_SLACK", itoa(arch.KernelInputSlack), ""}, vparam{"MSG_DEPTH", itoa(arch.MessageFIFODepth), ""},
		vparam{"SCATTER_SIDE", itoa(d.SideDepth.Scatter), "FIFOs beside the kernels: their latency + 1 at least"},
		vparam{"GATHER_SIDE", itoa(d.SideDepth.Gather), ""}, vparam{"APPLY_SIDE", itoa(d.SideDepth.Apply), ""},
		vparam{"ORDER_EXTRA", itoa(arch.OrderFIFOExtra), ""},
		vparam{"QUEUE_EXTRA", itoa(arch.UpdateQueueExtra), ""}, vparam{"RX_DEPTH", itoa(arch.LinkReceiveFIFODepth), ""},
		vparam{"TX_DEPTH", itoa(arch.LinkSendFIFODepth), ""},
		vparam{"SSW", itoa(arch.SuperstepBits), "bits of the superstep number"}, vparam{"DW", itoa(arch.DegreeBits), "bits of an out-degree"},
		vparam{"CW", itoa(arch.CounterBits), "bits of the message counters"},
		vparam{"GW", itoa(d.Global.Width()), "globals: " + layoutDoc(d.Global)})
	if d.Global.Width() > 0 {
		ps = append(ps, vparam{"GCL", itoa(d.GlobalLatency), "cycles of the combine unit: the lanes of a PE's fold"},
			vparam{"GLOBAL_IDENTITY", globalIdentity(d), "the reductions' identity"})
	}
	ps = append(ps,
		vparam{"NLOCAL", perPE(nlocal), fmt.Sprintf("vertices per PE, PE %d first", npe-1)})
	if !s.OffChip() {
		ps = append(ps, vparam{"NEDGES", perPE(nedges), fmt.Sprintf("edges per PE, PE %d first", npe-1)})
	}
	return append(ps, vparam{"MEM_DIR", `"mem"`, "folder of the memory images"})
}

// Param is a parameter value of an instance of a hand-written module.
type Param struct{ Name, Value, Doc string }

// PEParams are the parameter values of gravf_pe for global PE g of the
// design, as gravf_fpga passes them, for a top that instantiates the PEs
// itself (the Vitis kernel): with load, LOAD = 1 and no images (the
// tables come through the table port, whose widths are the PE's LDA_NEED
// and LDW_NEED: Words.TablePort), else the images of mem/.
func (s *System) PEParams(g int, load bool) []Param {
	skip := map[string]bool{"FPGA": true, "NF": true, "NP": true, "RX_DEPTH": true, "TX_DEPTH": true, "MEM_DIR": true, "NLOCAL": true, "NEDGES": true}
	d := s.Design
	out := []Param{{"PE_ID", strconv.Itoa(g), "global PE number"}, {"NPE", strconv.Itoa(d.FPGAs * d.PEs), "PEs in the system"},
		{"LW", strconv.Itoa(d.MaskBits()), "mask bits"}, {"NLOCAL", strconv.Itoa(max(len(s.Part.Members[g]), 1)), "vertices of this PE"}}
	if !s.OffChip() {
		out = append(out, Param{"NEDGES", strconv.Itoa(max(s.tables.edges[g], 1)), "edges of this PE"})
	}
	for _, p := range topParams(s) {
		if !skip[p.name] {
			out = append(out, Param{p.name, p.value, p.doc})
		}
	}
	if load {
		return append(out, Param{"LOAD", "1", "tables through the table port"})
	}
	npe := d.FPGAs * d.PEs
	for _, f := range []struct{ param, kind string }{{"INDEX_FILE", "index"}, {"EDGE_FILE", "edges"}, {"ID_FILE", "ids"}, {"VERTEX_FILE", "vertices"}, {"STATE_FILE", "state"}} {
		out = append(out, Param{f.param, strconv.Quote(peFile("mem", g, npe, f.kind)), ""})
	}
	return out
}

// globalIdentity is the identity of a design's globals as one sized
// Verilog literal, the first field in the most significant bits.
func globalIdentity(d *arch.Design) string {
	v := new(big.Int)
	for i, f := range d.Global.Fields {
		v.Lsh(v, uint(f.Width))
		v.Or(v, new(big.Int).SetUint64(d.GlobalIdentity[i]&(1<<f.Width-1)))
	}
	return fmt.Sprintf("%d'h%s", d.Global.Width(), v.Text(16))
}

func layoutDoc(l arch.Layout) string {
	if len(l.Fields) == 0 {
		return "no fields (one padding bit)"
	}
	return l.String()
}

func hazardDoc(d *arch.Design) string {
	if d.Hazard.Exact {
		return "the exact hazard detector with a bypass"
	}
	if d.HandWritten {
		return "the paper's hazard detector: hand-written kernels, latency unknown"
	}
	return "the paper's hazard detector"
}

// fpgaTop writes fpga_top: the top of every FPGA of the design, the
// parameter FPGA selecting which, around gravf_fpga with the design's
// parameter values. It has the link ports only with several FPGAs and the
// edge memory ports only with off-chip edges.
func fpgaTop(s *System, kernelName string) (string, error) {
	d := s.Design
	iw, lw := d.LinkItem.Width(), d.MaskBits()
	var p printer
	doc := []string{fmt.Sprintf("fpga_top: one FPGA of the %s design, %s of %d PEs with the edges in %s. Parameter FPGA (0 .. %d) selects which; the rest is gravf_fpga with the design's parameter values (see gravf_fpga and gravf_pe).",
		kernelName, plural(d.FPGAs, "FPGA"), d.PEs, map[bool]string{false: "block RAM", true: "off-chip memory"}[s.OffChip()], d.FPGAs-1), ""}
	if d.FPGAs > 1 {
		doc = append(doc, fmt.Sprintf("Links: one receive and one send port per other FPGA (lane j of every rx_*/tx_* bus is the j-th other FPGA in ascending order), valid/ready streams of %d-bit link items (barrier, halt, round, sender, payload).", iw))
	}
	if s.OffChip() {
		m := d.EdgeMemory
		doc = append(doc, fmt.Sprintf("Edge memory: one read port per PE (lane l of every mem_* bus is PE l). A request carries a %d-bit word address in this FPGA's edge memory (its image is mem/fpga<FPGA>_edges.hex); the response is that %d-bit word, a port's responses in request order. A PE makes at most one request per cycle and has at most %d outstanding. The PEs share the memory's bandwidth: the memory decides with mem_req_ready which requests it accepts (the testbench's gravf_mem_model serves %s words per cycle in rotating order, as the simulator does). A controller with fewer ports than PEs needs an arbiter in front that returns each port's responses in order.",
			s.Words.MemAddrBits, m.WordBits, m.InFlight, strconv.FormatFloat(m.WordsPerCycle, 'f', 2, 64)))
	}
	p.generatedHeader("", wrapText(doc, 76)...)
	ports := []vport{{name: "clk"}, {name: "rst", doc: "synchronous, active high"}}
	if d.FPGAs > 1 {
		ports = append(ports, vport{width: fmt.Sprint(lw * iw), name: "rx_data"}, vport{width: fmt.Sprint(lw), name: "rx_valid"},
			vport{out: true, width: fmt.Sprint(lw), name: "rx_ready"}, vport{out: true, width: fmt.Sprint(lw * iw), name: "tx_data"},
			vport{out: true, width: fmt.Sprint(lw), name: "tx_valid"}, vport{width: fmt.Sprint(lw), name: "tx_ready"})
	}
	if s.OffChip() {
		np, ma, word := d.PEs, s.Words.MemAddrBits, d.EdgeMemory.WordBits
		ports = append(ports, vport{out: true, width: fmt.Sprint(np), name: "mem_req_valid"}, vport{width: fmt.Sprint(np), name: "mem_req_ready"},
			vport{out: true, width: fmt.Sprint(np * ma), name: "mem_req_addr"}, vport{width: fmt.Sprint(np), name: "mem_resp_valid"},
			vport{out: true, width: fmt.Sprint(np), name: "mem_resp_ready"}, vport{width: fmt.Sprint(np * word), name: "mem_resp_data"})
	}
	ports = append(ports, vport{out: true, name: "done", doc: "every PE has terminated"},
		vport{out: true, width: fmt.Sprint(arch.CounterBits), name: "messages", doc: "messages gathered by the PEs of this FPGA"})
	p.Module("fpga_top", []vparam{{"FPGA", "0", fmt.Sprintf("which FPGA of the design, 0 .. %d", d.FPGAs-1)}}, ports)
	p.NL()
	conns := []conn{{"clk", "clk"}, {"rst", "rst"}}
	conns = append(conns, topTieOffs(&p, s, iw)...)
	conns = append(conns, conn{"done", "done"}, conn{"messages", "messages"})
	p.Instance("gravf_fpga", topParams(s), "fpga", conns)
	p.EndModule()
	return p.String()
}

// topTieOffs connects gravf_fpga's link and memory ports: to fpga_top's
// ports where the design has them, else to constants and to wires that
// nothing reads.
func topTieOffs(p *printer, s *System, iw int) []conn {
	d := s.Design
	var conns []conn
	names := []string{"rx_data", "rx_valid", "rx_ready", "tx_data", "tx_valid", "tx_ready"}
	if d.FPGAs > 1 {
		for _, n := range names {
			conns = append(conns, conn{n, n})
		}
	} else {
		p.Comment("One FPGA: no links.")
		p.Linef("/* verilator lint_off UNUSEDSIGNAL */ // one FPGA: nothing arrives, nothing leaves")
		p.Linef("wire unused_rx_ready, unused_tx_valid;")
		p.Linef("wire %sunused_tx_data;", vrange(iw))
		p.Linef("/* verilator lint_on UNUSEDSIGNAL */")
		conns = append(conns, conn{"rx_data", fmt.Sprintf("%d'd0", iw)}, conn{"rx_valid", "1'b0"}, conn{"rx_ready", "unused_rx_ready"},
			conn{"tx_data", "unused_tx_data"}, conn{"tx_valid", "unused_tx_valid"}, conn{"tx_ready", "1'b0"})
	}
	mem := []string{"mem_req_valid", "mem_req_ready", "mem_req_addr", "mem_resp_valid", "mem_resp_ready", "mem_resp_data"}
	if s.OffChip() {
		for _, n := range mem {
			conns = append(conns, conn{n, n})
		}
		return conns
	}
	np := d.PEs
	p.Comment("Edges in block RAM: no edge memory. The PEs keep its requests low.")
	p.Linef("/* verilator lint_off UNUSEDSIGNAL */ // block-RAM edges: the edge memory port is unused")
	p.Linef("wire %sunused_mem_req_valid, unused_mem_req_addr, unused_mem_resp_ready;", vrange(np))
	p.Linef("/* verilator lint_on UNUSEDSIGNAL */")
	p.NL()
	zero := fmt.Sprintf("%d'd0", np)
	return append(conns, conn{"mem_req_valid", "unused_mem_req_valid"}, conn{"mem_req_ready", zero},
		conn{"mem_req_addr", "unused_mem_req_addr"}, conn{"mem_resp_valid", zero},
		conn{"mem_resp_ready", "unused_mem_resp_ready"}, conn{"mem_resp_data", zero})
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// wrapText wraps paragraphs at width columns.
func wrapText(paras []string, width int) []string {
	var out []string
	for _, para := range paras {
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len(line)+1+len(w) > width {
				out = append(out, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, line)
	}
	return out
}
