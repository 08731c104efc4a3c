// WCC gather, written by hand in the style of the GraVF-M paper (Listing 1):
// a vertex adopts the sender's label when it is lower, and is marked
// active for the next apply. Combinational: a result is ready in the cycle
// its input arrives, and the input is held until the write-back is taken.
`default_nettype none

module wcc_gather #(
    parameter VERTEXIDSIZE = 32
) (
    /* verilator lint_off UNUSEDSIGNAL */ // the kernel interface is fixed; this combinational WCC kernel does not read these
    input  wire clk,
    input  wire rst,
    input  wire [31:0] level_in,
    input  wire [VERTEXIDSIZE-1:0] sender_in,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [VERTEXIDSIZE-1:0] nodeid_in,
    input  wire [VERTEXIDSIZE-1:0] message_in_label,
    input  wire [VERTEXIDSIZE-1:0] state_in_label,
    input  wire state_in_active,
    input  wire valid_in,
    input  wire state_ack,
    output wire [VERTEXIDSIZE-1:0] nodeid_out,
    output wire [VERTEXIDSIZE-1:0] state_out_label,
    output wire state_out_active,
    output wire state_valid,
    output wire ready
);

wire new_label = state_in_label > message_in_label;

assign nodeid_out       = nodeid_in;
assign state_out_label  = new_label ? message_in_label : state_in_label;
assign state_out_active = new_label ? 1'b1 : state_in_active;
assign state_valid      = valid_in;
assign ready            = state_ack;

endmodule

`default_nettype wire
