// gravf_aurora_core: everything of the link kernel but the Aurora 64B/66B
// IP itself: the two clock-domain crossings between the kernel clock and
// the core's user clock, the core's reset sequence, and the status
// registers the host reads.
//
// Send: words from the GraVF kernel's link port (tx_axis, TW bits) cross
// to the user clock in a FIFO and go out as the low bits of the core's
// 256-bit streaming interface while the channel is up. Receive: the core
// has no back-pressure (m_axi_rx has no tready), so every word it delivers
// goes into a FIFO of RX_DEPTH words towards the kernel clock; the GraVF
// kernel's credits keep at most its receive buffer's worth in flight, so
// RX_DEPTH twice that never fills, and a word that finds it full is
// dropped and counted (rx_dropped), a protocol error.
//
// Reset: ap_rst_n resets the kernel side; the core's pma_init and reset_pb
// are held for PMA_CYCLES and RESET_CYCLES init_clk cycles after it (PG074
// asks for pma_init over a second at power-up; 2**27 cycles of a 100 MHz
// init_clk), pma_init released first.
//
// Registers (s_axi_control, gravf_axil_ctrl; the ap_ctrl bits are unused,
// the kernel runs free):
//   0x10 loopback   R/W  the core's loopback input: 0 normal, 2 near-end PMA
//   0x20 status     R    bit 0 channel up, bits 4:1 lanes up, bit 5 GT PLL
//                        locked, bit 6 MMCM not locked, bits 10:7 GT power good
//   0x24 soft_err   R    soft errors counted
//   0x28 hard_err   R    hard errors counted
//   0x2c rx_dropped R    received words dropped (receive FIFO full)
//   0x30 tx_words   R    words sent
//   0x34 rx_words   R    words received
//   0x38 drops      R    times the channel went down
`default_nettype none

module gravf_aurora_core #(
    parameter TW          = 64,           // bits of a link word
    parameter RX_ABITS    = 11,           // RX FIFO of 2**RX_ABITS words
    parameter PMA_CYCLES  = 134217472,    // init_clk cycles until pma_init falls
    parameter RESET_CYCLES = 134217727    // ... until reset_pb falls
) (
    input  wire          ap_clk,
    input  wire          ap_rst_n,
    input  wire          init_clk,
    // Control.
    input  wire          s_axi_control_awvalid,
    output wire          s_axi_control_awready,
    input  wire [11:0]   s_axi_control_awaddr,
    input  wire          s_axi_control_wvalid,
    output wire          s_axi_control_wready,
    input  wire [31:0]   s_axi_control_wdata,
    input  wire [3:0]    s_axi_control_wstrb,
    output wire          s_axi_control_bvalid,
    input  wire          s_axi_control_bready,
    output wire [1:0]    s_axi_control_bresp,
    input  wire          s_axi_control_arvalid,
    output wire          s_axi_control_arready,
    input  wire [11:0]   s_axi_control_araddr,
    output wire          s_axi_control_rvalid,
    input  wire          s_axi_control_rready,
    output wire [31:0]   s_axi_control_rdata,
    output wire [1:0]    s_axi_control_rresp,
    // The GraVF kernel's link port.
    input  wire [TW-1:0] tx_axis_tdata,
    input  wire          tx_axis_tvalid,
    output wire          tx_axis_tready,
    output wire [TW-1:0] rx_axis_tdata,
    output wire          rx_axis_tvalid,
    input  wire          rx_axis_tready,
    // The Aurora core, user clock domain.
    input  wire          user_clk,
    output wire [255:0]  s_axi_tx_tdata,
    output wire          s_axi_tx_tvalid,
    input  wire          s_axi_tx_tready,
    input  wire [255:0]  m_axi_rx_tdata,
    input  wire          m_axi_rx_tvalid,
    input  wire          channel_up,
    input  wire [3:0]    lane_up,
    input  wire          soft_err,
    input  wire          hard_err,
    input  wire          mmcm_not_locked,
    input  wire [3:0]    gt_powergood,
    input  wire          gt_pll_lock,     // init_clk domain
    output reg           pma_init,        // init_clk domain
    output reg           reset_pb,
    output wire [2:0]    loopback
);

wire rst = !ap_rst_n;

// ---------------------------------------------------------------- resets
// ap_rst_n reaches the other domains through two registers each.
reg [1:0] init_rst_s, user_rst_s;
always @(posedge init_clk) init_rst_s <= {init_rst_s[0], rst};
always @(posedge user_clk) user_rst_s <= {user_rst_s[0], rst};
wire init_rst = init_rst_s[1];
wire user_rst = user_rst_s[1];

reg [31:0] init_count;
always @(posedge init_clk) begin
    if (init_rst) begin
        init_count <= 32'd0;
        pma_init   <= 1'b1;
        reset_pb   <= 1'b1;
    end else begin
        if (init_count != RESET_CYCLES) init_count <= init_count + 32'd1;
        if (init_count == PMA_CYCLES) pma_init <= 1'b0;
        if (init_count == RESET_CYCLES) reset_pb <= 1'b0;
    end
end

// ------------------------------------------------------------------ send
wire [TW-1:0] tx_word;
wire          tx_word_valid;
gravf_async_fifo #(.WIDTH(TW), .ABITS(4)) tx_fifo (
    .wr_clk(ap_clk), .wr_rst(rst), .in_data(tx_axis_tdata), .in_valid(tx_axis_tvalid), .in_ready(tx_axis_tready),
    .rd_clk(user_clk), .rd_rst(user_rst), .out_data(tx_word), .out_valid(tx_word_valid),
    .out_ready(s_axi_tx_tready && channel_up)
);
assign s_axi_tx_tdata  = {{(256-TW){1'b0}}, tx_word};
assign s_axi_tx_tvalid = tx_word_valid && channel_up;

// --------------------------------------------------------------- receive
wire rx_room;
wire rx_drop = m_axi_rx_tvalid && !rx_room;
/* verilator lint_off UNUSEDSIGNAL */ // the link word is the low TW bits of the core's
wire [255:0] rx_beat = m_axi_rx_tdata;
/* verilator lint_on UNUSEDSIGNAL */
gravf_async_fifo #(.WIDTH(TW), .ABITS(RX_ABITS)) rx_fifo (
    .wr_clk(user_clk), .wr_rst(user_rst), .in_data(rx_beat[TW-1:0]), .in_valid(m_axi_rx_tvalid), .in_ready(rx_room),
    .rd_clk(ap_clk), .rd_rst(rst), .out_data(rx_axis_tdata), .out_valid(rx_axis_tvalid), .out_ready(rx_axis_tready)
);

// ---------------------------------------------------------------- status
reg [10:0] status_s1, status_s2;        // channel, lanes, PLL, MMCM, power good
always @(posedge ap_clk) begin
    status_s1 <= {gt_powergood, mmcm_not_locked, gt_pll_lock, lane_up, channel_up};
    status_s2 <= status_s1;
end
wire        up_now = status_s2[0];
reg         up_was;
reg  [31:0] tx_words, rx_words, drops;
always @(posedge ap_clk) begin
    if (rst) begin
        up_was   <= 1'b0;
        tx_words <= 32'd0;
        rx_words <= 32'd0;
        drops    <= 32'd0;
    end else begin
        up_was <= up_now;
        if (up_was && !up_now) drops <= drops + 32'd1;
        if (tx_axis_tvalid && tx_axis_tready) tx_words <= tx_words + 32'd1;
        if (rx_axis_tvalid && rx_axis_tready) rx_words <= rx_words + 32'd1;
    end
end

wire [31:0] soft_count, hard_count, drop_count;
gravf_gray_sync soft_errors (.src_clk(user_clk), .src_rst(user_rst), .inc(soft_err), .dst_clk(ap_clk), .dst_rst(rst), .count(soft_count));
gravf_gray_sync hard_errors (.src_clk(user_clk), .src_rst(user_rst), .inc(hard_err), .dst_clk(ap_clk), .dst_rst(rst), .count(hard_count));
gravf_gray_sync dropped     (.src_clk(user_clk), .src_rst(user_rst), .inc(rx_drop), .dst_clk(ap_clk), .dst_rst(rst), .count(drop_count));

/* verilator lint_off UNUSEDSIGNAL */ // free running: no start, and the loopback needs three bits of its word
wire        ap_start;
wire [31:0] args;
wire        irq;
/* verilator lint_on UNUSEDSIGNAL */
assign loopback = args[2:0];
gravf_axil_ctrl #(.ADDR_W(12), .NARG(1), .NSTAT(7), .STAT(12'h020)) control (
    .clk(ap_clk), .rst(rst),
    .s_axi_awvalid(s_axi_control_awvalid), .s_axi_awready(s_axi_control_awready), .s_axi_awaddr(s_axi_control_awaddr),
    .s_axi_wvalid(s_axi_control_wvalid), .s_axi_wready(s_axi_control_wready), .s_axi_wdata(s_axi_control_wdata), .s_axi_wstrb(s_axi_control_wstrb),
    .s_axi_bvalid(s_axi_control_bvalid), .s_axi_bready(s_axi_control_bready), .s_axi_bresp(s_axi_control_bresp),
    .s_axi_arvalid(s_axi_control_arvalid), .s_axi_arready(s_axi_control_arready), .s_axi_araddr(s_axi_control_araddr),
    .s_axi_rvalid(s_axi_control_rvalid), .s_axi_rready(s_axi_control_rready), .s_axi_rdata(s_axi_control_rdata), .s_axi_rresp(s_axi_control_rresp),
    .ap_start(ap_start), .ap_done(1'b0), .ap_ready(1'b0), .ap_idle(1'b1), .irq(irq),
    .args(args),
    .status({drops, rx_words, tx_words, drop_count, hard_count, soft_count, {21'd0, status_s2}})
);

endmodule

`default_nettype wire
