// gravf_link_model: one direction of an FPGA-to-FPGA link, for simulation.
// Items are accepted one per cycle while the model has room, and each is
// offered to the receiver LATENCY cycles after it was accepted, in order.
`default_nettype none

module gravf_link_model #(
    parameter WIDTH   = 8,
    parameter LATENCY = 1,
    parameter DEPTH   = 512
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [WIDTH-1:0] in_data,
    input  wire             in_valid,
    output wire             in_ready,
    output wire [WIDTH-1:0] out_data,
    output wire             out_valid,
    input  wire             out_ready
);

reg [WIDTH-1:0] data [0:DEPTH-1];
integer         due  [0:DEPTH-1];   // the cycle each item leaves
integer         now;
integer rd, wr, n;

assign in_ready  = n < DEPTH;
assign out_valid = n > 0 && due[rd] <= now;
assign out_data  = data[rd];

always @(posedge clk) begin
    if (rst) begin
        rd <= 0; wr <= 0; n <= 0; now <= 0;
    end else begin
        now <= now + 1;
        if (in_valid && in_ready) begin
            data[wr] <= in_data;
            due[wr]  <= now + LATENCY;
            wr <= (wr + 1) % DEPTH;
        end
        if (out_valid && out_ready) rd <= (rd + 1) % DEPTH;
        n <= n + ((in_valid && in_ready) ? 1 : 0) - ((out_valid && out_ready) ? 1 : 0);
    end
end

endmodule

`default_nettype wire
