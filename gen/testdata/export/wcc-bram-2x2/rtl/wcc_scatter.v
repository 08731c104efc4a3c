// WCC scatter, written by hand in the style of the GraVF-M paper (Listing 3):
// every edge forwards the update's label to the neighbour. One pipeline
// stage, to show how a pipelined kernel holds its output until message_ack.
`default_nettype none

module wcc_scatter #(
    parameter VERTEXIDSIZE = 32
) (
    input  wire clk,
    input  wire rst,
    /* verilator lint_off UNUSEDSIGNAL */ // the kernel interface is fixed; WCC does not read these
    input  wire [31:0] level_in,
    input  wire [31:0] num_neighbors_in,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [VERTEXIDSIZE-1:0] update_in_label,
    input  wire [VERTEXIDSIZE-1:0] sender_in,
    input  wire [1:0] round_in,
    input  wire barrier_in,
    input  wire [VERTEXIDSIZE-1:0] neighbor_in,
    input  wire valid_in,
    input  wire message_ack,
    output reg  [VERTEXIDSIZE-1:0] message_out_label,
    output reg  [VERTEXIDSIZE-1:0] neighbor_out,
    output reg  [VERTEXIDSIZE-1:0] sender_out,
    output reg  [1:0] round_out,
    output reg  barrier_out,
    output reg  valid_out,
    output wire ready
);

assign ready = !valid_out || message_ack;

always @(posedge clk) begin
    if (rst) begin
        valid_out <= 1'b0;
    end else if (ready) begin
        message_out_label <= update_in_label;
        neighbor_out      <= neighbor_in;
        sender_out        <= sender_in;
        round_out         <= round_in;
        barrier_out       <= barrier_in;
        valid_out         <= valid_in;
    end
end

endmodule

`default_nettype wire
