// unit_async: gravf_async_fifo between two unrelated clocks (half periods
// WHALF and RHALF ns), a writer and a reader that pause at random: ITEMS
// words must come out once each and in order.
`timescale 1ns/1ps
`default_nettype none

module unit_async #(
    parameter real WHALF = 1.7,
    parameter real RHALF = 2.9,
    parameter ABITS      = 3,
    parameter ITEMS      = 500,
    parameter [31:0] SEED = 32'd3,
    parameter NAME       = "async"
) (
    input  wire rst,                     // asynchronous to both clocks; held for many cycles
    output reg  done
);

reg wclk = 1'b0, rclk = 1'b0;
always #(WHALF) wclk = ~wclk;
always #(RHALF) rclk = ~rclk;

// Each domain takes the reset through two registers.
reg [1:0] wrs, rrs;
always @(posedge wclk) wrs <= {wrs[0], rst};
always @(posedge rclk) rrs <= {rrs[0], rst};
wire wr_rst = wrs[1] | rst, rd_rst = rrs[1] | rst;

reg  [15:0] in_data;
reg         in_valid;
wire        in_ready;
wire [15:0] out_data;
wire        out_valid;
reg         out_ready;

gravf_async_fifo #(.WIDTH(16), .ABITS(ABITS)) fifo (
    .wr_clk(wclk), .wr_rst(wr_rst), .in_data(in_data), .in_valid(in_valid), .in_ready(in_ready),
    .rd_clk(rclk), .rd_rst(rd_rst), .out_data(out_data), .out_valid(out_valid), .out_ready(out_ready)
);
gravf_axis_check #(.TW(16), .NAME({NAME, " write side"})) check_in (
    .clk(wclk), .rst(wr_rst), .tvalid(in_valid), .tready(in_ready), .tdata(in_data));

reg [31:0] wr_rng, rd_rng;
integer n_in, n_out;

always @(posedge wclk) begin
    if (wr_rst) begin
        wr_rng = SEED;
        n_in = 0;
        in_valid <= 1'b0;
    end else begin
        if (in_valid && in_ready) n_in = n_in + 1;
        if (!in_valid || in_ready) begin
            wr_rng = wr_rng ^ (wr_rng << 13); wr_rng = wr_rng ^ (wr_rng >> 17); wr_rng = wr_rng ^ (wr_rng << 5);
            in_valid <= n_in < ITEMS && wr_rng % 4 != 0;
            in_data  <= n_in * 3 + 1;
        end
    end
end

always @(posedge rclk) begin
    if (rd_rst) begin
        rd_rng = SEED * 5 + 1;
        n_out = 0;
        out_ready <= 1'b0;
        done <= 1'b0;
    end else begin
        if (out_valid && out_ready) begin
            if (out_data !== n_out * 3 + 1) begin
                $display("RESULT FAIL unit %0s: word %0d came out as %0d", NAME, n_out, out_data);
                $fatal(1, "unit");
            end
            n_out = n_out + 1;
        end
        rd_rng = rd_rng ^ (rd_rng << 13); rd_rng = rd_rng ^ (rd_rng >> 17); rd_rng = rd_rng ^ (rd_rng << 5);
        out_ready <= rd_rng % 3 != 0;
        done <= n_out == ITEMS;
    end
end

endmodule

`default_nettype wire
