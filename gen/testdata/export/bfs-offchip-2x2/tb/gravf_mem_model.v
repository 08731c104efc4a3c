// gravf_mem_model: the off-chip edge memory of one FPGA, for simulation.
//
// One read port per PE, each with the protocol of the PE's edge memory
// port (see <kernel>_pe): a request (req_valid, req_ready, req_addr, a word
// address) is answered with the word (resp_valid, resp_ready, resp_data)
// LATENCY cycles after it was accepted, or later while the PE is not
// ready, in request order. A PE keeps at most INFLIGHT requests
// outstanding; the model stops the simulation if one does not.
//
// The ports share the memory's bandwidth as the simulator models it (the
// per-FPGA token bucket of sim/machine.go): every cycle the bucket gains
// RATE words, up to max(RATE, 1); the ports are served in an order that
// rotates by one every cycle, and a request is accepted while a whole
// token is left. req_ready therefore depends on the requests of the
// ports served before it in the same cycle.
`default_nettype none

module gravf_mem_model #(
    parameter      NP       = 1,      // ports: the PEs of the FPGA
    parameter      WORD     = 128,    // bits of a word
    parameter      AW       = 1,      // bits of a word address
    parameter      DEPTH    = 1,      // words in the image
    parameter      LATENCY  = 1,      // cycles from acceptance to response
    parameter      INFLIGHT = 64,     // requests a port may have outstanding
    parameter real RATE     = 1.0,    // words per cycle, shared by the ports
    parameter      INIT     = ""      // $readmemh image of the words
) (
    input  wire               clk,
    input  wire               rst,
    input  wire [NP-1:0]      req_valid,
    output reg  [NP-1:0]      req_ready,
    input  wire [NP*AW-1:0]   req_addr,
    output wire [NP-1:0]      resp_valid,
    input  wire [NP-1:0]      resp_ready,
    output wire [NP*WORD-1:0] resp_data
);

localparam real    CAP   = (RATE > 1.0) ? RATE : 1.0;   // the bucket's size
localparam [AW:0]  WORDS = DEPTH[AW:0];                 // DEPTH <= 2**AW

reg [WORD-1:0] mem [0:DEPTH-1];
initial begin
    if (INIT != "") $readmemh(INIT, mem);
end

integer    now;      // cycles since reset
real       tokens;   // the bucket after the last cycle's requests
real       left;     // what this cycle's requests leave in it
integer    rr;       // the port served first this cycle
integer    i;
/* verilator lint_off UNUSEDSIGNAL */ // a port number: only its low bits select a port
integer    p;
/* verilator lint_on UNUSEDSIGNAL */

always @* begin
    left = tokens + RATE;
    if (left > CAP) left = CAP;
    req_ready = {NP{1'b0}};
    for (i = 0; i < NP; i = i + 1) begin
        p = (rr + i) % NP;
        if (req_valid[p] && left >= 1.0) begin
            req_ready[p] = 1'b1;
            left = left - 1.0;
        end
    end
end

always @(posedge clk) begin
    if (rst) begin
        now    <= 0;
        tokens <= 0.0;
        rr     <= 0;
    end else begin
        now    <= now + 1;
        tokens <= left;
        rr     <= (rr + 1) % NP;
    end
end

// Per port: the words in flight, in order, with the cycle each is due.
genvar g;
generate
    for (g = 0; g < NP; g = g + 1) begin : port
        reg [WORD-1:0] data [0:INFLIGHT-1];
        integer        due  [0:INFLIGHT-1];
        integer        rd, wr, n;
        wire           take = req_valid[g] && req_ready[g];
        wire           give = resp_valid[g] && resp_ready[g];
        wire [AW-1:0]  addr = req_addr[g*AW +: AW];

        assign resp_valid[g] = n > 0 && due[rd] <= now;
        assign resp_data[g*WORD +: WORD] = data[rd];

        always @(posedge clk) begin
            if (rst) begin
                rd <= 0; wr <= 0; n <= 0;
            end else begin
                if (take) begin
                    if (n == INFLIGHT && !give) begin
                        $display("RESULT FAIL edge memory: port %0d has more than %0d requests outstanding", g, INFLIGHT);
                        $fatal(1, "edge memory protocol");
                    end
                    if ({1'b0, addr} >= WORDS) begin
                        $display("RESULT FAIL edge memory: port %0d read word %0d of %0d", g, addr, DEPTH);
                        $fatal(1, "edge memory address");
                    end
                    data[wr] <= mem[addr];
                    due[wr]  <= now + LATENCY;
                    wr <= (wr + 1) % INFLIGHT;
                end
                if (give) rd <= (rd + 1) % INFLIGHT;
                n <= n + (take ? 1 : 0) - (give ? 1 : 0);
            end
        end
    end
endgenerate

endmodule

`default_nettype wire
