// unit_link: two gravf_link_credit endpoints joined in both directions by
// gravf_axis_link (LATENCY cycles, random back-pressure), each sending
// ITEMS items while its receiver takes items with random pauses. Every
// item must arrive once and in order, the receive buffers must never
// overflow, and once the traffic stops every credit must come back.
// gravf_axis_check watches the four stream segments.
`timescale 1ns/1ps
`default_nettype none

module unit_link #(
    parameter UW        = 20,
    parameter DEPTH     = 16,
    parameter LATENCY   = 25,
    parameter READY_PCT = 70,
    parameter ITEMS     = 400,
    parameter [31:0] SEED = 32'd11,
    parameter NAME      = "link"
) (
    input  wire clk,
    input  wire rst,
    output reg  done
);

localparam integer TW = ((UW + 1 + 7) / 8) * 8;
localparam integer CB = $clog2(DEPTH + 1);

reg  [UW-1:0] tx_item [0:1];
reg  [1:0]    tx_valid;
wire [1:0]    tx_ready;
wire [UW-1:0] rx_item [0:1];
wire [1:0]    rx_valid;
reg  [1:0]    rx_ready;
wire [TW-1:0] out_data [0:1], in_data [0:1];
wire [1:0]    out_valid, out_ready, in_valid, in_ready;
wire [CB-1:0] credits [0:1];
wire [31:0]   sent [0:1], received [0:1];
wire [1:0]    overflow;

genvar s;
generate
    for (s = 0; s < 2; s = s + 1) begin : side
        gravf_link_credit #(.UW(UW), .TW(TW), .DEPTH(DEPTH)) ep (
            .clk(clk), .rst(rst),
            .tx_item(tx_item[s]), .tx_valid(tx_valid[s]), .tx_ready(tx_ready[s]),
            .rx_item(rx_item[s]), .rx_valid(rx_valid[s]), .rx_ready(rx_ready[s]),
            .m_axis_tdata(out_data[s]), .m_axis_tvalid(out_valid[s]), .m_axis_tready(out_ready[s]),
            .s_axis_tdata(in_data[s]), .s_axis_tvalid(in_valid[s]), .s_axis_tready(in_ready[s]),
            .credits(credits[s]), .sent(sent[s]), .received(received[s]), .overflow(overflow[s])
        );
        // Side s's output reaches side 1-s.
        gravf_axis_link #(.TW(TW), .LATENCY(LATENCY), .READY_PCT(READY_PCT), .SEED(SEED + s)) wire_ (
            .clk(clk), .rst(rst),
            .s_axis_tdata(out_data[s]), .s_axis_tvalid(out_valid[s]), .s_axis_tready(out_ready[s]),
            .m_axis_tdata(in_data[1-s]), .m_axis_tvalid(in_valid[1-s]), .m_axis_tready(in_ready[1-s])
        );
        gravf_axis_check #(.TW(TW), .NAME({NAME, " send"})) check_out (
            .clk(clk), .rst(rst), .tvalid(out_valid[s]), .tready(out_ready[s]), .tdata(out_data[s]));
        gravf_axis_check #(.TW(TW), .NAME({NAME, " receive"})) check_in (
            .clk(clk), .rst(rst), .tvalid(in_valid[s]), .tready(in_ready[s]), .tdata(in_data[s]));
    end
endgenerate

reg [31:0] rng;
integer n_sent [0:1], n_got [0:1], quiet, k;

always @(posedge clk) begin
    if (rst) begin
        rng = SEED;
        tx_valid <= 2'b00;
        rx_ready <= 2'b00;
        done     <= 1'b0;
        quiet    = 0;
        for (k = 0; k < 2; k = k + 1) begin
            n_sent[k] = 0; n_got[k] = 0;
        end
    end else begin
        for (k = 0; k < 2; k = k + 1) begin
            if (rx_valid[k] && rx_ready[k]) begin
                if (rx_item[k] !== (n_got[k] * 7 + (1 - k)) % (1 << UW)) begin
                    $display("RESULT FAIL unit %0s: side %0d received %0d as item %0d", NAME, k, rx_item[k], n_got[k]);
                    $fatal(1, "unit");
                end
                n_got[k] = n_got[k] + 1;
            end
            if (tx_valid[k] && tx_ready[k]) n_sent[k] = n_sent[k] + 1;
            if (!tx_valid[k] || tx_ready[k]) begin
                rng = rng ^ (rng << 13); rng = rng ^ (rng >> 17); rng = rng ^ (rng << 5);
                tx_valid[k] <= n_sent[k] < ITEMS && rng % 5 != 0;
                tx_item[k]  <= (n_sent[k] * 7 + k) % (1 << UW);
            end
            rng = rng ^ (rng << 13); rng = rng ^ (rng >> 17); rng = rng ^ (rng << 5);
            rx_ready[k] <= rng % 3 != 0;
        end
        if (overflow != 2'b00) begin
            $display("RESULT FAIL unit %0s: a receive buffer overflowed", NAME);
            $fatal(1, "unit");
        end
        if (n_got[0] == ITEMS && n_got[1] == ITEMS) quiet = quiet + 1;
        // Every credit back once the links have been quiet for two round trips.
        if (quiet == 4 * LATENCY + 50) begin
            if (credits[0] != DEPTH || credits[1] != DEPTH || sent[0] != ITEMS || received[1] != ITEMS) begin
                $display("RESULT FAIL unit %0s: after the traffic, credits %0d and %0d of %0d, sent %0d, received %0d",
                         NAME, credits[0], credits[1], DEPTH, sent[0], received[1]);
                $fatal(1, "unit");
            end
            done <= 1'b1;
        end
    end
end

endmodule

`default_nettype wire
