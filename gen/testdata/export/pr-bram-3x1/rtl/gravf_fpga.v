// gravf_fpga: one FPGA of a GraVF-M system: NP PEs (gravf_pe), the
// crossbar (gravf_crossbar), and per other FPGA a receive FIFO and a send
// FIFO (the external FIFO and the asynchronous FIFO into the stream of the
// original design).
//
// Every FPGA of a design is this module with the same parameters but FPGA
// (0 .. NF-1): the per-PE figures are tables over every PE of the system
// (PE g in bits [32*g +: 32]), of which FPGA f takes PEs f*NP .. f*NP+NP-1,
// and the memory images are named for the global PE number:
// MEM_DIR/pe<g>_<kind>.hex, g with the digits of NF*NP-1.
//
// Link ports: one receive and one send port per other FPGA (link j is the
// j-th other FPGA in ascending order), valid/ready streams of link items
// (IW bits: barrier, halt, round, sender, payload). With one FPGA they are
// unused (rx_ready and tx_valid stay low).
//
// Edge memory (OFFCHIP = 1): one read port per PE, lane l of every mem_*
// bus is PE l, with the protocol of gravf_scatter_offchip: a request
// carries a word address (MA bits) in this FPGA's edge memory, responses
// (WORD bits) come in request order, at most INFLIGHT outstanding per PE.
// The PEs share the memory's bandwidth: the memory decides with
// mem_req_ready which requests it accepts. With OFFCHIP = 0 the port is
// unused. Reset is synchronous.
`default_nettype none

module gravf_fpga #(
    // The design.
    parameter FPGA           = 0,     // which FPGA this is
    parameter NF             = 1,     // FPGAs
    parameter NP             = 1,     // PEs per FPGA
    parameter NVERTICES      = 2,     // vertices of the graph
    parameter VID            = 8,     // bits of a global vertex id
    parameter UPW            = 1,     // bits of the update payload bus
    parameter MPW            = 1,     // bits of the message payload bus
    parameter STW            = 1,     // bits of a vertex state
    parameter ED             = 0,     // bits of the edge data (0: none)
    parameter LA             = 1,     // bits of a local index
    parameter OFFCHIP        = 0,     // 0: edges in block RAM; 1: in off-chip memory
    parameter EA             = 1,     // bits of an edge address (block RAM) or of a list length (off-chip)
    parameter MA             = 1,     // off-chip: bits of a memory word address
    parameter WORD           = 128,   // off-chip: bits of a memory word
    parameter SLOT           = 8,     // off-chip: bits of an edge slot
    parameter INFLIGHT       = 64,    // off-chip: requests outstanding per PE at most
    parameter EXACT_HAZARD   = 1,     // the hazard detector (see gravf_pe)
    parameter GATHER_LATENCY = 1,
    parameter HAZARD_SLOTS   = 32,
    parameter IN_DEPTH       = 8,     // FIFO depths (see gravf_pe)
    parameter KIN_DEPTH      = 8,
    parameter KIN_SLACK      = 3,
    parameter MSG_DEPTH      = 8,
    parameter SCATTER_SIDE   = 16,
    parameter GATHER_SIDE    = 16,
    parameter APPLY_SIDE     = 16,
    parameter ORDER_EXTRA    = 2,
    parameter QUEUE_EXTRA    = 2,
    parameter RX_DEPTH       = 64,    // receive FIFO per link
    parameter TX_DEPTH       = 72,    // send FIFO per link
    parameter SSW            = 32,    // bits of the superstep number
    parameter DW             = 32,    // bits of an out-degree
    parameter CW             = 32,    // bits of the message counters
    parameter GW             = 0,     // globals (see gravf_pe): bits (0: none) ...
    parameter GCL            = 1,     // ... the combine unit's latency ...
    parameter [((GW > 0) ? GW : 1)-1:0] GLOBAL_IDENTITY = 0, // ... and the reductions' identity
    // Per PE of the system, PE g in bits [32*g +: 32].
    parameter [32*NF*NP-1:0] NLOCAL = {NF*NP{32'd1}},  // vertices
    parameter [32*NF*NP-1:0] NEDGES = {NF*NP{32'd1}},  // block RAM: edges (at least 1)
    parameter MEM_DIR        = "mem", // folder of the $readmemh images
    // Derived.
    parameter NR             = NF - 1,              // remote FPGAs
    parameter LW             = (NR > 0) ? NR : 1,   // mask bits and link lanes
    parameter BW             = VID + UPW,           // item body: sender and payload
    parameter UW             = 4 + LW + BW,         // item bits from a PE
    parameter IW             = 4 + BW               // link item bits
) (
    input  wire               clk,
    input  wire               rst,
    // Links.
    input  wire [LW*IW-1:0]   rx_data,
    input  wire [LW-1:0]      rx_valid,
    output wire [LW-1:0]      rx_ready,
    output wire [LW*IW-1:0]   tx_data,
    output wire [LW-1:0]      tx_valid,
    input  wire [LW-1:0]      tx_ready,
    // Edge memory: lane l of each bus is PE l's port.
    output wire [NP-1:0]      mem_req_valid,
    input  wire [NP-1:0]      mem_req_ready,
    output wire [NP*MA-1:0]   mem_req_addr,
    input  wire [NP-1:0]      mem_resp_valid,
    output wire [NP-1:0]      mem_resp_ready,
    input  wire [NP*WORD-1:0] mem_resp_data,
    // Status.
    output wire               done,      // every PE has terminated
    output wire [CW-1:0]      messages   // messages gathered by the PEs of this FPGA
);

generate
    if (NF < 1 || NP < 1) begin : check_size
        gravf_fpga_NF_and_NP_must_be_at_least_1 error ();
    end
    if (FPGA < 0 || FPGA >= NF) begin : check_fpga
        gravf_fpga_FPGA_must_be_below_NF error ();
    end
    if (NF * NP > 10000) begin : check_npe
        gravf_fpga_names_the_images_of_at_most_10000_PEs error ();
    end
endgenerate

// The decimal digits of a PE number, with as many digits as the largest
// (NF*NP - 1) has, for the image names.
localparam NPE    = NF * NP;
localparam DIGITS = (NPE > 1000) ? 4 : (NPE > 100) ? 3 : (NPE > 10) ? 2 : 1;
localparam [8*10-1:0] DIGIT_CHARS = "9876543210"; // digit d in bits [8*d +: 8]
function [8*DIGITS-1:0] pe_number;
    input integer n;
    integer i, v;
    begin
        v = n;
        for (i = 0; i < DIGITS; i = i + 1) begin
            pe_number[8*i +: 8] = DIGIT_CHARS[8*(v % 10) +: 8];
            v = v / 10;
        end
    end
endfunction

wire [NP*UW-1:0] pe_out_data;
wire [NP-1:0]    pe_out_valid, pe_out_ready, pe_in_valid, pe_in_ready, pe_passed, pe_done;
wire [IW-1:0]    pe_in_data;
wire [NP*CW-1:0] pe_messages;

genvar l;
generate
    for (l = 0; l < NP; l = l + 1) begin : pe
        localparam integer G  = FPGA * NP + l;        // the global PE number
        localparam integer NL = NLOCAL[32*G +: 32];   // its vertices
        localparam integer NE = NEDGES[32*G +: 32];   // its edges (block RAM)
        localparam [8*DIGITS-1:0] NUM = pe_number(G);
        /* verilator lint_off UNUSEDSIGNAL */ // the tables start from their images: no table port
        wire [STW-1:0] rb_data;
        /* verilator lint_on UNUSEDSIGNAL */
        gravf_pe #(
            .PE_ID(G), .NPE(NPE), .LW(LW), .NVERTICES(NVERTICES), .NLOCAL(NL),
            .VID(VID), .UPW(UPW), .MPW(MPW), .STW(STW), .ED(ED),
            .LA(LA), .OFFCHIP(OFFCHIP), .NEDGES(NE), .EA(EA), .MA(MA), .WORD(WORD), .SLOT(SLOT), .INFLIGHT(INFLIGHT),
            .EXACT_HAZARD(EXACT_HAZARD), .GATHER_LATENCY(GATHER_LATENCY), .HAZARD_SLOTS(HAZARD_SLOTS),
            .IN_DEPTH(IN_DEPTH), .KIN_DEPTH(KIN_DEPTH), .KIN_SLACK(KIN_SLACK), .MSG_DEPTH(MSG_DEPTH),
            .SCATTER_SIDE(SCATTER_SIDE), .GATHER_SIDE(GATHER_SIDE), .APPLY_SIDE(APPLY_SIDE),
            .GW(GW), .GCL(GCL), .GLOBAL_IDENTITY(GLOBAL_IDENTITY),
            .ORDER_EXTRA(ORDER_EXTRA), .QUEUE_EXTRA(QUEUE_EXTRA), .SSW(SSW), .DW(DW), .CW(CW),
            .LOAD(0), .LDA(1), .LDW(1),
            .INDEX_FILE({MEM_DIR, "/pe", NUM, "_index.hex"}), .EDGE_FILE({MEM_DIR, "/pe", NUM, "_edges.hex"}),
            .ID_FILE({MEM_DIR, "/pe", NUM, "_ids.hex"}),
            .VERTEX_FILE({MEM_DIR, "/pe", NUM, "_vertices.hex"}), .STATE_FILE({MEM_DIR, "/pe", NUM, "_state.hex"})
        ) core (
            .clk(clk), .rst(rst),
            .in_data(pe_in_data), .in_valid(pe_in_valid[l]), .in_ready(pe_in_ready[l]),
            .out_data(pe_out_data[l*UW +: UW]), .out_valid(pe_out_valid[l]), .out_ready(pe_out_ready[l]),
            .passed(pe_passed[l]), .done(pe_done[l]), .messages(pe_messages[l*CW +: CW]),
            .mem_req_valid(mem_req_valid[l]), .mem_req_ready(mem_req_ready[l]), .mem_req_addr(mem_req_addr[l*MA +: MA]),
            .mem_resp_valid(mem_resp_valid[l]), .mem_resp_ready(mem_resp_ready[l]), .mem_resp_data(mem_resp_data[l*WORD +: WORD]),
            .ld_valid(1'b0), .ld_table(2'd0), .ld_addr(1'b0), .ld_data(1'b0),
            .rb_valid(1'b0), .rb_addr({LA{1'b0}}), .rb_data(rb_data)
        );
    end
endgenerate

// Links: receive FIFOs hold what arrived; send FIFOs hold what leaves.
wire [LW*IW-1:0] xb_rx_data;
wire [LW-1:0]    xb_rx_valid, xb_rx_ready, xb_tx_valid, xb_tx_ready;
wire [IW-1:0]    xb_tx_item;
genvar j;
generate
    if (NR > 0) begin : links
        for (j = 0; j < NR; j = j + 1) begin : link
            /* verilator lint_off UNUSEDSIGNAL */ // the crossbar needs only the handshakes, not the fill counts
            wire [$clog2(RX_DEPTH):0] rx_count;
            wire [$clog2(TX_DEPTH):0] tx_count;
            /* verilator lint_on UNUSEDSIGNAL */
            gravf_fifo #(.WIDTH(IW), .DEPTH(RX_DEPTH)) rx_fifo (
                .clk(clk), .rst(rst),
                .in_data(rx_data[j*IW +: IW]), .in_valid(rx_valid[j]), .in_ready(rx_ready[j]),
                .out_data(xb_rx_data[j*IW +: IW]), .out_valid(xb_rx_valid[j]), .out_ready(xb_rx_ready[j]), .count(rx_count)
            );
            gravf_fifo #(.WIDTH(IW), .DEPTH(TX_DEPTH)) tx_fifo (
                .clk(clk), .rst(rst),
                .in_data(xb_tx_item), .in_valid(xb_tx_valid[j]), .in_ready(xb_tx_ready[j]),
                .out_data(tx_data[j*IW +: IW]), .out_valid(tx_valid[j]), .out_ready(tx_ready[j]), .count(tx_count)
            );
        end
    end else begin : no_links
        // One FPGA: nothing arrives and nothing leaves.
        assign xb_rx_data  = {IW{1'b0}};
        assign xb_rx_valid = 1'b0;
        assign xb_tx_ready = 1'b0;
        assign rx_ready    = 1'b0;
        assign tx_data     = {IW{1'b0}};
        assign tx_valid    = 1'b0;
        /* verilator lint_off UNUSEDSIGNAL */ // one FPGA: the link ports and the crossbar's link side are unused
        wire unused_links = &{1'b0, rx_data, rx_valid, tx_ready, xb_rx_ready, xb_tx_valid, xb_tx_item};
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

gravf_crossbar #(.NP(NP), .NR(NR), .BW(BW)) crossbar (
    .clk(clk), .rst(rst),
    .pe_out_data(pe_out_data), .pe_out_valid(pe_out_valid), .pe_out_ready(pe_out_ready),
    .pe_in_data(pe_in_data), .pe_in_valid(pe_in_valid), .pe_in_ready(pe_in_ready),
    .pe_passed(pe_passed), .pe_done(pe_done),
    .rx_data(xb_rx_data), .rx_valid(xb_rx_valid), .rx_ready(xb_rx_ready),
    .tx_data(xb_tx_item), .tx_valid(xb_tx_valid), .tx_ready(xb_tx_ready)
);

assign done = &pe_done;

// The FPGA's message count: the sum of its PEs'.
reg [CW-1:0] sum;
integer      i;
always @* begin
    sum = {CW{1'b0}};
    for (i = 0; i < NP; i = i + 1) sum = sum + pe_messages[i*CW +: CW];
end
assign messages = sum;

endmodule

`default_nettype wire
