// unit_ctrl: gravf_axil_master drives gravf_axil_ctrl as XRT does, with a
// stand-in kernel that runs RUN cycles per start: arguments and status
// read back, ap_start/ap_done/ap_idle/ap_ready, the interrupt with GIE,
// IER and a toggle-on-write ISR, clear-on-read done, and auto_restart.
// gravf_axil_check watches the bus.
`timescale 1ns/1ps
`default_nettype none

module unit_ctrl #(
    parameter NAME = "ctrl"
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);

localparam NARG = 5, NSTAT = 3, RUN = 37;

wire        awvalid, awready, wvalid, wready, bvalid, bready, arvalid, arready, rvalid, rready;
wire [11:0] awaddr, araddr;
wire [31:0] wdata, rdata;
wire [3:0]  wstrb;
wire [1:0]  bresp, rresp;
wire        ap_start, irq;
reg         ap_done_p;
reg         busy;
wire [NARG*32-1:0] args;
reg  [NSTAT*32-1:0] status;
integer     runs, left;

gravf_axil_ctrl #(.NARG(NARG), .NSTAT(NSTAT), .STAT(12'h100)) ctrl (
    .clk(clk), .rst(rst),
    .s_axi_awvalid(awvalid), .s_axi_awready(awready), .s_axi_awaddr(awaddr),
    .s_axi_wvalid(wvalid), .s_axi_wready(wready), .s_axi_wdata(wdata), .s_axi_wstrb(wstrb),
    .s_axi_bvalid(bvalid), .s_axi_bready(bready), .s_axi_bresp(bresp),
    .s_axi_arvalid(arvalid), .s_axi_arready(arready), .s_axi_araddr(araddr),
    .s_axi_rvalid(rvalid), .s_axi_rready(rready), .s_axi_rdata(rdata), .s_axi_rresp(rresp),
    .ap_start(ap_start), .ap_done(ap_done_p), .ap_ready(ap_done_p), .ap_idle(!busy), .irq(irq),
    .args(args), .status(status)
);
gravf_axil_master host (
    .clk(clk),
    .awvalid(awvalid), .awready(awready), .awaddr(awaddr), .wvalid(wvalid), .wready(wready), .wdata(wdata), .wstrb(wstrb),
    .bvalid(bvalid), .bready(bready), .bresp(bresp),
    .arvalid(arvalid), .arready(arready), .araddr(araddr), .rvalid(rvalid), .rready(rready), .rdata(rdata), .rresp(rresp)
);
gravf_axil_check #(.NAME(NAME)) check (
    .clk(clk), .rst(rst),
    .awvalid(awvalid), .awready(awready), .awaddr(awaddr), .wvalid(wvalid), .wready(wready), .wdata(wdata), .wstrb(wstrb),
    .bvalid(bvalid), .bready(bready), .bresp(bresp),
    .arvalid(arvalid), .arready(arready), .araddr(araddr), .rvalid(rvalid), .rready(rready), .rdata(rdata), .rresp(rresp)
);

// The stand-in kernel: a start (ap_start while idle) runs RUN cycles.
always @(posedge clk) begin
    ap_done_p <= 1'b0;
    if (rst) begin
        busy <= 1'b0;
        runs = 0;
    end else if (!busy && ap_start && !ap_done_p) begin
        busy <= 1'b1;
        left = RUN;
    end else if (busy) begin
        left = left - 1;
        if (left == 0) begin
            busy      <= 1'b0;
            ap_done_p <= 1'b1;
            runs = runs + 1;
        end
    end
end

task expect_reg;
    input [11:0] addr;
    input [31:0] mask;
    input [31:0] want;
    input [8*40:1] what;
    reg [31:0] v;
    begin
        host.read32(addr, v);
        if ((v & mask) !== want) begin
            $display("RESULT FAIL unit %0s: %0s: register %h reads %h, want %h under mask %h", NAME, what, addr, v, want, mask);
            $fatal(1, "unit");
        end
    end
endtask

integer i;
reg [31:0] v;
initial begin
    done = 1'b0;
    status = {32'h0badcafe, 32'h12345678, 32'hdeadbeef};
    @(negedge rst);
    repeat (3) @(posedge clk);
    for (i = 0; i < NARG; i = i + 1) host.write32(12'h010 + 4 * i, 32'h1000 + i * 17);
    for (i = 0; i < NARG; i = i + 1) expect_reg(12'h010 + 4 * i, 32'hffffffff, 32'h1000 + i * 17, "argument");
    if (args[2*32 +: 32] !== 32'h1000 + 2 * 17) begin
        $display("RESULT FAIL unit %0s: argument 2 drives %h", NAME, args[2*32 +: 32]);
        $fatal(1, "unit");
    end
    expect_reg(12'h104, 32'hffffffff, 32'h12345678, "status word 1");
    expect_reg(12'h200, 32'hffffffff, 32'h0, "unmapped address");
    expect_reg(12'h000, 32'h0000000f, 32'h4, "idle before start");
    // Interrupts on ap_done; start; the interrupt rises at the end.
    host.write32(12'h004, 1);
    host.write32(12'h008, 1);
    host.write32(12'h000, 1);
    expect_reg(12'h000, 32'h00000005, 32'h1, "started, not idle");
    wait (irq);
    expect_reg(12'h00c, 32'h3, 32'h1, "ISR after ap_done");
    expect_reg(12'h000, 32'h0000000f, 32'he, "done, idle and ready");
    expect_reg(12'h000, 32'h0000000f, 32'h4, "done cleared on read");
    host.write32(12'h00c, 1);
    expect_reg(12'h00c, 32'h3, 32'h0, "ISR toggled off");
    if (irq) begin
        $display("RESULT FAIL unit %0s: interrupt still high after the ISR write", NAME);
        $fatal(1, "unit");
    end
    // auto_restart: the kernel runs again and again until it is cleared.
    host.write32(12'h000, 32'h81);
    wait (runs == 3);
    host.write32(12'h000, 32'h00);
    wait (!busy);
    repeat (RUN + 10) @(posedge clk);
    if (runs != 3 && runs != 4) begin
        $display("RESULT FAIL unit %0s: %0d runs with auto_restart", NAME, runs);
        $fatal(1, "unit");
    end
    expect_reg(12'h000, 32'h00000081, 32'h0, "auto_restart and ap_start cleared");
    done = 1'b1;
end

endmodule

`default_nettype wire
