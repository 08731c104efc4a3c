// unit_axi: gravf_axi_wr writes commands of pseudo-random lengths at
// addresses just below 4 KB boundaries into gravf_axi_mem, gravf_axi_rd
// reads every one back, and the words must match; gravf_axi_check watches
// the port. Parameters vary the bus width, burst limit and back-pressure.
`timescale 1ns/1ps
`default_nettype none

module unit_axi #(
    parameter DW        = 512,
    parameter MAX_BURST = 64,
    parameter MAX_OUT   = 4,
    parameter READY_PCT = 60,
    parameter [31:0] SEED = 32'd7,
    parameter CMDS      = 12,
    parameter NAME      = "axi"
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);

localparam integer BYTES = DW / 8;
localparam integer PAGE_WORDS = 4096 / BYTES;
localparam integer WORDS = CMDS * (300 + 2 * PAGE_WORDS);
localparam [63:0]  BASE  = 64'h0000_0040_0000_0000;   // above 4 GB: the high address word matters

// Write engine.
reg         wc_valid;
wire        wc_ready;
reg  [63:0] wc_addr;
reg  [31:0] wc_beats;
reg  [DW-1:0] wd;
reg         wd_valid;
wire        wd_ready;
wire        w_error;
// Read engine.
reg         rc_valid;
wire        rc_ready;
reg  [63:0] rc_addr;
reg  [31:0] rc_beats;
wire [DW-1:0] rd;
wire        rd_valid, rd_last, r_error;
reg         rd_ready;

wire        awvalid, awready, wvalid, wready, wlast, bvalid, bready, arvalid, arready, rvalid, rready, rlast;
wire [63:0] awaddr, araddr;
wire [7:0]  awlen, arlen;
wire [2:0]  awsize, arsize;
wire [1:0]  awburst, arburst, bresp, rresp;
wire [0:0]  awid, bid, arid, rid;
wire [DW-1:0] wdata, rdata;
wire [DW/8-1:0] wstrb;

gravf_axi_wr #(.DW(DW), .MAX_BURST(MAX_BURST), .MAX_OUT(MAX_OUT)) writer (
    .clk(clk), .rst(rst), .cmd_valid(wc_valid), .cmd_ready(wc_ready), .cmd_addr(wc_addr), .cmd_beats(wc_beats),
    .in_data(wd), .in_valid(wd_valid), .in_ready(wd_ready), .error(w_error),
    .m_axi_awvalid(awvalid), .m_axi_awready(awready), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen),
    .m_axi_awsize(awsize), .m_axi_awburst(awburst), .m_axi_awid(awid),
    .m_axi_wvalid(wvalid), .m_axi_wready(wready), .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast),
    .m_axi_bvalid(bvalid), .m_axi_bready(bready), .m_axi_bresp(bresp), .m_axi_bid(bid)
);
gravf_axi_rd #(.DW(DW), .MAX_BURST(MAX_BURST), .MAX_OUT(MAX_OUT)) reader (
    .clk(clk), .rst(rst), .cmd_valid(rc_valid), .cmd_ready(rc_ready), .cmd_addr(rc_addr), .cmd_beats(rc_beats),
    .out_data(rd), .out_valid(rd_valid), .out_ready(rd_ready), .out_last(rd_last), .error(r_error),
    .m_axi_arvalid(arvalid), .m_axi_arready(arready), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
    .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arid(arid),
    .m_axi_rvalid(rvalid), .m_axi_rready(rready), .m_axi_rdata(rdata), .m_axi_rresp(rresp), .m_axi_rlast(rlast), .m_axi_rid(rid)
);
gravf_axi_mem #(.DW(DW), .BASE(BASE), .WORDS(WORDS), .SEED(SEED), .READY_PCT(READY_PCT), .LAT_MIN(2), .LAT_MAX(30), .NAME(NAME)) mem (
    .clk(clk), .rst(rst),
    .s_axi_awvalid(awvalid), .s_axi_awready(awready), .s_axi_awaddr(awaddr), .s_axi_awlen(awlen),
    .s_axi_awsize(awsize), .s_axi_awburst(awburst), .s_axi_awid(awid),
    .s_axi_wvalid(wvalid), .s_axi_wready(wready), .s_axi_wdata(wdata), .s_axi_wstrb(wstrb), .s_axi_wlast(wlast),
    .s_axi_bvalid(bvalid), .s_axi_bready(bready), .s_axi_bresp(bresp), .s_axi_bid(bid),
    .s_axi_arvalid(arvalid), .s_axi_arready(arready), .s_axi_araddr(araddr), .s_axi_arlen(arlen),
    .s_axi_arsize(arsize), .s_axi_arburst(arburst), .s_axi_arid(arid),
    .s_axi_rvalid(rvalid), .s_axi_rready(rready), .s_axi_rdata(rdata), .s_axi_rresp(rresp), .s_axi_rlast(rlast), .s_axi_rid(rid)
);
gravf_axi_check #(.DW(DW), .NAME(NAME)) check (
    .clk(clk), .rst(rst),
    .awvalid(awvalid), .awready(awready), .awaddr(awaddr), .awlen(awlen), .awsize(awsize), .awburst(awburst), .awid(awid),
    .wvalid(wvalid), .wready(wready), .wdata(wdata), .wstrb(wstrb), .wlast(wlast),
    .bvalid(bvalid), .bready(bready), .bresp(bresp), .bid(bid),
    .arvalid(arvalid), .arready(arready), .araddr(araddr), .arlen(arlen), .arsize(arsize), .arburst(arburst), .arid(arid),
    .rvalid(rvalid), .rready(rready), .rdata(rdata), .rresp(rresp), .rlast(rlast), .rid(rid)
);

