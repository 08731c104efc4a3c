// gravf_axi_check: a passive AXI4 protocol checker for one master port.
// It watches every channel and ends the simulation with
// "RESULT FAIL protocol <NAME>: <rule>" at the first violation of:
//
//   - valid low in reset; once high, valid stays high and the payload
//     stays stable until ready (AW, W, B, AR, R);
//   - address bursts: INCR, beats no wider than the bus, the address
//     aligned to the beat, and no burst across a 4 KB boundary;
//   - write data: wlast on exactly the last beat of its burst (the bursts'
//     data in address order; data may come before its address);
//   - responses only for issued requests: a write response only for a
//     burst of that id whose data is complete, read data only for an
//     outstanding burst of that id, rlast on exactly its last beat (bursts
//     of one id in order; different ids may interleave).
`default_nettype none

module gravf_axi_check #(
    parameter DW    = 512,
    parameter IDW   = 1,
    parameter NAME  = "m_axi",
    parameter QUEUE = 256           // bursts tracked per direction and id
) (
    input wire            clk,
    input wire            rst,
    input wire            awvalid, awready,
    input wire [63:0]     awaddr,
    input wire [7:0]      awlen,
    input wire [2:0]      awsize,
    input wire [1:0]      awburst,
    input wire [IDW-1:0]  awid,
    input wire            wvalid, wready,
    input wire [DW-1:0]   wdata,
    input wire [DW/8-1:0] wstrb,
    input wire            wlast,
    input wire            bvalid, bready,
    input wire [1:0]      bresp,
    input wire [IDW-1:0]  bid,
    input wire            arvalid, arready,
    input wire [63:0]     araddr,
    input wire [7:0]      arlen,
    input wire [2:0]      arsize,
    input wire [1:0]      arburst,
    input wire [IDW-1:0]  arid,
    input wire            rvalid, rready,
    input wire [DW-1:0]   rdata,
    input wire [1:0]      rresp,
    input wire            rlast,
    input wire [IDW-1:0]  rid
);

localparam integer BYTES = DW / 8;
localparam integer NID   = 1 << IDW;

/* verilator lint_off BLKSEQ */ // testbench checker: its bookkeeping is sequential code, read only in its own process

integer cycle;

task fail;
    input [8*96:1] rule;
    begin
        $display("RESULT FAIL protocol %0s: %0s (cycle %0d)", NAME, rule, cycle);
        $fatal(1, "protocol");
    end
endtask

// --------------------------------------------- valid held, payload stable
reg            aw_wait, w_wait, b_wait, ar_wait, r_wait;
reg [63+8+3+2+IDW:0]   aw_q, ar_q;
reg [DW+DW/8:0]        w_q;
reg [1+IDW:0]          b_q;
reg [DW+2+IDW:0]       r_q;
wire [63+8+3+2+IDW:0]  aw_p = {awaddr, awlen, awsize, awburst, awid};
wire [63+8+3+2+IDW:0]  ar_p = {araddr, arlen, arsize, arburst, arid};
wire [DW+DW/8:0]       w_p  = {wdata, wstrb, wlast};
wire [1+IDW:0]         b_p  = {bresp, bid};
wire [DW+2+IDW:0]      r_p  = {rdata, rresp, rlast, rid};

// ------------------------------------------------------ burst accounting
integer aw_len [0:QUEUE-1];           // write bursts' lengths, in address order
integer aw_id  [0:QUEUE-1];
integer aw_n, wb_n;                   // addresses seen, data bursts complete
integer w_beats;                      // beats of the data burst in progress
integer wlen   [0:QUEUE-1];           // lengths of data bursts complete (by wlast) before their address
integer b_owed [0:NID-1];             // complete writes per id without a response
integer rq_len [0:NID*QUEUE-1];       // outstanding read bursts per id, oldest first
integer rq_n   [0:NID-1];
integer r_beats[0:NID-1];
integer i, n;

task check_addr;
    input [63:0] a;
    input [7:0]  len;
    input [2:0]  size;
    input [1:0]  burst;
    begin
        if (burst != 2'b01) fail("burst type other than INCR");
        if ((1 << size) > BYTES) fail("beats wider than the data bus");
        if ((a & ((64'd1 << size) - 1)) != 0) fail("address not aligned to the beat size");
        if ((a & 64'hfff) + (({56'd0, len} + 64'd1) << size) > 64'd4096) fail("burst crosses a 4 KB boundary");
    end
endtask

// A data burst and its address are both known: its length must match.
task match_write;
    /* verilator lint_off UNUSEDSIGNAL */ // an index into the queues: only its low bits select
    input integer k;
    /* verilator lint_on UNUSEDSIGNAL */
    begin
        if (wlen[k] != aw_len[k]) fail("wlast not on the last beat of the burst");
        b_owed[aw_id[k]] = b_owed[aw_id[k]] + 1;
    end
endtask

always @(posedge clk) begin
    if (rst) begin
        cycle = 0;
        aw_n = 0; wb_n = 0; w_beats = 0;
        for (i = 0; i < NID; i = i + 1) begin
            b_owed[i] = 0; rq_n[i] = 0; r_beats[i] = 0;
        end
        aw_wait <= 1'b0; w_wait <= 1'b0; b_wait <= 1'b0; ar_wait <= 1'b0; r_wait <= 1'b0;
        if (awvalid || wvalid || arvalid) fail("a master valid is high in reset");
        if (bvalid || rvalid) fail("a slave valid is high in reset");
    end else begin
        cycle = cycle + 1;
        // Stability.
        if (aw_wait && (!awvalid || aw_p != aw_q)) fail("awvalid or the write address changed before awready");
        if (w_wait  && (!wvalid  || w_p  != w_q))  fail("wvalid or the write data changed before wready");
        if (b_wait  && (!bvalid  || b_p  != b_q))  fail("bvalid or the write response changed before bready");
        if (ar_wait && (!arvalid || ar_p != ar_q)) fail("arvalid or the read address changed before arready");
        if (r_wait  && (!rvalid  || r_p  != r_q))  fail("rvalid or the read data changed before rready");
        aw_wait <= awvalid && !awready; aw_q <= aw_p;
        w_wait  <= wvalid  && !wready;  w_q  <= w_p;
        b_wait  <= bvalid  && !bready;  b_q  <= b_p;
        ar_wait <= arvalid && !arready; ar_q <= ar_p;
        r_wait  <= rvalid  && !rready;  r_q  <= r_p;

        // Responses first: one must follow its request's handshake.
        if (bvalid && bready) begin
            if (b_owed[bid] == 0) fail("write response for no complete write of that id");
            b_owed[bid] = b_owed[bid] - 1;
        end
        if (rvalid && rready) begin
            if (rq_n[rid] == 0) fail("read data for no outstanding burst of that id");
            r_beats[rid] = r_beats[rid] + 1;
            if (rlast != (r_beats[rid] == rq_len[rid*QUEUE])) fail("rlast not on exactly the last beat of the burst");
            if (rlast) begin
                for (i = 0; i < rq_n[rid] - 1; i = i + 1) rq_len[rid*QUEUE + i] = rq_len[rid*QUEUE + i + 1];
                rq_n[rid] = rq_n[rid] - 1;
                r_beats[rid] = 0;
            end
        end

        // Writes: addresses and data bursts pair up in order.
        if (awvalid && awready) begin
            check_addr(awaddr, awlen, awsize, awburst);
            if (aw_n >= QUEUE) fail("more write bursts than the checker tracks");
            aw_len[aw_n] = {24'd0, awlen} + 1;
            aw_id[aw_n]  = {{(32-IDW){1'b0}}, awid};
            aw_n = aw_n + 1;
            if (wb_n >= aw_n) match_write(aw_n - 1);
        end
        if (wvalid && wready) begin
            w_beats = w_beats + 1;
            if (wb_n < aw_n && !wlast && w_beats == aw_len[wb_n]) fail("wlast missing on the last beat of the burst");
            if (wlast) begin
                wlen[wb_n] = w_beats;
                w_beats = 0;
                wb_n = wb_n + 1;
                if (wb_n <= aw_n) match_write(wb_n - 1);
            end
        end
        // Both counts fall back to zero once every burst is paired.
        if (aw_n == wb_n && w_beats == 0) begin
            aw_n = 0;
            wb_n = 0;
        end

        // Reads.
        if (arvalid && arready) begin
            check_addr(araddr, arlen, arsize, arburst);
            n = rq_n[arid];
            if (n >= QUEUE) fail("more read bursts of one id than the checker tracks");
            rq_len[arid*QUEUE + n] = {24'd0, arlen} + 1;
            rq_n[arid] = n + 1;
        end
    end
end

endmodule

`default_nettype wire
