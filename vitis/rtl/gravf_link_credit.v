// gravf_link_credit: one inter-FPGA link of a Vitis kernel, as a pair of
// AXI4-Stream ports with credit-based flow control, so that it works over
// a transport that cannot apply back-pressure end to end (the Aurora
// 64B/66B receive interface has no tready; a direct stream_connect between
// two kernels does not need one either).
//
// Words on the wire (TW bits, most significant bit first):
//   data item     {1'b0, zeros, item[UW-1:0]}       one crossbar item
//   credit return {1'b1, zeros, count[CB-1:0]}      count receive slots freed
//
// Receive: every data word goes into the receive buffer (DEPTH items),
// from which the crossbar takes items. s_axis_tready is always high: the
// peer sends a data word only while it holds a credit, one per free slot
// of this buffer, so a data word that finds the buffer full breaks the
// protocol; it is dropped and sets overflow until reset. Credit words are
// consumed at once and add to this side's credits.
//
// Send: a data item leaves while this side holds a credit (it starts with
// DEPTH, the peer's buffer). Slots freed in the receive buffer are owed to
// the peer; they go back in a credit word once THRESH are owed, or as soon
// as no data item is waiting. The output word is registered: m_axis_tvalid
// and m_axis_tdata hold until m_axis_tready.
//
// Both peers must come out of reset before either sends (the kernels'
// ap_rst_n, when the cards are programmed). The core reset of a run must
// not reset this module: items of a peer that started earlier wait in the
// buffer. Reset is synchronous and active high.
`default_nettype none

module gravf_link_credit #(
    parameter UW     = 8,                 // bits of a crossbar item
    parameter TW     = 16,                // bits of a stream word: a multiple of 8, > UW, > CB
    parameter DEPTH  = 64,                // receive buffer items = the peer's credits
    parameter THRESH = (DEPTH >= 16) ? DEPTH / 4 : 1,  // credits returned together
    parameter CB     = $clog2(DEPTH + 1)  // bits of a credit count
) (
    input  wire          clk,
    input  wire          rst,
    // Crossbar side.
    input  wire [UW-1:0] tx_item,         // from the send FIFO
    input  wire          tx_valid,
    output wire          tx_ready,
    output wire [UW-1:0] rx_item,         // to the crossbar
    output wire          rx_valid,
    input  wire          rx_ready,
    // Link side.
    output reg  [TW-1:0] m_axis_tdata,
    output reg           m_axis_tvalid,
    input  wire          m_axis_tready,
    input  wire [TW-1:0] s_axis_tdata,
    input  wire          s_axis_tvalid,
    output wire          s_axis_tready,
    // Status.
    output reg  [CB-1:0] credits,         // data words this side may still send
    output reg  [31:0]   sent,            // data words sent
    output reg  [31:0]   received,        // data words received
    output reg           overflow         // a data word found the buffer full
);

localparam [CB-1:0] FULL = DEPTH[CB-1:0];

// --------------------------------------------------------------- receive
wire          word_in  = s_axis_tvalid && s_axis_tready;
wire          is_credit = s_axis_tdata[TW-1];
wire          buf_ready;
/* verilator lint_off UNUSEDSIGNAL */ // the fill count is not needed: credits bound it
wire [$clog2(DEPTH):0] buf_count;
/* verilator lint_on UNUSEDSIGNAL */
assign s_axis_tready = 1'b1;

gravf_fifo #(.WIDTH(UW), .DEPTH(DEPTH)) receive_buffer (
    .clk(clk), .rst(rst),
    .in_data(s_axis_tdata[UW-1:0]), .in_valid(word_in && !is_credit), .in_ready(buf_ready),
    .out_data(rx_item), .out_valid(rx_valid), .out_ready(rx_ready), .count(buf_count)
);

wire          freed    = rx_valid && rx_ready;
wire [CB-1:0] returned = (word_in && is_credit) ? s_axis_tdata[CB-1:0] : {CB{1'b0}};

// ------------------------------------------------------------------ send
reg  [CB-1:0] owed;                       // freed slots not yet returned
wire          slot     = !m_axis_tvalid || m_axis_tready;   // the output register takes a word
wire          can_data = tx_valid && credits != 0;
wire          send_ret = slot && owed != 0 && (owed >= THRESH || !can_data);
wire          send_dat = slot && can_data && !send_ret;
assign tx_ready = send_dat;

always @(posedge clk) begin
    if (rst) begin
        m_axis_tvalid <= 1'b0;
        credits       <= FULL;
        owed          <= {CB{1'b0}};
        sent          <= 32'd0;
        received      <= 32'd0;
        overflow      <= 1'b0;
    end else begin
        if (send_ret) begin
            m_axis_tvalid <= 1'b1;
            m_axis_tdata  <= {1'b1, {(TW-1){1'b0}}} | {{(TW-CB){1'b0}}, owed};
        end else if (send_dat) begin
            m_axis_tvalid <= 1'b1;
            m_axis_tdata  <= {{(TW-UW){1'b0}}, tx_item};
        end else if (m_axis_tready) begin
            m_axis_tvalid <= 1'b0;
        end
        owed    <= (send_ret ? {CB{1'b0}} : owed) + {{(CB-1){1'b0}}, freed};
        credits <= credits - {{(CB-1){1'b0}}, send_dat} + returned;
        if (send_dat) sent <= sent + 32'd1;
        if (word_in && !is_credit) begin
            received <= received + 32'd1;
            if (!buf_ready) overflow <= 1'b1;
        end
    end
end

initial begin
    if (TW % 8 != 0 || TW <= UW || TW <= CB) begin
        $display("gravf_link_credit: TW = %0d must be a multiple of 8 above UW = %0d and CB = %0d", TW, UW, CB);
        $finish;
    end
end

endmodule

`default_nettype wire
