package gen

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// SystemOptions describe one generated multi-FPGA system.
type SystemOptions struct {
	Kernel *kernel.Kernel
	Graph  *graph.Graph
	FPGAs  int
	PEs    int
	// Partitioner (greedy by default).
	Partitioner graph.Partitioner
	Filter      bool
	// LinkLatency is the one-way latency of a link in cycles, for the
	// testbench's link models.
	LinkLatency int
	// Watchdog stops the testbench after this many cycles (0: 10 x the
	// cycles the reference's messages could take on one PE, plus 10^5).
	Watchdog int64
	// OffChip puts the edge lists in off-chip memory (nil: block RAM):
	// every FPGA top gets an edge memory port per PE, and the testbench a
	// model of the memory.
	OffChip *OffChip
	// Load generates the PEs of a Vitis kernel: their tables have no
	// initial images and are written through the PE's table port (see
	// PEOptions). The system then holds the kernels, the PE, the building
	// blocks and the images, but no FPGA tops, testbench or image files:
	// the kernel's own top and testbench (package vitis) replace them.
	Load bool
}

// System is a generated design: files by path relative to the project.
type System struct {
	Files    map[string]string
	Expected *kernel.Result
	Part     *graph.Partition
	Widths   Widths
	// OffChip is the edge memory of an off-chip design (nil: block RAM),
	// and Memories its contents, one per FPGA.
	OffChip  *OffChip
	Memories []EdgeMemory
	// Images are the PEs' tables, by global PE (off-chip: edge-index
	// starts are word addresses in the FPGA's edge memory).
	Images []PEImages
}

// Paths returns the file paths in a stable order.
func (s *System) Paths() []string {
	var p []string
	for f := range s.Files {
		p = append(p, f)
	}
	sort.Strings(p)
	return p
}

// RTLFiles returns the synthesizable Verilog files (rtl/), in compile
// order: building blocks, kernels, PE, FPGA tops.
func (s *System) RTLFiles() []string {
	var out []string
	for _, p := range s.Paths() {
		if strings.HasPrefix(p, "rtl/") {
			out = append(out, p)
		}
	}
	return out
}

// TBFiles returns the testbench's Verilog files (tb/): the models of the
// links (and of the edge memory) and the system testbench.
func (s *System) TBFiles() []string {
	var out []string
	for _, p := range s.Paths() {
		if strings.HasPrefix(p, "tb/") && strings.HasSuffix(p, ".v") {
			out = append(out, p)
		}
	}
	return out
}

