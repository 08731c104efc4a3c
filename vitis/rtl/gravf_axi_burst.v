// gravf_axi_burst: the length of the next INCR burst of gravf_axi_rd and
// gravf_axi_wr: the beats left, at most MAX_BURST, and at most up to the
// next 4 KB boundary, which an AXI4 burst may not cross. Beats are full
// width (2**SIZE bytes) and addr is aligned to them. Combinational.
`default_nettype none

module gravf_axi_burst #(
    parameter SIZE      = 6,       // log2 of the bytes of a beat
    parameter MAX_BURST = 64       // beats per burst, 1..256
) (
    /* verilator lint_off UNUSEDSIGNAL */ // only the offset in the 4 KB page matters
    input  wire [63:0] addr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [31:0] left,       // beats still to move
    output wire [31:0] beats       // in the next burst
);

localparam [12:0]  PAGE = 13'd4096;
localparam [31:0]  MAXB = MAX_BURST;

wire [12:0] to_page    = PAGE - {1'b0, addr[11:0]};
wire [31:0] page_beats = {19'd0, to_page} >> SIZE;
wire [31:0] max_beats  = (page_beats < MAXB) ? page_beats : MAXB;
assign beats = (left < max_beats) ? left : max_beats;

endmodule

`default_nettype wire
