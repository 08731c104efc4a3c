// unit_loader: gravf_vitis_loader reads segments of several slot sizes
// (one empty, partial last beats, two buffers) out of gravf_axi_mem and
// must write every entry once with the packed value; gravf_vitis_writer
// then packs entries the testbench serves like a block RAM into two
// segments, which must land in memory with zero padding and nothing else
// touched. gravf_axi_check watches the port both share.
`timescale 1ns/1ps
`default_nettype none

module unit_loader #(
    parameter DW        = 512,
    parameter READY_PCT = 60,
    parameter [31:0] SEED = 32'd9,
    parameter NAME      = "loader"
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);

localparam integer BYTES = DW / 8;
localparam integer WORDS = 128;
localparam [63:0]  BASE  = 64'h0000_0002_0000_0000;
localparam [63:0]  BASE1 = BASE + 64 * BYTES;           // buffer 1 at word 64
localparam [127:0] BASES = {BASE1, BASE};

// Load segments: {s3, s2, s1, s0}.
localparam [15:0]  L_BUF   = {4'd1, 4'd0, 4'd0, 4'd0};
localparam [127:0] L_BEAT  = {32'd3, 32'd8, 32'd7, 32'd0};
localparam [127:0] L_COUNT = {32'd9, 32'd11, 32'd0, 32'd37};
localparam [15:0]  L_SLOG  = {4'd3, 4'd7, 4'd6, 4'd5};
localparam [31:0]  L_W     = {8'd5, 8'd100, 8'd64, 8'd30};   // bits that matter per entry
// Write-back segments: {w1, w0}.
localparam [7:0]   W_BUF   = {4'd0, 4'd1};
localparam [63:0]  W_BEAT  = {32'd40, 32'd10};
localparam [63:0]  W_COUNT = {32'd3, 32'd13};
localparam [7:0]   W_SLOG  = {4'd6, 4'd4};
localparam [15:0]  W_W     = {8'd64, 8'd12};

wire        awvalid, awready, wvalid, wready, wlast, bvalid, bready, arvalid, arready, rvalid, rready, rlast;
wire [63:0] awaddr, araddr;
wire [7:0]  awlen, arlen;
wire [2:0]  awsize, arsize;
wire [1:0]  awburst, arburst, bresp, rresp;
wire [0:0]  awid, bid, arid, rid;
wire [DW-1:0] wdata, rdata;
wire [DW/8-1:0] wstrb;

reg         l_start, w_start;
wire        l_busy, w_busy, l_error, w_error;
wire        l_valid;
wire [1:0]  l_seg;
wire [31:0] l_addr;
wire [99:0] l_data;
wire        w_rd;
wire [0:0]  w_seg;
wire [31:0] w_addr;
reg  [63:0] w_data;

gravf_vitis_loader #(.DW(DW), .NSEG(4), .NBUF(2), .MAXW(100), .SEG_BUF(L_BUF), .SEG_BEAT(L_BEAT),
    .SEG_COUNT(L_COUNT), .SEG_SLOG(L_SLOG), .MAX_BURST(2)) loader (
    .clk(clk), .rst(rst), .start(l_start), .busy(l_busy), .error(l_error), .bases(BASES),
    .wr_valid(l_valid), .wr_seg(l_seg), .wr_addr(l_addr), .wr_data(l_data),
    .m_axi_arvalid(arvalid), .m_axi_arready(arready), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
    .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arid(arid),
    .m_axi_rvalid(rvalid), .m_axi_rready(rready), .m_axi_rdata(rdata), .m_axi_rresp(rresp), .m_axi_rlast(rlast), .m_axi_rid(rid)
);
gravf_vitis_writer #(.DW(DW), .NSEG(2), .NBUF(2), .MAXW(64), .SEG_BUF(W_BUF), .SEG_BEAT(W_BEAT),
    .SEG_COUNT(W_COUNT), .SEG_SLOG(W_SLOG), .MAX_BURST(2)) writer (
    .clk(clk), .rst(rst), .start(w_start), .busy(w_busy), .error(w_error), .bases(BASES),
    .rd_valid(w_rd), .rd_seg(w_seg), .rd_addr(w_addr), .rd_data(w_data),
    .m_axi_awvalid(awvalid), .m_axi_awready(awready), .m_axi_awaddr(awaddr), .m_axi_awlen(awlen),
    .m_axi_awsize(awsize), .m_axi_awburst(awburst), .m_axi_awid(awid),
    .m_axi_wvalid(wvalid), .m_axi_wready(wready), .m_axi_wdata(wdata), .m_axi_wstrb(wstrb), .m_axi_wlast(wlast),
    .m_axi_bvalid(bvalid), .m_axi_bready(bready), .m_axi_bresp(bresp), .m_axi_bid(bid)
);
gravf_axi_mem #(.DW(DW), .BASE(BASE), .WORDS(WORDS), .SEED(SEED), .READY_PCT(READY_PCT), .LAT_MIN(1), .LAT_MAX(12), .NAME(NAME)) mem (
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