// GenerateSystem generates the RTL of every FPGA, the memory images and a
// system testbench that joins the FPGAs with link models, runs to
// termination, checks every final vertex state against the BSP reference
// and prints "RESULT PASS cycles=<n> messages=<m>" or "RESULT FAIL ...".
func GenerateSystem(ctx context.Context, o SystemOptions) (*System, error) {
	k, g := o.Kernel, o.Graph
	if o.Partitioner == "" {
		o.Partitioner = graph.Greedy
	}
	part, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: o.FPGAs, PEs: o.PEs, Method: o.Partitioner})
	if err != nil {
		return nil, err
	}
	ref, err := kernel.Run(ctx, k, g, kernel.RunOptions{})
	if err != nil {
		return nil, err
	}
	ims, w, err := BuildImages(k, g, part, o.Filter)
	if err != nil {
		return nil, err
	}
	sys := &System{Files: map[string]string{}, Expected: ref, Part: part, Widths: w, OffChip: o.OffChip, Images: ims}
	if o.OffChip != nil {
		if sys.Memories, err = LayOutOffChip(ims, &sys.Widths, o.PEs, *o.OffChip); err != nil {
			return nil, err
		}
		w = sys.Widths
	}
	names, blocks := BuildingBlocks()
	for _, n := range names {
		sys.Files["rtl/"+n] = blocks[n]
	}
	name := k.Spec.Name
	for _, prog := range []string{"gather", "apply", "scatter"} {
		if v, ok := k.Spec.Verilog[prog+".v"]; ok && len(k.Spec.Verilog) == 3 {
			sys.Files[fmt.Sprintf("rtl/%s_%s.v", name, prog)] = v
			continue
		}
		m, err := GenerateKernel(k, prog)
		if err != nil {
			return nil, err
		}
		sys.Files["rtl/"+m.Name+".v"] = m.Verilog
	}
	// The f32 unit library, when a generated kernel instantiates a unit.
	for p, v := range sys.Files {
		if strings.HasPrefix(p, "rtl/"+name+"_") && (strings.Contains(v, "gravf_f") || strings.Contains(v, "gravf_u2f")) && !strings.HasSuffix(p, "_pe.v") {
			for n, src := range LibraryFiles() {
				sys.Files["rtl/"+n] = src
			}
			break
		}
	}
	pe, err := GeneratePEFor(k, PEOptions{OffChip: o.OffChip != nil, Load: o.Load})
	if err != nil {
		return nil, err
	}
	sys.Files["rtl/"+name+"_pe.v"] = pe
	if o.Load {
		return sys, nil
	}
	for i := range ims {
		im := &ims[i]
		type image struct {
			kind  string
			write func(*bytes.Buffer) error
		}
		edges := image{"edges", func(b *bytes.Buffer) error { return im.WriteEdges(b, w) }}
		if o.OffChip != nil {
			// The edges are in the FPGA's memory image; the PE keeps the
			// table that maps an edge slot's local index to a global id.
			edges.kind, edges.write = "ids", func(b *bytes.Buffer) error { return im.WriteIDs(b, w) }
		}
		for _, f := range []image{
			{"index", func(b *bytes.Buffer) error { return im.WriteIndex(b, w) }},
			edges,
			{"vertices", func(b *bytes.Buffer) error { return im.WriteVertices(b, w) }},
			{"state", func(b *bytes.Buffer) error { return im.WriteState(b, w) }},
		} {
			var b bytes.Buffer
			if err := f.write(&b); err != nil {
				return nil, err
			}
			sys.Files[fmt.Sprintf("mem/pe%d_%s.hex", i, f.kind)] = b.String()
		}
		// Expected final states, one packed word per local vertex.
		var b strings.Builder
		for _, v := range part.Members[i] {
			b.WriteString(packHex(ref.State(v), k.Checked.VertexT, w.State) + "\n")
		}
		for n := len(part.Members[i]); n < max(w.MaxLocal, 1); n++ {
			b.WriteString(hexWord(0, w.State) + "\n")
		}
		sys.Files[fmt.Sprintf("tb/pe%d_expected.hex", i)] = b.String()
	}
	for f := 0; f < o.FPGAs; f++ {
		sys.Files[fmt.Sprintf("rtl/fpga%d_top.v", f)] = fpgaTop(k, part, ims, w, f, o)
	}
	for i := range sys.Memories {
		var b bytes.Buffer
		if err := sys.Memories[i].WriteHex(&b, w, *o.OffChip); err != nil {
			return nil, err
		}
		sys.Files[fmt.Sprintf("mem/fpga%d_edges.hex", i)] = b.String()
	}
	sys.Files["tb/gravf_link_model.v"] = testbenchModel("gravf_link_model.v")
	if o.OffChip != nil {
		sys.Files["tb/gravf_mem_model.v"] = testbenchModel("gravf_mem_model.v")
	}
	sys.Files["tb/tb_system.v"] = testbench(k, part, sys.Memories, w, o, ref)
	return sys, nil
}

