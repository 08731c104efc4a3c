// gravf_scatter_bram: a PE's scatter unit with its edge lists in block
// RAM, and the PE's barrier counter.
//
// It takes updates and barrier markers from the PE's input FIFO (in_*,
// valid/ready) and writes one entry per edge, and the channel's last
// barrier marker, to the kernel-input FIFO (out_valid, no ready: the unit
// writes only while out_room says the FIFO has space for what is in
// flight).
//
// Two stages. The lookup stage takes an update and reads its edge-index
// entry (the start and length of its local list and its out-degree), which
// stays on the index RAM's output until the stage hands the update on. The
// walker reads one edge per cycle: when it is idle it reads the looked-up
// list's first edge in the cycle the entry is there, and in the cycle it
// reads a list's last edge it takes the looked-up list and reads its first
// edge in the next cycle. The lookup stage takes the next update as soon
// as it has handed its own on (an empty list is dropped in the cycle its
// entry arrives), so lists follow each other without a gap: an update
// costs its list's length in cycles, an empty list none while a list is
// being walked. An edge word arrives one cycle after its read and goes out
// in that cycle.
//
// Barrier markers are counted as they arrive (gravf_barrier_counter); the
// last one of a channel goes out behind the edges, once both stages are
// idle, with the AND of the channel's halt bits. Reset is synchronous.
//
// Edge-index word (INDEX_FILE, NVERTICES entries): start[EA], length[EA],
// degree[DW]. Edge word (EDGE_FILE, NEDGES entries): the neighbour's global
// id[VID], its local index[LA], the edge data[ED] (none when ED = 0).
`default_nettype none

module gravf_scatter_bram #(
    parameter NPE        = 1,    // PEs in the system: barrier markers per channel
    parameter VID        = 8,    // bits of a global vertex id
    parameter UPW        = 1,    // bits of the update payload bus
    parameter LA         = 1,    // bits of a local index
    parameter ED         = 0,    // bits of the edge data (0: none)
    parameter NVERTICES  = 2,    // vertices of the graph: edge-index entries
    parameter NEDGES     = 1,    // edges stored on this PE (at least 1)
    parameter EA         = 1,    // bits of an edge address and of a list length
    parameter DW         = 32,   // bits of an out-degree
    parameter INDEX_FILE = "",   // $readmemh images
    parameter EDGE_FILE  = "",
    parameter EDW        = (ED > 0) ? ED : 1 // bits of the edge data bus
) (
    input  wire            clk,
    input  wire            rst,
    // From the input FIFO.
    input  wire            in_valid,
    output reg             in_ready,
    input  wire            in_barrier,
    input  wire            in_halt,
    input  wire [1:0]      in_round,
    input  wire [VID-1:0]  in_sender,
    input  wire [UPW-1:0]  in_payload,
    // To the kernel-input FIFO: an edge of an update, or a barrier marker.
    input  wire            out_room,     // the FIFO takes what is in flight and one more
    output reg             out_valid,
    output reg             out_barrier,
    output reg             out_halt,
    output reg  [1:0]      out_round,
    output reg  [VID-1:0]  out_sender,
    output reg  [UPW-1:0]  out_payload,
    output reg  [DW-1:0]   out_degree,   // the sender's out-degree
    output reg  [VID-1:0]  out_neighbor, // the edge's destination: global id ...
    output reg  [LA-1:0]   out_local,    // ... and local index on this PE
    output reg  [EDW-1:0]  out_edge,     // the edge data
    output wire            passed,       // pulse: every barrier marker of a channel counted
    output wire            marker_last,  // the channel's last barrier marker is taken this cycle
    // Table writes, while rst is high (gravf_pe with LOAD = 1; else low):
    // an edge-index entry and an edge, each word as its RAM holds it.
    input  wire                  tw_index,
    input  wire [VID-1:0]        tw_index_addr,
    input  wire [2*EA+DW-1:0]    tw_index_data,
    input  wire                  tw_edge,
    input  wire [EA-1:0]         tw_edge_addr,
    input  wire [VID+LA+ED-1:0]  tw_edge_data
);

generate
    if (EA < 1 || LA < 1 || VID < 1 || UPW < 1) begin : check_widths
        gravf_scatter_bram_widths_must_be_at_least_1 error ();
    end
    if (NEDGES < 1) begin : check_nedges
        gravf_scatter_bram_NEDGES_must_be_at_least_1 error ();
    end
endgenerate

localparam IW = 2 * EA + DW;       // edge-index word: start, length, degree
localparam EW = VID + LA + ED;     // edge word: global id, local index, data

// ------------------------------------------------------ edge index and edges
reg             idx_rd;
wire [IW-1:0]   idx_q;
gravf_ram #(.WIDTH(IW), .DEPTH(NVERTICES), .ABITS(VID), .INIT(INDEX_FILE)) index_ram (
    .clk(clk), .rd_en(idx_rd), .rd_addr(in_sender), .rd_data(idx_q),
    .wr_en(tw_index), .wr_addr(tw_index_addr), .wr_data(tw_index_data)
);
wire [EA-1:0]   idx_start  = idx_q[IW-1 -: EA];
wire [EA-1:0]   idx_len    = idx_q[IW-EA-1 -: EA];
wire [DW-1:0]   idx_degree = idx_q[DW-1:0];

reg             edge_rd;         // read an edge word this cycle
reg  [EA-1:0]   edge_rd_addr;
wire [EW-1:0]   edge_q;
gravf_ram #(.WIDTH(EW), .DEPTH(NEDGES), .ABITS(EA), .INIT(EDGE_FILE)) edge_ram (
    .clk(clk), .rd_en(edge_rd), .rd_addr(edge_rd_addr), .rd_data(edge_q),
    .wr_en(tw_edge), .wr_addr(tw_edge_addr), .wr_data(tw_edge_data)
);
wire [EDW-1:0]  edge_data;
generate
    if (ED > 0) begin : with_data
        assign edge_data = edge_q[ED-1:0];
    end else begin : no_data
        assign edge_data = 1'b0;
    end
endgenerate

// ---------------------------------------------------------- barrier counter
wire bc_take = in_valid && in_ready && in_barrier;
wire bc_complete, bc_halt;
gravf_barrier_counter #(.NPE(NPE)) barrier_counter (
    .clk(clk), .rst(rst),
    .in_valid(in_valid), .in_barrier(in_barrier), .in_halt(in_halt), .take(bc_take),
    .complete(bc_complete), .halt(bc_halt), .passed(passed)
);
assign marker_last = bc_take && bc_complete;

// ----------------------------------------------------- lookup stage, walker
reg             lk_valid;        // the lookup stage holds an update; its entry is on idx_q
reg  [VID-1:0]  lk_sender;
reg  [UPW-1:0]  lk_payload;
reg  [1:0]      lk_round;
reg             sc_walk;         // the walker reads a list
reg  [VID-1:0]  sc_sender;
reg  [UPW-1:0]  sc_payload;
reg  [1:0]      sc_round;
reg  [DW-1:0]   sc_degree;
reg  [EA-1:0]   sc_next;         // the next edge to read
reg  [EA-1:0]   sc_end;
reg             edge_pending;    // an edge word arrives this cycle ...
reg  [VID-1:0]  ep_sender;       // ... of this update
reg  [UPW-1:0]  ep_payload;
reg  [1:0]      ep_round;
reg  [DW-1:0]   ep_degree;

wire lk_list    = lk_valid && idx_len != 0;
wire walk_rd    = sc_walk && out_room;                    // the walker reads its next edge
wire walk_last  = walk_rd && sc_next + 1'b1 == sc_end;    // ... the list's last
wire start_rd   = !sc_walk && lk_list && out_room;        // an idle walker reads the looked-up list's first edge
wire hand_on    = start_rd || (walk_last && lk_list);     // the lookup stage hands its update to the walker
wire lk_free    = !lk_valid || !lk_list || hand_on;       // it holds nothing, drops an empty list or hands on
// The channel's last marker waits until both stages are idle.
wire bar_ready  = !bc_complete || (!lk_valid && !sc_walk && !edge_pending && out_room);

always @* begin
    edge_rd      = start_rd || walk_rd;
    edge_rd_addr = start_rd ? idx_start : sc_next;
    in_ready     = in_barrier ? bar_ready : lk_free;
    idx_rd       = in_valid && !in_barrier && lk_free;
end

// The output: an edge whose word arrives now, else the channel's last
// marker as it is taken.
always @* begin
    out_valid    = 1'b0;
    out_barrier  = 1'b1;
    out_halt     = bc_halt;
    out_round    = in_round;
    out_sender   = {VID{1'b0}};
    out_payload  = {UPW{1'b0}};
    out_degree   = {DW{1'b0}};
    out_neighbor = {VID{1'b0}};
    out_local    = {LA{1'b0}};
    out_edge     = {EDW{1'b0}};
    if (edge_pending) begin
        out_valid    = 1'b1;
        out_barrier  = 1'b0;
        out_halt     = 1'b0;
        out_round    = ep_round;
        out_sender   = ep_sender;
        out_payload  = ep_payload;
        out_degree   = ep_degree;
        out_neighbor = edge_q[EW-1 -: VID];
        out_local    = edge_q[EW-VID-1 -: LA];
        out_edge     = edge_data;
    end else if (in_valid && in_ready && bc_complete) begin
        out_valid = 1'b1;
    end
end

always @(posedge clk) begin
    if (rst) begin
        lk_valid     <= 1'b0;
        sc_walk      <= 1'b0;
        edge_pending <= 1'b0;
    end else begin
        edge_pending <= edge_rd;
        if (edge_rd) begin
            ep_sender  <= start_rd ? lk_sender : sc_sender;
            ep_payload <= start_rd ? lk_payload : sc_payload;
            ep_round   <= start_rd ? lk_round : sc_round;
            ep_degree  <= start_rd ? idx_degree : sc_degree;
        end
        // The walker.
        if (hand_on) begin
            sc_walk    <= !(start_rd && idx_len == 1);
            sc_next    <= start_rd ? idx_start + 1'b1 : idx_start;
            sc_end     <= idx_start + idx_len;
            sc_sender  <= lk_sender;
            sc_payload <= lk_payload;
            sc_round   <= lk_round;
            sc_degree  <= idx_degree;
        end else if (walk_rd) begin
            sc_next <= sc_next + 1'b1;
            if (walk_last) sc_walk <= 1'b0;
        end
        // The lookup stage.
        if (idx_rd) begin
            lk_valid   <= 1'b1;
            lk_sender  <= in_sender;
            lk_payload <= in_payload;
            lk_round   <= in_round;
        end else if (lk_free) begin
            lk_valid <= 1'b0;
        end
    end
end

endmodule

`default_nettype wire
