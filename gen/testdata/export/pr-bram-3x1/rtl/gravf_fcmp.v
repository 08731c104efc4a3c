// gravf_fcmp: IEEE-754 binary32 comparisons, minimum and maximum.
//
// This file holds two units and thin wrappers around them, one per kernel
// operation, so that generated code can instantiate an operation by name:
//
//   gravf_fcmp    #op  y = (a OP b), 1 bit; op: 0 lt, 1 le, 2 gt, 3 ge,
//                      4 eq, 5 ne (6 and 7 are unused and give 0)
//   gravf_flt gravf_fle gravf_fgt gravf_fge gravf_feq gravf_fne
//                      gravf_fcmp with op tied to 0 .. 5
//   gravf_fminmax      y = max ? fmax(a, b) : fmin(a, b), 32 bits
//   gravf_fmin gravf_fmax
//                      gravf_fminmax with max tied to 0 / 1
//
// Latency: 1 ce-cycle, one operation per cycle: y is a register loaded on
// every clock edge with ce = 1 and held when ce = 0. The datapath needs no
// reset: the first result after power-up is undefined.
//
// Semantics: exactly Go's float32 comparison operators and kernel fmin/fmax.
// Comparisons are IEEE: +0 == -0; any NaN operand makes every comparison
// false except !=, which is true. Subnormals compare by value (no flush to
// zero). fmin(a, b) is a if a < b or b is NaN, else b; fmax(a, b) is a if
// a > b or b is NaN, else b. So min/max return the other operand when one
// is NaN, a NaN (the bits of a) when both are, and for equal operands the
// second one: fmin(+0, -0) = -0, fmin(-0, +0) = +0.
`default_nettype none

module gravf_fcmp (
    input  wire        clk,
    input  wire        ce,
    input  wire [2:0]  op,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg         y
);
    localparam [2:0] OP_LT = 3'd0;
    localparam [2:0] OP_LE = 3'd1;
    localparam [2:0] OP_GT = 3'd2;
    localparam [2:0] OP_GE = 3'd3;
    localparam [2:0] OP_EQ = 3'd4;
    localparam [2:0] OP_NE = 3'd5;
    localparam [7:0] EXP_ONES = 8'hff;         // exponent field of Inf and NaN

    wire a_nan     = a[30:23] == EXP_ONES && a[22:0] != 23'd0;
    wire b_nan     = b[30:23] == EXP_ONES && b[22:0] != 23'd0;
    wire unordered = a_nan | b_nan;
    wire both_zero = {a[30:0], b[30:0]} == 62'd0;
    // Sign-magnitude order: magnitudes (bits 30:0) compare as integers.
    wire mag_lt    = a[30:0] < b[30:0];
    wire mag_gt    = a[30:0] > b[30:0];
    wire ordered   = ~unordered & ~both_zero;
    wire lt = ordered & ((a[31] & ~b[31]) | (~a[31] & ~b[31] & mag_lt) | (a[31] & b[31] & mag_gt));
    wire gt = ordered & ((~a[31] & b[31]) | (~a[31] & ~b[31] & mag_gt) | (a[31] & b[31] & mag_lt));
    wire eq = ~unordered & ((a == b) | both_zero);

    always @(posedge clk)
        if (ce)
            case (op)
                OP_LT:   y <= lt;
                OP_LE:   y <= lt | eq;
                OP_GT:   y <= gt;
                OP_GE:   y <= gt | eq;
                OP_EQ:   y <= eq;
                OP_NE:   y <= ~eq;
                default: y <= 1'b0;
            endcase
endmodule

// The remaining modules are part of the same unit family and live in this
// file so that the library stays one file per kind of operation; their
// names therefore differ from the file name.
/* verilator lint_off DECLFILENAME */ // the comparison family shares one file

// gravf_flt: y = a < b (gravf_fcmp, op 0), latency 1.
module gravf_flt (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire        y
);
    gravf_fcmp u (.clk(clk), .ce(ce), .op(3'd0), .a(a), .b(b), .y(y));
endmodule

// gravf_fle: y = a <= b (gravf_fcmp, op 1), latency 1.
module gravf_fle (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire        y
);
    gravf_fcmp u (.clk(clk), .ce(ce), .op(3'd1), .a(a), .b(b), .y(y));
endmodule

// gravf_fgt: y = a > b (gravf_fcmp, op 2), latency 1.
module gravf_fgt (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire        y
);
    gravf_fcmp u (.clk(clk), .ce(ce), .op(3'd2), .a(a), .b(b), .y(y));
endmodule

// gravf_fge: y = a >= b (gravf_fcmp, op 3), latency 1.
module gravf_fge (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire        y
);
    gravf_fcmp u (.clk(clk), .ce(ce), .op(3'd3), .a(a), .b(b), .y(y));
endmodule

// gravf_feq: y = a == b (gravf_fcmp, op 4), latency 1.
module gravf_feq (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire        y
);
    gravf_fcmp u (.clk(clk), .ce(ce), .op(3'd4), .a(a), .b(b), .y(y));
endmodule

// gravf_fne: y = a != b (gravf_fcmp, op 5), latency 1.
module gravf_fne (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire        y
);
    gravf_fcmp u (.clk(clk), .ce(ce), .op(3'd5), .a(a), .b(b), .y(y));
endmodule

// gravf_fminmax: y = max ? fmax(a, b) : fmin(a, b), latency 1 (see the
// file header for the NaN and signed-zero rules).
module gravf_fminmax (
    input  wire        clk,
    input  wire        ce,
    input  wire        max,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg  [31:0] y
);
    localparam [7:0] EXP_ONES = 8'hff;         // exponent field of Inf and NaN

    wire a_nan   = a[30:23] == EXP_ONES && a[22:0] != 23'd0;
    wire b_nan   = b[30:23] == EXP_ONES && b[22:0] != 23'd0;
    wire ordered = ~a_nan & ~b_nan & ({a[30:0], b[30:0]} != 62'd0);
    wire mag_lt  = a[30:0] < b[30:0];
    wire mag_gt  = a[30:0] > b[30:0];
    wire lt = ordered & ((a[31] & ~b[31]) | (~a[31] & ~b[31] & mag_lt) | (a[31] & b[31] & mag_gt));
    wire gt = ordered & ((~a[31] & b[31]) | (~a[31] & ~b[31] & mag_gt) | (a[31] & b[31] & mag_lt));

    always @(posedge clk)
        if (ce)
            y <= ((max ? gt : lt) | b_nan) ? a : b;
endmodule

// gravf_fmin: y = fmin(a, b) (gravf_fminmax, max 0), latency 1.
module gravf_fmin (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire [31:0] y
);
    gravf_fminmax u (.clk(clk), .ce(ce), .max(1'b0), .a(a), .b(b), .y(y));
endmodule

// gravf_fmax: y = fmax(a, b) (gravf_fminmax, max 1), latency 1.
module gravf_fmax (
    input  wire        clk,
    input  wire        ce,
    input  wire [31:0] a,
    input  wire [31:0] b,
    output wire [31:0] y
);
    gravf_fminmax u (.clk(clk), .ce(ce), .max(1'b1), .a(a), .b(b), .y(y));
endmodule

/* verilator lint_on DECLFILENAME */

`default_nettype wire