func fpgaTop(k *kernel.Kernel, part *graph.Partition, ims []PEImages, w Widths, f int, o SystemOptions) string {
	name := k.Spec.Name
	np, nr := o.PEs, o.FPGAs-1
	lw := max(nr, 1)
	bw := w.VertexID + max(k.Sizes().Update, 1)
	m := o.OffChip
	var b strings.Builder
	fmt.Fprintf(&b, `// Code generated by gravf-tui. DO NOT EDIT.
//
// fpga%[1]d_top: FPGA %[1]d of %[2]d: %[3]d %[4]s PEs, the crossbar, and one
// receive FIFO and one send FIFO per other FPGA. Link ports carry crossbar
// items (see %[4]s_pe) with valid/ready handshakes; link j is the j-th other
// FPGA in ascending order.
`, f, o.FPGAs, np, name)
	if m != nil {
		fmt.Fprintf(&b, `//
// Edge memory: one read port per PE (lane l of every mem_* bus is PE l),
// with the protocol of %[1]s_pe's memory port. A request carries a
// %[2]d-bit word address in this FPGA's edge memory (its image is
// mem/fpga%[3]d_edges.hex: the PEs' lists, PE after PE); the response is
// that %[4]d-bit word, and a port's responses come in request order. A PE
// makes at most one request per cycle and has at most %[5]d outstanding.
// The PEs share the memory's bandwidth: the memory, or the controller
// attached here, decides with mem_req_ready which requests it accepts (the
// testbench's gravf_mem_model serves %[6]s words per cycle in rotating
// order, as the simulator does). A controller with fewer ports than PEs
// needs an arbiter in front that returns each port's responses in order.
`, name, w.MemAddr, f, m.WordBits, m.InFlight, strconv.FormatFloat(m.WordsPerCycle, 'f', 2, 64))
	}
	fmt.Fprintf(&b, "`"+`default_nettype none

module fpga%[1]d_top (
    input  wire clk,
    input  wire rst,
    input  wire [%[2]d*%[3]d-1:0] rx_data,
    input  wire [%[2]d-1:0]   rx_valid,
    output wire [%[2]d-1:0]   rx_ready,
    output wire [%[2]d*%[3]d-1:0] tx_data,
    output wire [%[2]d-1:0]   tx_valid,
    input  wire [%[2]d-1:0]   tx_ready,
`, f, lw, 4+lw+bw)
	if m != nil {
		fmt.Fprintf(&b, `    // Edge memory: lane l of each bus is PE l's port.
    output wire [%[1]d-1:0]   mem_req_valid,
    input  wire [%[1]d-1:0]   mem_req_ready,
    output wire [%[1]d*%[2]d-1:0] mem_req_addr,
    input  wire [%[1]d-1:0]   mem_resp_valid,
    output wire [%[1]d-1:0]   mem_resp_ready,
    input  wire [%[1]d*%[3]d-1:0] mem_resp_data,
`, np, w.MemAddr, m.WordBits)
	}
	fmt.Fprintf(&b, `    output wire done,             // every PE has terminated
    output wire [31:0] messages   // messages gathered by the PEs of this FPGA
);

localparam UW = %[1]d;
localparam NP = %[2]d;

wire [NP*UW-1:0] pe_out_data;
wire [NP-1:0]    pe_out_valid, pe_out_ready, pe_in_valid, pe_in_ready, pe_passed, pe_done;
wire [UW-1:0]    pe_in_data;
wire [NP*32-1:0] pe_messages;
`, 4+lw+bw, np)
	for l := 0; l < np; l++ {
		g := f*np + l
		im := &ims[g]
		var params, ports string
		if m != nil {
			params = fmt.Sprintf(`    .EA(%d), .MA(%d), .WORD(%d), .SLOT(%d), .INFLIGHT(%d), .LA(%d),
    .INDEX_FILE("mem/pe%d_index.hex"), .ID_FILE("mem/pe%d_ids.hex"),`,
				w.ListLen, w.MemAddr, m.WordBits, m.SlotBits, m.InFlight, w.Local, g, g)
			ports = fmt.Sprintf(`,
    .mem_req_valid(mem_req_valid[%[1]d]), .mem_req_ready(mem_req_ready[%[1]d]), .mem_req_addr(mem_req_addr[%[1]d*%[2]d +: %[2]d]),
    .mem_resp_valid(mem_resp_valid[%[1]d]), .mem_resp_ready(mem_resp_ready[%[1]d]), .mem_resp_data(mem_resp_data[%[1]d*%[3]d +: %[3]d])`,
				l, w.MemAddr, m.WordBits)
		} else {
			params = fmt.Sprintf(`    .NEDGES(%d), .EA(%d), .LA(%d),
    .INDEX_FILE("mem/pe%d_index.hex"), .EDGE_FILE("mem/pe%d_edges.hex"),`,
				max(len(im.Edges), 1), w.EdgeAddr, w.Local, g, g)
		}
		fmt.Fprintf(&b, `
%[1]s_pe #(
    .PE_ID(%[2]d), .NPE(%[3]d), .LW(%[4]d), .NVERTICES(%[5]d), .NLOCAL(%[6]d),
%[7]s
    .VERTEX_FILE("mem/pe%[2]d_vertices.hex"), .STATE_FILE("mem/pe%[2]d_state.hex")
) pe%[8]d (
    .clk(clk), .rst(rst),
    .in_data(pe_in_data), .in_valid(pe_in_valid[%[8]d]), .in_ready(pe_in_ready[%[8]d]),
    .out_data(pe_out_data[%[8]d*UW +: UW]), .out_valid(pe_out_valid[%[8]d]), .out_ready(pe_out_ready[%[8]d]),
    .passed(pe_passed[%[8]d]), .done(pe_done[%[8]d]), .messages(pe_messages[%[8]d*32 +: 32])%[9]s
);
`, name, g, part.NumPEs(), lw, len(im.Index), max(len(im.Vertices), 1), params, l, ports)
	}
	fmt.Fprintf(&b, `
// Links: receive FIFOs hold what arrived; send FIFOs (the external FIFO
// and the asynchronous FIFO of the original design) hold what leaves.
wire [%[1]d*UW-1:0] xb_rx_data;
wire [%[1]d-1:0]    xb_rx_valid, xb_rx_ready, xb_tx_valid, xb_tx_ready;
wire [UW-1:0]      xb_tx_item;
genvar j;
generate
    for (j = 0; j < %[1]d; j = j + 1) begin : link
        /* verilator lint_off UNUSEDSIGNAL */ // the crossbar needs only the handshakes, not the fill counts
        wire [6:0] rx_count;
        wire [7:0] tx_count;
        /* verilator lint_on UNUSEDSIGNAL */
        gravf_fifo #(.WIDTH(UW), .DEPTH(64)) rx_fifo (
            .clk(clk), .rst(rst),
            .in_data(rx_data[j*UW +: UW]), .in_valid(rx_valid[j]), .in_ready(rx_ready[j]),
            .out_data(xb_rx_data[j*UW +: UW]), .out_valid(xb_rx_valid[j]), .out_ready(xb_rx_ready[j]), .count(rx_count)
        );
        gravf_fifo #(.WIDTH(UW), .DEPTH(72)) tx_fifo (
            .clk(clk), .rst(rst),
            .in_data(xb_tx_item), .in_valid(xb_tx_valid[j]), .in_ready(xb_tx_ready[j]),
            .out_data(tx_data[j*UW +: UW]), .out_valid(tx_valid[j]), .out_ready(tx_ready[j]), .count(tx_count)
        );
    end
endgenerate

gravf_crossbar #(.NP(NP), .NR(%[2]d), .BW(%[3]d), .UW(UW)) crossbar (
    .clk(clk), .rst(rst),
    .pe_out_data(pe_out_data), .pe_out_valid(pe_out_valid), .pe_out_ready(pe_out_ready),
    .pe_in_data(pe_in_data), .pe_in_valid(pe_in_valid), .pe_in_ready(pe_in_ready),
    .pe_passed(pe_passed), .pe_done(pe_done),
    .rx_data(xb_rx_data), .rx_valid(xb_rx_valid), .rx_ready(xb_rx_ready),
    .tx_data(xb_tx_item), .tx_valid(xb_tx_valid), .tx_ready(xb_tx_ready)
);

assign done = &pe_done;
`, lw, nr, bw)
	sum := []string{}
	for l := 0; l < np; l++ {
		sum = append(sum, fmt.Sprintf("pe_messages[%d*32 +: 32]", l))
	}
	fmt.Fprintf(&b, "assign messages = %s;\n\nendmodule\n\n`default_nettype wire\n", strings.Join(sum, " + "))
	return b.String()
}

