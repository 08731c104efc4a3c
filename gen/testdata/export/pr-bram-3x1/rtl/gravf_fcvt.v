// gravf_fcvt: conversions between IEEE-754 binary32 and unsigned integers.
//
//   gravf_u2f #(W)  y = float32(a): W-bit unsigned a -> f32, round to
//                   nearest, ties to even (exact when W <= 24). 0 gives +0.
//   gravf_f2u #(W)  y = W-bit unsigned from f32 a: truncate toward zero and
//                   saturate into [0, 2^W - 1]; NaN (either sign), every
//                   negative value and -0 give 0; +Inf and every value
//                   >= 2^W - 1 give 2^W - 1. Subnormals are < 1 and give 0.
//
// W is 1 .. 64. Both are exactly Go's conversions as the kernel language
// defines them (float32(uint64) and kernel f32ToUint).
//
// Latency: 2 ce-cycles, one operation per cycle. The result for the input
// presented in a cycle with ce = 1 is on y after exactly 2 more clock edges
// with ce = 1; when ce = 0 both stages, y included, hold. y is a register.
// The datapath needs no reset: the first 2 results after power-up are
// undefined, every later one is valid.
`default_nettype none

// Both conversions share this file (one file per kind of operation), so
// their module names differ from the file name.
/* verilator lint_off DECLFILENAME */ // both conversions share one file

// gravf_u2f: stage 1 counts leading zeros and normalises, stage 2 rounds
// and packs.
module gravf_u2f #(
    parameter W = 32                           // input width, 1 .. 64
) (
    input  wire         clk,
    input  wire         ce,
    input  wire [W-1:0] a,
    output reg  [31:0]  y
);
    // a is extended by GR zero bits so that the 24-bit significand, the
    // guard bit and at least one sticky bit exist for every W.
    localparam       GR      = 26;
    localparam       IW      = W + GR;
    localparam [7:0] EXP_TOP = 8'd126 + W[7:0]; // biased exponent of 2^(W-1): 127 + W - 1

    localparam [6:0] W7 = W[6:0];

    // Leading-zero count, W for 0 (a priority encoder).
    function [6:0] lzc;
        input [W-1:0] v;
        integer i;
        begin
            lzc = W7;
            for (i = 0; i < W; i = i + 1)
                if (v[i])
                    lzc = W7 - 7'd1 - i[6:0];
        end
    endfunction

    wire [6:0]    lz   = lzc(a);
    wire [IW-1:0] norm = {a, {GR{1'b0}}} << lz;   // leading one at bit IW-1

    reg  [22:0] s1_frac;
    reg  [7:0]  s1_exp;
    reg         s1_guard, s1_sticky;
    always @(posedge clk)
        if (ce) begin
            s1_frac   <= norm[IW-2:IW-24];
            s1_exp    <= norm[IW-1] ? EXP_TOP - {1'b0, lz} : 8'd0;   // a == 0: +0
            s1_guard  <= norm[IW-25];
            s1_sticky <= |norm[IW-26:0];
        end

    // Round to nearest even; the carry of an all-ones significand goes into
    // the exponent. The largest value, 2^64 - 1, rounds to 2^64: no overflow.
    wire round_up = s1_guard & (s1_frac[0] | s1_sticky);

    always @(posedge clk)
        if (ce)
            y <= {1'b0, {s1_exp, s1_frac} + {30'd0, round_up}};
endmodule

// gravf_f2u: stage 1 classifies and shifts the significand, stage 2
// selects 0, the saturated maximum or the shifted integer.
module gravf_f2u #(
    parameter W = 32                           // output width, 1 .. 64
) (
    input  wire         clk,
    input  wire         ce,
    input  wire [31:0]  a,
    output reg  [W-1:0] y
);
    localparam [7:0] EXP_ONES = 8'hff;         // exponent field of Inf and NaN
    localparam [7:0] EXP_ONE  = 8'd127;        // biased exponent of 1.0
    localparam [7:0] K_SAT    = W[7:0];        // k from which the result saturates
    // Shift width: the 24-bit significand shifted by up to W-1, plus a top
    // bit that is always 0 (it keeps the zero padding below non-empty for
    // W = 1).
    localparam       SHW      = W + 24;

    // k = exponent - bias: the value is 1.f * 2^k. k < 0 (the exponent
    // field below 127) is below 1 and truncates to 0; k >= W saturates.
    wire [7:0] k      = a[30:23] - EXP_ONE;
    wire       nan    = a[30:23] == EXP_ONES && a[22:0] != 23'd0;
    wire       below1 = a[30:23] < EXP_ONE;
    wire       zero   = a[31] | nan | below1;
    wire       sat    = k >= K_SAT;

    // 1.f * 2^k = ({1, f} << k) >> 23: the low 23 bits are the fraction that
    // truncation drops, and the top bit is never set (k < W here).
    /* verilator lint_off UNUSEDSIGNAL */ // truncation drops the low 23 bits; the top bit is never set
    wire [SHW-1:0] shifted = {{(SHW-24){1'b0}}, 1'b1, a[22:0]} << k[5:0];
    /* verilator lint_on UNUSEDSIGNAL */

    reg  [W-1:0] s1_int;
    reg          s1_zero, s1_sat;
    always @(posedge clk)
        if (ce) begin
            s1_int  <= shifted[SHW-2:23];
            s1_zero <= zero;
            s1_sat  <= sat;
        end

    always @(posedge clk)
        if (ce)
            y <= s1_zero ? {W{1'b0}} : s1_sat ? {W{1'b1}} : s1_int;
endmodule

/* verilator lint_on DECLFILENAME */

`default_nettype wire
