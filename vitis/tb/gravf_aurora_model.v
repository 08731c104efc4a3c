// gravf_aurora_model: two Aurora 64B/66B cores (the user side of each)
// joined by a QSFP28 cable, for simulation: side A and side B are the two
// cards' link kernels.
//
// Each side has its own user clock (half periods A_HALF and B_HALF ns, a
// little apart, as two cards' clocks are). Once a side's pma_init and
// reset_pb are low it counts UP_CYCLES of its user clock; the channel comes
// up on both sides when both have. A word a side sends (s_axi_tx, taken
// while tready and the channel are up; tready falls one cycle in 13, like
// the core's clock compensation) arrives at the other side LATENCY ns later
// (m_axi_rx, one cycle of valid, no back-pressure, as the core's has none).
// With loopback 2 (near-end PMA) a side's words come back to itself, its
// channel comes up alone, and the other side's words are lost. Errors are never raised. Internal state changes
// with blocking assignments; every output is a register.
`timescale 1ns/1ps
`default_nettype none

module gravf_aurora_model #(
    parameter real A_HALF    = 1.241,    // ns: about 402.8 MHz, 25.78125 Gb/s / 64
    parameter real B_HALF    = 1.243,
    parameter real LATENCY   = 120.0,    // ns, one way
    parameter      UP_CYCLES = 64,
    parameter      DEPTH     = 4096      // words in flight per direction
) (
    output reg          a_user_clk,
    input  wire [255:0] a_tx_tdata,
    input  wire         a_tx_tvalid,
    output reg          a_tx_tready,
    output reg  [255:0] a_rx_tdata,
    output reg          a_rx_tvalid,
    output reg          a_channel_up,
    output wire [3:0]   a_lane_up,
    output wire         a_soft_err,
    output wire         a_hard_err,
    output wire         a_mmcm_not_locked,
    output wire [3:0]   a_gt_powergood,
    output wire         a_gt_pll_lock,
    input  wire         a_pma_init,
    input  wire         a_reset_pb,
    input  wire [2:0]   a_loopback,

    output reg          b_user_clk,
    input  wire [255:0] b_tx_tdata,
    input  wire         b_tx_tvalid,
    output reg          b_tx_tready,
    output reg  [255:0] b_rx_tdata,
    output reg          b_rx_tvalid,
    output reg          b_channel_up,
    output wire [3:0]   b_lane_up,
    output wire         b_soft_err,
    output wire         b_hard_err,
    output wire         b_mmcm_not_locked,
    output wire [3:0]   b_gt_powergood,
    output wire         b_gt_pll_lock,
    input  wire         b_pma_init,
    input  wire         b_reset_pb,
    input  wire [2:0]   b_loopback
);

/* verilator lint_off BLKSEQ */ // testbench model: its bookkeeping is sequential code

initial begin
    a_user_clk = 1'b0;
    b_user_clk = 1'b0;
end
always #(A_HALF) a_user_clk = ~a_user_clk;
always #(B_HALF) b_user_clk = ~b_user_clk;

assign a_lane_up = {4{a_channel_up}};
assign b_lane_up = {4{b_channel_up}};
assign a_soft_err = 1'b0;
assign b_soft_err = 1'b0;
assign a_hard_err = 1'b0;
assign b_hard_err = 1'b0;
assign a_mmcm_not_locked = a_pma_init;
assign b_mmcm_not_locked = b_pma_init;
assign a_gt_powergood = 4'hf;
assign b_gt_powergood = 4'hf;
assign a_gt_pll_lock = !a_pma_init;
assign b_gt_pll_lock = !b_pma_init;

// Words in flight towards each side (to A: from B, or from A in loopback).
reg [255:0] to_a [0:DEPTH-1];
real        to_a_t [0:DEPTH-1];
reg [255:0] to_b [0:DEPTH-1];
real        to_b_t [0:DEPTH-1];
integer     to_a_wr = 0, to_a_rd = 0, to_b_wr = 0, to_b_rd = 0;
integer     a_up_count = 0, b_up_count = 0, a_cycle = 0, b_cycle = 0;
reg         a_up = 1'b0, b_up = 1'b0;      // a side has counted UP_CYCLES (read by the other side)

wire a_loop = a_loopback == 3'd2;
wire b_loop = b_loopback == 3'd2;
wire a_ready = !a_pma_init && !a_reset_pb;
wire b_ready = !b_pma_init && !b_reset_pb;

always @(posedge a_user_clk) begin
    a_cycle = a_cycle + 1;
    a_up_count = a_ready ? a_up_count + 1 : 0;
    a_up <= a_up_count >= UP_CYCLES;
    a_channel_up <= a_up_count >= UP_CYCLES && (a_loop || b_up);
    if (a_tx_tvalid && a_tx_tready && a_channel_up) begin
        if (a_loop) begin
            to_a[to_a_wr % DEPTH] = a_tx_tdata; to_a_t[to_a_wr % DEPTH] = $realtime; to_a_wr = to_a_wr + 1;
        end else if (!b_loop) begin
            to_b[to_b_wr % DEPTH] = a_tx_tdata; to_b_t[to_b_wr % DEPTH] = $realtime; to_b_wr = to_b_wr + 1;
        end
    end
    a_tx_tready <= a_cycle % 13 != 0;
    a_rx_tvalid <= 1'b0;
    if (to_a_rd != to_a_wr && to_a_t[to_a_rd % DEPTH] + LATENCY <= $realtime) begin
        a_rx_tvalid <= a_channel_up;
        a_rx_tdata  <= to_a[to_a_rd % DEPTH];
        to_a_rd = to_a_rd + 1;
    end
end

always @(posedge b_user_clk) begin
    b_cycle = b_cycle + 1;
    b_up_count = b_ready ? b_up_count + 1 : 0;
    b_up <= b_up_count >= UP_CYCLES;
    b_channel_up <= b_up_count >= UP_CYCLES && (b_loop || a_up);
    if (b_tx_tvalid && b_tx_tready && b_channel_up) begin
        if (b_loop) begin
            to_b[to_b_wr % DEPTH] = b_tx_tdata; to_b_t[to_b_wr % DEPTH] = $realtime; to_b_wr = to_b_wr + 1;
        end else if (!a_loop) begin
            to_a[to_a_wr % DEPTH] = b_tx_tdata; to_a_t[to_a_wr % DEPTH] = $realtime; to_a_wr = to_a_wr + 1;
        end
    end
    b_tx_tready <= b_cycle % 13 != 0;
    b_rx_tvalid <= 1'b0;
    if (to_b_rd != to_b_wr && to_b_t[to_b_rd % DEPTH] + LATENCY <= $realtime) begin
        b_rx_tvalid <= b_channel_up;
        b_rx_tdata  <= to_b[to_b_rd % DEPTH];
        to_b_rd = to_b_rd + 1;
    end
end

endmodule

`default_nettype wire
