// gravf_ram: a simple dual-port block RAM with one synchronous read port
// and one write port, initialised from a $readmemh image.
//
// A read of address rd_addr issued in cycle t (rd_en) shows on rd_data in
// cycle t+1. A write in the same cycle to the same address returns the old
// word (read-first), as block RAMs do by default.
`default_nettype none

module gravf_ram #(
    parameter WIDTH = 8,
    parameter DEPTH = 16,
    parameter ABITS = $clog2(DEPTH),
    parameter INIT  = ""                 // $readmemh image, "" for none
) (
    input  wire             clk,
    input  wire             rd_en,
    input  wire [ABITS-1:0] rd_addr,
    output reg  [WIDTH-1:0] rd_data,
    input  wire             wr_en,
    input  wire [ABITS-1:0] wr_addr,
    input  wire [WIDTH-1:0] wr_data
);

reg [WIDTH-1:0] mem [0:DEPTH-1];

initial begin
    if (INIT != "") $readmemh(INIT, mem);
end

always @(posedge clk) begin
    if (rd_en) rd_data <= mem[rd_addr];
    if (wr_en) mem[wr_addr] <= wr_data;
end

endmodule

`default_nettype wire
