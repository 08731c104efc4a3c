// gravf_axil_master: an AXI4-Lite master for simulation, standing in for
// the host: the testbench calls its tasks to drive a kernel's control
// registers as XRT does (arguments, then ap_start, then polling ap_done).
//
//   write32(addr, data)  one write: address and data together, all byte
//                        strobes, then waits for the response
//   read32(addr, data)   one read, waiting for the data
//
// Every change of the bus happens just after a rising clock edge (0.1 ns),
// and a task returns just after the edge that completed its handshake.
`timescale 1ns/1ps
`default_nettype none

module gravf_axil_master #(
    parameter AW = 12
) (
    input  wire          clk,
    output reg           awvalid,
    input  wire          awready,
    output reg  [AW-1:0] awaddr,
    output reg           wvalid,
    input  wire          wready,
    output reg  [31:0]   wdata,
    output wire [3:0]    wstrb,
    input  wire          bvalid,
    output reg           bready,
    /* verilator lint_off UNUSEDSIGNAL */ // gravf_axil_check checks the responses
    input  wire [1:0]    bresp,
    /* verilator lint_on UNUSEDSIGNAL */
    output reg           arvalid,
    input  wire          arready,
    output reg  [AW-1:0] araddr,
    input  wire          rvalid,
    output reg           rready,
    input  wire [31:0]   rdata,
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire [1:0]    rresp
    /* verilator lint_on UNUSEDSIGNAL */
);

assign wstrb = 4'hf;

initial begin
    awvalid = 1'b0; wvalid = 1'b0; bready = 1'b0;
    arvalid = 1'b0; rready = 1'b0;
    awaddr = {AW{1'b0}}; araddr = {AW{1'b0}}; wdata = 32'd0;
end

// Handshakes are sampled at the falling edge, where the slave's outputs
// are what it will present at the next rising edge.
task write32;
    input [AW-1:0] addr;
    input [31:0]   data;
    reg aw_hs, w_hs, b_hs;
    begin
        @(posedge clk);
        #0.1;
        awvalid = 1'b1; awaddr = addr;
        wvalid  = 1'b1; wdata  = data;
        bready  = 1'b1;
        while (awvalid || wvalid) begin
            @(negedge clk);
            aw_hs = awvalid && awready;
            w_hs  = wvalid && wready;
            @(posedge clk);
            #0.1;
            if (aw_hs) awvalid = 1'b0;
            if (w_hs) wvalid = 1'b0;
        end
        b_hs = 1'b0;
        while (!b_hs) begin
            @(negedge clk);
            b_hs = bvalid;
            @(posedge clk);
            #0.1;
        end
        bready = 1'b0;
    end
endtask

task read32;
    input  [AW-1:0] addr;
    output [31:0]   data;
    reg ar_hs, got;
    begin
        @(posedge clk);
        #0.1;
        arvalid = 1'b1; araddr = addr;
        rready  = 1'b1;
        while (arvalid) begin
            @(negedge clk);
            ar_hs = arready;
            @(posedge clk);
            #0.1;
            if (ar_hs) arvalid = 1'b0;
        end
        got = 1'b0;
        while (!got) begin
            @(negedge clk);
            if (rvalid) begin
                got  = 1'b1;
                data = rdata;
            end
            @(posedge clk);
            #0.1;
        end
        rready = 1'b0;
    end
endtask

endmodule

`default_nettype wire
