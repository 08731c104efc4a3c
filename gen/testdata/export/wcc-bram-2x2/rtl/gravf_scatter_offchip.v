// gravf_scatter_offchip: a PE's scatter unit with its edge lists in
// off-chip memory, and the PE's barrier counter.
//
// It takes updates and barrier markers from the PE's input FIFO (in_*,
// valid/ready) and writes one entry per edge, and the channel's last
// barrier marker, to the kernel-input FIFO (out_valid, no ready: the unit
// writes only while out_room says the FIFO has space for what is in
// flight).
//
// Edge memory port: a read interface with valid/ready handshakes on both
// sides. A request (mem_req_valid, mem_req_ready) carries the address of
// one memory word; responses (mem_resp_valid, mem_resp_ready,
// mem_resp_data) return the words in request order. The unit makes at most
// one request per cycle and has at most INFLIGHT outstanding; it may make a
// request in the cycle it takes a response, and mem_req_valid does not
// depend on mem_req_ready. mem_resp_ready is low while the unit is still
// handing on the edges of an earlier word. Edge lists start on a word
// boundary and fill WORD/SLOT slots per word, the first edge in the least
// significant slot; a slot holds the neighbour's local index (LA bits)
// above the edge data (ED bits, none when ED = 0).
//
// The unit takes an update in one cycle (reading its edge-index entry:
// the list's first word, its length in edges and the sender's out-degree).
// From the next cycle it requests the list's words, one per cycle, while
// fewer than INFLIGHT requests are outstanding, and it takes the next
// update in the cycle its last request is accepted (in the cycle after the
// lookup when the list is empty). Every request, and every barrier marker
// that completes a channel, leaves an entry in the order FIFO: responses
// come back in order, so each finds its update there, and a barrier stays
// behind the edges before it. The unpacker hands on one edge per cycle,
// the first in the cycle its word arrives, into a lookup stage that reads
// the neighbour's global id from the id table (ID_FILE: the global id of
// every local index). Reset is synchronous.
`default_nettype none

module gravf_scatter_offchip #(
    parameter NPE         = 1,    // PEs in the system: barrier markers per channel
    parameter VID         = 8,    // bits of a global vertex id
    parameter UPW         = 1,    // bits of the update payload bus
    parameter LA          = 1,    // bits of a local index
    parameter ED          = 0,    // bits of the edge data (0: none)
    parameter NVERTICES   = 2,    // vertices of the graph: edge-index entries
    parameter NLOCAL      = 1,    // vertices of this PE: id-table entries
    parameter EA          = 8,    // bits of a list length (edges); holds WORD/SLOT
    parameter MA          = 1,    // bits of a memory word address
    parameter WORD        = 128,  // bits of a memory word
    parameter SLOT        = 8,    // bits of an edge slot in a word
    parameter INFLIGHT    = 64,   // memory requests outstanding at most
    parameter ORDER_EXTRA = 2,    // order-FIFO entries beyond INFLIGHT (a barrier, and slack)
    parameter DW          = 32,   // bits of an out-degree
    parameter INDEX_FILE  = "",   // $readmemh images
    parameter ID_FILE     = "",
    parameter EDW         = (ED > 0) ? ED : 1 // bits of the edge data bus
) (
    input  wire            clk,
    input  wire            rst,
    // From the input FIFO.
    input  wire            in_valid,
    output wire            in_ready,
    input  wire            in_barrier,
    input  wire            in_halt,
    input  wire [1:0]      in_round,
    input  wire [VID-1:0]  in_sender,
    input  wire [UPW-1:0]  in_payload,
    // To the kernel-input FIFO: an edge of an update, or a barrier marker.
    input  wire            out_room,     // the FIFO takes what is in flight and one more
    output wire            out_valid,
    output wire            out_barrier,
    output wire            out_halt,
    output wire [1:0]      out_round,
    output wire [VID-1:0]  out_sender,
    output wire [UPW-1:0]  out_payload,
    output wire [DW-1:0]   out_degree,   // the sender's out-degree
    output wire [VID-1:0]  out_neighbor, // the edge's destination: global id ...
    output wire [LA-1:0]   out_local,    // ... and local index on this PE
    output wire [EDW-1:0]  out_edge,     // the edge data
    output wire            passed,       // pulse: every barrier marker of a channel counted
    output wire            marker_last,  // the channel's last barrier marker is taken this cycle
    // Edge memory port.
    output wire            mem_req_valid,
    input  wire            mem_req_ready,
    output wire [MA-1:0]   mem_req_addr,     // word address
    input  wire            mem_resp_valid,
    output wire            mem_resp_ready,
    input  wire [WORD-1:0] mem_resp_data,
    // Table writes, while rst is high (gravf_pe with LOAD = 1; else low):
    // an edge-index entry and an id-table entry, each word as its RAM
    // holds it.
    input  wire                  tw_index,
    input  wire [VID-1:0]        tw_index_addr,
    input  wire [MA+EA+DW-1:0]   tw_index_data,
    input  wire                  tw_id,
    input  wire [LA-1:0]         tw_id_addr,
    input  wire [VID-1:0]        tw_id_data
);

localparam integer EPW = WORD / SLOT;  // edges per word
localparam integer SW  = LA + ED;      // the bits of a slot in use

generate
    if (SLOT < 1 || EPW < 1 || WORD % SLOT != 0) begin : check_slot
        gravf_scatter_offchip_WORD_must_be_a_multiple_of_SLOT error ();
    end
    if (SW > SLOT) begin : check_fit
        gravf_scatter_offchip_local_index_and_edge_data_must_fit_a_SLOT error ();
    end
    if (INFLIGHT < 1) begin : check_inflight
        gravf_scatter_offchip_INFLIGHT_must_be_at_least_1 error ();
    end
    if ((1 << EA) <= EPW) begin : check_ea
        gravf_scatter_offchip_EA_must_hold_WORD_over_SLOT error ();
    end
endgenerate

localparam IW = MA + EA + DW;                               // edge-index word: first word, length, degree
localparam integer CB     = (EPW > 1) ? $clog2(EPW) : 1;    // bits of (edges in a word - 1)
localparam integer EPW_M1 = EPW - 1;
localparam [EA-1:0] EPW_E = EPW[EA-1:0];
localparam [CB-1:0] FULL_WORD = EPW_M1[CB-1:0];
localparam integer IFB    = $clog2(INFLIGHT + 1);
localparam [IFB-1:0] MAX_INFLIGHT = INFLIGHT[IFB-1:0];
localparam OW = 4 + VID + UPW + DW + CB;                     // order entry: barrier, halt, round, sender, payload, degree, edges - 1
localparam OD = INFLIGHT + ORDER_EXTRA;

// ------------------------------------------------------------ edge index
wire            idx_rd;
wire [IW-1:0]   idx_q;
gravf_ram #(.WIDTH(IW), .DEPTH(NVERTICES), .ABITS(VID), .INIT(INDEX_FILE)) index_ram (
    .clk(clk), .rd_en(idx_rd), .rd_addr(in_sender), .rd_data(idx_q),
    .wr_en(tw_index), .wr_addr(tw_index_addr), .wr_data(tw_index_data)
);
wire [MA-1:0]   idx_start  = idx_q[IW-1 -: MA];
wire [EA-1:0]   idx_len    = idx_q[IW-MA-1 -: EA];
wire [DW-1:0]   idx_degree = idx_q[DW-1:0];

// ---------------------------------------------------------- barrier counter
wire bc_take = in_valid && in_ready && in_barrier;
wire bc_complete, bc_halt;
gravf_barrier_counter #(.NPE(NPE)) barrier_counter (
    .clk(clk), .rst(rst),
    .in_valid(in_valid), .in_barrier(in_barrier), .in_halt(in_halt), .take(bc_take),
    .complete(bc_complete), .halt(bc_halt), .passed(passed)
);
assign marker_last = bc_take && bc_complete;

// ------------------------------------------------------------ word requests
reg             sc_lookup;       // the index entry of the taken update arrives this cycle
reg             rq_active;       // more words of the current list to request
reg  [MA-1:0]   rq_addr;         // its next word
reg  [EA-1:0]   rq_left;         // its edges not yet requested
reg  [VID-1:0]  sc_sender;
reg  [UPW-1:0]  sc_payload;
reg  [1:0]      sc_round;
reg  [DW-1:0]   sc_degree;
reg  [IFB-1:0]  inflight;        // words requested and not yet taken

// This cycle's request: from the index entry in the lookup cycle, else
// from the registers.
wire            rq_valid    = sc_lookup ? idx_len != 0 : rq_active;
wire [MA-1:0]   rq_word     = sc_lookup ? idx_start : rq_addr;
wire [EA-1:0]   rq_edges    = sc_lookup ? idx_len : rq_left;
wire [DW-1:0]   rq_degree   = sc_lookup ? idx_degree : sc_degree;
wire            rq_last     = rq_edges <= EPW_E;
wire [CB-1:0]   rq_count    = rq_last ? rq_edges[CB-1:0] - 1'b1 : FULL_WORD; // edges in the word - 1

wire [OW-1:0]   ot_q;
wire            ot_valid;
wire            ot_in_ready;
wire            ot_pop;
wire            word_take;       // a response is taken this cycle
/* verilator lint_off UNUSEDSIGNAL */ // the fill count is for the testbench's watchdog report
wire [$clog2(OD):0] ot_count;
/* verilator lint_on UNUSEDSIGNAL */

assign mem_req_valid = rq_valid && (inflight < MAX_INFLIGHT || word_take) && ot_in_ready;
assign mem_req_addr  = rq_word;
wire rq_fire = mem_req_valid && mem_req_ready;
// Free for the next input when nothing (more) is to be requested.
wire sc_free = !rq_valid || (rq_fire && rq_last);
// A barrier waits until the requests before it are made, so that it and
// a request never enter the order FIFO in the same cycle.
assign in_ready = in_barrier ? !rq_valid && (!bc_complete || ot_in_ready) : sc_free;
wire take_update = in_valid && in_ready && !in_barrier;
wire bar_push    = in_valid && in_ready && bc_complete;
assign idx_rd = take_update;

gravf_fifo #(.WIDTH(OW), .DEPTH(OD)) order_fifo (
    .clk(clk), .rst(rst),
    .in_data(bar_push ? {1'b1, bc_halt, in_round, {(OW-4){1'b0}}}
                      : {2'b00, sc_round, sc_sender, sc_payload, rq_degree, rq_count}),
    .in_valid(rq_fire || bar_push), .in_ready(ot_in_ready),
    .out_data(ot_q), .out_valid(ot_valid), .out_ready(ot_pop), .count(ot_count)
);
wire            ot_barrier  = ot_q[OW-1];
wire            ot_halt     = ot_q[OW-2];
wire [1:0]      ot_round    = ot_q[OW-3 -: 2];
wire [VID-1:0]  ot_sender   = ot_q[OW-5 -: VID];
wire [UPW-1:0]  ot_payload  = ot_q[OW-5-VID -: UPW];
wire [DW-1:0]   ot_degree   = ot_q[CB+DW-1 -: DW];
wire [CB-1:0]   ot_count_m1 = ot_q[CB-1:0];

always @(posedge clk) begin
    if (rst) begin
        sc_lookup <= 1'b0;
        rq_active <= 1'b0;
        inflight  <= {IFB{1'b0}};
    end else begin
        sc_lookup <= take_update;
        if (sc_lookup) sc_degree <= idx_degree;
        if (rq_fire) begin
            rq_active <= !rq_last;
            rq_addr   <= rq_word + 1'b1;
            rq_left   <= rq_edges - EPW_E;
        end else if (sc_lookup) begin
            rq_active <= idx_len != 0;
            rq_addr   <= idx_start;
            rq_left   <= idx_len;
        end
        if (rq_fire && !word_take) inflight <= inflight + 1'b1;
        else if (word_take && !rq_fire) inflight <= inflight - 1'b1;
        if (take_update) begin
            sc_sender  <= in_sender;
            sc_payload <= in_payload;
            sc_round   <= in_round;
        end
    end
end

// -------------------------------------------------------------- unpacking
// The unpacker hands on one edge per cycle while the kernel-input FIFO
// has room. It takes a response when it is idle, handing the word's first
// edge on in the same cycle, or when it hands on its word's last edge (the
// next word's edges follow without a gap). A barrier marker at the head of
// the order FIFO is handed on once the unpacker is idle.
reg             up_active;
reg  [WORD-1:0] up_word;         // the word's remaining slots, the next in the low bits
reg  [CB-1:0]   up_left;         // edges left after the next one
reg  [1:0]      up_round;
reg  [VID-1:0]  up_sender;
reg  [UPW-1:0]  up_payload;
reg  [DW-1:0]   up_degree;

assign mem_resp_ready = ot_valid && !ot_barrier && (!up_active || (out_room && up_left == 0));
assign word_take = mem_resp_valid && mem_resp_ready;
wire bar_take    = ot_valid && ot_barrier && !up_active && out_room;
assign ot_pop    = word_take || bar_take;

// This cycle's edge: the first of a response taken now when the unpacker
// is idle, else the next of its word.
wire            up_emit    = (up_active || word_take) && out_room;
wire [SW-1:0]   ed_slot    = up_active ? up_word[SW-1:0] : mem_resp_data[SW-1:0];
wire [1:0]      ed_round   = up_active ? up_round : ot_round;
wire [VID-1:0]  ed_sender  = up_active ? up_sender : ot_sender;
wire [UPW-1:0]  ed_payload = up_active ? up_payload : ot_payload;
wire [DW-1:0]   ed_degree  = up_active ? up_degree : ot_degree;
wire [LA-1:0]   ed_local   = ed_slot[SW-1 -: LA];
wire [EDW-1:0]  ed_data;
generate
    if (ED > 0) begin : with_data
        assign ed_data = ed_slot[ED-1:0];
    end else begin : no_data
        assign ed_data = 1'b0;
    end
endgenerate

always @(posedge clk) begin
    if (rst) begin
        up_active <= 1'b0;
    end else if (word_take) begin
        up_round   <= ot_round;
        up_sender  <= ot_sender;
        up_payload <= ot_payload;
        up_degree  <= ot_degree;
        if (!up_active && out_room) begin
            // The first edge is handed on now.
            up_active <= ot_count_m1 != 0;
            up_word   <= mem_resp_data >> SLOT;
            up_left   <= ot_count_m1 - 1'b1;
        end else begin
            up_active <= 1'b1;
            up_word   <= mem_resp_data;
            up_left   <= ot_count_m1;
        end
    end else if (up_emit) begin
        up_word <= up_word >> SLOT;
        up_left <= up_left - 1'b1;
        if (up_left == 0) up_active <= 1'b0;
    end
end

// ------------------------------------------- lookup stage: the global id
wire [VID-1:0]  id_q;
gravf_ram #(.WIDTH(VID), .DEPTH(NLOCAL), .ABITS(LA), .INIT(ID_FILE)) id_ram (
    .clk(clk), .rd_en(up_emit), .rd_addr(ed_local), .rd_data(id_q),
    .wr_en(tw_id), .wr_addr(tw_id_addr), .wr_data(tw_id_data)
);
reg             st_valid, st_barrier, st_halt;
reg  [1:0]      st_round;
reg  [VID-1:0]  st_sender;
reg  [UPW-1:0]  st_payload;
reg  [DW-1:0]   st_degree;
reg  [LA-1:0]   st_local;
reg  [EDW-1:0]  st_data;
always @(posedge clk) begin
    st_valid   <= !rst && (up_emit || bar_take);
    st_barrier <= bar_take;
    st_halt    <= ot_halt;
    st_round   <= ed_round;
    st_sender  <= ed_sender;
    st_payload <= ed_payload;
    st_degree  <= ed_degree;
    st_local   <= ed_local;
    st_data    <= ed_data;
end

// A barrier marker carries only its flags and round.
assign out_valid    = st_valid;
assign out_barrier  = st_barrier;
assign out_halt     = st_barrier && st_halt;
assign out_round    = st_round;
assign out_sender   = st_barrier ? {VID{1'b0}} : st_sender;
assign out_payload  = st_barrier ? {UPW{1'b0}} : st_payload;
assign out_degree   = st_barrier ? {DW{1'b0}} : st_degree;
assign out_neighbor = st_barrier ? {VID{1'b0}} : id_q;
assign out_local    = st_barrier ? {LA{1'b0}} : st_local;
assign out_edge     = st_barrier ? {EDW{1'b0}} : st_data;

endmodule

`default_nettype wire
