// WCC apply, written by hand in the style of the GraVF-M paper (Listing 2):
// a vertex that found a lower label this superstep broadcasts it, and every
// vertex clears its active bit. A barrier marker passes through as an
// update with barrier_out set. Combinational; the state write-back needs no
// handshake, the update waits for update_ack.
`default_nettype none

module wcc_apply #(
    parameter VERTEXIDSIZE = 32
) (
    /* verilator lint_off UNUSEDSIGNAL */ // the kernel interface is fixed; this combinational WCC kernel does not read these
    input  wire clk,
    input  wire rst,
    input  wire [31:0] level_in,
    input  wire [31:0] degree_in,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [VERTEXIDSIZE-1:0] nodeid_in,
    input  wire [VERTEXIDSIZE-1:0] state_in_label,
    input  wire state_in_active,
    input  wire [1:0] round_in,
    input  wire barrier_in,
    input  wire valid_in,
    input  wire update_ack,
    output wire [VERTEXIDSIZE-1:0] nodeid_out,
    output wire [VERTEXIDSIZE-1:0] state_out_label,
    output wire state_out_active,
    output wire state_barrier,
    output wire state_valid,
    output wire [VERTEXIDSIZE-1:0] update_out_label,
    output wire [VERTEXIDSIZE-1:0] update_sender,
    output wire [1:0] update_round,
    output wire barrier_out,
    output wire update_valid,
    output wire ready
);

assign nodeid_out       = nodeid_in;
assign state_out_label  = state_in_label;
assign state_out_active = 1'b0;
assign state_barrier    = barrier_in;
assign update_out_label = state_in_label;
assign update_sender    = nodeid_in;
assign update_round     = round_in;
assign barrier_out      = barrier_in;
assign update_valid     = valid_in & (state_in_active | barrier_in);
assign ready            = !update_valid || update_ack;
assign state_valid      = valid_in & ready;

endmodule

`default_nettype wire
