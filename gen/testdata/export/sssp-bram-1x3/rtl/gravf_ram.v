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
    /* verilator lint_off UNUSEDSIGNAL */ // callers may pass wider addresses whose high bits are zero
    input  wire [ABITS-1:0] rd_addr,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg  [WIDTH-1:0] rd_data,
    input  wire             wr_en,
    /* verilator lint_off UNUSEDSIGNAL */ // callers may pass wider addresses whose high bits are zero
    input  wire [ABITS-1:0] wr_addr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [WIDTH-1:0] wr_data
);

localparam AW = (DEPTH > 1) ? $clog2(DEPTH) : 1; // bits that address the words

reg [WIDTH-1:0] mem [0:DEPTH-1];
wire [AW-1:0] ra = rd_addr[AW-1:0];
wire [AW-1:0] wa = wr_addr[AW-1:0];

initial begin
    if (INIT != "") $readmemh(INIT, mem);
end

always @(posedge clk) begin
    if (rd_en) rd_data <= mem[ra];
    if (wr_en) mem[wa] <= wr_data;
end

endmodule

`default_nettype wire
