// gravf_fifo: a synchronous first-word-fall-through FIFO.
//
// Handshake: a word is written when in_valid && in_ready (in_ready = not
// full) and leaves when out_valid && out_ready; out_data shows the head
// whenever out_valid is high. Reset empties it (synchronous, active high).
`default_nettype none

module gravf_fifo #(
    parameter WIDTH = 8,
    parameter DEPTH = 8,                 // entries; any value >= 2
    parameter ABITS = $clog2(DEPTH)      // bits of an entry address
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [WIDTH-1:0] in_data,
    input  wire             in_valid,
    output wire             in_ready,
    output wire [WIDTH-1:0] out_data,
    output wire             out_valid,
    input  wire             out_ready,
    output wire [ABITS:0]   count         // entries held
);

reg [WIDTH-1:0] mem [0:DEPTH-1];
reg [ABITS-1:0] rd, wr;
reg [ABITS:0]   n;

wire push = in_valid && in_ready;
wire pop  = out_valid && out_ready;

assign in_ready  = n != DEPTH[ABITS:0];
assign out_valid = n != 0;
assign out_data  = mem[rd];
assign count     = n;

always @(posedge clk) begin
    if (push) mem[wr] <= in_data;
    if (rst) begin
        rd <= 0;
        wr <= 0;
        n  <= 0;
    end else begin
        if (push) wr <= (wr == DEPTH[ABITS-1:0] - 1'b1) ? {ABITS{1'b0}} : wr + 1'b1;
        if (pop)  rd <= (rd == DEPTH[ABITS-1:0] - 1'b1) ? {ABITS{1'b0}} : rd + 1'b1;
        n <= n + {{ABITS{1'b0}}, push} - {{ABITS{1'b0}}, pop};
    end
end

endmodule

`default_nettype wire
