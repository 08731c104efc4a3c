// gravf_axi_rd: an AXI4 read engine. It takes a command (a byte address
// aligned to the data width and a number of beats) and reads that many
// beats with INCR bursts of full-width beats, each at most MAX_BURST
// beats long and never crossing a 4 KB boundary, with up to MAX_OUT bursts
// outstanding. The beats come out in address order on a valid/ready
// stream (out_last marks the command's last beat); out_ready is passed on
// as rready, so a slow consumer back-pressures the memory.
//
// Command handshake: cmd_valid && cmd_ready; cmd_ready is high while the
// engine is idle (every beat of the previous command delivered). An error
// response (rresp other than OKAY) sets error until reset; the beats are
// delivered anyway. Reset is synchronous and active high.
`default_nettype none

module gravf_axi_rd #(
    parameter DW        = 512,       // data bits: 256 or 512 on Alveo memories
    parameter IDW       = 1,         // bits of arid
    parameter [IDW-1:0] ID = 0,      // the id of every burst
    parameter MAX_BURST = 64,        // beats per burst, 1..256
    parameter MAX_OUT   = 4          // bursts outstanding, 1..255
) (
    input  wire           clk,
    input  wire           rst,
    // Command.
    input  wire           cmd_valid,
    output wire           cmd_ready,
    input  wire [63:0]    cmd_addr,
    input  wire [31:0]    cmd_beats,  // at least 1
    // Data out.
    output wire [DW-1:0]  out_data,
    output wire           out_valid,
    input  wire           out_ready,
    output wire           out_last,
    output reg            error,
    // AXI4 read address and data channels.
    output reg            m_axi_arvalid,
    input  wire           m_axi_arready,
    output reg  [63:0]    m_axi_araddr,
    output reg  [7:0]     m_axi_arlen,
    output wire [2:0]     m_axi_arsize,
    output wire [1:0]     m_axi_arburst,
    output wire [IDW-1:0] m_axi_arid,
    input  wire           m_axi_rvalid,
    output wire           m_axi_rready,
    input  wire [DW-1:0]  m_axi_rdata,
    input  wire [1:0]     m_axi_rresp,
    /* verilator lint_off UNUSEDSIGNAL */ // rlast and rid are implied: beats are counted and every burst has this id
    input  wire           m_axi_rlast,
    input  wire [IDW-1:0] m_axi_rid
    /* verilator lint_on UNUSEDSIGNAL */
);

localparam integer BYTES = DW / 8;
localparam integer SIZE  = $clog2(BYTES);
localparam integer OB    = $clog2(MAX_OUT + 1);
localparam integer QB    = (MAX_OUT > 1) ? $clog2(MAX_OUT) : 1;   // ring index bits
localparam integer LAST_QI = MAX_OUT - 1;
localparam [QB-1:0] LAST_Q = LAST_QI[QB-1:0];

assign m_axi_arsize  = SIZE[2:0];
assign m_axi_arburst = 2'b01;      // INCR
assign m_axi_arid    = ID;

reg         active;                // bursts of the command remain to be issued
reg  [63:0] addr;                  // the next burst's address
reg  [31:0] left;                  // beats not yet requested
reg  [31:0] rx_left;               // beats not yet delivered
reg  [OB-1:0] outstanding;         // bursts issued and not complete

assign cmd_ready = !active && rx_left == 0;

// The next burst: as long as the 4 KB rule and MAX_BURST allow.
wire [31:0] burst;
gravf_axi_burst #(.SIZE(SIZE), .MAX_BURST(MAX_BURST)) next_burst (.addr(addr), .left(left), .beats(burst));

// The last beat of a burst is counted here rather than taken from rlast:
// the lengths of the outstanding bursts wait in a ring, oldest first.
reg  [8:0]    beat_in_burst;
reg  [7:0]    burst_len_q [0:MAX_OUT-1];
reg  [QB-1:0] len_rd, len_wr;
wire          last_beat = {1'b0, burst_len_q[len_rd]} == beat_in_burst;

wire ar_fire = m_axi_arvalid && m_axi_arready;
wire r_fire  = m_axi_rvalid && m_axi_rready;
wire r_end   = r_fire && last_beat;
wire issue   = active && (!m_axi_arvalid || m_axi_arready) && (outstanding < MAX_OUT || r_end);

assign out_data     = m_axi_rdata;
assign out_valid    = m_axi_rvalid;
assign m_axi_rready = out_ready;
assign out_last     = rx_left == 1;

always @(posedge clk) begin
    if (rst) begin
        active        <= 1'b0;
        rx_left       <= 32'd0;
        outstanding   <= {OB{1'b0}};
        m_axi_arvalid <= 1'b0;
        beat_in_burst <= 9'd0;
        len_rd        <= {QB{1'b0}};
        len_wr        <= {QB{1'b0}};
        error         <= 1'b0;
    end else begin
        if (cmd_valid && cmd_ready) begin
            active  <= cmd_beats != 0;
            addr    <= cmd_addr;
            left    <= cmd_beats;
            rx_left <= cmd_beats;
        end
        if (ar_fire) m_axi_arvalid <= 1'b0;
        if (issue) begin
            m_axi_arvalid <= 1'b1;
            m_axi_araddr  <= addr;
            m_axi_arlen   <= burst[7:0] - 8'd1;
            burst_len_q[len_wr] <= burst[7:0] - 8'd1;
            len_wr        <= (len_wr == LAST_Q) ? {QB{1'b0}} : len_wr + 1'b1;
            addr          <= addr + ({32'd0, burst} << SIZE);
            left          <= left - burst;
            if (left == burst) active <= 1'b0;
        end
        if (issue && !r_end) outstanding <= outstanding + 1'b1;
        else if (r_end && !issue) outstanding <= outstanding - 1'b1;
        if (r_fire) begin
            rx_left <= rx_left - 32'd1;
            if (m_axi_rresp != 2'b00) error <= 1'b1;
            if (r_end) begin
                beat_in_burst <= 9'd0;
                len_rd        <= (len_rd == LAST_Q) ? {QB{1'b0}} : len_rd + 1'b1;
            end else begin
                beat_in_burst <= beat_in_burst + 9'd1;
            end
        end
    end
end

// Parameter checks at elaboration.
initial begin
    if (DW != 256 && DW != 512 && DW != 128 && DW != 64 && DW != 32) begin
        $display("gravf_axi_rd: DW = %0d is not a power-of-two AXI width", DW);
        $finish;
    end
    if (MAX_BURST < 1 || MAX_BURST > 256) begin
        $display("gravf_axi_rd: MAX_BURST = %0d outside 1..256", MAX_BURST);
        $finish;
    end
end

endmodule

`default_nettype wire
