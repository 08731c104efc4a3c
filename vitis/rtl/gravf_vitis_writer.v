// gravf_vitis_writer: writes the PEs' vertex states back to host buffers
// after a run, in the layout gravf_vitis_loader reads (segments of entries
// in slots of 2**SEG_SLOG bits, entry 0 in the least significant slot, a
// segment starting on a beat; the unused slots of a segment's last beat
// are written as zeros).
//
// The writer reads entry rd_addr of segment rd_seg (rd_valid) and expects
// it on rd_data in the next cycle, like a block RAM's read port; it reads
// at most one entry per cycle and packs DW / slot entries per beat, which
// gravf_axi_wr writes with bursts. start (a pulse while idle) begins;
// busy stays high until every burst has its write response. error
// follows gravf_axi_wr's. Reset is synchronous and active high.
`default_nettype none

module gravf_vitis_writer #(
    parameter DW        = 512,
    parameter NSEG      = 1,
    parameter NBUF      = 1,
    parameter MAXW      = 32,               // bits of rd_data, at most every slot
    parameter [NSEG*4-1:0]  SEG_BUF   = 0,
    parameter [NSEG*32-1:0] SEG_BEAT  = 0,
    parameter [NSEG*32-1:0] SEG_COUNT = 0,
    parameter [NSEG*4-1:0]  SEG_SLOG  = 0,
    parameter MAX_BURST = 64,
    parameter MAX_OUT   = 4,
    parameter IDW       = 1,
    parameter SB        = (NSEG > 1) ? $clog2(NSEG) : 1
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            start,
    output reg             busy,
    output wire            error,
    input  wire [NBUF*64-1:0] bases,
    // Table read port.
    output wire            rd_valid,
    output wire [SB-1:0]   rd_seg,
    output wire [31:0]     rd_addr,
    input  wire [MAXW-1:0] rd_data,
    // AXI4 write channels.
    output wire            m_axi_awvalid,
    input  wire            m_axi_awready,
    output wire [63:0]     m_axi_awaddr,
    output wire [7:0]      m_axi_awlen,
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
    input  wire [IDW-1:0]  m_axi_bid
);

localparam integer DLOG  = $clog2(DW);
localparam integer BYTES = DW / 8;

reg  [SB:0]    seg;
reg            cmd_sent;
reg  [31:0]    left;                        // entries of the segment not yet read
reg  [31:0]    index;                       // the next entry to read
reg            pending;                     // an entry read last cycle arrives now
reg  [31:0]    filled;                      // slots of the beat filled
reg  [DW-1:0]  beat;
reg            beat_valid;                  // the beat is full and offered to the engine

wire [SB-1:0]  s       = seg[SB-1:0];
wire [31:0]    count   = SEG_COUNT[s*32 +: 32];
wire [3:0]     slog    = SEG_SLOG[s*4 +: 4];
wire [3:0]     buf_i   = SEG_BUF[s*4 +: 4];
wire [31:0]    first   = SEG_BEAT[s*32 +: 32];
wire [31:0]    epb     = 32'd1 << (DLOG - {28'd0, slog});
wire [31:0]    beats   = (count + epb - 32'd1) >> (DLOG - {28'd0, slog});
wire [63:0]    cmd_addr = bases[buf_i*64 +: 64] + ({32'd0, first} << $clog2(BYTES));

wire           in_seg    = busy && seg < NSEG;
wire           cmd_valid = in_seg && !cmd_sent && count != 0;
wire           cmd_ready;
wire           beat_ready;
wire           read      = cmd_sent && !beat_valid && filled + {31'd0, pending} < epb && left != 0;
wire           pad       = cmd_sent && !beat_valid && !pending && left == 0 && filled != 0;
wire           shift     = pending || pad;
wire           seg_end   = in_seg && (count == 0 || (cmd_sent && left == 0 && !pending && filled == 0 && !beat_valid));

assign rd_valid = read;
assign rd_seg   = s;
assign rd_addr  = index;

// The beat with its slots moved down by one and the entry in the top slot.
function [DW-1:0] push_slot;
    input [DW-1:0]   b;
    input [MAXW-1:0] e;
    input [3:0]      lg;
    reg   [DW-1:0]   w;
    begin
        w = {{(DW-MAXW){1'b0}}, e};
        case (lg)
            4'd3:    push_slot = (b >> 8)   | (w << (DW - 8));
            4'd4:    push_slot = (b >> 16)  | (w << (DW - 16));
            4'd5:    push_slot = (b >> 32)  | (w << (DW - 32));
            4'd6:    push_slot = (b >> 64)  | (w << (DW - 64));
            4'd7:    push_slot = (b >> 128) | (w << (DW - 128));
            4'd8:    push_slot = (DW > 256) ? (b >> 256) | (w << (DW - 256)) : w;
            default: push_slot = w;
        endcase
    end
endfunction

gravf_axi_wr #(.DW(DW), .IDW(IDW), .ID({IDW{1'b0}}), .MAX_BURST(MAX_BURST), .MAX_OUT(MAX_OUT)) engine (
    .clk(clk), .rst(rst),
    .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_beats(beats),
    .in_data(beat), .in_valid(beat_valid), .in_ready(beat_ready), .error(error),
    .m_axi_awvalid(m_axi_awvalid), .m_axi_awready(m_axi_awready), .m_axi_awaddr(m_axi_awaddr),
    .m_axi_awlen(m_axi_awlen), .m_axi_awsize(m_axi_awsize), .m_axi_awburst(m_axi_awburst), .m_axi_awid(m_axi_awid),
    .m_axi_wvalid(m_axi_wvalid), .m_axi_wready(m_axi_wready), .m_axi_wdata(m_axi_wdata),
    .m_axi_wstrb(m_axi_wstrb), .m_axi_wlast(m_axi_wlast),
    .m_axi_bvalid(m_axi_bvalid), .m_axi_bready(m_axi_bready), .m_axi_bresp(m_axi_bresp), .m_axi_bid(m_axi_bid)
);

always @(posedge clk) begin
    if (rst) begin
        busy       <= 1'b0;
        pending    <= 1'b0;
        beat_valid <= 1'b0;
        filled     <= 32'd0;
    end else begin
        if (start && !busy) begin
            busy     <= 1'b1;
            seg      <= {(SB+1){1'b0}};
            cmd_sent <= 1'b0;
        end else if (busy && seg == NSEG && cmd_ready) begin
            busy <= 1'b0;
        end
        if (cmd_valid && cmd_ready) begin
            cmd_sent <= 1'b1;
            left     <= count;
            index    <= 32'd0;
        end
        if (seg_end) begin
            seg      <= seg + 1'b1;
            cmd_sent <= 1'b0;
        end
        pending <= read;
        if (read) begin
            index <= index + 32'd1;
            left  <= left - 32'd1;
        end
        if (shift) begin
            beat <= push_slot(beat, pending ? rd_data : {MAXW{1'b0}}, slog);
            if (filled + 32'd1 == epb) begin
                filled     <= 32'd0;
                beat_valid <= 1'b1;
            end else begin
                filled <= filled + 32'd1;
            end
        end
        if (beat_valid && beat_ready) beat_valid <= 1'b0;
    end
end

endmodule

`default_nettype wire
