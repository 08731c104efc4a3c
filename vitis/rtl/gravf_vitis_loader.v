// gravf_vitis_loader: fills the PEs' on-chip tables from host buffers
// before a run.
//
// The tables are NSEG segments, each an array of SEG_COUNT entries in one
// of NBUF buffers (SEG_BUF), starting at beat SEG_BEAT of that buffer.
// Entries sit in slots of 2**SEG_SLOG bits (8 to DW), DW / slot per beat,
// entry 0 in the least significant slot; a segment starts on a beat. The
// loader reads the segments in order through gravf_axi_rd and writes one
// entry per cycle on its write port: wr_seg, wr_addr (the entry's index
// in its segment) and wr_data (the low MAXW bits of the slot; the table
// takes the bits it needs). There is no back-pressure on the write port.
//
// start (a pulse while idle) begins a load; busy stays high until every
// entry is written. error follows gravf_axi_rd's. Reset is synchronous
// and active high.
`default_nettype none

module gravf_vitis_loader #(
    parameter DW        = 512,
    parameter NSEG      = 1,
    parameter NBUF      = 1,
    parameter MAXW      = 32,               // bits of wr_data, at most DW
    parameter [NSEG*4-1:0]  SEG_BUF   = 0,  // buffer of each segment
    parameter [NSEG*32-1:0] SEG_BEAT  = 0,  // first beat in its buffer
    parameter [NSEG*32-1:0] SEG_COUNT = 0,  // entries
    parameter [NSEG*4-1:0]  SEG_SLOG  = 0,  // log2 of the slot bits
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
    input  wire [NBUF*64-1:0] bases,         // byte address of each buffer
    // Table write port.
    output wire            wr_valid,
    output wire [SB-1:0]   wr_seg,
    output wire [31:0]     wr_addr,
    output wire [MAXW-1:0] wr_data,
    // AXI4 read channels.
    output wire            m_axi_arvalid,
    input  wire            m_axi_arready,
    output wire [63:0]     m_axi_araddr,
    output wire [7:0]      m_axi_arlen,
    output wire [2:0]      m_axi_arsize,
    output wire [1:0]      m_axi_arburst,
    output wire [IDW-1:0]  m_axi_arid,
    input  wire            m_axi_rvalid,
    output wire            m_axi_rready,
    input  wire [DW-1:0]   m_axi_rdata,
    input  wire [1:0]      m_axi_rresp,
    input  wire            m_axi_rlast,
    input  wire [IDW-1:0]  m_axi_rid
);

localparam integer DLOG  = $clog2(DW);
localparam integer BYTES = DW / 8;

reg  [SB:0]    seg;                         // the segment being loaded (NSEG: none left)
reg            cmd_sent;                    // its read command was accepted
reg  [31:0]    pending;                     // its entries not yet in the beat register
reg  [31:0]    index;                       // the next entry's index
reg            bv;                          // the beat register holds entries
reg  [DW-1:0]  beat;
reg  [31:0]    bleft;                       // entries left in it

wire [SB-1:0]  s       = seg[SB-1:0];
wire [31:0]    count   = SEG_COUNT[s*32 +: 32];
wire [3:0]     slog    = SEG_SLOG[s*4 +: 4];
wire [3:0]     buf_i   = SEG_BUF[s*4 +: 4];
wire [31:0]    first   = SEG_BEAT[s*32 +: 32];
wire [31:0]    epb     = 32'd1 << (DLOG - {28'd0, slog});        // entries per beat
wire [31:0]    beats   = (count + epb - 32'd1) >> (DLOG - {28'd0, slog});
wire [63:0]    cmd_addr = bases[buf_i*64 +: 64] + ({32'd0, first} << $clog2(BYTES));

wire           in_seg   = busy && seg < NSEG;
wire           cmd_valid = in_seg && !cmd_sent && count != 0;
wire           cmd_ready;
wire [DW-1:0]  rd_data;
wire           rd_valid;
/* verilator lint_off UNUSEDSIGNAL */ // the beats are counted here
wire           rd_last;
/* verilator lint_on UNUSEDSIGNAL */
wire           emit     = bv;
wire           take     = rd_valid && cmd_sent && (!bv || bleft == 1);
wire           seg_end  = in_seg && (count == 0 || (cmd_sent && pending == 0 && !bv && cmd_ready));

assign wr_valid = emit;
assign wr_seg   = s;
assign wr_addr  = index;
assign wr_data  = beat[MAXW-1:0];

// The beat after its lowest slot: a shift by one of the few slot sizes.
function [DW-1:0] next_slot;
    input [DW-1:0] b;
    input [3:0]    lg;
    begin
        case (lg)
            4'd3:    next_slot = b >> 8;
            4'd4:    next_slot = b >> 16;
            4'd5:    next_slot = b >> 32;
            4'd6:    next_slot = b >> 64;
            4'd7:    next_slot = b >> 128;
            4'd8:    next_slot = b >> 256;
            default: next_slot = {DW{1'b0}};        // a slot of the whole beat
        endcase
    end
endfunction

gravf_axi_rd #(.DW(DW), .IDW(IDW), .ID({IDW{1'b0}}), .MAX_BURST(MAX_BURST), .MAX_OUT(MAX_OUT)) reader (
    .clk(clk), .rst(rst),
    .cmd_valid(cmd_valid), .cmd_ready(cmd_ready), .cmd_addr(cmd_addr), .cmd_beats(beats),
    .out_data(rd_data), .out_valid(rd_valid), .out_ready(take), .out_last(rd_last), .error(error),
    .m_axi_arvalid(m_axi_arvalid), .m_axi_arready(m_axi_arready), .m_axi_araddr(m_axi_araddr),
    .m_axi_arlen(m_axi_arlen), .m_axi_arsize(m_axi_arsize), .m_axi_arburst(m_axi_arburst), .m_axi_arid(m_axi_arid),
    .m_axi_rvalid(m_axi_rvalid), .m_axi_rready(m_axi_rready), .m_axi_rdata(m_axi_rdata),
    .m_axi_rresp(m_axi_rresp), .m_axi_rlast(m_axi_rlast), .m_axi_rid(m_axi_rid)
);

always @(posedge clk) begin
    if (rst) begin
        busy <= 1'b0;
        bv   <= 1'b0;
    end else begin
        if (start && !busy) begin
            busy     <= 1'b1;
            seg      <= {(SB+1){1'b0}};
            cmd_sent <= 1'b0;
        end else if (busy && seg == NSEG) begin
            busy <= 1'b0;
        end
        if (cmd_valid && cmd_ready) begin
            cmd_sent <= 1'b1;
            pending  <= count;
            index    <= 32'd0;
        end
        if (seg_end) begin
            seg      <= seg + 1'b1;
            cmd_sent <= 1'b0;
        end
        // The beat register: one entry out per cycle; the next beat comes
        // in as the last entry of this one goes out.
        if (emit) index <= index + 32'd1;
        if (take) begin
            bv      <= 1'b1;
            beat    <= rd_data;
            bleft   <= (pending < epb) ? pending : epb;
            pending <= pending - ((pending < epb) ? pending : epb);
        end else if (emit) begin
            beat  <= next_slot(beat, slog);
            bleft <= bleft - 32'd1;
            if (bleft == 1) bv <= 1'b0;
        end
    end
end

initial begin
    if (MAXW > DW) begin
        $display("gravf_vitis_loader: MAXW = %0d exceeds DW = %0d", MAXW, DW);
        $finish;
    end
end

endmodule

`default_nettype wire
