// gravf_axil_check: a passive AXI4-Lite protocol checker for a control
// port. It ends the simulation with "RESULT FAIL protocol <NAME>: <rule>"
// when a valid is high in reset, falls or changes its payload before its
// ready, when a write response comes before both the address and the data
// of a write were taken, when a read response comes without a read
// address taken, or when a response is not OKAY.
`default_nettype none

module gravf_axil_check #(
    parameter AW   = 12,
    parameter NAME = "s_axi_control"
) (
    input wire          clk,
    input wire          rst,
    input wire          awvalid, awready,
    input wire [AW-1:0] awaddr,
    input wire          wvalid, wready,
    input wire [31:0]   wdata,
    input wire [3:0]    wstrb,
    input wire          bvalid, bready,
    input wire [1:0]    bresp,
    input wire          arvalid, arready,
    input wire [AW-1:0] araddr,
    input wire          rvalid, rready,
    input wire [31:0]   rdata,
    input wire [1:0]    rresp
);

/* verilator lint_off BLKSEQ */ // testbench model: its bookkeeping is sequential code, read only in its own process
integer cycle;
integer aws, ws, bs, ars, rs;          // handshakes on each channel
reg          aw_wait, w_wait, b_wait, ar_wait, r_wait;
reg [AW-1:0] aw_q, ar_q;
reg [35:0]   w_q;
reg [1:0]    b_q;
reg [33:0]   r_q;

task fail;
    input [8*80:1] rule;
    begin
        $display("RESULT FAIL protocol %0s: %0s (cycle %0d)", NAME, rule, cycle);
        $fatal(1, "protocol");
    end
endtask

always @(posedge clk) begin
    if (rst) begin
        cycle = 0;
        aws = 0; ws = 0; bs = 0; ars = 0; rs = 0;
        aw_wait <= 1'b0; w_wait <= 1'b0; b_wait <= 1'b0; ar_wait <= 1'b0; r_wait <= 1'b0;
        if (awvalid || wvalid || arvalid || bvalid || rvalid) fail("a valid is high in reset");
    end else begin
        cycle = cycle + 1;
        if (aw_wait && (!awvalid || awaddr != aw_q)) fail("awvalid or awaddr changed before awready");
        if (w_wait && (!wvalid || {wdata, wstrb} != w_q)) fail("wvalid or the write data changed before wready");
        if (b_wait && (!bvalid || bresp != b_q)) fail("bvalid or bresp changed before bready");
        if (ar_wait && (!arvalid || araddr != ar_q)) fail("arvalid or araddr changed before arready");
        if (r_wait && (!rvalid || {rdata, rresp} != r_q)) fail("rvalid or the read data changed before rready");
        aw_wait <= awvalid && !awready; aw_q <= awaddr;
        w_wait  <= wvalid && !wready;   w_q  <= {wdata, wstrb};
        b_wait  <= bvalid && !bready;   b_q  <= bresp;
        ar_wait <= arvalid && !arready; ar_q <= araddr;
        r_wait  <= rvalid && !rready;   r_q  <= {rdata, rresp};
        // A response must follow its request's handshakes: count them after.
        if (bvalid && bready) begin
            bs = bs + 1;
            if (bs > aws || bs > ws) fail("write response before its address and data");
            if (bresp != 2'b00) fail("write response not OKAY");
        end
        if (rvalid && rready) begin
            rs = rs + 1;
            if (rs > ars) fail("read response without a read address");
            if (rresp != 2'b00) fail("read response not OKAY");
        end
        if (awvalid && awready) aws = aws + 1;
        if (wvalid && wready) ws = ws + 1;
        if (arvalid && arready) ars = ars + 1;
    end
end

endmodule

`default_nettype wire
