// gravf_axi_wr: an AXI4 write engine. It takes a command (a byte address
// aligned to the data width and a number of beats) and writes that many
// beats from its input stream with INCR bursts of full-width beats, each
// at most MAX_BURST beats long and never crossing a 4 KB boundary. A
// burst's address goes out before its data; wlast marks its last beat. Up
// to MAX_OUT bursts may wait for their write response.
//
// Command handshake: cmd_valid && cmd_ready; cmd_ready is high while the
// engine is idle: every burst of the previous command written and
// answered. The input stream (in_valid, in_ready) must hold in_valid and
// in_data until in_ready, as an AXI source does, because wvalid is
// in_valid while a burst is open. An error response (bresp other than
// OKAY) sets error until reset. Reset is synchronous and active high.
`default_nettype none

module gravf_axi_wr #(
    parameter DW        = 512,       // data bits
    parameter IDW       = 1,         // bits of awid
    parameter [IDW-1:0] ID = 0,      // the id of every burst
    parameter MAX_BURST = 64,        // beats per burst, 1..256
    parameter MAX_OUT   = 4          // bursts awaiting a response, 1..255
) (
    input  wire            clk,
    input  wire            rst,
    // Command.
    input  wire            cmd_valid,
    output wire            cmd_ready,
    input  wire [63:0]     cmd_addr,
    input  wire [31:0]     cmd_beats,  // at least 1
    // Data in.
    input  wire [DW-1:0]   in_data,
    input  wire            in_valid,
    output wire            in_ready,
    output reg             error,
    // AXI4 write address, data and response channels.
    output reg             m_axi_awvalid,
    input  wire            m_axi_awready,
    output reg  [63:0]     m_axi_awaddr,
    output reg  [7:0]      m_axi_awlen,
    output wire [2:0]      m_axi_awsize,
    output wire [1:0]      m_axi_awburst,
    output wire [IDW-1:0]  m_axi_awid,
    output wire            m_axi_wvalid,
    input  wire            m_axi_wready,
    output wire [DW-1:0]   m_axi_wdata,
    output wire [DW/8-1:0] m_axi_wstrb,
    output wire            m_axi_wlast,
    input  wire            m_axi_bvalid,
    output wire            m_axi_bready,
    input  wire [1:0]      m_axi_bresp,
    /* verilator lint_off UNUSEDSIGNAL */ // every burst has this id
    input  wire [IDW-1:0]  m_axi_bid
    /* verilator lint_on UNUSEDSIGNAL */
);

localparam integer BYTES = DW / 8;
localparam integer SIZE  = $clog2(BYTES);
localparam integer OB    = $clog2(MAX_OUT + 1);

assign m_axi_awsize  = SIZE[2:0];
assign m_axi_awburst = 2'b01;      // INCR
assign m_axi_awid    = ID;
assign m_axi_wstrb   = {BYTES{1'b1}};
assign m_axi_bready  = 1'b1;

reg         active;                // bursts of the command remain to be issued
reg  [63:0] addr;
reg  [31:0] left;                  // beats not yet in a burst
reg         w_open;                // a burst's address is out and its data is being written
reg  [8:0]  w_left;                // its beats not yet written
reg  [OB-1:0] awaiting;            // bursts issued and not answered

// The next burst: as long as the 4 KB rule and MAX_BURST allow.
wire [31:0] burst;
gravf_axi_burst #(.SIZE(SIZE), .MAX_BURST(MAX_BURST)) next_burst (.addr(addr), .left(left), .beats(burst));

wire aw_fire = m_axi_awvalid && m_axi_awready;
wire w_fire  = m_axi_wvalid && m_axi_wready;
wire b_fire  = m_axi_bvalid;
// A new burst once the previous one's address is out and its data written.
wire issue   = active && !m_axi_awvalid && !w_open && (awaiting < MAX_OUT || b_fire);

assign cmd_ready    = !active && !m_axi_awvalid && !w_open && awaiting == 0;
// Data follows its address: the beats of a burst go out from the cycle
// after the address was accepted.
assign m_axi_wvalid = w_open && !m_axi_awvalid && in_valid;
assign m_axi_wdata  = in_data;
assign m_axi_wlast  = w_left == 9'd1;
assign in_ready     = w_open && !m_axi_awvalid && m_axi_wready;

always @(posedge clk) begin
    if (rst) begin
        active        <= 1'b0;
        m_axi_awvalid <= 1'b0;
        w_open        <= 1'b0;
        awaiting      <= {OB{1'b0}};
        error         <= 1'b0;
    end else begin
        if (cmd_valid && cmd_ready) begin
            active <= cmd_beats != 0;
            addr   <= cmd_addr;
            left   <= cmd_beats;
        end
        if (aw_fire) m_axi_awvalid <= 1'b0;
        if (issue) begin
            m_axi_awvalid <= 1'b1;
            m_axi_awaddr  <= addr;
            m_axi_awlen   <= burst[7:0] - 8'd1;
            w_open        <= 1'b1;
            w_left        <= burst[8:0];
            addr          <= addr + ({32'd0, burst} << SIZE);
            left          <= left - burst;
            if (left == burst) active <= 1'b0;
        end else if (w_fire) begin
            w_left <= w_left - 9'd1;
            if (w_left == 9'd1) w_open <= 1'b0;
        end
        if (issue && !b_fire) awaiting <= awaiting + 1'b1;
        else if (b_fire && !issue) awaiting <= awaiting - 1'b1;
        if (b_fire && m_axi_bresp != 2'b00) error <= 1'b1;
    end
end

initial begin
    if (MAX_BURST < 1 || MAX_BURST > 256) begin
        $display("gravf_axi_wr: MAX_BURST = %0d outside 1..256", MAX_BURST);
        $finish;
    end
end

endmodule

`default_nettype wire
