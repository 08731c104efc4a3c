// Unit test of gravf_delay: random data and clock enables through lines
// of 0, 1 and 5 stages, one with a reset, against a model kept in a
// history of the enabled cycles' inputs.
`timescale 1ns/1ps
`default_nettype none

module tb_gravf_delay;

reg clk = 1'b0;
always #1 clk = ~clk;
reg        rst = 1'b1;
reg        ce = 1'b0;
reg  [7:0] in = 8'd0;
wire [7:0] out0, out1, out5;
wire       v5;

gravf_delay #(.WIDTH(8), .DELAY(0)) line0 (.clk(clk), .rst(rst), .ce(ce), .in(in), .out(out0));
gravf_delay #(.WIDTH(8), .DELAY(1)) line1 (.clk(clk), .rst(rst), .ce(ce), .in(in), .out(out1));
gravf_delay #(.WIDTH(8), .DELAY(5)) line5 (.clk(clk), .rst(rst), .ce(ce), .in(in), .out(out5));
gravf_delay #(.WIDTH(1), .DELAY(5), .RESET(1)) valid5 (.clk(clk), .rst(rst), .ce(ce), .in(1'b1), .out(v5));

reg [7:0] hist [0:5];   // hist[i]: the input i enabled cycles ago
integer   enabled = 0;  // enabled cycles since reset
integer   errors = 0, n, i;
integer   seed = 7;

initial begin
    for (n = 0; n < 400; n = n + 1) begin
        @(negedge clk);
        if (n == 3) rst = 1'b0;
        // Check the outputs against the history before this edge.
        if (out0 !== in) errors = errors + 1;
        if (!rst && enabled >= 1 && out1 !== hist[0]) errors = errors + 1;
        if (!rst && enabled >= 5 && out5 !== hist[4]) errors = errors + 1;
        if (!rst && v5 !== (enabled >= 5)) errors = errors + 1;
        ce = $random(seed) % 3 != 0;
        in = $random(seed);
        @(posedge clk);
        if (rst) enabled = 0;
        else if (ce) begin
            for (i = 5; i > 0; i = i - 1) hist[i] = hist[i-1];
            hist[0] = in;
            enabled = enabled + 1;
        end
    end
    if (errors == 0) $display("PASS"); else $display("FAIL %0d errors", errors);
    $finish;
end

endmodule

`default_nettype wire
