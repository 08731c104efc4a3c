// gravf_axis_check: a passive AXI4-Stream protocol checker. It ends the
// simulation with "RESULT FAIL protocol <NAME>: <rule>" when tvalid is
// high in reset, or falls, or tdata changes, before tready took the word.
// It counts the words that passed (words), for the testbench's report.
`default_nettype none

module gravf_axis_check #(
    parameter TW   = 64,
    parameter NAME = "axis"
) (
    input wire          clk,
    input wire          rst,
    input wire          tvalid,
    input wire          tready,
    input wire [TW-1:0] tdata
);

/* verilator lint_off BLKSEQ */ // testbench model: its bookkeeping is sequential code, read only in its own process
integer  cycle;
integer  words;
reg          waiting;
reg [TW-1:0] held;

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
        words = 0;
        waiting <= 1'b0;
        if (tvalid) fail("tvalid is high in reset");
    end else begin
        cycle = cycle + 1;
        if (waiting && !tvalid) fail("tvalid fell before tready");
        if (waiting && tdata != held) fail("tdata changed before tready");
        waiting <= tvalid && !tready;
        held    <= tdata;
        if (tvalid && tready) words = words + 1;
    end
end

endmodule

`default_nettype wire