// Entry i of a segment: a value of w bits.
function [127:0] value;
    input integer seg;
    input integer i;
    input integer w;
    reg [127:0] x;
    reg [31:0]  h;
    begin
        h = 32'h9e3779b9 * (seg + 1) + 32'h85ebca6b * (i + 1);
        x = {h, h ^ 32'h55aa55aa, h + 32'd1, ~h};
        value = x & ((w >= 128) ? {128{1'b1}} : ((128'd1 << w) - 1));
    end
endfunction

// Store or fetch an entry at (buffer word first, slot bits 2**lg) bit by bit.
task put;
    input integer word0;
    input integer lg;
    input integer i;
    input integer w;
    input [127:0] v;
    integer epb, b;
    begin
        epb = DW >> lg;
        for (b = 0; b < w; b = b + 1) mem.mem[word0 + i / epb][(i % epb) * (1 << lg) + b] = v[b];
    end
endtask
function [127:0] get;
    input integer word0;
    input integer lg;
    input integer i;
    input integer w;
    integer epb, b;
    begin
        epb = DW >> lg;
        get = 128'd0;
        for (b = 0; b < w; b = b + 1) get[b] = mem.mem[word0 + i / epb][(i % epb) * (1 << lg) + b];
    end
endfunction

integer s, i, w, word0, lg, count, seen [0:3];
reg [DW-1:0] sentinel;
initial begin
    sentinel = {(DW/32){32'h5a5a_a5a5}};
    for (i = 0; i < WORDS; i = i + 1) mem.mem[i] = sentinel;
    for (s = 0; s < 4; s = s + 1) begin
        word0 = 64 * L_BUF[s*4 +: 4] + L_BEAT[s*32 +: 32];
        for (i = 0; i < L_COUNT[s*32 +: 32]; i = i + 1)
            put(word0, L_SLOG[s*4 +: 4], i, L_W[s*8 +: 8], value(s, i, L_W[s*8 +: 8]));
        seen[s] = 0;
    end
end

// The loader's writes, checked as they come; the writer's reads, served.
always @(posedge clk) begin
    if (l_valid) begin
        w = L_W[l_seg*8 +: 8];
        if ((l_data & ((w >= 100) ? {100{1'b1}} : ((100'd1 << w) - 1))) !== value(l_seg, l_addr, w) || l_addr != seen[l_seg]) begin
            $display("RESULT FAIL unit %0s: loader wrote %h at segment %0d entry %0d (expected entry %0d: %h)",
                     NAME, l_data, l_seg, l_addr, seen[l_seg], value(l_seg, l_addr, w));
            $fatal(1, "unit");
        end
        seen[l_seg] = seen[l_seg] + 1;
    end
    if (w_rd) w_data <= value(10 + w_seg, w_addr, W_W[w_seg*8 +: 8]);
end

initial begin
    done = 1'b0; l_start = 1'b0; w_start = 1'b0;
    @(negedge rst);
    @(posedge clk); #0.1 l_start = 1'b1;
    @(posedge clk); #0.1 l_start = 1'b0;
    @(posedge clk); while (l_busy) @(posedge clk);
    for (s = 0; s < 4; s = s + 1)
        if (seen[s] != L_COUNT[s*32 +: 32]) begin
            $display("RESULT FAIL unit %0s: segment %0d: %0d of %0d entries loaded", NAME, s, seen[s], L_COUNT[s*32 +: 32]);
            $fatal(1, "unit");
        end
    @(posedge clk); #0.1 w_start = 1'b1;
    @(posedge clk); #0.1 w_start = 1'b0;
    @(posedge clk); while (w_busy) @(posedge clk);
    for (s = 0; s < 2; s = s + 1) begin
        word0 = 64 * W_BUF[s*4 +: 4] + W_BEAT[s*32 +: 32];
        lg = W_SLOG[s*4 +: 4];
        count = W_COUNT[s*32 +: 32];
        // Every slot of the segment's beats: the entry, or zero after the last.
        for (i = 0; i < ((count + (DW >> lg) - 1) / (DW >> lg)) * (DW >> lg); i = i + 1)
            if (get(word0, lg, i, 1 << lg) !== (i < count ? value(10 + s, i, W_W[s*8 +: 8]) : 128'd0)) begin
                $display("RESULT FAIL unit %0s: written segment %0d slot %0d holds %h", NAME, s, i, get(word0, lg, i, 1 << lg));
                $fatal(1, "unit");
            end
        if (mem.mem[word0 + (count + (DW >> lg) - 1) / (DW >> lg)] !== sentinel) begin
            $display("RESULT FAIL unit %0s: the word after written segment %0d changed", NAME, s);
            $fatal(1, "unit");
        end
    end
    if (l_error || w_error) begin
        $display("RESULT FAIL unit %0s: error response flagged", NAME);
        $fatal(1, "unit");
    end
    done = 1'b1;
end

endmodule

`default_nettype wire