func testbench(k *kernel.Kernel, part *graph.Partition, memories []EdgeMemory, w Widths, o SystemOptions, ref *kernel.Result) string {
	nF := o.FPGAs
	lw := max(nF-1, 1)
	bw := w.VertexID + max(k.Sizes().Update, 1)
	uw := 4 + lw + bw
	watchdog := o.Watchdog
	if watchdog <= 0 {
		watchdog = 10*ref.Messages + 20*int64(len(ref.Supersteps))*int64(k.Vertices+200) + 100000
	}
	var b strings.Builder
	fmt.Fprintf(&b, `// Code generated by gravf-tui. DO NOT EDIT.
//
// tb_system: the whole system. It joins the FPGA tops with link models,
// runs until every PE has terminated, compares every final vertex state
// with the BSP reference and prints exactly one line:
//   RESULT PASS cycles=<n> messages=<m>    or    RESULT FAIL <reason>
// Failures end with $fatal so that the simulator exits non-zero.
`+"`"+`timescale 1ns/1ps
`+"`"+`default_nettype none

module tb_system;

localparam UW = %d;
localparam WATCHDOG = %d;
localparam EXPECTED_MESSAGES = %d;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;
`, uw, watchdog, ref.Messages)
	m := o.OffChip
	for f := 0; f < nF; f++ {
		fmt.Fprintf(&b, `
wire [%[2]d*UW-1:0] rx_data%[1]d, tx_data%[1]d;
wire [%[2]d-1:0] rx_valid%[1]d, rx_ready%[1]d, tx_valid%[1]d, tx_ready%[1]d;
wire done%[1]d;
wire [31:0] messages%[1]d;
`, f, lw)
		memPorts := ""
		if m != nil {
			// The FPGA's edge memory, shared by its PEs.
			fmt.Fprintf(&b, `wire [%[2]d-1:0] mem_req_valid%[1]d, mem_req_ready%[1]d, mem_resp_valid%[1]d, mem_resp_ready%[1]d;
wire [%[2]d*%[3]d-1:0] mem_req_addr%[1]d;
wire [%[2]d*%[4]d-1:0] mem_resp_data%[1]d;
gravf_mem_model #(
    .NP(%[2]d), .WORD(%[4]d), .AW(%[3]d), .DEPTH(%[5]d), .LATENCY(%[6]d), .INFLIGHT(%[7]d),
    .RATE(%[8]s), .INIT("mem/fpga%[1]d_edges.hex")
) mem%[1]d (
    .clk(clk), .rst(rst),
    .req_valid(mem_req_valid%[1]d), .req_ready(mem_req_ready%[1]d), .req_addr(mem_req_addr%[1]d),
    .resp_valid(mem_resp_valid%[1]d), .resp_ready(mem_resp_ready%[1]d), .resp_data(mem_resp_data%[1]d)
);
`, f, o.PEs, w.MemAddr, m.WordBits, max(len(memories[f].Words), 1), m.Latency, m.InFlight, verilogReal(m.WordsPerCycle))
			memPorts = fmt.Sprintf(`
    .mem_req_valid(mem_req_valid%[1]d), .mem_req_ready(mem_req_ready%[1]d), .mem_req_addr(mem_req_addr%[1]d),
    .mem_resp_valid(mem_resp_valid%[1]d), .mem_resp_ready(mem_resp_ready%[1]d), .mem_resp_data(mem_resp_data%[1]d),`, f)
		}
		fmt.Fprintf(&b, `fpga%[1]d_top fpga%[1]d (
    .clk(clk), .rst(rst),
    .rx_data(rx_data%[1]d), .rx_valid(rx_valid%[1]d), .rx_ready(rx_ready%[1]d),
    .tx_data(tx_data%[1]d), .tx_valid(tx_valid%[1]d), .tx_ready(tx_ready%[1]d),%[2]s
    .done(done%[1]d), .messages(messages%[1]d)
);
`, f, memPorts)
	}
	// Links: FPGA a's link j goes to the j-th other FPGA b; b receives it
	// on its link index for a.
	idx := func(from, to int) int {
		if to < from {
			return to
		}
		return to - 1
	}
	if nF == 1 {
		b.WriteString("assign rx_valid0 = 1'b0;\nassign rx_data0 = {UW{1'b0}};\nassign tx_ready0 = 1'b1;\n")
	}
	for a := 0; a < nF; a++ {
		for c := 0; c < nF; c++ {
			if a == c {
				continue
			}
			ja, jc := idx(a, c), idx(c, a)
			fmt.Fprintf(&b, `gravf_link_model #(.WIDTH(UW), .LATENCY(%[5]d)) link_%[1]d_%[2]d (
    .clk(clk), .rst(rst),
    .in_data(tx_data%[1]d[%[3]d*UW +: UW]), .in_valid(tx_valid%[1]d[%[3]d]), .in_ready(tx_ready%[1]d[%[3]d]),
    .out_data(rx_data%[2]d[%[4]d*UW +: UW]), .out_valid(rx_valid%[2]d[%[4]d]), .out_ready(rx_ready%[2]d[%[4]d])
);
`, a, c, ja, jc, max(o.LinkLatency, 1))
		}
	}
	var dones, msgs []string
	for f := 0; f < nF; f++ {
		dones = append(dones, fmt.Sprintf("done%d", f))
		msgs = append(msgs, fmt.Sprintf("messages%d", f))
	}
	fmt.Fprintf(&b, `
wire all_done = %s;
wire [31:0] total_messages = %s;
integer cycles = 0;
integer errors = 0;
reg [%d:0] expected [0:%d-1];
// Reset for the first four cycles, released by the clock so that every
// simulator sees it fall at the same edge.
always @(posedge clk) begin
    cycles <= cycles + 1;
    if (cycles == 3) rst <= 1'b0;
end

%[5]stask check_pe;
    input integer pe;
    input integer n;
    integer i;
    begin
        for (i = 0; i < n; i = i + 1) begin
            if (!close_enough(state_of(pe, i), expected[i])) begin
                if (errors < 10) $display("vertex state mismatch: PE %%0d local %%0d: %%h, want %%h", pe, i, state_of(pe, i), expected[i]);
                errors = errors + 1;
            end
        end
    end
endtask
`, strings.Join(dones, " && "), strings.Join(msgs, " + "), w.State-1, w.MaxLocal, StateCompare(k, w.State))
	// state_of reads the state RAMs hierarchically.
	fmt.Fprintf(&b, "function [%d:0] state_of;\n    input integer pe;\n    input integer i;\n    begin\n        case (pe)\n", w.State-1)
	for g := 0; g < part.NumPEs(); g++ {
		fmt.Fprintf(&b, "        %d: state_of = fpga%d.pe%d.state_ram.mem[i];\n", g, g/o.PEs, g%o.PEs)
	}
	fmt.Fprintf(&b, "        default: state_of = 0;\n        endcase\n    end\nendfunction\n\n")
	// Superstep starts, for comparison with the simulator's per-superstep
	// figures: the cycle in which the first PE begins a superstep's apply
	// sweep. Each line is flushed, so that a tool reading the log through a
	// pipe (the TUI's make sim) sees the run's progress as it happens.
	fmt.Fprintf(&b, "// One line per superstep: the cycle the first PE begins its apply sweep\n// (flushed at once, for progress through a pipe).\ninteger superstep_seen = 0;\nalways @(posedge clk) begin\n    if (!rst) begin\n")
	for g := 0; g < part.NumPEs(); g++ {
		pe := fmt.Sprintf("fpga%d.pe%d", g/o.PEs, g%o.PEs)
		fmt.Fprintf(&b, "        if (%[1]s.superstep > superstep_seen) begin\n            superstep_seen = %[1]s.superstep;\n            $display(\"SUPERSTEP %%0d start=%%0d\", superstep_seen, cycles - 5);\n            $fflush;\n        end\n", pe)
	}
	fmt.Fprintf(&b, "    end\nend\n\n")
	fmt.Fprintf(&b, "initial begin\n    wait (!rst);\n    while (!all_done && cycles < WATCHDOG) @(posedge clk);\n")
	fmt.Fprintf(&b, "    if (!all_done) begin\n        $display(\"RESULT FAIL watchdog: no termination after %%0d cycles\", cycles);\n")
	for g := 0; g < part.NumPEs(); g++ {
		pe := fmt.Sprintf("fpga%d.pe%d", g/o.PEs, g%o.PEs)
		fmt.Fprintf(&b, "        $display(\"  PE %d: mode %%0d superstep %%0d, barriers counted %%0d, input %%0d, kernel input %%0d, messages queued %%0d, updates queued %%0d\", %s.mode, %s.superstep, %s.bc_count, %s.inf_count, %s.kin_count, %s.mq_count, %s.uq_count);\n",
			g, pe, pe, pe, pe, pe, pe, pe)
		if o.OffChip != nil {
			fmt.Fprintf(&b, "        $display(\"        memory words in flight %%0d, order FIFO %%0d, unpacking %%0d\", %s.inflight, %s.ot_count, %s.up_active);\n", pe, pe, pe)
		}
	}
	fmt.Fprintf(&b, "        $fatal(1, \"watchdog\");\n    end\n")
	for g := 0; g < part.NumPEs(); g++ {
		fmt.Fprintf(&b, "    $readmemh(\"tb/pe%d_expected.hex\", expected);\n    check_pe(%d, %d);\n", g, g, len(part.Members[g]))
	}
	fmt.Fprintf(&b, `    if (errors != 0) begin
        $display("RESULT FAIL %%0d vertex states differ from the reference", errors);
        $fatal(1, "mismatch");
    end
    if (total_messages != EXPECTED_MESSAGES) begin
        $display("RESULT FAIL messages=%%0d, the reference traversed %%0d edges", total_messages, EXPECTED_MESSAGES);
        $fatal(1, "messages");
    end
    $display("RESULT PASS cycles=%%0d messages=%%0d", cycles - 4, total_messages);
    $finish;
end

endmodule

`+"`"+`default_nettype wire
`)
	return b.String()
}

