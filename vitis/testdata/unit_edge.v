// unit_edge: NL request generators, each a stand-in for a PE's edge memory
// port (one word address per request, at most INFLIGHT outstanding,
// responses taken with random back-pressure), share one AXI4 port through
// gravf_axi_edge_port. gravf_axi_mem answers ids out of order; every lane
// must get its words back in its own request order.
`timescale 1ns/1ps
`default_nettype none

module unit_edge #(
    parameter NL        = 3,
    parameter DW        = 256,
    parameter INFLIGHT  = 8,
    parameter READY_PCT = 70,
    parameter [31:0] SEED = 32'd5,
    parameter REQS      = 200,          // requests per lane
    parameter NAME      = "edge"
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);

localparam integer MA    = 12;
localparam integer IDW   = (NL > 1) ? $clog2(NL) : 1;
localparam integer WORDS = 1024;
localparam [MA-1:0] FIRST = 12'd100;                 // the buffer holds words 100..
localparam [63:0]  BASE  = 64'h0000_0001_0000_0000;

reg  [NL-1:0]    req_valid;
wire [NL-1:0]    req_ready;
reg  [NL*MA-1:0] req_addr;
wire [NL-1:0]    resp_valid;
reg  [NL-1:0]    resp_ready;
wire [NL*DW-1:0] resp_data;
wire             error;

wire        arvalid, arready, rvalid, rready, rlast;
wire [63:0] araddr;
wire [7:0]  arlen;
wire [2:0]  arsize;
wire [1:0]  arburst, rresp;
wire [IDW-1:0] arid, rid;
wire [DW-1:0]  rdata;
// The write channels are unused.
wire        awready, wready, bvalid;
wire [1:0]  bresp;
wire [IDW-1:0] bid;

