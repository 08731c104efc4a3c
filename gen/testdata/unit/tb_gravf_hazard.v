// Unit test of gravf_hazard, both detectors, with a gather unit that reads
// a random head message whenever the detector lets it.
//
// exact: GL = 4, so a message may not be read within 3 cycles of one for
// the same vertex; the model remembers the last reads.
// slots: NLOCAL = 9 (16 slots, the low 4 bits of the local index); each
// read message writes back 1 to 4 cycles later, in order, and its slot is
// closed from its read to its write-back (it may be read in the cycle of
// the write-back).
`timescale 1ns/1ps
`default_nettype none

module tb_gravf_hazard;

reg clk = 1'b0;
always #1 clk = ~clk;
reg        rst = 1'b1;
reg  [4:0] head;          // the head message's local index
reg        read_e, read_s;
reg        wb;
reg  [4:0] wb_local;
wire       hz_e, fl_e, hz_s, fl_s;

gravf_hazard #(.EXACT(1), .GL(4), .LA(5), .NLOCAL(20)) exact (
    .clk(clk), .rst(rst), .head_local(head), .read(read_e), .wb(1'b0), .wb_local(5'd0), .hazard(hz_e), .in_flight(fl_e)
);
gravf_hazard #(.EXACT(0), .LA(5), .NLOCAL(9)) slots (
    .clk(clk), .rst(rst), .head_local(head), .read(read_s), .wb(wb), .wb_local(wb_local), .hazard(hz_s), .in_flight(fl_s)
);

integer seed = 11, errors = 0, n, i, reads_e = 0, reads_s = 0;
integer last [0:31];      // exact: the cycle each vertex was last read
integer q_local [0:63];   // slots: outstanding reads in order, and when they write back
integer q_due [0:63];
integer q_head = 0, q_tail = 0;
reg     busy [0:15];
reg     want_e, want_s, any;

initial begin
    for (i = 0; i < 32; i = i + 1) last[i] = -100;
    for (i = 0; i < 16; i = i + 1) busy[i] = 1'b0;
    for (n = 0; n < 3000; n = n + 1) begin
        @(negedge clk);
        if (n == 2) rst = 1'b0;
        head = $random(seed) % 12;
        // Write-back of the oldest outstanding message when it is due.
        wb = q_head != q_tail && q_due[q_head % 64] <= n;
        wb_local = wb ? q_local[q_head % 64] : 5'd0;
        #0.5;
        // The models.
        want_e = n - last[head] < 4;
        any = 1'b0;
        for (i = 0; i < 32; i = i + 1) if (n - last[i] < 4) any = 1'b1;
        want_s = busy[head[3:0]] && !(wb && wb_local[3:0] == head[3:0]);
        if (!rst && (hz_e !== want_e || fl_e !== any)) errors = errors + 1;
        if (!rst && hz_s !== want_s) errors = errors + 1;
        read_e = !rst && !hz_e && $random(seed) % 2 == 0;
        read_s = !rst && !hz_s && $random(seed) % 2 == 0;
        @(posedge clk);
        if (read_e) begin
            last[head] = n;
            reads_e = reads_e + 1;
        end
        if (wb) begin
            busy[wb_local[3:0]] = 1'b0;
            q_head = q_head + 1;
        end
        if (read_s) begin
            busy[head[3:0]] = 1'b1;
            q_local[q_tail % 64] = head;
            q_due[q_tail % 64] = n + 1 + ($random(seed) & 3);
            if (q_tail > q_head && q_due[q_tail % 64] < q_due[(q_tail - 1) % 64]) q_due[q_tail % 64] = q_due[(q_tail - 1) % 64];
            q_tail = q_tail + 1;
            reads_s = reads_s + 1;
        end
    end
    if (errors == 0 && reads_e > 500 && reads_s > 500) $display("PASS");
    else $display("FAIL %0d errors, %0d and %0d reads", errors, reads_e, reads_s);
    $finish;
end

endmodule

`default_nettype wire
