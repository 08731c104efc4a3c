// gravf_fdiv: pipelined IEEE-754 binary32 divider, y = a / b.
//
// Latency: 8 ce-cycles, one operation per cycle. The result for the inputs
// presented in a cycle with ce = 1 is on y after exactly 8 more clock edges
// with ce = 1; when ce = 0 the whole pipeline, y included, holds. y is a
// register. The datapath needs no reset: the first 8 results after power-up
// are undefined, every later one is valid.
//
// Arithmetic: exactly Go's float32 a / b, correctly rounded (round to
// nearest, ties to even). The significand quotient comes from a restoring
// digit recurrence that produces 25 exact quotient bits (24 significand bits
// and a guard bit) plus a sticky bit from the final remainder. Subnormal
// inputs and outputs are implemented fully (no flush to zero): subnormal
// inputs are normalised first, results below the normal range are shifted
// right (with sticky) before rounding. Overflow gives +-Inf. The sign is
// always sign(a) xor sign(b), zeros and infinities included. Special cases:
// NaN in either operand, 0 / 0 and Inf / Inf give a quiet NaN (7fc00000,
// payload not propagated); x / 0 for non-zero x and Inf / finite give Inf;
// 0 / non-zero and finite / Inf give 0.
//
// Stages (each ends in a register):
//   1   unpack, normalise subnormal significands (leading-zero count and
//       shift), quotient exponent; if |ma| < |mb| the dividend is doubled so
//       that the quotient lies in [1, 2)
//   2-6 digit recurrence, QPS = 5 quotient bits per stage (radix 32, each
//       bit one compare-and-subtract of the partial remainder)
//   7   denormalise results below the smallest normal exponent
//   8   round to nearest even, pack, select special results
`default_nettype none

module gravf_fdiv (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg  [31:0] y
);
    localparam [7:0]  EXP_ONES = 8'hff;        // exponent field of Inf and NaN
    localparam [31:0] QNAN     = 32'h7fc00000; // the NaN this unit produces
    localparam [30:0] INF_MAG  = 31'h7f800000; // magnitude bits of Inf
    localparam [9:0]  BIAS     = 10'd127;      // exponent bias
    localparam        NSTAGE   = 5;            // digit-recurrence stages (2-6)
    localparam        QPS      = 5;            // quotient bits per stage
    localparam        QW       = NSTAGE * QPS; // 25: 24 significand bits + guard
    localparam        RW       = 25;           // partial remainder: < 2 * divisor
    localparam        SBW      = 14;           // side band: sign, nan, inf, zero, exponent
    localparam        DW       = 26;           // denormalising shifts beyond this only feed sticky
    localparam [9:0]  DSH_MAX  = 10'd26;

    // Leading-zero count, 24 for 0 (a priority encoder).
    function [4:0] lzc24;
        input [23:0] v;
        integer i;
        begin
            lzc24 = 5'd24;
            for (i = 0; i < 24; i = i + 1)
                if (v[i])
                    lzc24 = 5'd23 - i[4:0];
        end
    endfunction

    // QPS steps of restoring division: returns {quotient digits, remainder}.
    // Each step subtracts the divisor once; the borrow out is the inverted
    // quotient digit and selects the new partial remainder (one carry chain
    // per digit).
    function [QPS+RW-1:0] divstep;
        input [RW-1:0] rem;
        input [23:0]   d;
        integer        j;
        reg [RW-1:0]   r;
        reg [RW:0]     diff;
        reg [QPS-1:0]  q;
        begin
            r = rem;
            for (j = QPS - 1; j >= 0; j = j - 1) begin
                diff = {1'b0, r} - {2'b00, d};
                q[j] = ~diff[RW];
                // r < 2d < 2^25 before a step and < d < 2^24 after the
                // subtraction, so the doubling drops only a zero bit.
                r    = {(q[j] ? diff[RW-2:0] : r[RW-2:0]), 1'b0};
            end
            divstep = {q, r};
        end
    endfunction

    // ---------------------------------------------------------------- 1
    wire        a_norm = a[30:23] != 8'd0;
    wire        b_norm = b[30:23] != 8'd0;
    wire        a_zero = a[30:0] == 31'd0;
    wire        b_zero = b[30:0] == 31'd0;
    wire        a_inf  = a[30:23] == EXP_ONES && a[22:0] == 23'd0;
    wire        b_inf  = b[30:23] == EXP_ONES && b[22:0] == 23'd0;
    wire        a_nan  = a[30:23] == EXP_ONES && a[22:0] != 23'd0;
    wire        b_nan  = b[30:23] == EXP_ONES && b[22:0] != 23'd0;
    wire        nan    = a_nan | b_nan | (a_zero & b_zero) | (a_inf & b_inf);
    wire        inf    = ~nan & (a_inf | b_zero);
    wire        zero   = ~nan & (a_zero | b_inf);

    // Normalised significands (leading one at bit 23) and their unbiased-
    // plus-bias exponents; a subnormal has the scale of exponent 1.
    wire [23:0] ma_raw = {a_norm, a[22:0]};
    wire [23:0] mb_raw = {b_norm, b[22:0]};
    wire [4:0]  lza    = lzc24(ma_raw);
    wire [4:0]  lzb    = lzc24(mb_raw);
    wire [23:0] ma     = ma_raw << lza;
    wire [23:0] mb     = mb_raw << lzb;
    wire [9:0]  ea     = {2'd0, a_norm ? a[30:23] : 8'd1} - {5'd0, lza};
    wire [9:0]  eb     = {2'd0, b_norm ? b[30:23] : 8'd1} - {5'd0, lzb};
    wire        ma_less = ma < mb;
    // Biased quotient exponent, two's complement (-150 .. 403).
    wire [9:0]  qexp   = ea - eb + BIAS - {9'd0, ma_less};

    reg  [RW-1:0]  s1_rem;
    reg  [23:0]    s1_div;
    reg  [SBW-1:0] s1_side;
    always @(posedge clk)
        if (ce) begin
            s1_rem  <= ma_less ? {ma, 1'b0} : {1'b0, ma};
            s1_div  <= mb;
            s1_side <= {a[31] ^ b[31], nan, inf, zero, qexp};
        end

    // ---------------------------------------------------------------- 2-6
    // Stage k takes its inputs from slice k of each bus and drives slice
    // k + 1. Stage k's digits have weights 2^-(k*QPS) .. 2^-(k*QPS+QPS-1)
    // and are placed directly at their final position in the quotient.
    wire [RW*(NSTAGE+1)-1:0]  rem_bus;
    wire [QW*(NSTAGE+1)-1:0]  q_bus;
    wire [24*NSTAGE-1:0]      div_bus;     // the last stage does not pass it on
    wire [SBW*(NSTAGE+1)-1:0] side_bus;
    assign rem_bus[RW-1:0]   = s1_rem;
    assign q_bus[QW-1:0]     = {QW{1'b0}};
    assign div_bus[23:0]     = s1_div;
    assign side_bus[SBW-1:0] = s1_side;

    genvar k;
    generate
        for (k = 0; k < NSTAGE; k = k + 1) begin : digits
            wire [QPS+RW-1:0] step = divstep(rem_bus[k*RW +: RW], div_bus[k*24 +: 24]);
            reg  [RW-1:0]     rem_r;
            reg  [QW-1:0]     q_r;
            reg  [SBW-1:0]    side_r;
            always @(posedge clk)
                if (ce) begin
                    rem_r  <= step[RW-1:0];
                    q_r    <= q_bus[k*QW +: QW]
                            | ({{(QW-QPS){1'b0}}, step[QPS+RW-1:RW]} << (QW - QPS - k*QPS));
                    side_r <= side_bus[k*SBW +: SBW];
                end
            assign rem_bus[(k+1)*RW +: RW]    = rem_r;
            assign q_bus[(k+1)*QW +: QW]      = q_r;
            assign side_bus[(k+1)*SBW +: SBW] = side_r;
            if (k < NSTAGE - 1) begin : pass_divisor
                reg [23:0] div_r;
                always @(posedge clk)
                    if (ce)
                        div_r <= div_bus[k*24 +: 24];
                assign div_bus[(k+1)*24 +: 24] = div_r;
            end
        end
    endgenerate

    // ---------------------------------------------------------------- 7
    // Quotient q in [1, 2): q[24] is the leading one, q[0] the guard bit.
    // Below exponent 1 it is shifted right by 1 - exponent (exponent field
    // 0, leading bit cleared).
    wire [RW-1:0]  rem_f  = rem_bus[NSTAGE*RW +: RW];
    wire [QW-1:0]  q_f    = q_bus[NSTAGE*QW +: QW];
    wire [SBW-1:0] side_f = side_bus[NSTAGE*SBW +: SBW];
    wire [9:0]     fexp   = side_f[9:0];
    wire           dnorm  = fexp[9] || fexp == 10'd0;
    wire [9:0]     dsh10  = 10'd1 - fexp;
    wire [4:0]     dsh    = (dsh10 > DSH_MAX) ? DSH_MAX[4:0] : dsh10[4:0];
    wire [QW+DW-1:0] den  = {q_f, {DW{1'b0}}} >> dsh;
    wire [QW-1:0]  n      = dnorm ? den[QW+DW-1:DW] : q_f;

    reg  [QW-2:0]  s7_n;
    reg  [7:0]     s7_exp;
    reg            s7_sticky, s7_ovf, s7_sign, s7_nan, s7_inf, s7_zero;
    always @(posedge clk)
        if (ce) begin
            s7_n      <= n[QW-2:0];
            s7_exp    <= n[QW-1] ? fexp[7:0] : 8'd0;
            s7_ovf    <= n[QW-1] && fexp >= {2'd0, EXP_ONES};
            s7_sticky <= (rem_f != {RW{1'b0}}) | (dnorm & (|den[DW-1:0]));
            {s7_sign, s7_nan, s7_inf, s7_zero} <= side_f[SBW-1:10];
        end

    // ---------------------------------------------------------------- 8
    // Significand n[24:1], guard n[0], sticky. The round-up carries into the
    // exponent.
    wire        round_up = s7_n[0] & (s7_n[1] | s7_sticky);
    wire [30:0] mag      = {s7_exp, s7_n[QW-2:1]} + {30'd0, round_up};

    always @(posedge clk)
        if (ce) begin
            if (s7_nan)
                y <= QNAN;
            else if (s7_inf | s7_ovf)
                y <= {s7_sign, INF_MAG};
            else if (s7_zero)
                y <= {s7_sign, 31'd0};
            else
                y <= {s7_sign, mag};
        end
endmodule

`default_nettype wire