gravf_axi_edge_port #(.NL(NL), .DW(DW), .MA(MA), .IDW(IDW), .INFLIGHT(INFLIGHT), .FIRST(FIRST)) port (
    .clk(clk), .rst(rst), .base(BASE),
    .req_valid(req_valid), .req_ready(req_ready), .req_addr(req_addr),
    .resp_valid(resp_valid), .resp_ready(resp_ready), .resp_data(resp_data), .error(error),
    .m_axi_arvalid(arvalid), .m_axi_arready(arready), .m_axi_araddr(araddr), .m_axi_arlen(arlen),
    .m_axi_arsize(arsize), .m_axi_arburst(arburst), .m_axi_arid(arid),
    .m_axi_rvalid(rvalid), .m_axi_rready(rready), .m_axi_rdata(rdata), .m_axi_rresp(rresp), .m_axi_rlast(rlast), .m_axi_rid(rid)
);
gravf_axi_mem #(.DW(DW), .IDW(IDW), .BASE(BASE), .WORDS(WORDS), .SEED(SEED), .READY_PCT(READY_PCT), .LAT_MIN(1), .LAT_MAX(40), .NAME(NAME)) mem (
    .clk(clk), .rst(rst),
    .s_axi_awvalid(1'b0), .s_axi_awready(awready), .s_axi_awaddr(64'd0), .s_axi_awlen(8'd0),
    .s_axi_awsize(3'd0), .s_axi_awburst(2'd1), .s_axi_awid({IDW{1'b0}}),
    .s_axi_wvalid(1'b0), .s_axi_wready(wready), .s_axi_wdata({DW{1'b0}}), .s_axi_wstrb({(DW/8){1'b0}}), .s_axi_wlast(1'b0),
    .s_axi_bvalid(bvalid), .s_axi_bready(1'b1), .s_axi_bresp(bresp), .s_axi_bid(bid),
    .s_axi_arvalid(arvalid), .s_axi_arready(arready), .s_axi_araddr(araddr), .s_axi_arlen(arlen),
    .s_axi_arsize(arsize), .s_axi_arburst(arburst), .s_axi_arid(arid),
    .s_axi_rvalid(rvalid), .s_axi_rready(rready), .s_axi_rdata(rdata), .s_axi_rresp(rresp), .s_axi_rlast(rlast), .s_axi_rid(rid)
);
gravf_axi_check #(.DW(DW), .IDW(IDW), .NAME(NAME)) check (
    .clk(clk), .rst(rst),
    .awvalid(1'b0), .awready(awready), .awaddr(64'd0), .awlen(8'd0), .awsize(3'd0), .awburst(2'd1), .awid({IDW{1'b0}}),
    .wvalid(1'b0), .wready(wready), .wdata({DW{1'b0}}), .wstrb({(DW/8){1'b0}}), .wlast(1'b0),
    .bvalid(bvalid), .bready(1'b1), .bresp(bresp), .bid(bid),
    .arvalid(arvalid), .arready(arready), .araddr(araddr), .arlen(arlen), .arsize(arsize), .arburst(arburst), .arid(arid),
    .rvalid(rvalid), .rready(rready), .rdata(rdata), .rresp(rresp), .rlast(rlast), .rid(rid)
);

function [DW-1:0] pattern;
    input integer w;                    // word index in the buffer
    integer j;
    begin
        for (j = 0; j < DW / 32; j = j + 1) pattern[j*32 +: 32] = w * 16 + j;
    end
endfunction

integer i;
initial begin
    for (i = 0; i < WORDS; i = i + 1) mem.mem[i] = pattern(i);
end

// Per lane: the words requested, in order, and how many came back.
integer sent [0:NL-1], got [0:NL-1], outstanding [0:NL-1];
reg [MA-1:0] asked [0:NL*REQS-1];
reg [31:0] rng;
integer l, finished;

always @(posedge clk) begin
    if (rst) begin
        rng = SEED;
        req_valid  <= {NL{1'b0}};
        resp_ready <= {NL{1'b0}};
        done       <= 1'b0;
        for (l = 0; l < NL; l = l + 1) begin
            sent[l] = 0; got[l] = 0; outstanding[l] = 0;
        end
    end else begin
        finished = 0;
        for (l = 0; l < NL; l = l + 1) begin
            if (resp_valid[l] && resp_ready[l]) begin
                if (resp_data[l*DW +: DW] !== pattern(asked[l*REQS + got[l]] - FIRST)) begin
                    $display("RESULT FAIL unit %0s: lane %0d response %0d is %h, want word %0d", NAME, l, got[l],
                             resp_data[l*DW +: DW], asked[l*REQS + got[l]] - FIRST);
                    $fatal(1, "unit");
                end
                got[l] = got[l] + 1;
                outstanding[l] = outstanding[l] - 1;
            end
            if (req_valid[l] && req_ready[l]) begin
                asked[l*REQS + sent[l]] = req_addr[l*MA +: MA];
                sent[l] = sent[l] + 1;
                outstanding[l] = outstanding[l] + 1;
            end
            // A request holds until taken; a new one while fewer than
            // INFLIGHT are outstanding (like the PE, counting taken ones).
            if (!req_valid[l] || req_ready[l]) begin
                rng = rng ^ (rng << 13); rng = rng ^ (rng >> 17); rng = rng ^ (rng << 5);
                req_valid[l] <= sent[l] < REQS && outstanding[l] < INFLIGHT && rng % 3 != 0;
                req_addr[l*MA +: MA] <= FIRST + (rng >> 8) % (WORDS - FIRST);
            end
            rng = rng ^ (rng << 13); rng = rng ^ (rng >> 17); rng = rng ^ (rng << 5);
            resp_ready[l] <= rng % 4 != 0;
            if (got[l] == REQS) finished = finished + 1;
        end
        if (error) begin
            $display("RESULT FAIL unit %0s: the port flagged an error", NAME);
            $fatal(1, "unit");
        end
        done <= finished == NL;
    end
end

endmodule

`default_nettype wire
