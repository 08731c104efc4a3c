// gravf_axi_edge_port: shares one AXI4 master port among NL PEs' edge
// memory ports (the protocol of <kernel>_pe's memory port: requests of one
// word address, responses in request order).
//
// Every cycle in which the address register is free it takes one request,
// round-robin among the lanes that have one, and turns it into a one-beat
// INCR read with arid = the lane: byte address BASE + (word - FIRST) *
// DW/8, where FIRST is the first word of this port's buffer in the FPGA's
// edge image. AXI returns each id's responses in order, so a lane's words
// come back in its request order; they wait in the lane's response FIFO of
// INFLIGHT words until the PE takes them. A PE has at most INFLIGHT
// requests outstanding (taken responses free them), so the FIFO never
// overflows and rready stays high; it is the AND of every lane's room, so
// a PE that broke that promise would stall the port instead of losing a
// word. A response with an unknown id, more than one beat or rresp other
// than OKAY sets error until reset. Reset is synchronous, active high.
`default_nettype none

module gravf_axi_edge_port #(
    parameter NL       = 1,         // lanes (PEs) sharing the port
    parameter DW       = 256,       // data bits = the memory word of the PEs
    parameter MA       = 1,         // bits of a word address
    parameter IDW      = 1,         // bits of arid: at least clog2(NL)
    parameter INFLIGHT = 32,        // requests a lane may have outstanding
    parameter [MA-1:0] FIRST = 0    // the first word of this port's buffer
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [63:0]      base,    // byte address of the port's buffer
    // PE edge memory ports: lane l of each bus.
    input  wire [NL-1:0]    req_valid,
    output reg  [NL-1:0]    req_ready,
    input  wire [NL*MA-1:0] req_addr,
    output wire [NL-1:0]    resp_valid,
    input  wire [NL-1:0]    resp_ready,
    output wire [NL*DW-1:0] resp_data,
    output reg              error,
    // AXI4 read address and data channels.
    output reg              m_axi_arvalid,
    input  wire             m_axi_arready,
    output reg  [63:0]      m_axi_araddr,
    output wire [7:0]       m_axi_arlen,
    output wire [2:0]       m_axi_arsize,
    output wire [1:0]       m_axi_arburst,
    output reg  [IDW-1:0]   m_axi_arid,
    input  wire             m_axi_rvalid,
    output wire             m_axi_rready,
    input  wire [DW-1:0]    m_axi_rdata,
    input  wire [1:0]       m_axi_rresp,
    input  wire             m_axi_rlast,
    input  wire [IDW-1:0]   m_axi_rid
);

localparam integer SIZE = $clog2(DW / 8);
localparam integer LB   = (NL > 1) ? $clog2(NL) : 1;
localparam integer FB   = $clog2(INFLIGHT) + 1;  // gravf_fifo's count
localparam integer LAST_LANE = NL - 1;

assign m_axi_arlen   = 8'd0;
assign m_axi_arsize  = SIZE[2:0];
assign m_axi_arburst = 2'b01;

// ------------------------------------------------- address arbitration
reg  [LB-1:0] rr;               // the lane served first
reg           have;
reg  [LB-1:0] sel;
integer i, idx;
always @* begin
    have = 1'b0;
    sel  = {LB{1'b0}};
    for (i = 0; i < NL; i = i + 1) begin
        idx = {{(32-LB){1'b0}}, rr} + i;
        if (idx >= NL) idx = idx - NL;
        if (!have && req_valid[idx]) begin
            have = 1'b1;
            sel  = idx[LB-1:0];
        end
    end
end

wire          take = have && (!m_axi_arvalid || m_axi_arready);
wire [MA-1:0] word = req_addr[sel*MA +: MA];

always @* begin
    req_ready = {NL{1'b0}};
    if (take) req_ready[sel] = 1'b1;
end

always @(posedge clk) begin
    if (rst) begin
        m_axi_arvalid <= 1'b0;
        rr            <= {LB{1'b0}};
    end else begin
        if (m_axi_arvalid && m_axi_arready) m_axi_arvalid <= 1'b0;
        if (take) begin
            m_axi_arvalid <= 1'b1;
            m_axi_araddr  <= base + ({{(64-MA){1'b0}}, word - FIRST} << SIZE);
            m_axi_arid    <= {{(IDW > LB ? IDW - LB : 0){1'b0}}, sel};
            rr            <= (sel == LAST_LANE[LB-1:0]) ? {LB{1'b0}} : sel + 1'b1;
        end
    end
end

// ---------------------------------------------- responses, by id to lanes
wire [NL-1:0] room;
wire          r_fire = m_axi_rvalid && m_axi_rready;
assign m_axi_rready = &room;

genvar l;
generate
    for (l = 0; l < NL; l = l + 1) begin : lane
        /* verilator lint_off UNUSEDSIGNAL */ // the fill count is not needed: rready uses the FIFO's in_ready
        wire [FB-1:0] count;
        /* verilator lint_on UNUSEDSIGNAL */
        gravf_fifo #(.WIDTH(DW), .DEPTH(INFLIGHT)) responses (
            .clk(clk), .rst(rst),
            .in_data(m_axi_rdata), .in_valid(r_fire && m_axi_rid == l), .in_ready(room[l]),
            .out_data(resp_data[l*DW +: DW]), .out_valid(resp_valid[l]), .out_ready(resp_ready[l]),
            .count(count)
        );
    end
endgenerate

always @(posedge clk) begin
    if (rst) error <= 1'b0;
    else if (r_fire && (m_axi_rresp != 2'b00 || !m_axi_rlast || {{(32-IDW){1'b0}}, m_axi_rid} > LAST_LANE)) error <= 1'b1;
end

initial begin
    if (IDW < LB) begin
        $display("gravf_axi_edge_port: IDW = %0d cannot name %0d lanes", IDW, NL);
        $finish;
    end
end

endmodule

`default_nettype wire