// The word written at word index i: every 32-bit lane names i and the lane.
function [DW-1:0] pattern;
    input integer i;
    integer j;
    begin
        for (j = 0; j < DW / 32; j = j + 1) pattern[j*32 +: 32] = i * 64 + j + SEED;
    end
endfunction

reg [31:0] rng;
task next;
    begin
        rng = rng ^ (rng << 13);
        rng = rng ^ (rng >> 17);
        rng = rng ^ (rng << 5);
    end
endtask

integer c, b, at, first [0:CMDS-1], len [0:CMDS-1];
reg ok;
initial begin
    done = 1'b0;
    wc_valid = 1'b0; wd_valid = 1'b0; rc_valid = 1'b0; rd_ready = 1'b0;
    rng = SEED;
    // Commands start a few beats below a 4 KB boundary and run across it.
    at = 0;
    for (c = 0; c < CMDS; c = c + 1) begin
        next;
        len[c] = 1 + rng % 300;
        first[c] = (at / PAGE_WORDS + 1) * PAGE_WORDS - 1 - (rng >> 16) % 3;
        if (first[c] < at) first[c] = first[c] + PAGE_WORDS;
        at = first[c] + len[c];
    end
    @(negedge rst);
    for (c = 0; c < CMDS; c = c + 1) begin
        // Write command c; its data one beat per cycle while ready.
        @(posedge clk); #0.1;
        wc_valid = 1'b1; wc_addr = BASE + first[c] * BYTES; wc_beats = len[c];
        @(negedge clk); while (!wc_ready) @(negedge clk);
        @(posedge clk); #0.1; wc_valid = 1'b0;
        for (b = 0; b < len[c]; b = b + 1) begin
            wd = pattern(first[c] + b); wd_valid = 1'b1;
            @(negedge clk); while (!wd_ready) @(negedge clk);
            @(posedge clk); #0.1; wd_valid = 1'b0;
        end
    end
    // Every write answered before the reads.
    @(negedge clk); while (!wc_ready) @(negedge clk);
    for (c = 0; c < CMDS; c = c + 1) begin
        @(posedge clk); #0.1;
        rc_valid = 1'b1; rc_addr = BASE + first[c] * BYTES; rc_beats = len[c];
        @(negedge clk); while (!rc_ready) @(negedge clk);
        @(posedge clk); #0.1; rc_valid = 1'b0;
        for (b = 0; b < len[c]; b = b + 1) begin
            next;
            rd_ready = rng % 4 != 0;
            @(negedge clk);
            while (!(rd_valid && rd_ready)) begin
                @(posedge clk); #0.1;
                next;
                rd_ready = rng % 4 != 0;
                @(negedge clk);
            end
            ok = rd == pattern(first[c] + b) && rd_last == (b == len[c] - 1);
            if (!ok) begin
                $display("RESULT FAIL unit %0s: command %0d beat %0d read %h last %b", NAME, c, b, rd, rd_last);
                $fatal(1, "unit");
            end
            @(posedge clk); #0.1; rd_ready = 1'b0;
        end
    end
    if (w_error || r_error) begin
        $display("RESULT FAIL unit %0s: error response flagged", NAME);
        $fatal(1, "unit");
    end
    done = 1'b1;
end

endmodule

`default_nettype wire
