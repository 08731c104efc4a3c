// gravf_fmul: pipelined IEEE-754 binary32 multiplier, y = a * b.
//
// Latency: 3 ce-cycles, one operation per cycle. The result for the inputs
// presented in a cycle with ce = 1 is on y after exactly 3 more clock edges
// with ce = 1; when ce = 0 the whole pipeline, y included, holds. y is a
// register. The datapath needs no reset: the first 3 results after power-up
// are undefined, every later one is valid.
//
// Arithmetic: exactly Go's float32 a * b. Round to nearest, ties to even;
// subnormal inputs and outputs are implemented fully (no flush to zero);
// overflow gives +-Inf, underflow rounds to a subnormal or +-0. The sign is
// always sign(a) xor sign(b), zeros included. Special cases: NaN in either
// operand or Inf * 0 gives a quiet NaN (7fc00000, payload not propagated);
// Inf times a non-zero gives Inf.
//
// Stages (each ends in a register):
//   1 unpack; 24 x 24 -> 48-bit significand product (a plain *, so that
//     synthesis maps it to DSP blocks and can pull this register into them)
//   2 count leading zeros and normalise; denormalise results below the
//     smallest normal exponent (right shift with sticky)
//   3 round to nearest even, pack, select special results
`default_nettype none

module gravf_fmul (
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
    localparam        PW       = 48;           // product width (24 + 24)
    localparam [6:0]  RSH_MAX  = 7'd48;        // right shifts beyond this only feed sticky

    // ---------------------------------------------------------------- 1
    wire        a_norm = a[30:23] != 8'd0;
    wire        b_norm = b[30:23] != 8'd0;
    wire        a_zero = a[30:0] == 31'd0;
    wire        b_zero = b[30:0] == 31'd0;
    wire        a_inf  = a[30:23] == EXP_ONES && a[22:0] == 23'd0;
    wire        b_inf  = b[30:23] == EXP_ONES && b[22:0] == 23'd0;
    wire        a_nan  = a[30:23] == EXP_ONES && a[22:0] != 23'd0;
    wire        b_nan  = b[30:23] == EXP_ONES && b[22:0] != 23'd0;
    wire [23:0] ma     = {a_norm, a[22:0]};
    wire [23:0] mb     = {b_norm, b[22:0]};
    // A subnormal (exponent field 0) has the scale of exponent 1.
    wire [9:0]  ea     = {2'd0, a_norm ? a[30:23] : 8'd1};
    wire [9:0]  eb     = {2'd0, b_norm ? b[30:23] : 8'd1};

    reg  [PW-1:0] s1_prod;
    reg  [9:0]  s1_ebase;   // two's complement, ea + eb - bias
    reg         s1_sign, s1_special, s1_nan;
    always @(posedge clk)
        if (ce) begin
            s1_prod    <= ma * mb;
            s1_ebase   <= ea + eb - BIAS;
            s1_sign    <= a[31] ^ b[31];
            s1_special <= a_nan | b_nan | a_inf | b_inf;
            s1_nan     <= a_nan | b_nan | (a_inf & b_zero) | (b_inf & a_zero);
        end

    // ---------------------------------------------------------------- 2
    // Value = prod * 2^(ebase - bias - 46). Shifting left by s puts the
    // leading one at bit 47 with biased exponent ebase + 1 - s. When ebase
    // >= 0, s is limited to ebase (exponent >= 1); a smaller s leaves bit
    // 47 clear: a subnormal with exponent field 0. When ebase < 0 the
    // product is shifted right by -ebase instead, the lost bits to sticky.
    // Leading-zero count, 48 for 0 (a priority encoder).
    function [6:0] lzc48;
        input [PW-1:0] v;
        integer i;
        begin
            lzc48 = 7'd48;
            for (i = 0; i < PW; i = i + 1)
                if (v[i])
                    lzc48 = 7'd47 - i[6:0];
        end
    endfunction

    wire [6:0]    lz      = lzc48(s1_prod);
    wire          neg     = s1_ebase[9];
    wire [9:0]    nebase  = 10'd0 - s1_ebase;         // -ebase
    wire [6:0]    lsh     = ({3'd0, lz} > s1_ebase) ? s1_ebase[6:0] : lz;
    wire [6:0]    rsh     = (nebase > {3'd0, RSH_MAX}) ? RSH_MAX : nebase[6:0];
    wire [PW-1:0] lnorm   = s1_prod << lsh;
    wire [2*PW-1:0] rnorm = {s1_prod, {PW{1'b0}}} >> rsh;
    wire [9:0]    nexp    = s1_ebase + 10'd1 - {3'd0, lsh};
    wire [PW-1:0] norm    = neg ? rnorm[2*PW-1:PW] : lnorm;

    reg  [PW-2:0] s2_norm;   // bit 47, the leading one, is implied by s2_exp
    reg  [7:0]  s2_exp;
    reg         s2_sticky, s2_ovf, s2_sign, s2_special, s2_nan;
    always @(posedge clk)
        if (ce) begin
            s2_norm    <= norm[PW-2:0];
            s2_sticky  <= neg & (|rnorm[PW-1:0]);
            s2_exp     <= norm[PW-1] ? nexp[7:0] : 8'd0;
            s2_ovf     <= norm[PW-1] && nexp >= {2'd0, EXP_ONES};
            s2_sign    <= s1_sign;
            s2_special <= s1_special;
            s2_nan     <= s1_nan;
        end

    // ---------------------------------------------------------------- 3
    // Significand norm[47:24], guard norm[23], sticky norm[22:0] and the
    // denormalisation sticky. The round-up carries into the exponent.
    wire        round_up = s2_norm[23] & (s2_norm[24] | (|s2_norm[22:0]) | s2_sticky);
    wire [30:0] mag      = {s2_exp, s2_norm[46:24]} + {30'd0, round_up};

    always @(posedge clk)
        if (ce) begin
            if (s2_nan)
                y <= QNAN;
            else if (s2_special | s2_ovf)
                y <= {s2_sign, INF_MAG};
            else
                y <= {s2_sign, mag};
        end
endmodule

`default_nettype wire
