// tb_units: every hand-written Vitis building block against its models,
// each unit with its own parameters, all at once; prints "UNITS PASS" when
// every unit is done, or a unit's "RESULT FAIL ..." and stops.
`timescale 1ns/1ps
`default_nettype none

module tb_units;

reg clk = 1'b0;
reg rst = 1'b1;
always #2 clk = ~clk;
integer cycles = 0;
always @(posedge clk) begin
    cycles <= cycles + 1;
    if (cycles == 5) rst <= 1'b0;
    if (cycles > 400000) begin
        $display("RESULT FAIL units: not done after %0d cycles", cycles);
        $fatal(1, "watchdog");
    end
end

wire [11:0] d;
unit_axi #(.DW(512), .MAX_BURST(64), .MAX_OUT(4), .READY_PCT(60), .SEED(7), .NAME("axi 512")) axi512 (.clk(clk), .rst(rst), .done(d[0]));
unit_axi #(.DW(256), .MAX_BURST(16), .MAX_OUT(1), .READY_PCT(95), .SEED(99), .NAME("axi 256")) axi256 (.clk(clk), .rst(rst), .done(d[1]));
unit_edge #(.NL(3), .DW(256), .INFLIGHT(8), .READY_PCT(70), .SEED(5), .NAME("edge port 3 lanes")) edge3 (.clk(clk), .rst(rst), .done(d[2]));
unit_edge #(.NL(1), .DW(512), .INFLIGHT(4), .READY_PCT(40), .SEED(17), .NAME("edge port 1 lane")) edge1 (.clk(clk), .rst(rst), .done(d[3]));
unit_ctrl #(.NAME("control")) ctrl (.clk(clk), .rst(rst), .done(d[4]));
unit_link #(.UW(20), .DEPTH(16), .LATENCY(25), .READY_PCT(70), .SEED(11), .NAME("link 16")) link16 (.clk(clk), .rst(rst), .done(d[5]));
unit_link #(.UW(40), .DEPTH(4), .LATENCY(3), .READY_PCT(100), .SEED(23), .NAME("link 4")) link4 (.clk(clk), .rst(rst), .done(d[6]));
unit_async #(.WHALF(1.7), .RHALF(2.9), .ABITS(3), .SEED(3), .NAME("async slow reader")) async_sr (.rst(rst), .done(d[7]));
unit_async #(.WHALF(3.1), .RHALF(1.3), .ABITS(2), .SEED(8), .NAME("async fast reader")) async_fr (.rst(rst), .done(d[8]));
unit_loader #(.DW(512), .READY_PCT(60), .SEED(9), .NAME("loader 512")) loader512 (.clk(clk), .rst(rst), .done(d[9]));
unit_loader #(.DW(256), .READY_PCT(85), .SEED(13), .NAME("loader 256")) loader256 (.clk(clk), .rst(rst), .done(d[10]));
assign d[11] = 1'b1;

initial begin
    wait (&d);
    $display("UNITS PASS cycles=%0d", cycles);
    $finish;
end

endmodule

`default_nettype wire
