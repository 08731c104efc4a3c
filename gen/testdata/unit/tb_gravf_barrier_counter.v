// Unit test of gravf_barrier_counter for 3 PEs: channels of markers with
// random halt bits, taken at random, interleaved with updates; complete
// and halt must name every third marker and the AND of its channel's
// halt bits, passed must pulse once per channel.
`timescale 1ns/1ps
`default_nettype none

module tb_gravf_barrier_counter;

reg clk = 1'b0;
always #1 clk = ~clk;
reg  rst = 1'b1;
reg  in_valid = 1'b0, in_barrier = 1'b0, in_halt = 1'b0, take = 1'b0;
wire complete, halt, passed;

gravf_barrier_counter #(.NPE(3)) dut (
    .clk(clk), .rst(rst), .in_valid(in_valid), .in_barrier(in_barrier), .in_halt(in_halt), .take(take),
    .complete(complete), .halt(halt), .passed(passed)
);

integer seed = 3, errors = 0, n, markers = 0, channels = 0, passes = 0;
reg     halt_all = 1'b1;

always @(posedge clk) if (passed) passes = passes + 1;

initial begin
    for (n = 0; n < 600; n = n + 1) begin
        @(negedge clk);
        if (n == 2) rst = 1'b0;
        in_valid   = !rst && ($random(seed) % 2 == 0);
        in_barrier = $random(seed) % 3 == 0;
        in_halt    = $random(seed) % 4 != 0;
        take       = in_valid && in_barrier && ($random(seed) % 2 == 0);
        #0.5;
        if (in_valid && in_barrier) begin
            if (complete !== (markers == 2)) errors = errors + 1;
            if (complete && halt !== (halt_all & in_halt)) errors = errors + 1;
        end else if (complete) errors = errors + 1;
        if (take && in_barrier) begin
            if (markers == 2) begin
                markers = 0;
                halt_all = 1'b1;
                channels = channels + 1;
            end else begin
                markers = markers + 1;
                halt_all = halt_all & in_halt;
            end
        end
    end
    @(negedge clk);
    if (passes != channels) errors = errors + 1;
    if (errors == 0 && channels > 10) $display("PASS"); else $display("FAIL %0d errors, %0d channels, %0d passes", errors, channels, passes);
    $finish;
end

endmodule

`default_nettype wire
