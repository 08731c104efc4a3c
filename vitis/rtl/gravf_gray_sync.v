// gravf_gray_sync: an event counter whose value is read in another clock
// domain. inc pulses are counted in the source domain; the count crosses
// in Gray code through a two-register synchronizer, so the destination
// sees every value in order, at most a few cycles late, never a torn one.
// Each domain has its own synchronous, active-high reset; assert both
// together. The count wraps at 2**WIDTH.
`default_nettype none

module gravf_gray_sync #(
    parameter WIDTH = 32
) (
    input  wire             src_clk,
    input  wire             src_rst,
    input  wire             inc,          // one event this cycle
    input  wire             dst_clk,
    input  wire             dst_rst,
    output reg  [WIDTH-1:0] count         // in the destination domain
);

reg  [WIDTH-1:0] bin, gray;             // source domain
reg  [WIDTH-1:0] sync1, sync2;          // destination domain
wire [WIDTH-1:0] bin_next = bin + {{(WIDTH-1){1'b0}}, inc};

always @(posedge src_clk) begin
    if (src_rst) begin
        bin  <= {WIDTH{1'b0}};
        gray <= {WIDTH{1'b0}};
    end else begin
        bin  <= bin_next;
        gray <= bin_next ^ (bin_next >> 1);
    end
end

// Gray to binary: bit i is the XOR of the Gray bits from i up.
function [WIDTH-1:0] to_bin;
    input [WIDTH-1:0] g;
    integer i;
    begin
        to_bin[WIDTH-1] = g[WIDTH-1];
        for (i = WIDTH - 2; i >= 0; i = i - 1) to_bin[i] = to_bin[i+1] ^ g[i];
    end
endfunction

always @(posedge dst_clk) begin
    if (dst_rst) begin
        sync1 <= {WIDTH{1'b0}};
        sync2 <= {WIDTH{1'b0}};
        count <= {WIDTH{1'b0}};
    end else begin
        sync1 <= gray;
        sync2 <= sync1;
        count <= to_bin(sync2);
    end
end

endmodule

`default_nettype wire