// verilogReal writes a real literal that reads back as exactly x, so the
// testbench's memory model does the simulator's float64 arithmetic.
func verilogReal(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// StateCompare is the Verilog of the testbenches' state comparison: the
// function close_enough(got, want) over a packed vertex state of
// stateBits, integer fields equal and f32 fields within 1e-4 relative
// (with f32_to_real, which it uses).
func StateCompare(k *kernel.Kernel, stateBits int) string {
	return fmt.Sprintf(`// f32 fields are compared within a relative tolerance: their sums follow
// message arrival order, which differs from the reference's.
function real f32_to_real;
    input [31:0] x;
    real m;
    integer e;
    begin
        e = x[30:23];
        m = x[22:0];
        if (e == 0) f32_to_real = m * (2.0 ** -149);
        else f32_to_real = (1.0 + m / 8388608.0) * (2.0 ** (e - 127));
        if (x[31]) f32_to_real = -f32_to_real;
    end
endfunction

function close_enough;
    input [%[1]d:0] got;
    input [%[1]d:0] want;
    real a, b, d;
    begin
        close_enough = 1'b1;
%[2]s    end
endfunction

`, stateBits-1, fieldChecks(k))
}

// fieldChecks writes the body of the testbench's close_enough: integer
// fields equal, f32 fields within 1e-4 relative (1e-30 absolute near 0).
func fieldChecks(k *kernel.Kernel) string {
	var b strings.Builder
	off := 0
	for _, t := range k.Checked.VertexT {
		off += t.Width
	}
	for i, t := range k.Checked.VertexT {
		off -= t.Width
		f := k.Spec.Vertex[i].Name
		hi := off + t.Width - 1
		if t.Float {
			fmt.Fprintf(&b, "        a = f32_to_real(got[%d:%d]); b = f32_to_real(want[%d:%d]); d = a - b;\n", hi, off, hi, off)
			fmt.Fprintf(&b, "        if (d < 0) d = -d;\n        if (b < 0) b = -b;\n        if (d > 1.0e-4 * b && d > 1.0e-30) close_enough = 1'b0; // %s\n", f)
		} else {
			fmt.Fprintf(&b, "        if (got[%d:%d] !== want[%d:%d]) close_enough = 1'b0; // %s\n", hi, off, hi, off, f)
		}
	}
	return b.String()
}
