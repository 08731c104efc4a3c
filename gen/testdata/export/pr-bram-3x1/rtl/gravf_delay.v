// gravf_delay: a delay line of DELAY registers of WIDTH bits that advance
// together on the clock enable ce.
//
// out is in delayed by DELAY enabled cycles; DELAY = 0 is a wire. With
// RESET = 1 the registers clear on rst (synchronous, active high), for
// valid bits that must never show an undefined value; data lines leave
// RESET = 0 and need no reset.
`default_nettype none

module gravf_delay #(
    parameter WIDTH = 1,   // bits per stage
    parameter DELAY = 1,   // stages
    parameter RESET = 0    // 1: clear the stages on rst
) (
    /* verilator lint_off UNUSEDSIGNAL */ // a wire (DELAY = 0) uses neither, a line without RESET not rst
    input  wire             clk,
    input  wire             rst,
    input  wire             ce,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [WIDTH-1:0] in,
    output wire [WIDTH-1:0] out
);

// Parameter checks at elaboration: an impossible value instantiates a
// module that does not exist, named for the problem, so that every tool
// (simulator, linter, synthesis) stops there.
generate
    if (WIDTH < 1) begin : check_width
        gravf_delay_WIDTH_must_be_at_least_1 error ();
    end
    if (DELAY < 0) begin : check_delay
        gravf_delay_DELAY_must_not_be_negative error ();
    end
    if (RESET != 0 && RESET != 1) begin : check_reset
        gravf_delay_RESET_must_be_0_or_1 error ();
    end
endgenerate

generate
    if (DELAY == 0) begin : wire_through
        assign out = in;
    end else begin : stages
        // stage[i] holds in delayed by i + 1 enabled cycles.
        reg [WIDTH-1:0] stage [0:DELAY-1];
        integer i;
        always @(posedge clk) begin
            if (RESET != 0 && rst) begin
                for (i = 0; i < DELAY; i = i + 1) stage[i] <= {WIDTH{1'b0}};
            end else if (ce) begin
                stage[0] <= in;
                for (i = 1; i < DELAY; i = i + 1) stage[i] <= stage[i-1];
            end
        end
        assign out = stage[DELAY-1];
    end
endgenerate

endmodule

`default_nettype wire
