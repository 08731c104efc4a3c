// gravf_axi_mem: an AXI4 slave memory for simulation: one memory bank
// (a DDR channel or an HBM pseudo-channel) behind one AXI4 port.
//
// It holds WORDS words of DW bits from byte address BASE on, and accepts
// INCR bursts of full-width beats (1 to 256 beats) for reads and writes.
// Everything it does is random but reproducible: a xorshift generator
// seeded with SEED decides, cycle by cycle, whether arready, awready,
// wready, rvalid and bvalid rise (each with probability READY_PCT %) and
// how long each burst waits before its data or response (LAT_MIN to
// LAT_MAX cycles after it was accepted). Bursts of one id are answered in
// the order they were accepted; bursts of different ids may overtake each
// other (a burst is chosen at random among the due ones whose id has no
// older burst waiting), and a read burst's beats are never interleaved
// with another's. Write data is taken only for an accepted address; wstrb
// is honoured.
//
// The memory is loaded from up to four $readmemh images (INIT0..INIT3,
// each of LEN0..LEN3 words at word offset OFF0..OFF3); the testbench reads it back through
// the word function or hierarchically (mem). An access outside the
// memory, a burst type other than INCR, a narrow or unaligned beat, or a
// wlast off the last beat ends the simulation with RESULT FAIL. Every
// output is a register; the bookkeeping is sequential code in one process.
`default_nettype none

module gravf_axi_mem #(
    parameter        DW        = 512,
    parameter        IDW       = 1,
    parameter [63:0] BASE      = 64'h0,
    parameter        WORDS     = 1024,
    parameter [31:0] SEED      = 32'd1,
    parameter        READY_PCT = 70,
    parameter        LAT_MIN   = 1,
    parameter        LAT_MAX   = 20,
    parameter        QUEUE     = 32,     // bursts waiting, per direction
    parameter        NAME      = "mem",
    // Images: file, first word, words.
    parameter        INIT0     = "", parameter OFF0 = 0, parameter LEN0 = 1,
    parameter        INIT1     = "", parameter OFF1 = 0, parameter LEN1 = 1,
    parameter        INIT2     = "", parameter OFF2 = 0, parameter LEN2 = 1,
    parameter        INIT3     = "", parameter OFF3 = 0, parameter LEN3 = 1
) (
    input  wire            clk,
    input  wire            rst,
    // Write address, data, response.
    input  wire            s_axi_awvalid,
    output reg             s_axi_awready,
    input  wire [63:0]     s_axi_awaddr,
    input  wire [7:0]      s_axi_awlen,
    input  wire [2:0]      s_axi_awsize,
    input  wire [1:0]      s_axi_awburst,
    input  wire [IDW-1:0]  s_axi_awid,
    input  wire            s_axi_wvalid,
    output reg             s_axi_wready,
    input  wire [DW-1:0]   s_axi_wdata,
    input  wire [DW/8-1:0] s_axi_wstrb,
    input  wire            s_axi_wlast,
    output reg             s_axi_bvalid,
    input  wire            s_axi_bready,
    output wire [1:0]      s_axi_bresp,
    output reg  [IDW-1:0]  s_axi_bid,
    // Read address and data.
    input  wire            s_axi_arvalid,
    output reg             s_axi_arready,
    input  wire [63:0]     s_axi_araddr,
    input  wire [7:0]      s_axi_arlen,
    input  wire [2:0]      s_axi_arsize,
    input  wire [1:0]      s_axi_arburst,
    input  wire [IDW-1:0]  s_axi_arid,
    output reg             s_axi_rvalid,
    input  wire            s_axi_rready,
    output reg  [DW-1:0]   s_axi_rdata,
    output wire [1:0]      s_axi_rresp,
    output reg             s_axi_rlast,
    output reg  [IDW-1:0]  s_axi_rid
);

/* verilator lint_off BLKSEQ */ // testbench model: its bookkeeping is sequential code, read only in its own process

localparam integer BYTES = DW / 8;
localparam integer SIZE  = $clog2(BYTES);

reg [DW-1:0] mem [0:WORDS-1];

initial begin
    if (INIT0 != "") $readmemh(INIT0, mem, OFF0, OFF0 + LEN0 - 1);
    if (INIT1 != "") $readmemh(INIT1, mem, OFF1, OFF1 + LEN1 - 1);
    if (INIT2 != "") $readmemh(INIT2, mem, OFF2, OFF2 + LEN2 - 1);
    if (INIT3 != "") $readmemh(INIT3, mem, OFF3, OFF3 + LEN3 - 1);
end

assign s_axi_bresp = 2'b00;
assign s_axi_rresp = 2'b00;

// ---------------------------------------------------------------- random
reg [31:0] rng;
function [31:0] xorshift;
    input [31:0] x;
    reg   [31:0] y;
    begin
        y = x ^ (x << 13);
        y = y ^ (y >> 17);
        xorshift = y ^ (y << 5);
    end
endfunction
// Draw the next number (blocking: several draws per cycle, in a fixed order).
task draw;
    output [31:0] v;
    begin
        rng = xorshift(rng);
        v   = rng;
    end
endtask

integer now;

// Check an address phase; return the word index of its first beat.
task check_burst;
    input [63:0] addr;
    input [7:0]  len;
    input [2:0]  size;
    input [1:0]  burst;
    input [8*5:1] what;
    output integer first;
    reg   [64:0] off;               // bit 64: the address is below BASE
    reg   [64:0] beat;
    begin
        if (burst != 2'b01 || size != SIZE[2:0] || addr[SIZE-1:0] != 0) begin
            $display("RESULT FAIL %0s: %0s burst at %h: burst type %0d, size %0d (only INCR bursts of %0d-byte aligned beats)",
                     NAME, what, addr, burst, size, BYTES);
            $fatal(1, "memory access");
        end
        off  = {1'b0, addr} - {1'b0, BASE};
        beat = off >> SIZE;
        if (off[64] || beat + {57'd0, len} + 65'd1 > WORDS) begin
            $display("RESULT FAIL %0s: %0s burst of %0d beats at %h outside the memory (%h + %0d bytes)",
                     NAME, what, len + 1, addr, BASE, WORDS * BYTES);
            $fatal(1, "memory access");
        end
        first = beat[31:0];
    end
endtask

// ------------------------------------------------------------------ reads
integer rq_n;                         // read bursts waiting
reg [IDW-1:0] rq_id  [0:QUEUE-1];
integer       rq_at  [0:QUEUE-1];     // word index of the first beat
integer       rq_len [0:QUEUE-1];     // beats - 1
integer       rq_due [0:QUEUE-1];
integer       r_sel;                  // the burst being answered (-1: none)
integer       r_beat;

// ----------------------------------------------------------------- writes
integer wq_n;                         // write bursts whose data is awaited
reg [IDW-1:0] wq_id  [0:QUEUE-1];
integer       wq_at  [0:QUEUE-1];
integer       wq_len [0:QUEUE-1];
integer       w_beat;
integer bq_n;                         // write responses waiting
reg [IDW-1:0] bq_id  [0:QUEUE-1];
integer       bq_due [0:QUEUE-1];
integer       b_sel;

// Choose at random one due entry whose id has no older entry waiting.
task choose;
    input integer n;
    input integer which;               // 0: read bursts, 1: write responses
    output integer sel;
    integer i, j, count, pick;
    reg ok;
    reg [31:0] v;
    reg [IDW-1:0] id_i;
    begin
        count = 0;
        for (i = 0; i < n; i = i + 1) begin
            id_i = which == 0 ? rq_id[i] : bq_id[i];
            ok = (which == 0 ? rq_due[i] : bq_due[i]) <= now;
            for (j = 0; j < i; j = j + 1)
                if ((which == 0 ? rq_id[j] : bq_id[j]) == id_i) ok = 0;
            if (ok) count = count + 1;
        end
        sel = -1;
        if (count > 0) begin
            draw(v);
            pick = v % count;
            for (i = 0; i < n; i = i + 1) begin
                id_i = which == 0 ? rq_id[i] : bq_id[i];
                ok = (which == 0 ? rq_due[i] : bq_due[i]) <= now;
                for (j = 0; j < i; j = j + 1)
                    if ((which == 0 ? rq_id[j] : bq_id[j]) == id_i) ok = 0;
                if (ok) begin
                    if (pick == 0 && sel < 0) sel = i;
                    pick = pick - 1;
                end
            end
        end
    end
endtask

integer i, k, first;
reg [31:0] v;
integer lat_span;

always @(posedge clk) begin
    if (rst) begin
        rng           = SEED | 32'd1;
        now           = 0;
        rq_n          = 0;
        wq_n          = 0;
        bq_n          = 0;
        r_sel         = -1;
        b_sel         = -1;
        w_beat        = 0;
        s_axi_arready <= 1'b0;
        s_axi_awready <= 1'b0;
        s_axi_wready  <= 1'b0;
        s_axi_rvalid  <= 1'b0;
        s_axi_bvalid  <= 1'b0;
    end else begin
        now = now + 1;
        lat_span = LAT_MAX - LAT_MIN + 1;

        // Read data: finish the beat that was taken, then offer the next.
        if (s_axi_rvalid && s_axi_rready) begin
            if (r_beat == rq_len[r_sel]) begin
                for (k = r_sel; k < rq_n - 1; k = k + 1) begin
                    rq_id[k] = rq_id[k+1]; rq_at[k] = rq_at[k+1]; rq_len[k] = rq_len[k+1]; rq_due[k] = rq_due[k+1];
                end
                rq_n  = rq_n - 1;
                r_sel = -1;
            end else begin
                r_beat = r_beat + 1;
            end
        end
        if (!s_axi_rvalid || s_axi_rready) begin
            s_axi_rvalid <= 1'b0;
            if (r_sel < 0) begin
                choose(rq_n, 0, r_sel);
                r_beat = 0;
            end
            draw(v);
            if (r_sel >= 0 && v % 100 < READY_PCT) begin
                s_axi_rvalid <= 1'b1;
                s_axi_rdata  <= mem[rq_at[r_sel] + r_beat];
                s_axi_rlast  <= r_beat == rq_len[r_sel];
                s_axi_rid    <= rq_id[r_sel];
            end
        end

        // Read addresses.
        if (s_axi_arvalid && s_axi_arready) begin
            check_burst(s_axi_araddr, s_axi_arlen, s_axi_arsize, s_axi_arburst, "read", first);
            draw(v);
            rq_id[rq_n]  = s_axi_arid;
            rq_at[rq_n]  = first;
            rq_len[rq_n] = {24'd0, s_axi_arlen};
            rq_due[rq_n] = now + LAT_MIN + v % lat_span;
            rq_n = rq_n + 1;
        end
        draw(v);
        s_axi_arready <= rq_n < QUEUE && v % 100 < READY_PCT;

        // Write data for the oldest address; its response after a latency.
        if (s_axi_wvalid && s_axi_wready) begin
            if (s_axi_wlast != (w_beat == wq_len[0])) begin
                $display("RESULT FAIL %0s: wlast %b on beat %0d of a %0d-beat write burst", NAME, s_axi_wlast, w_beat + 1, wq_len[0] + 1);
                $fatal(1, "memory access");
            end
            for (i = 0; i < BYTES; i = i + 1)
                if (s_axi_wstrb[i]) mem[wq_at[0] + w_beat][i*8 +: 8] = s_axi_wdata[i*8 +: 8];
            if (w_beat == wq_len[0]) begin
                draw(v);
                bq_id[bq_n]  = wq_id[0];
                bq_due[bq_n] = now + LAT_MIN + v % lat_span;
                bq_n = bq_n + 1;
                for (k = 0; k < wq_n - 1; k = k + 1) begin
                    wq_id[k] = wq_id[k+1]; wq_at[k] = wq_at[k+1]; wq_len[k] = wq_len[k+1];
                end
                wq_n   = wq_n - 1;
                w_beat = 0;
            end else begin
                w_beat = w_beat + 1;
            end
        end
        // Write addresses.
        if (s_axi_awvalid && s_axi_awready) begin
            check_burst(s_axi_awaddr, s_axi_awlen, s_axi_awsize, s_axi_awburst, "write", first);
            wq_id[wq_n]  = s_axi_awid;
            wq_at[wq_n]  = first;
            wq_len[wq_n] = {24'd0, s_axi_awlen};
            wq_n = wq_n + 1;
        end
        draw(v);
        s_axi_awready <= wq_n < QUEUE && v % 100 < READY_PCT;
        draw(v);
        s_axi_wready  <= wq_n > 0 && bq_n < QUEUE && v % 100 < READY_PCT;

        // Write responses.
        if (s_axi_bvalid && s_axi_bready) begin
            for (k = b_sel; k < bq_n - 1; k = k + 1) begin
                bq_id[k] = bq_id[k+1]; bq_due[k] = bq_due[k+1];
            end
            bq_n  = bq_n - 1;
            b_sel = -1;
        end
        if (!s_axi_bvalid || s_axi_bready) begin
            s_axi_bvalid <= 1'b0;
            if (b_sel < 0) choose(bq_n, 1, b_sel);
            draw(v);
            if (b_sel >= 0 && v % 100 < READY_PCT) begin
                s_axi_bvalid <= 1'b1;
                s_axi_bid    <= bq_id[b_sel];
            end
        end
    end
end

endmodule

`default_nettype wire
