// Unit test of gravf_scatter_bram with 2 PEs and 16 vertices, vertex u
// holding u % 4 edges: a random stream of updates and barrier markers
// under random back-pressure (out_room) must come out as every update's
// edges in order, each channel's second marker behind them with the AND of
// the channel's halt bits. A second phase without back-pressure checks
// that lists follow each other without a gap: 12 updates of 3 edges take
// 36 consecutive cycles of output.
`timescale 1ns/1ps
`default_nettype none

module tb_gravf_scatter_bram;

localparam VID = 4, UPW = 4, LA = 3, EA = 6, DW = 32;

reg clk = 1'b0;
always #1 clk = ~clk;
reg            rst = 1'b1;
reg            in_valid = 1'b0, in_barrier = 1'b0, in_halt = 1'b0;
reg  [1:0]     in_round = 2'd0;
reg  [VID-1:0] in_sender = 0;
reg  [UPW-1:0] in_payload = 0;
reg            out_room = 1'b1;
wire           in_ready, out_valid, out_barrier, out_halt, passed;
wire [1:0]     out_round;
wire [VID-1:0] out_sender, out_neighbor;
wire [UPW-1:0] out_payload;
wire [DW-1:0]  out_degree;
wire [LA-1:0]  out_local;
wire           out_edge;

gravf_scatter_bram #(.NPE(2), .VID(VID), .UPW(UPW), .LA(LA), .ED(0), .NVERTICES(16), .NEDGES(24), .EA(EA), .DW(DW)) dut (
    .clk(clk), .rst(rst),
    .in_valid(in_valid), .in_ready(in_ready), .in_barrier(in_barrier), .in_halt(in_halt), .in_round(in_round),
    .in_sender(in_sender), .in_payload(in_payload),
    .out_room(out_room), .out_valid(out_valid), .out_barrier(out_barrier), .out_halt(out_halt), .out_round(out_round),
    .out_sender(out_sender), .out_payload(out_payload), .out_degree(out_degree), .out_neighbor(out_neighbor),
    .out_local(out_local), .out_edge(out_edge), .passed(passed)
);

// Expected outputs: {barrier, halt, round, sender, payload, neighbour, local}.
reg  [18:0] expect [0:4095];
integer     ex_head = 0, ex_tail = 0;
integer     seed = 5, errors = 0, n, u, j, start, markers = 0, outs = 0, first = -1, last = -1, edges = 0, accepted = 0;
reg         halt_all = 1'b1;

// The j-th neighbour of vertex u.
function [VID-1:0] nbr;
    input integer u, j;
    begin
        nbr = (3 * u + j) % 16;
    end
endfunction

initial begin
    // The images: vertex u's list of u % 4 edges, neighbour (3u + j) % 16
    // with local index j; out-degree u + 10.
    start = 0;
    for (u = 0; u < 16; u = u + 1) begin
        dut.index_ram.mem[u] = {start[EA-1:0], u[EA-1:0] % 6'd4, u[31:0] + 32'd10};
        for (j = 0; j < u % 4; j = j + 1) dut.edge_ram.mem[start + j] = {nbr(u, j), j[LA-1:0]};
        start = start + u % 4;
    end
end

// The model: what the unit accepts, it must hand on.
always @(posedge clk) begin
    if (!rst && in_valid && in_ready) begin
        accepted = accepted + 1;
        if (in_barrier) begin
            if (markers == 1) begin
                expect[ex_tail % 4096] = {1'b1, halt_all & in_halt, in_round, {VID{1'b0}}, {UPW{1'b0}}, {VID{1'b0}}, {LA{1'b0}}};
                ex_tail = ex_tail + 1;
                markers = 0;
                halt_all = 1'b1;
            end else begin
                markers = markers + 1;
                halt_all = halt_all & in_halt;
            end
        end else begin
            for (j = 0; j < in_sender % 4; j = j + 1) begin
                expect[ex_tail % 4096] = {2'b00, in_round, in_sender, in_payload, nbr(in_sender, j), j[LA-1:0]};
                ex_tail = ex_tail + 1;
            end
        end
    end
    if (out_valid) begin
        if (ex_head == ex_tail || {out_barrier, out_halt, out_round, out_sender, out_payload, out_neighbor, out_local} !== expect[ex_head % 4096]
            || (!out_barrier && out_degree !== {28'd0, out_sender} + 32'd10)) begin
            if (errors < 5) $display("output %0d: %b, want %b", outs, {out_barrier, out_halt, out_round, out_sender, out_payload, out_neighbor, out_local}, expect[ex_head % 4096]);
            errors = errors + 1;
        end
        ex_head = ex_head + 1;
        outs = outs + 1;
        if (!out_barrier) begin
            if (first < 0) first = n;
            last = n;
            edges = edges + 1;
        end
    end
end

initial begin
    // Phase 1: random items under random back-pressure.
    for (n = 0; n < 4000; n = n + 1) begin
        @(negedge clk);
        if (n == 2) rst = 1'b0;
        if (!in_valid || in_ready) begin
            in_valid   = !rst && $random(seed) % 4 != 0;
            in_barrier = $random(seed) % 5 == 0;
            in_halt    = $random(seed) % 3 != 0;
            in_round   = in_round + (in_barrier && markers == 1);
            in_sender  = in_barrier ? $random(seed) % 2 : $random(seed) % 16;
            in_payload = in_sender + 1;
        end
        out_room = $random(seed) % 3 != 0;
    end
    in_valid = 1'b0;
    out_room = 1'b1;
    repeat (50) @(negedge clk);
    if (ex_head != ex_tail) errors = errors + 1;
    // Phase 2: 12 updates of vertex 3 (three edges each), no back-pressure.
    first = -1;
    edges = 0;
    u = accepted + 12;
    @(negedge clk);
    in_barrier = 1'b0;
    in_sender  = 3;
    in_payload = 4;
    in_valid   = 1'b1;
    while (accepted < u) begin
        @(negedge clk);
        n = n + 1;
        if (accepted == u) in_valid = 1'b0;
    end
    in_valid = 1'b0;
    repeat (20) begin
        @(negedge clk);
        n = n + 1;
    end
    if (ex_head != ex_tail || edges != 36 || last - first != 35) begin
        $display("no-gap phase: %0d edges in cycles %0d..%0d", edges, first, last);
        errors = errors + 1;
    end
    if (errors == 0 && outs > 1000) $display("PASS"); else $display("FAIL %0d errors, %0d outputs", errors, outs);
    $finish;
end

endmodule

`default_nettype wire
