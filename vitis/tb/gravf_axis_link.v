// gravf_axis_link: one direction of a link between two kernels'
// AXI4-Stream ports, for simulation: a wire with LATENCY cycles of delay.
// A word is accepted while fewer than DEPTH are in flight and a
// reproducible xorshift draw (SEED) allows it (READY_PCT % of the cycles),
// so the sender sees back-pressure; it is offered to the receiver LATENCY
// cycles later, in order, and held until tready.
`default_nettype none

module gravf_axis_link #(
    parameter        TW        = 64,
    parameter        LATENCY   = 1,
    parameter        DEPTH     = 1024,
    parameter        READY_PCT = 100,
    parameter [31:0] SEED      = 32'd1
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [TW-1:0] s_axis_tdata,
    input  wire          s_axis_tvalid,
    output reg           s_axis_tready,
    output reg  [TW-1:0] m_axis_tdata,
    output reg           m_axis_tvalid,
    input  wire          m_axis_tready
);

/* verilator lint_off BLKSEQ */ // testbench model: its bookkeeping is sequential code, read only in its own process
reg [TW-1:0] data [0:DEPTH-1];
integer      due  [0:DEPTH-1];
integer      now, rd, wr, n;
reg [31:0]   rng;

// Internal state changes with blocking assignments; the outputs are
// registers, so every reader sees them change after the edge.
always @(posedge clk) begin
    if (rst) begin
        rd = 0; wr = 0; n = 0; now = 0;
        rng = SEED | 32'd1;
        s_axis_tready <= 1'b0;
        m_axis_tvalid <= 1'b0;
    end else begin
        if (m_axis_tvalid && m_axis_tready) begin
            rd = (rd + 1) % DEPTH;
            n  = n - 1;
        end
        if (s_axis_tvalid && s_axis_tready) begin
            data[wr] = s_axis_tdata;
            due[wr]  = now + LATENCY;
            wr = (wr + 1) % DEPTH;
            n  = n + 1;
        end
        now = now + 1;
        rng = rng ^ (rng << 13);
        rng = rng ^ (rng >> 17);
        rng = rng ^ (rng << 5);
        s_axis_tready <= n < DEPTH - 1 && rng % 100 < READY_PCT;
        m_axis_tvalid <= n > 0 && due[rd] <= now;
        m_axis_tdata  <= data[rd];
    end
end

endmodule

`default_nettype wire
