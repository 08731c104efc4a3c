// gravf_fadd: pipelined IEEE-754 binary32 adder/subtractor.
//
//   y = a + b   (sub = 0)
//   y = a - b   (sub = 1)
//
// Latency: 5 ce-cycles, one operation per cycle. The result for the inputs
// presented in a cycle with ce = 1 is on y after exactly 5 more clock edges
// with ce = 1; when ce = 0 the whole pipeline, y included, holds. y is a
// register. The datapath needs no reset: the first 5 results after power-up
// are undefined, every later one is valid.
//
// Arithmetic: exactly Go's float32 a + b and a - b. Round to nearest, ties
// to even; subnormal inputs and outputs are implemented fully (no flush to
// zero); overflow gives +-Inf. Special cases: NaN in either operand or
// Inf - Inf gives a quiet NaN (7fc00000, payload not propagated); Inf with
// a finite operand gives that Inf; an exact zero sum is +0, except
// (-0) + (-0) (and (-0) - (+0)), which is -0.
//
// Stages (each ends in a register):
//   1 unpack, order the operands by magnitude, exponent difference, specials
//   2 align the smaller significand (right shift with guard/round/sticky)
//   3 add or subtract the significands
//   4 count leading zeros and normalise (limited at the subnormal exponent)
//   5 round to nearest even, pack, select special results
`default_nettype none

module gravf_fadd (
    input  wire        clk,
    input  wire        ce,
    input  wire        sub,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg  [31:0] y
);
    localparam [7:0]  EXP_ONES = 8'hff;        // exponent field of Inf and NaN
    localparam [31:0] QNAN     = 32'h7fc00000; // the NaN this unit produces
    localparam [30:0] INF_MAG  = 31'h7f800000; // magnitude bits of Inf
    // The significand (hidden bit + 23 fraction bits) is extended by guard,
    // round and sticky bits: 27 bits. The sum needs one more for the carry.
    localparam        SW       = 27;
    localparam [4:0]  SH_MAX   = 5'd27;        // alignment shifts beyond this only feed sticky

    // ---------------------------------------------------------------- 1
    // Order by magnitude: big gets the larger |x| (bits 30:0 compare as
    // unsigned integers), sml the smaller. b's sign is flipped for sub.
    wire        sb   = b[31] ^ sub;
    wire        swap = b[30:0] > a[30:0];
    wire [31:0] big  = swap ? {sb, b[30:0]} : a;
    wire [31:0] sml  = swap ? a : {sb, b[30:0]};
    // A subnormal (exponent field 0) has the scale of exponent 1.
    wire        big_norm = big[30:23] != 8'd0;
    wire        sml_norm = sml[30:23] != 8'd0;
    wire [7:0]  big_exp  = big_norm ? big[30:23] : 8'd1;
    wire [7:0]  sml_exp  = sml_norm ? sml[30:23] : 8'd1;
    wire [7:0]  diff     = big_exp - sml_exp;
    // NaN and Inf have the largest magnitudes, so big is special whenever
    // either operand is. NaN: a NaN operand, or Inf - Inf.
    wire        special  = big[30:23] == EXP_ONES;
    wire        nan      = (big[22:0] != 23'd0) || (sml[30:23] == EXP_ONES && big[31] != sml[31]);

    reg         s1_special, s1_nan, s1_sign, s1_effsub;
    reg  [7:0]  s1_exp;
    reg  [23:0] s1_mbig, s1_msml;
    reg  [4:0]  s1_shift;
    always @(posedge clk)
        if (ce) begin
            s1_special <= special;
            s1_nan     <= nan;
            s1_sign    <= big[31];
            s1_effsub  <= big[31] ^ sml[31];
            s1_exp     <= big_exp;
            s1_mbig    <= {big_norm, big[22:0]};
            s1_msml    <= {sml_norm, sml[22:0]};
            s1_shift   <= (diff > {3'd0, SH_MAX}) ? SH_MAX : diff[4:0];
        end

    // ---------------------------------------------------------------- 2
    // Shift {msml, 3'b000} right; the bits shifted out land in the low half
    // and are ORed into the sticky bit.
    wire [2*SW-1:0] aligned = {s1_msml, 3'b000, {SW{1'b0}}} >> s1_shift;

    reg         s2_special, s2_nan, s2_sign, s2_effsub;
    reg  [7:0]  s2_exp;
    reg  [SW-1:0] s2_big, s2_sml;
    always @(posedge clk)
        if (ce) begin
            s2_special <= s1_special;
            s2_nan     <= s1_nan;
            s2_sign    <= s1_sign;
            s2_effsub  <= s1_effsub;
            s2_exp     <= s1_exp;
            s2_big     <= {s1_mbig, 3'b000};
            s2_sml     <= {aligned[2*SW-1:SW+1], aligned[SW] | (|aligned[SW-1:0])};
        end

    // ---------------------------------------------------------------- 3
    // |big| >= |sml| after alignment, so the difference is never negative.
    reg         s3_special, s3_nan, s3_sign, s3_effsub;
    reg  [7:0]  s3_exp;
    reg  [SW:0] s3_sum;
    always @(posedge clk)
        if (ce) begin
            s3_special <= s2_special;
            s3_nan     <= s2_nan;
            s3_sign    <= s2_sign;
            s3_effsub  <= s2_effsub;
            s3_exp     <= s2_exp;
            s3_sum     <= s2_effsub ? {1'b0, s2_big} - {1'b0, s2_sml}
                                    : {1'b0, s2_big} + {1'b0, s2_sml};
        end

    // ---------------------------------------------------------------- 4
    // Value = sum * 2^(exp - bias - 26). Shifting left by s puts the
    // leading one at bit 27 with biased exponent exp + 1 - s; s is limited
    // to exp so that the exponent never drops below 1 (below that the
    // result is subnormal: bit 27 stays 0 and the exponent field is 0).
    // Leading-zero count, 28 for 0 (a priority encoder).
    function [4:0] lzc28;
        input [SW:0] v;
        integer i;
        begin
            lzc28 = 5'd28;
            for (i = 0; i <= SW; i = i + 1)
                if (v[i])
                    lzc28 = 5'd27 - i[4:0];
        end
    endfunction

    wire [4:0]  lz    = lzc28(s3_sum);
    wire [4:0]  nsh   = ({3'd0, lz} > s3_exp) ? s3_exp[4:0] : lz;
    wire [SW:0] norm  = s3_sum << nsh;
    wire [7:0]  nexp  = s3_exp + 8'd1 - {3'd0, nsh};

    reg         s4_special, s4_nan, s4_sign, s4_ovf;
    reg  [7:0]  s4_exp;
    reg  [SW-1:0] s4_norm;   // bit 27, the leading one, is implied by s4_exp
    always @(posedge clk)
        if (ce) begin
            s4_special <= s3_special;
            s4_nan     <= s3_nan;
            // An exact zero is -0 only when both addends are -0.
            s4_sign    <= (s3_sum == {(SW+1){1'b0}} && !s3_special) ? (s3_sign & ~s3_effsub) : s3_sign;
            s4_ovf     <= norm[SW] && nexp == EXP_ONES;
            s4_exp     <= norm[SW] ? nexp : 8'd0;
            s4_norm    <= norm[SW-1:0];
        end

    // ---------------------------------------------------------------- 5
    // Significand norm[27:4], guard norm[3], sticky norm[2:0]. Adding the
    // round-up to {exponent, fraction} carries into the exponent when the
    // significand overflows (also subnormal -> normal, max -> Inf).
    wire        round_up = s4_norm[3] & (s4_norm[4] | (|s4_norm[2:0]));
    wire [30:0] mag      = {s4_exp, s4_norm[SW-1:4]} + {30'd0, round_up};

    always @(posedge clk)
        if (ce) begin
            if (s4_special)
                y <= s4_nan ? QNAN : {s4_sign, INF_MAG};
            else if (s4_ovf)
                y <= {s4_sign, INF_MAG};
            else
                y <= {s4_sign, mag};
        end
endmodule

`default_nettype wire
