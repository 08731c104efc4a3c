// gravf_pe: one GraVF-M processing element.
//
//  crossbar -> input FIFO -> barrier counter / scatter unit (edge index,
//           edges in block RAM or from the edge memory port)
//           -> kernel-input FIFO -> scatter kernel -> message FIFO
//           -> gather (hazard detector, vertex state) ; at a barrier:
//           apply sweep -> update queue -> crossbar
//
// The kernels are the design's: gravf_scatter_kernel, gravf_gather_kernel
// and gravf_apply_kernel, generated adapters from packed buses to the
// kernels' named ports. A kernel may take any number of cycles: what the
// PE needs beside it travels in side FIFOs, and a kernel that answers in
// the cycle it is asked finds its side entry at the FIFO's input.
//
// Items to the crossbar (most significant first): barrier, halt,
// round[1:0], mask[LW-1:0] (the remote FPGAs that need the update: the
// filter), sender[VID-1:0], update payload[UPW-1:0]. Items from the
// crossbar are link items: the same without the mask. A barrier marker
// carries its source PE in the sender field and a halt bit set when that
// PE sent no update in the superstep.
//
// A superstep: the PE sweeps every local vertex through the apply kernel
// (the update queue takes the updates, then a barrier marker), then
// gathers the messages its scatter unit makes from the updates of every
// PE, until the superstep's last barrier marker arrives behind them; a
// marker with the halt bit of every PE ends the run (done). Reset is
// synchronous.
//
// With OFFCHIP = 1 the edges live in off-chip memory, read through the
// edge memory port (see gravf_scatter_offchip); with OFFCHIP = 0 the port
// is unused (mem_req_valid and mem_resp_ready stay low).
//
// Table port (LOAD = 1, for a kernel whose tables come from host buffers,
// such as a Vitis kernel): while rst is high a loader writes the PE's
// tables, one word per cycle (ld_valid; ld_table 0 the edge index, 1 the
// edges, or the id table off-chip, 2 the vertex info, 3 the vertex state;
// ld_addr the entry; ld_data the word in its low bits, as the $readmemh
// images hold it). Once done is high it reads the vertex states back:
// rb_valid reads local vertex rb_addr, whose state shows on rb_data in the
// next cycle. With LOAD = 0 the port is unused and the tables start from
// the images.
`default_nettype none

module gravf_pe #(
    // The system and this PE.
    parameter PE_ID          = 0,     // global PE number
    parameter NPE            = 1,     // PEs in the whole system
    parameter LW             = 1,     // mask bits: remote FPGAs (at least 1)
    parameter NVERTICES      = 2,     // vertices of the graph (edge-index entries)
    parameter NLOCAL         = 1,     // vertices of this PE
    // The kernel's widths.
    parameter VID            = 8,     // bits of a global vertex id
    parameter UPW            = 1,     // bits of the update payload bus (at least 1)
    parameter MPW            = 1,     // bits of the message payload bus (at least 1)
    parameter STW            = 1,     // bits of a vertex state
    parameter ED             = 0,     // bits of the edge data (0: none)
    // Memories.
    parameter LA             = 1,     // bits of a local index
    parameter OFFCHIP        = 0,     // 0: edges in block RAM; 1: in off-chip memory
    parameter NEDGES         = 1,     // block RAM: edges stored on this PE (at least 1)
    parameter EA             = 1,     // bits of an edge address (block RAM) or of a list length (off-chip)
    parameter MA             = 1,     // off-chip: bits of a memory word address
    parameter WORD           = 128,   // off-chip: bits of a memory word
    parameter SLOT           = 8,     // off-chip: bits of an edge slot in a word
    parameter INFLIGHT       = 64,    // off-chip: memory requests outstanding at most
    // The gather unit's hazard detector (see gravf_hazard).
    parameter EXACT_HAZARD   = 1,     // 1: exact, with the kernel's result bypassed; 0: the paper's slots
    parameter GATHER_LATENCY = 1,     // the gather kernel's latency (exact detector)
    parameter HAZARD_SLOTS   = 32,    // slots of the paper's detector at most
    // FIFO depths.
    parameter IN_DEPTH       = 8,     // input FIFO
    parameter KIN_DEPTH      = 8,     // kernel-input FIFO ...
    parameter KIN_SLACK      = 3,     // ... of which the scatter unit keeps this many free
    parameter MSG_DEPTH      = 8,     // message FIFO
    parameter SCATTER_SIDE   = 16,    // FIFOs beside the scatter, ...
    parameter GATHER_SIDE    = 16,    // ... gather ...
    parameter APPLY_SIDE     = 16,    // ... and apply kernels: the kernel's latency + 1 at least
    parameter ORDER_EXTRA    = 2,     // off-chip: order-FIFO entries beyond INFLIGHT
    parameter QUEUE_EXTRA    = 2,     // update-queue entries beyond one per local vertex
    // Globals (see gravf_globals): GW bits (0: none), reduced by a combine
    // unit of latency GCL, from GLOBAL_IDENTITY.
    parameter GW             = 0,
    parameter GCL            = 1,
    parameter GWB            = (GW > 0) ? GW : 1, // bits of the globals buses
    parameter [GWB-1:0] GLOBAL_IDENTITY = {GWB{1'b0}},
    // Tables: from $readmemh images (LOAD = 0) or written through the
    // table port (LOAD = 1).
    parameter LOAD           = 0,
    // $readmemh images.
    parameter INDEX_FILE     = "",    // edge index: every vertex of the graph
    parameter EDGE_FILE      = "",    // block RAM: the edges
    parameter ID_FILE        = "",    // off-chip: the global id of every local index
    parameter VERTEX_FILE    = "",    // vertex info: mask, global id, degree
    parameter STATE_FILE     = "",    // initial vertex states
    // Fixed widths of the kernel interface and the counters.
    parameter SSW            = 32,    // bits of the superstep number (level_in)
    parameter DW             = 32,    // bits of an out-degree
    parameter CW             = 32,    // bits of the message and update counters
    // Derived.
    parameter BW             = VID + UPW,   // item body: sender and payload
    parameter UW             = 4 + LW + BW, // item bits to the crossbar
    parameter IW             = 4 + BW,      // link item bits from the crossbar
    parameter IXW            = (OFFCHIP == 1) ? MA + EA + DW : 2 * EA + DW, // edge-index word
    parameter EGW            = (OFFCHIP == 1) ? VID : VID + LA + ED,        // edge word, or id-table word off-chip
    parameter VW             = LW + VID + DW,                               // vertex-info word: mask, global id, degree
    parameter LDA0           = (OFFCHIP == 1) ? LA : ((EA > LA) ? EA : LA),
    parameter LDA_NEED       = (VID > LDA0) ? VID : LDA0,                   // the widest table index ...
    parameter LDW0           = (IXW > EGW) ? IXW : EGW,
    parameter LDW1           = (VW > STW) ? VW : STW,
    parameter LDW_NEED       = (LDW0 > LDW1) ? LDW0 : LDW1,                 // ... and the widest table word
    parameter LDA            = LDA_NEED,    // bits of ld_addr: at least LDA_NEED with LOAD = 1 (any with 0)
    parameter LDW            = LDW_NEED     // bits of ld_data: at least LDW_NEED with LOAD = 1
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [IW-1:0]   in_data,       // from the crossbar: a link item
    input  wire            in_valid,
    output wire            in_ready,
    output wire [UW-1:0]   out_data,      // to the crossbar: the update queue's head
    output wire            out_valid,
    input  wire            out_ready,
    output wire            passed,        // pulse: every barrier marker of a channel counted
    output reg             done,          // a superstep in which no PE sent an update was seen
    output reg  [CW-1:0]   messages,      // messages gathered
    // Edge memory port (OFFCHIP = 1).
    output wire            mem_req_valid,
    input  wire            mem_req_ready,
    output wire [MA-1:0]   mem_req_addr,  // word address
    input  wire            mem_resp_valid,
    output wire            mem_resp_ready,
    input  wire [WORD-1:0] mem_resp_data,
    // Table port (LOAD = 1).
    input  wire            ld_valid,
    input  wire [1:0]      ld_table,
    input  wire [LDA-1:0]  ld_addr,
    input  wire [LDW-1:0]  ld_data,
    input  wire            rb_valid,
    input  wire [LA-1:0]   rb_addr,
    output wire [STW-1:0]  rb_data
);

localparam EDW = (ED > 0) ? ED : 1;         // bits of the edge data bus
localparam [LA:0] LOCALS = NLOCAL[LA:0];    // NLOCAL at the apply counter's width

generate
    if (OFFCHIP != 0 && OFFCHIP != 1) begin : check_offchip
        gravf_pe_OFFCHIP_must_be_0_or_1 error ();
    end
    if (NLOCAL < 1 || NPE < 1 || PE_ID >= NPE) begin : check_pe
        gravf_pe_needs_NLOCAL_and_NPE_of_at_least_1_and_PE_ID_below_NPE error ();
    end
    if ((1 << LA) < NLOCAL) begin : check_la
        gravf_pe_LA_must_address_NLOCAL_vertices error ();
    end
    if (KIN_SLACK < 1 || KIN_SLACK >= KIN_DEPTH) begin : check_kin
        gravf_pe_KIN_SLACK_must_be_between_1_and_KIN_DEPTH error ();
    end
    if (LOAD != 0 && LOAD != 1) begin : check_load
        gravf_pe_LOAD_must_be_0_or_1 error ();
    end
endgenerate

// ---------------------------------------------------------------- table port
// tw_*: the table writes, one enable per table, all low with LOAD = 0.
wire            tw_index, tw_edges, tw_vertex, tw_state;
wire [LDA_NEED-1:0] tw_addr;
wire [LDW_NEED-1:0] tw_data;
generate
    if (LOAD == 1) begin : table_port
        if (LDA < LDA_NEED || LDW < LDW_NEED) begin : check_widths
            gravf_pe_LDA_and_LDW_must_hold_every_table error ();
        end
        assign tw_index  = ld_valid && ld_table == 2'd0;
        assign tw_edges  = ld_valid && ld_table == 2'd1;
        assign tw_vertex = ld_valid && ld_table == 2'd2;
        assign tw_state  = ld_valid && ld_table == 2'd3;
        assign tw_addr   = ld_addr[LDA_NEED-1:0];
        assign tw_data   = ld_data[LDW_NEED-1:0];
        if (LDA > LDA_NEED || LDW > LDW_NEED) begin : wide
            /* verilator lint_off UNUSEDSIGNAL */ // a table port wider than the tables: the high bits are zero
            wire unused_high = &{1'b0, ld_addr, ld_data};
            /* verilator lint_on UNUSEDSIGNAL */
        end
    end else begin : images
        assign {tw_index, tw_edges, tw_vertex, tw_state} = 4'd0;
        assign tw_addr = {LDA_NEED{1'b0}};
        assign tw_data = {LDW_NEED{1'b0}};
        /* verilator lint_off UNUSEDSIGNAL */ // LOAD = 0: the tables start from their images; the table port is unused
        wire unused_ld = &{1'b0, ld_valid, ld_table, ld_addr, ld_data, rb_valid, rb_addr};
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

// ---------------------------------------------------------------- input FIFO
wire [IW-1:0]   inf_data;
wire            inf_valid;
wire            inf_ready;
/* verilator lint_off UNUSEDSIGNAL */ // the fill count is for the testbench's watchdog report
wire [$clog2(IN_DEPTH):0] inf_count;
/* verilator lint_on UNUSEDSIGNAL */
gravf_fifo #(.WIDTH(IW), .DEPTH(IN_DEPTH)) input_fifo (
    .clk(clk), .rst(rst),
    .in_data(in_data), .in_valid(in_valid), .in_ready(in_ready),
    .out_data(inf_data), .out_valid(inf_valid), .out_ready(inf_ready), .count(inf_count)
);
wire            inf_barrier = inf_data[IW-1];
wire            inf_halt    = inf_data[IW-2];
wire [1:0]      inf_round   = inf_data[IW-3 -: 2];
wire [VID-1:0]  inf_sender  = inf_data[BW-1 -: VID];
wire [UPW-1:0]  inf_payload = inf_data[UPW-1:0];

// ------------------------------------------------------------- scatter unit
// It writes the edges of every update, and each channel's last barrier
// marker, into the kernel-input FIFO; it keeps KIN_SLACK entries free for
// the reads it has in flight.
localparam integer KIN_FREE = KIN_DEPTH - KIN_SLACK;
localparam [$clog2(KIN_DEPTH):0] KIN_ROOM = KIN_FREE[$clog2(KIN_DEPTH):0]; // entries below which an edge may be read
wire [$clog2(KIN_DEPTH):0] kin_count;
wire            kin_room = kin_count < KIN_ROOM;
wire            su_valid, su_barrier, su_halt;
wire            marker_last;     // the channel's last barrier marker leaves the input FIFO
wire [1:0]      su_round;
wire [VID-1:0]  su_sender, su_neighbor;
wire [UPW-1:0]  su_payload;
wire [DW-1:0]   su_degree;
wire [LA-1:0]   su_local;
wire [EDW-1:0]  su_edge;
generate
    if (OFFCHIP == 1) begin : offchip
        gravf_scatter_offchip #(
            .NPE(NPE), .VID(VID), .UPW(UPW), .LA(LA), .ED(ED), .NVERTICES(NVERTICES), .NLOCAL(NLOCAL),
            .EA(EA), .MA(MA), .WORD(WORD), .SLOT(SLOT), .INFLIGHT(INFLIGHT), .ORDER_EXTRA(ORDER_EXTRA), .DW(DW),
            .INDEX_FILE(INDEX_FILE), .ID_FILE(ID_FILE)
        ) scatter (
            .clk(clk), .rst(rst),
            .in_valid(inf_valid), .in_ready(inf_ready), .in_barrier(inf_barrier), .in_halt(inf_halt),
            .in_round(inf_round), .in_sender(inf_sender), .in_payload(inf_payload),
            .out_room(kin_room), .out_valid(su_valid), .out_barrier(su_barrier), .out_halt(su_halt),
            .out_round(su_round), .out_sender(su_sender), .out_payload(su_payload), .out_degree(su_degree),
            .out_neighbor(su_neighbor), .out_local(su_local), .out_edge(su_edge), .passed(passed), .marker_last(marker_last),
            .mem_req_valid(mem_req_valid), .mem_req_ready(mem_req_ready), .mem_req_addr(mem_req_addr),
            .mem_resp_valid(mem_resp_valid), .mem_resp_ready(mem_resp_ready), .mem_resp_data(mem_resp_data),
            .tw_index(tw_index), .tw_index_addr(tw_addr[VID-1:0]), .tw_index_data(tw_data[IXW-1:0]),
            .tw_id(tw_edges), .tw_id_addr(tw_addr[LA-1:0]), .tw_id_data(tw_data[EGW-1:0])
        );
    end else begin : bram
        gravf_scatter_bram #(
            .NPE(NPE), .VID(VID), .UPW(UPW), .LA(LA), .ED(ED), .NVERTICES(NVERTICES), .NEDGES(NEDGES),
            .EA(EA), .DW(DW), .INDEX_FILE(INDEX_FILE), .EDGE_FILE(EDGE_FILE)
        ) scatter (
            .clk(clk), .rst(rst),
            .in_valid(inf_valid), .in_ready(inf_ready), .in_barrier(inf_barrier), .in_halt(inf_halt),
            .in_round(inf_round), .in_sender(inf_sender), .in_payload(inf_payload),
            .out_room(kin_room), .out_valid(su_valid), .out_barrier(su_barrier), .out_halt(su_halt),
            .out_round(su_round), .out_sender(su_sender), .out_payload(su_payload), .out_degree(su_degree),
            .out_neighbor(su_neighbor), .out_local(su_local), .out_edge(su_edge), .passed(passed), .marker_last(marker_last),
            .tw_index(tw_index), .tw_index_addr(tw_addr[VID-1:0]), .tw_index_data(tw_data[IXW-1:0]),
            .tw_edge(tw_edges), .tw_edge_addr(tw_addr[EA-1:0]), .tw_edge_data(tw_data[EGW-1:0])
        );
        // No edge memory.
        assign mem_req_valid  = 1'b0;
        assign mem_req_addr   = {MA{1'b0}};
        assign mem_resp_ready = 1'b0;
        /* verilator lint_off UNUSEDSIGNAL */ // block-RAM edges: the edge memory port is unused
        wire unused_mem = &{1'b0, mem_req_ready, mem_resp_valid, mem_resp_data};
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

// --------------------------------------------------------- kernel-input FIFO
// entry: barrier, halt, round, sender, payload, degree, neighbour (global), local, edge data
localparam KW = 1 + 1 + 2 + VID + UPW + DW + VID + LA + EDW;
wire [KW-1:0]   kin_q;
wire            kin_valid;
wire            kin_ready;
/* verilator lint_off UNUSEDSIGNAL */ // never low: kin_room keeps space for what is in flight
wire            kin_in_ready;
/* verilator lint_on UNUSEDSIGNAL */
gravf_fifo #(.WIDTH(KW), .DEPTH(KIN_DEPTH)) kernel_input_fifo (
    .clk(clk), .rst(rst),
    .in_data({su_barrier, su_halt, su_round, su_sender, su_payload, su_degree, su_neighbor, su_local, su_edge}),
    .in_valid(su_valid), .in_ready(kin_in_ready),
    .out_data(kin_q), .out_valid(kin_valid), .out_ready(kin_ready), .count(kin_count)
);
wire            k_barrier  = kin_q[KW-1];
wire            k_halt     = kin_q[KW-2];
wire [1:0]      k_round    = kin_q[KW-3 -: 2];
wire [VID-1:0]  k_sender   = kin_q[KW-5 -: VID];
wire [UPW-1:0]  k_payload  = kin_q[KW-5-VID -: UPW];
wire [DW-1:0]   k_degree   = kin_q[KW-5-VID-UPW -: DW];
wire [VID-1:0]  k_neighbor = kin_q[LA+EDW+VID-1 -: VID];
wire [LA-1:0]   k_local    = kin_q[LA+EDW-1 -: LA];
wire [EDW-1:0]  k_edge     = kin_q[EDW-1:0];

// ------------------------------------------------------------ scatter kernel
reg  [SSW-1:0]  superstep;
wire            sk_ready, sk_valid, msg_ready;
wire [MPW-1:0]  sk_msg;
wire [VID-1:0]  sk_neighbor, sk_sender;
/* verilator lint_off UNUSEDSIGNAL */ // gather takes a superstep's messages in order, behind its barrier
wire [1:0]      sk_round;
/* verilator lint_on UNUSEDSIGNAL */
wire            sk_barrier;
assign kin_ready = sk_ready;

gravf_scatter_kernel #(.VID(VID), .UPW(UPW), .MPW(MPW), .EDW(EDW)) scatter_kernel (
    .clk(clk), .rst(rst),
    // The receiving superstep of the entry's round (the scatter runs ahead
    // of the PE's own superstep by at most one channel).
    .level_in(superstep + {{(SSW-2){1'b0}}, k_round - superstep[1:0]} + 1'b1),
    .update_in(k_payload), .sender_in(k_sender), .round_in(k_round), .barrier_in(k_barrier),
    .neighbor_in(k_neighbor), .num_neighbors_in(k_degree), .edge_in(k_edge),
    .valid_in(kin_valid), .message_ack(msg_ready),
    .message_out(sk_msg), .neighbor_out(sk_neighbor), .sender_out(sk_sender), .round_out(sk_round),
    .barrier_out(sk_barrier), .valid_out(sk_valid), .ready(sk_ready)
);

// The local index and the halt bit ride beside the kernel, in order.
wire [LA:0] side_q, side_now;
wire        side_valid;
/* verilator lint_off UNUSEDSIGNAL */ // the side FIFO moves in step with the scatter kernel
wire        side_in_ready;
wire [$clog2(SCATTER_SIDE):0] side_count;
/* verilator lint_on UNUSEDSIGNAL */
wire        side_pass = sk_valid && msg_ready && !side_valid; // a kernel of latency 0: the entry passes now
gravf_fifo #(.WIDTH(LA + 1), .DEPTH(SCATTER_SIDE)) side_fifo (
    .clk(clk), .rst(rst),
    .in_data({k_halt, k_local}), .in_valid(kin_valid && sk_ready && !side_pass), .in_ready(side_in_ready),
    .out_data(side_q), .out_valid(side_valid), .out_ready(sk_valid && msg_ready), .count(side_count)
);
assign side_now = side_valid ? side_q : {k_halt, k_local};

// -------------------------------------------------------------- message FIFO
// entry: barrier, halt, destination (global), sender, local index, message payload
localparam MW = 2 + 2 * VID + LA + MPW;
wire [MW-1:0] mq;
wire          mq_valid;
reg           mq_ready;
/* verilator lint_off UNUSEDSIGNAL */ // the fill count is for the testbench's watchdog report
wire [$clog2(MSG_DEPTH):0] mq_count;
/* verilator lint_on UNUSEDSIGNAL */
gravf_fifo #(.WIDTH(MW), .DEPTH(MSG_DEPTH)) message_fifo (
    .clk(clk), .rst(rst),
    .in_data({sk_barrier, side_now[LA], sk_neighbor, sk_sender, side_now[LA-1:0], sk_msg}),
    .in_valid(sk_valid), .in_ready(msg_ready),
    .out_data(mq), .out_valid(mq_valid), .out_ready(mq_ready), .count(mq_count)
);
wire            m_barrier = mq[MW-1];
wire            m_halt    = mq[MW-2];
wire [VID-1:0]  m_dst     = mq[MW-3 -: VID];
wire [VID-1:0]  m_sender  = mq[MW-3-VID -: VID];
wire [LA-1:0]   m_local   = mq[MW-3-2*VID -: LA];
wire [MPW-1:0]  m_payload = mq[MPW-1:0];

// ------------------------------------------------------ vertex state and info
reg             st_rd;
reg  [LA-1:0]   st_rd_addr;
wire [STW-1:0]  st_q;
wire            st_wr;
wire [LA-1:0]   st_wr_addr;
wire [STW-1:0]  st_wr_data;
// The table port writes the initial states while rst is high, when the
// gather and apply units write nothing.
gravf_ram #(.WIDTH(STW), .DEPTH(NLOCAL), .ABITS(LA), .INIT(STATE_FILE)) state_ram (
    .clk(clk), .rd_en(st_rd), .rd_addr(st_rd_addr), .rd_data(st_q),
    .wr_en(st_wr || tw_state), .wr_addr(tw_state ? tw_addr[LA-1:0] : st_wr_addr),
    .wr_data(tw_state ? tw_data[STW-1:0] : st_wr_data)
);
assign rb_data = st_q;
// Write-first forwarding: a read that meets a write to the same address
// returns the new word, so a vertex may be read again the cycle its
// write-back happens.
reg             fwd;
reg  [STW-1:0]  fwd_data;
always @(posedge clk) begin
    fwd      <= st_rd && st_wr && st_rd_addr == st_wr_addr;
    fwd_data <= st_wr_data;
end
wire [STW-1:0]  state_now = fwd ? fwd_data : st_q;

reg             vi_rd;
wire [VW-1:0]   vi_q;
gravf_ram #(.WIDTH(VW), .DEPTH(NLOCAL), .ABITS(LA), .INIT(VERTEX_FILE)) vertex_ram (
    .clk(clk), .rd_en(vi_rd), .rd_addr(st_rd_addr), .rd_data(vi_q),
    .wr_en(tw_vertex), .wr_addr(tw_addr[LA-1:0]), .wr_data(tw_data[VW-1:0])
);

// ------------------------------------------------------- gather and apply
localparam M_APPLY = 2'd0, M_DRAIN = 2'd1, M_GATHER = 2'd2, M_DONE = 2'd3;
reg  [1:0]      mode;
reg  [1:0]      round;
reg  [LA:0]     apply_idx;
reg  [CW-1:0]   sent;                // updates sent in this superstep
reg             ga_issue, ap_issue, ap_barrier;
reg  [VID-1:0]  ga_dst, ga_sender;
reg  [MPW-1:0]  ga_payload;
reg  [LA-1:0]   ga_local;
reg  [LA-1:0]   ap_local;

wire            gk_valid;
wire [LA-1:0]   wb_local;
wire            hazard, in_flight;
// Globals (see the globals section below).
wire [GWB-1:0] glob_value;     // what apply reads this superstep
wire           glob_ready;
wire           marker_push;
wire [UPW-1:0] marker_payload;
gravf_hazard #(.EXACT(EXACT_HAZARD), .GL(GATHER_LATENCY), .LA(LA), .NLOCAL(NLOCAL), .SLOTS(HAZARD_SLOTS)) hazard_detector (
    .clk(clk), .rst(rst),
    .head_local(m_local), .read(mq_valid && mq_ready && !m_barrier),
    .wb(gk_valid), .wb_local(wb_local),
    .hazard(hazard), .in_flight(in_flight)
);

always @* begin
    mq_ready   = 1'b0;
    st_rd      = 1'b0;
    vi_rd      = 1'b0;
    st_rd_addr = m_local;
    if (mode == M_GATHER && mq_valid) begin
        if (m_barrier) mq_ready = !in_flight && (GW == 0 || m_halt || glob_ready);
        else if (!hazard) begin
            mq_ready = 1'b1;
            st_rd    = 1'b1;
        end
    end else if (mode == M_APPLY && apply_idx < LOCALS) begin
        st_rd      = 1'b1;
        vi_rd      = 1'b1;
        st_rd_addr = apply_idx[LA-1:0];
    end else if (LOAD == 1 && mode == M_DONE && rb_valid) begin
        st_rd      = 1'b1; // the table port reads a final state
        st_rd_addr = rb_addr;
    end
end

// Gather kernel: its write-back is always taken, so its latency is fixed.
// The local index rides beside it in a FIFO.
wire [STW-1:0] gk_state;
/* verilator lint_off UNUSEDSIGNAL */ // the PE knows the address; the write-back is always taken
wire [VID-1:0] gk_node;
wire           gk_ready;
/* verilator lint_on UNUSEDSIGNAL */
wire [LA-1:0]  gs_out;
/* verilator lint_off UNUSEDSIGNAL */ // the side FIFO moves in step with the kernel
wire           gs_valid, gs_ready;
wire [$clog2(GATHER_SIDE):0] gs_count;
/* verilator lint_on UNUSEDSIGNAL */
gravf_fifo #(.WIDTH(LA), .DEPTH(GATHER_SIDE)) gather_side (
    .clk(clk), .rst(rst),
    .in_data(ga_local), .in_valid(ga_issue && !(gk_valid && !gs_valid)), .in_ready(gs_ready),
    .out_data(gs_out), .out_valid(gs_valid), .out_ready(gk_valid), .count(gs_count)
);
// A kernel that answers in the cycle it is asked (latency 0) finds its
// side entry not yet in the FIFO: take it from the FIFO's input.
assign wb_local = gs_valid ? gs_out : ga_local;
// Bypass (exact detector): a message that enters the kernel in the cycle
// an earlier one for the same vertex writes back takes the written word.
wire [STW-1:0] gather_in = (EXACT_HAZARD == 1 && gk_valid && wb_local == ga_local) ? gk_state : state_now;
gravf_gather_kernel #(.VID(VID), .MPW(MPW), .STW(STW)) gather_kernel (
    .clk(clk), .rst(rst),
    .level_in(superstep + 1'b1),
    .nodeid_in(ga_dst), .sender_in(ga_sender), .message_in(ga_payload), .state_in(gather_in),
    .valid_in(ga_issue), .state_ack(1'b1),
    .nodeid_out(gk_node), .state_out(gk_state), .state_valid(gk_valid), .ready(gk_ready)
);

// Apply kernel: the update queue never fills (one update per vertex at
// most), so its latency is fixed too.
wire [STW-1:0] ak_state;
wire [UPW-1:0] ak_upd;
wire [GWB-1:0] ak_glob;        // the vertex's contribution to the globals
wire           ak_state_valid, ak_update_valid, ak_barrier;
/* verilator lint_off UNUSEDSIGNAL */ // the PE knows the address and the round; apply's output is always taken
wire [VID-1:0] ak_node;
wire           ak_state_barrier, ak_ready;
wire [1:0]     ak_round;
/* verilator lint_on UNUSEDSIGNAL */
wire [VID-1:0] ak_sender;
gravf_apply_kernel #(.VID(VID), .UPW(UPW), .STW(STW), .GLW(GWB)) apply_kernel (
    .clk(clk), .rst(rst),
    .level_in(superstep),
    .nodeid_in(vi_q[VW-LW-1 -: VID]), .degree_in(vi_q[DW-1:0]), .state_in(state_now), .global_in(glob_value),
    .round_in(round), .barrier_in(ap_barrier), .valid_in(ap_issue), .update_ack(1'b1),
    .nodeid_out(ak_node), .state_out(ak_state), .state_barrier(ak_state_barrier), .state_valid(ak_state_valid),
    .update_out(ak_upd), .global_out(ak_glob), .update_sender(ak_sender), .update_round(ak_round), .barrier_out(ak_barrier),
    .update_valid(ak_update_valid), .ready(ak_ready)
);

// The local index and the filter mask ride beside the apply kernel in a
// FIFO, so it may take any number of cycles.
wire [LW+LA-1:0] as_out, ap_side;
/* verilator lint_off UNUSEDSIGNAL */ // the side FIFO moves in step with the kernel
wire          as_valid, as_ready;
wire [$clog2(APPLY_SIDE):0] as_count;
/* verilator lint_on UNUSEDSIGNAL */
gravf_fifo #(.WIDTH(LW + LA), .DEPTH(APPLY_SIDE)) apply_side (
    .clk(clk), .rst(rst),
    .in_data({vi_q[VW-1 -: LW], ap_local}), .in_valid(ap_issue && !(ak_state_valid && !as_valid)), .in_ready(as_ready),
    .out_data(as_out), .out_valid(as_valid), .out_ready(ak_state_valid), .count(as_count)
);
// An apply kernel of latency 0 finds its side entry at the FIFO's input.
assign ap_side = as_valid ? as_out : {vi_q[VW-1 -: LW], ap_local};

assign st_wr      = gk_valid || (ak_state_valid && !ak_barrier);
assign st_wr_addr = gk_valid ? wb_local : ap_side[LA-1:0];
assign st_wr_data = gk_valid ? gk_state : ak_state;

// ---------------------------------------------------------------- globals
// With globals the PE's barrier marker carries its partial and enters the
// update queue once the partial is folded (marker_push), not with apply's
// barrier output; gather takes a superstep's barrier once the fold of
// every PE's partial is ready.
generate
    if (GW > 0) begin : globals
        if (UPW < GW) begin : check_payload
            gravf_pe_the_globals_must_fit_the_update_payload error ();
        end
        wire          gather_end = mode == M_GATHER && mq_valid && mq_ready && m_barrier;
        wire [GW-1:0] partial, la, lb, ly, ga, gb, gy;
        wire          lv, lyv, gv, gyv;
        gravf_globals #(.GW(GW), .CL(GCL), .NPE(NPE), .IDENTITY(GLOBAL_IDENTITY)) unit (
            .clk(clk), .rst(rst),
            .contrib(ak_state_valid && !ak_barrier), .contrib_data(ak_glob), .sweep_end(ak_update_valid && ak_barrier),
            .marker_push(marker_push), .partial(partial),
            .marker_take(inf_valid && inf_ready && inf_barrier), .marker_parity(inf_round[0]),
            .marker_pe(inf_sender[((NPE > 1) ? $clog2(NPE) : 1)-1:0]), .marker_data(inf_payload[GW-1:0]),
            .marker_last(marker_last),
            .ready(glob_ready), .gather_end(gather_end), .advance(gather_end && !m_halt), .value(glob_value),
            .local_a(la), .local_b(lb), .local_valid(lv), .local_y(ly), .local_y_valid(lyv),
            .global_a(ga), .global_b(gb), .global_valid(gv), .global_y(gy), .global_y_valid(gyv)
        );
        gravf_combine_kernel #(.GLW(GW)) local_combine (
            .clk(clk), .rst(rst), .a(la), .b(lb), .valid_in(lv), .y(ly), .valid_out(lyv)
        );
        gravf_combine_kernel #(.GLW(GW)) global_combine (
            .clk(clk), .rst(rst), .a(ga), .b(gb), .valid_in(gv), .y(gy), .valid_out(gyv)
        );
        if (UPW > GW) begin : pad
            assign marker_payload = {{(UPW-GW){1'b0}}, partial};
        end else begin : fit
            assign marker_payload = partial;
        end
    end else begin : no_globals
        assign glob_value     = {GWB{1'b0}};
        assign glob_ready     = 1'b1;
        assign marker_push    = 1'b0;
        assign marker_payload = {UPW{1'b0}};
        /* verilator lint_off UNUSEDSIGNAL */ // no globals: apply contributes nothing, the markers carry no partial
        wire unused_globals = &{1'b0, ak_glob, marker_last};
        /* verilator lint_on UNUSEDSIGNAL */
    end
endgenerate

// Update queue: one entry per local vertex at most, plus the barrier.
// Without globals the marker enters with apply's barrier output, with
// globals once the PE's partial is folded.
localparam QD = NLOCAL + QUEUE_EXTRA;
wire uq_push = GW > 0 ? (ak_update_valid && !ak_barrier) || marker_push : ak_update_valid;
wire uq_marker = GW > 0 ? marker_push : ak_barrier;
wire [UW-1:0] uq_in = uq_marker
    ? {1'b1, sent == 0, round, {LW{1'b1}}, PE_ID[VID-1:0], marker_payload}
    : {1'b0, 1'b0, round, ap_side[LW+LA-1 -: LW], ak_sender, ak_upd};
/* verilator lint_off UNUSEDSIGNAL */ // never low: the queue holds one update per local vertex; the count is for the watchdog report
wire uq_in_ready;
wire [$clog2(QD):0] uq_count;
/* verilator lint_on UNUSEDSIGNAL */
gravf_fifo #(.WIDTH(UW), .DEPTH(QD)) update_queue (
    .clk(clk), .rst(rst),
    .in_data(uq_in), .in_valid(uq_push), .in_ready(uq_in_ready),
    .out_data(out_data), .out_valid(out_valid), .out_ready(out_ready), .count(uq_count)
);

always @(posedge clk) begin
    ga_issue   <= 1'b0;
    ap_issue   <= 1'b0;
    ap_barrier <= 1'b0;
    if (rst) begin
        mode      <= M_APPLY;
        round     <= 2'd0;
        superstep <= {SSW{1'b0}};
        apply_idx <= 0;
        sent      <= {CW{1'b0}};
        done      <= 1'b0;
        messages  <= {CW{1'b0}};
    end else begin
        case (mode)
        M_APPLY: begin
            if (apply_idx < LOCALS) begin
                ap_issue  <= 1'b1;
                ap_local  <= apply_idx[LA-1:0];
                apply_idx <= apply_idx + 1'b1;
            end else begin
                // The barrier marker follows the last vertex through apply.
                ap_issue   <= 1'b1;
                ap_barrier <= 1'b1;
                mode       <= M_DRAIN;
            end
        end
        M_DRAIN: begin
            if (ak_update_valid && ak_barrier) mode <= M_GATHER;
        end
        M_GATHER: begin
            if (mq_ready && mq_valid) begin
                if (m_barrier) begin
                    if (m_halt) begin
                        mode <= M_DONE;
                        done <= 1'b1;
                    end else begin
                        mode      <= M_APPLY;
                        round     <= round + 2'd1;
                        superstep <= superstep + 1'b1;
                        apply_idx <= 0;
                        sent      <= {CW{1'b0}};
                    end
                end else begin
                    ga_issue    <= 1'b1;
                    ga_dst      <= m_dst;
                    ga_sender   <= m_sender;
                    ga_payload  <= m_payload;
                    ga_local    <= m_local;
                    messages    <= messages + 1'b1;
                end
            end
        end
        default: ;
        endcase
        if (ak_update_valid && !ak_barrier) sent <= sent + 1'b1;
    end
end

endmodule

`default_nettype wire
