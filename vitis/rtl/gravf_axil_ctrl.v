// gravf_axil_ctrl: the AXI4-Lite control slave of a Vitis RTL kernel, with
// the register map that XRT drives for the ap_ctrl_hs protocol.
//
//   0x00  control  bit 0 ap_start (R/W, set by writing 1, cleared when the
//                  kernel is ready for new arguments), bit 1 ap_done (R,
//                  cleared on read), bit 2 ap_idle (R), bit 3 ap_ready (R,
//                  cleared on read), bit 7 auto_restart (R/W)
//   0x04  GIE      bit 0 global interrupt enable (R/W)
//   0x08  IER      bit 0 ap_done, bit 1 ap_ready interrupt enable (R/W)
//   0x0C  ISR      bit 0 ap_done, bit 1 ap_ready interrupt status (R,
//                  toggled by writing 1); set only while enabled in IER
//   0x10  + 4k     argument word k, k < NARG (R/W, byte strobes honoured);
//                  a 64-bit argument takes two words, low word first
//   STAT + 4k      status word k, k < NSTAT (R)
//
// Other addresses read as zero and ignore writes; every response is OKAY.
// The interrupt output is high while GIE is set and an ISR bit is set.
//
// AXI4-Lite handshakes: a write address and its data may arrive in either
// order or together; the write happens once both are held, and the
// response (bvalid) stays until bready. One read at a time: arready is
// low while a read response waits for rready. Reset is synchronous and
// active high.
`default_nettype none

module gravf_axil_ctrl #(
    parameter ADDR_W = 12,           // bits of a byte address
    parameter NARG   = 1,            // argument words at 0x10 (at least 1)
    parameter NSTAT  = 1,            // status words at STAT (at least 1)
    parameter STAT   = 12'h100       // byte address of status word 0
) (
    input  wire                 clk,
    input  wire                 rst,
    // AXI4-Lite slave.
    input  wire                 s_axi_awvalid,
    output wire                 s_axi_awready,
    input  wire [ADDR_W-1:0]    s_axi_awaddr,
    input  wire                 s_axi_wvalid,
    output wire                 s_axi_wready,
    input  wire [31:0]          s_axi_wdata,
    input  wire [3:0]           s_axi_wstrb,
    output reg                  s_axi_bvalid,
    input  wire                 s_axi_bready,
    output wire [1:0]           s_axi_bresp,
    input  wire                 s_axi_arvalid,
    output wire                 s_axi_arready,
    input  wire [ADDR_W-1:0]    s_axi_araddr,
    output reg                  s_axi_rvalid,
    input  wire                 s_axi_rready,
    output reg  [31:0]          s_axi_rdata,
    output wire [1:0]           s_axi_rresp,
    // Kernel handshake (ap_ctrl_hs).
    output wire                 ap_start,     // level: the kernel may start
    input  wire                 ap_done,      // pulse: the run is complete
    input  wire                 ap_ready,     // pulse: arguments may change
    input  wire                 ap_idle,      // level: nothing is running
    output wire                 irq,          // interrupt
    // Registers.
    output wire [NARG*32-1:0]   args,
    input  wire [NSTAT*32-1:0]  status
);

localparam [ADDR_W-1:0] A_CTRL = 0, A_GIE = 4, A_IER = 8, A_ISR = 12;

// ------------------------------------------------------------ write side
reg              aw_held, w_held;
reg [ADDR_W-1:0] aw_addr;
reg [31:0]       w_data;
reg [3:0]        w_strb;

assign s_axi_awready = !aw_held && !s_axi_bvalid;
assign s_axi_wready  = !w_held && !s_axi_bvalid;
assign s_axi_bresp   = 2'b00;
assign s_axi_rresp   = 2'b00;

// This cycle's write: the held halves, or those arriving now.
wire              aw_now   = aw_held || (s_axi_awvalid && s_axi_awready);
wire              w_now    = w_held || (s_axi_wvalid && s_axi_wready);
wire              do_write = aw_now && w_now;
wire [ADDR_W-1:0] wr_addr  = aw_held ? aw_addr : s_axi_awaddr;
wire [31:0]       wr_data  = w_held ? w_data : s_axi_wdata;
wire [3:0]        wr_strb  = w_held ? w_strb : s_axi_wstrb;

// ------------------------------------------------------------- registers
reg              start_r, auto_restart, done_r, ready_r, gie;
reg [1:0]        ier, isr;
reg [NARG*32-1:0] arg;

wire             rd_ctrl = s_axi_arvalid && s_axi_arready && s_axi_araddr == A_CTRL;

assign ap_start  = start_r;
assign irq      = gie && (|isr);

assign args      = arg;

// Argument word k is at byte address 0x10 + 4k, status word k at STAT + 4k.
localparam [ADDR_W-1:0] ARG_END  = 16 + 4 * NARG;
localparam [ADDR_W-1:0] STAT_END = STAT + 4 * NSTAT;
function is_arg;
    input [ADDR_W-1:0] a;
    is_arg = a >= 16 && a < ARG_END && a[1:0] == 2'b00;
endfunction
// The word index of an aligned address a in a region starting at first.
function [ADDR_W-3:0] word_of;
    /* verilator lint_off UNUSEDSIGNAL */ // the byte offset of an aligned address is zero
    input [ADDR_W-1:0] a;
    input [ADDR_W-1:0] first;
    /* verilator lint_on UNUSEDSIGNAL */
    word_of = a[ADDR_W-1:2] - first[ADDR_W-1:2];
endfunction

integer i;
always @(posedge clk) begin
    if (rst) begin
        aw_held      <= 1'b0;
        w_held       <= 1'b0;
        s_axi_bvalid <= 1'b0;
        start_r      <= 1'b0;
        auto_restart <= 1'b0;
        done_r       <= 1'b0;
        ready_r      <= 1'b0;
        gie          <= 1'b0;
        ier          <= 2'b00;
        isr          <= 2'b00;
        arg          <= {(NARG*32){1'b0}};
    end else begin
        // Hold a half that arrives before the other.
        if (s_axi_awvalid && s_axi_awready && !do_write) begin
            aw_held <= 1'b1;
            aw_addr <= s_axi_awaddr;
        end
        if (s_axi_wvalid && s_axi_wready && !do_write) begin
            w_held <= 1'b1;
            w_data <= s_axi_wdata;
            w_strb <= s_axi_wstrb;
        end
        if (do_write) begin
            aw_held      <= 1'b0;
            w_held       <= 1'b0;
            s_axi_bvalid <= 1'b1;
        end else if (s_axi_bvalid && s_axi_bready) begin
            s_axi_bvalid <= 1'b0;
        end

        // Kernel events.
        if (ap_ready && !auto_restart) start_r <= 1'b0;
        if (ap_done) done_r <= 1'b1;
        else if (rd_ctrl) done_r <= 1'b0;
        if (ap_ready) ready_r <= 1'b1;
        else if (rd_ctrl) ready_r <= 1'b0;
        if (ap_done && ier[0]) isr[0] <= 1'b1;
        if (ap_ready && ier[1]) isr[1] <= 1'b1;

        if (do_write) begin
            if (wr_addr == A_CTRL && wr_strb[0]) begin
                if (wr_data[0]) start_r <= 1'b1;
                auto_restart <= wr_data[7];
            end
            if (wr_addr == A_GIE && wr_strb[0]) gie <= wr_data[0];
            if (wr_addr == A_IER && wr_strb[0]) ier <= wr_data[1:0];
            // Toggle on write, after this cycle's events.
            if (wr_addr == A_ISR && wr_strb[0])
                isr <= (isr | {ap_ready && ier[1], ap_done && ier[0]}) ^ wr_data[1:0];
            if (is_arg(wr_addr)) begin
                for (i = 0; i < 4; i = i + 1)
                    if (wr_strb[i]) arg[word_of(wr_addr, 16)*32 + i*8 +: 8] <= wr_data[i*8 +: 8];
            end
        end
    end
end

// ------------------------------------------------------------- read side
assign s_axi_arready = !s_axi_rvalid;

function [31:0] read_word;
    input [ADDR_W-1:0] a;
    begin
        read_word = 32'd0;
        case (a)
            A_CTRL: read_word = {24'd0, auto_restart, 3'b000, ready_r, ap_idle, done_r, start_r};
            A_GIE:  read_word = {31'd0, gie};
            A_IER:  read_word = {30'd0, ier};
            A_ISR:  read_word = {30'd0, isr};
            default: begin
                if (is_arg(a)) read_word = arg[word_of(a, 16)*32 +: 32];
                if (a >= STAT && a < STAT_END && a[1:0] == 2'b00) read_word = status[word_of(a, STAT)*32 +: 32];
            end
        endcase
    end
endfunction

always @(posedge clk) begin
    if (rst) begin
        s_axi_rvalid <= 1'b0;
    end else if (s_axi_arvalid && s_axi_arready) begin
        s_axi_rvalid <= 1'b1;
        s_axi_rdata  <= read_word(s_axi_araddr);
    end else if (s_axi_rready) begin
        s_axi_rvalid <= 1'b0;
    end
end

endmodule

`default_nettype wire
