// gravf_barrier_counter: the floating barrier's counter of one PE.
//
// Every PE sends a barrier marker to every PE (itself included) after its
// updates of a superstep; a marker carries a halt bit, set when its sender
// sent no update. The counter counts the markers of the current channel
// as the PE takes them (take: a marker leaves the input FIFO this cycle).
// complete is high while the marker at the input is the channel's last
// (the NPE-th); halt is then the AND of every marker's halt bit, its own
// included: when it is high, no PE sent an update and the run ends. The
// PE passes that last marker on behind the superstep's edges; passed
// pulses in the cycle after it is taken, and the count starts again for
// the next channel. Reset is synchronous.
`default_nettype none

module gravf_barrier_counter #(
    parameter NPE = 1,                              // PEs in the system: markers per channel
    parameter CW  = (NPE > 1) ? $clog2(NPE + 1) : 1 // bits of the count
) (
    input  wire clk,
    input  wire rst,
    input  wire in_valid,    // the input FIFO's head ...
    input  wire in_barrier,  // ... is a barrier marker
    input  wire in_halt,     // ... whose sender sent no update
    input  wire take,        // the marker at the head leaves this cycle
    output wire complete,    // the marker at the head is the channel's last
    output wire halt,        // every marker of the channel, this one included, said halt
    output reg  passed       // pulse: the channel's last marker was taken
);

generate
    if (NPE < 1) begin : check_npe
        gravf_barrier_counter_NPE_must_be_at_least_1 error ();
    end
endgenerate

localparam integer   LAST_I = NPE - 1;
localparam [CW-1:0]  LAST   = LAST_I[CW-1:0];

reg [CW-1:0] count;      // markers taken in this channel
reg          halt_all;   // AND of their halt bits

assign complete = in_valid && in_barrier && count == LAST;
assign halt     = halt_all & in_halt;

always @(posedge clk) begin
    passed <= 1'b0;
    if (rst) begin
        count    <= {CW{1'b0}};
        halt_all <= 1'b1;
    end else if (take) begin
        if (complete) begin
            count    <= {CW{1'b0}};
            halt_all <= 1'b1;
            passed   <= 1'b1;
        end else begin
            count    <= count + 1'b1;
            halt_all <= halt_all & in_halt;
        end
    end
end

endmodule

`default_nettype wire
