// gravf_crossbar: the GraVF-M on-chip network of one FPGA.
//
// Every cycle it moves at most one item (an update or a barrier marker)
// and writes it, in the same cycle, to every local PE's input FIFO and,
// for local items, to the send FIFO of every remote FPGA the item's mask
// names (the update filter; barrier markers name every FPGA). Nothing
// moves unless every destination has room: the broadcast is in lockstep,
// so one full PE stalls everyone.
//
// Items from remote FPGAs go first, round-robin; local PEs' items take the
// cycles that remain, round-robin. Only items of the current superstep
// channel move; the channel advances once every local PE has counted all
// barrier markers of it (pe_passed pulses) or has finished.
//
// Items from the PEs (most significant first): barrier, halt, round[1:0],
// mask[LW-1:0], body[BW-1:0]. The mask routes a local item to the links;
// what the crossbar writes to the links and the PEs, and reads from the
// links, is the link item: the same without the mask.
`default_nettype none

module gravf_crossbar #(
    parameter NP = 2,                 // local PEs
    parameter NR = 1,                 // remote FPGAs (links); 0 for one FPGA
    parameter BW = 8,                 // item body bits (sender and payload)
    parameter LW = (NR > 0) ? NR : 1, // width of link buses and of the mask (1 when unused)
    parameter UW = 4 + LW + BW,       // item bits from a PE
    parameter IW = 4 + BW,            // link item bits
    parameter PW = (NP > 1) ? $clog2(NP) : 1,
    parameter RW = (NR > 1) ? $clog2(NR) : 1
) (
    input  wire            clk,
    input  wire            rst,
    // Local PEs' update queues.
    input  wire [NP*UW-1:0] pe_out_data,
    input  wire [NP-1:0]    pe_out_valid,
    output reg  [NP-1:0]    pe_out_ready,
    // Local PEs' input FIFOs.
    output wire [IW-1:0]    pe_in_data,
    output wire [NP-1:0]    pe_in_valid,
    input  wire [NP-1:0]    pe_in_ready,
    // Barrier bookkeeping.
    input  wire [NP-1:0]    pe_passed,  // a PE counted every marker of the channel
    input  wire [NP-1:0]    pe_done,    // a PE has terminated
    // Links: items from remote FPGAs, and send FIFOs to them.
    input  wire [LW*IW-1:0] rx_data,
    input  wire [LW-1:0]    rx_valid,
    output reg  [LW-1:0]    rx_ready,
    output wire [IW-1:0]    tx_data,
    output reg  [LW-1:0]    tx_valid,
    input  wire [LW-1:0]    tx_ready
);

localparam integer  LAST_PE_I   = NP - 1;
localparam integer  LAST_LINK_I = (NR > 0) ? NR - 1 : 0;
localparam [PW-1:0] LAST_PE     = LAST_PE_I[PW-1:0];
localparam [RW-1:0] LAST_LINK   = LAST_LINK_I[RW-1:0];

reg  [1:0]    round;      // the channel that may move
reg  [NP-1:0] passed;     // PEs that passed the channel's barrier
reg  [PW-1:0] rr_local;
reg  [RW-1:0] rr_remote;

wire all_ready = &pe_in_ready;

// Candidates: heads of the current channel.
reg  [NP-1:0] cand_local;
reg  [LW-1:0] cand_remote;
integer i;
always @* begin
    for (i = 0; i < NP; i = i + 1)
        cand_local[i] = pe_out_valid[i] && pe_out_data[i*UW+UW-3 -: 2] == round;
    for (i = 0; i < LW; i = i + 1)
        cand_remote[i] = (NR > 0) && rx_valid[i] && rx_data[i*IW+IW-3 -: 2] == round;
end

// Round-robin choice of one remote and one local candidate.
reg          have_remote, have_local;
reg [RW-1:0] sel_remote;
reg [PW-1:0] sel_local;
integer k, idx;
always @* begin
    have_remote = 1'b0;
    sel_remote  = {RW{1'b0}};
    for (k = 0; k < LW; k = k + 1) begin
        idx = {{(32-RW){1'b0}}, rr_remote} + k;
        if (idx >= LW) idx = idx - LW;
        if (!have_remote && cand_remote[idx]) begin
            have_remote = 1'b1;
            sel_remote  = idx[RW-1:0];
        end
    end
    have_local = 1'b0;
    sel_local  = {PW{1'b0}};
    for (k = 0; k < NP; k = k + 1) begin
        idx = {{(32-PW){1'b0}}, rr_local} + k;
        if (idx >= NP) idx = idx - NP;
        if (!have_local && cand_local[idx]) begin
            have_local = 1'b1;
            sel_local  = idx[PW-1:0];
        end
    end
end

wire [IW-1:0] remote_item = rx_data[sel_remote*IW +: IW];
wire [UW-1:0] local_item  = pe_out_data[sel_local*UW +: UW];
wire [LW-1:0] local_mask  = (NR > 0) ? local_item[BW +: LW] : {LW{1'b0}};
wire [IW-1:0] local_link  = {local_item[UW-1 -: 4], local_item[BW-1:0]}; // without the mask
wire          links_ready = &(tx_ready | ~local_mask);

wire move_remote = have_remote && all_ready;
wire move_local  = !have_remote && have_local && all_ready && links_ready;

assign pe_in_data  = have_remote ? remote_item : local_link;
assign pe_in_valid = {NP{move_remote || move_local}};
assign tx_data     = local_link;

always @* begin
    pe_out_ready = {NP{1'b0}};
    rx_ready     = {LW{1'b0}};
    tx_valid     = {LW{1'b0}};
    if (move_local) begin
        pe_out_ready[sel_local] = 1'b1;
        tx_valid = local_mask;
    end
    if (move_remote) rx_ready[sel_remote] = 1'b1;
end

wire [NP-1:0] passed_now = passed | pe_passed | pe_done;

always @(posedge clk) begin
    if (rst) begin
        round     <= 2'd0;
        passed    <= {NP{1'b0}};
        rr_local  <= {PW{1'b0}};
        rr_remote <= {RW{1'b0}};
    end else begin
        if (&passed_now && !(&pe_done)) begin
            round  <= round + 2'd1;
            passed <= {NP{1'b0}};
        end else begin
            passed <= passed_now;
        end
        if (move_local)  rr_local  <= (sel_local == LAST_PE) ? {PW{1'b0}} : sel_local + 1'b1;
        if (move_remote) rr_remote <= (sel_remote == LAST_LINK) ? {RW{1'b0}} : sel_remote + 1'b1;
    end
end

endmodule

`default_nettype wire
