// gravf_async_fifo: a first-word-fall-through FIFO between two unrelated
// clocks, for the link kernel's crossing between the kernel clock and the
// transceiver's user clock.
//
// The write and read pointers are counted in Gray code and each crosses to
// the other domain through a two-register synchronizer, so only one bit of
// a crossing pointer changes at a time. Full is computed in the write
// domain and empty in the read domain from the synchronized pointers, so
// both are pessimistic (a word becomes visible, and room frees, two or
// three cycles late) and never wrong. Words are read combinationally from
// the storage (distributed RAM on the FPGA) at the read pointer.
//
// Handshakes as gravf_fifo: a word is written when in_valid && in_ready,
// and leaves when out_valid && out_ready. Each domain has its own
// synchronous, active-high reset; assert both together (for at least
// three cycles of the slower clock) before use.
`default_nettype none

module gravf_async_fifo #(
    parameter WIDTH = 8,
    parameter ABITS = 4                  // DEPTH = 2**ABITS entries, ABITS >= 2
) (
    input  wire             wr_clk,
    input  wire             wr_rst,
    input  wire [WIDTH-1:0] in_data,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire             rd_clk,
    input  wire             rd_rst,
    output wire [WIDTH-1:0] out_data,
    output wire             out_valid,
    input  wire             out_ready
);

localparam integer DEPTH = 1 << ABITS;

reg [WIDTH-1:0] mem [0:DEPTH-1];

function [ABITS:0] gray;
    input [ABITS:0] b;
    gray = b ^ (b >> 1);
endfunction

reg  [ABITS:0] wbin, wgray;             // write pointer (write domain)
reg  [ABITS:0] rgray_w1, rgray_w2;      // the read pointer, synchronized
reg  [ABITS:0] rbin, rgray;             // read pointer (read domain)
reg  [ABITS:0] wgray_r1, wgray_r2;      // the write pointer, synchronized

// ------------------------------------------------------------ write side
wire [ABITS:0] wbin_next  = wbin + {{ABITS{1'b0}}, in_valid && in_ready};
wire [ABITS:0] wgray_next = gray(wbin_next);
// Full: the write pointer is one lap ahead (two top bits differ).
assign in_ready = !(wgray == {~rgray_w2[ABITS:ABITS-1], rgray_w2[ABITS-2:0]});

always @(posedge wr_clk) begin
    if (in_valid && in_ready) mem[wbin[ABITS-1:0]] <= in_data;
    if (wr_rst) begin
        wbin     <= {(ABITS+1){1'b0}};
        wgray    <= {(ABITS+1){1'b0}};
        rgray_w1 <= {(ABITS+1){1'b0}};
        rgray_w2 <= {(ABITS+1){1'b0}};
    end else begin
        wbin     <= wbin_next;
        wgray    <= wgray_next;
        rgray_w1 <= rgray;
        rgray_w2 <= rgray_w1;
    end
end

// ------------------------------------------------------------- read side
assign out_valid = rgray != wgray_r2;
assign out_data  = mem[rbin[ABITS-1:0]];
wire [ABITS:0] rbin_next = rbin + {{ABITS{1'b0}}, out_valid && out_ready};

always @(posedge rd_clk) begin
    if (rd_rst) begin
        rbin     <= {(ABITS+1){1'b0}};
        rgray    <= {(ABITS+1){1'b0}};
        wgray_r1 <= {(ABITS+1){1'b0}};
        wgray_r2 <= {(ABITS+1){1'b0}};
    end else begin
        rbin     <= rbin_next;
        rgray    <= gray(rbin_next);
        wgray_r1 <= wgray;
        wgray_r2 <= wgray_r1;
    end
end

initial begin
    if (ABITS < 2) begin
        $display("gravf_async_fifo: ABITS = %0d, at least 2", ABITS);
        $finish;
    end
end

endmodule

`default_nettype wire
