// Unit test of gravf_globals: six supersteps of a 16-bit global sum with a
// combine unit of latency 3 (a model in the testbench: the sum, delayed),
// three PEs. Each superstep sweeps a random number of contributions with
// random gaps, checks the partial of the local fold when the marker is
// pushed, hands in the three PEs' markers in a random order (the partial
// of one of them arriving before the local fold is done), and checks that
// ready rises and that advance makes the sum of the partials the value.
`timescale 1ns/1ps
`default_nettype none

module tb_gravf_globals;

localparam GW = 16, CL = 3, NPE = 3;

reg clk = 1'b0;
always #1 clk = ~clk;
reg           rst = 1'b1;
reg           contrib = 1'b0, sweep_end = 1'b0;
reg  [GW-1:0] contrib_data = 0;
reg           marker_take = 1'b0, marker_parity = 1'b0, marker_last = 1'b0;
reg  [1:0]    marker_pe = 2'd0;
reg  [GW-1:0] marker_data = 0;
reg           gather_end = 1'b0, advance = 1'b0;
wire          marker_push, ready;
wire [GW-1:0] partial, value;
wire [GW-1:0] la, lb, ga, gb;
wire          lv, gv;
reg  [GW-1:0] ly [0:CL-1], gy [0:CL-1];
reg  [CL-1:0] lyv = 0, gyv = 0;

gravf_globals #(.GW(GW), .CL(CL), .NPE(NPE), .IDENTITY(16'd0)) dut (
    .clk(clk), .rst(rst),
    .contrib(contrib), .contrib_data(contrib_data), .sweep_end(sweep_end),
    .marker_push(marker_push), .partial(partial),
    .marker_take(marker_take), .marker_parity(marker_parity), .marker_pe(marker_pe), .marker_data(marker_data),
    .marker_last(marker_last),
    .ready(ready), .gather_end(gather_end), .advance(advance), .value(value),
    .local_a(la), .local_b(lb), .local_valid(lv), .local_y(ly[CL-1]), .local_y_valid(lyv[CL-1]),
    .global_a(ga), .global_b(gb), .global_valid(gv), .global_y(gy[CL-1]), .global_y_valid(gyv[CL-1])
);

// The combine units: a + b, CL cycles later.
integer k;
always @(posedge clk) begin
    ly[0] <= la + lb;
    gy[0] <= ga + gb;
    for (k = 1; k < CL; k = k + 1) begin
        ly[k] <= ly[k-1];
        gy[k] <= gy[k-1];
    end
    lyv <= rst ? {CL{1'b0}} : {lyv[CL-2:0], lv};
    gyv <= rst ? {CL{1'b0}} : {gyv[CL-2:0], gv};
end

integer errors = 0, seed = 11, s, i, n, p, first, waited;
reg [GW-1:0] sum, psum, parts [0:NPE-1];

// One marker of PE p with partial parts[p]; last: the superstep's last.
task marker(input integer p, input last);
    begin
        @(negedge clk);
        marker_take = 1'b1; marker_parity = s[0]; marker_pe = p; marker_data = parts[p]; marker_last = last;
        @(negedge clk);
        marker_take = 1'b0; marker_last = 1'b0;
    end
endtask

initial begin
    repeat (3) @(negedge clk);
    rst = 1'b0;
    for (s = 0; s < 6; s = s + 1) begin
        // The other PEs' partials; PE `first` sends before the local fold ends.
        for (p = 0; p < NPE; p = p + 1) parts[p] = $random(seed);
        first = $unsigned($random(seed)) % NPE;
        // The sweep.
        n = $unsigned($random(seed)) % 20;
        sum = 0;
        for (i = 0; i < n; i = i + 1) begin
            @(negedge clk);
            contrib = 1'b1; contrib_data = $random(seed); sum = sum + contrib_data;
            @(negedge clk);
            contrib = 1'b0;
            if ($random(seed) % 2) @(negedge clk);
        end
        @(negedge clk);
        sweep_end = 1'b1;
        @(negedge clk);
        sweep_end = 1'b0;
        marker(first, 1'b0);
        waited = 0;
        while (!marker_push && waited < 100) begin
            @(negedge clk);
            waited = waited + 1;
        end
        if (!marker_push || partial !== sum) begin
            $display("superstep %0d: marker_push %b partial %h, want %h", s, marker_push, partial, sum);
            errors = errors + 1;
        end
        // The remaining markers, the last completing the superstep.
        p = 0;
        for (i = 0; i < NPE; i = i + 1) if (i != first) begin
            p = p + 1;
            marker(i, p == NPE - 1);
        end
        psum = 0;
        for (p = 0; p < NPE; p = p + 1) psum = psum + parts[p];
        waited = 0;
        while (!ready && waited < 100) begin
            @(negedge clk);
            waited = waited + 1;
        end
        if (!ready) begin
            $display("superstep %0d: ready stays low", s);
            errors = errors + 1;
        end
        gather_end = 1'b1; advance = 1'b1;
        @(negedge clk);
        gather_end = 1'b0; advance = 1'b0;
        if (value !== psum || ready) begin
            $display("superstep %0d: value %h, want %h; ready %b", s, value, psum, ready);
            errors = errors + 1;
        end
    end
    if (errors == 0) $display("PASS"); else $display("FAIL %0d errors", errors);
    $finish;
end

endmodule

`default_nettype wire
