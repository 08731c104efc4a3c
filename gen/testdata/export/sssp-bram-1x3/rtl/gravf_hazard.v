// gravf_hazard: the gather unit's hazard detector.
//
// Gather reads a message's destination state from the state RAM one cycle
// before the message enters the gather kernel, which writes the new state
// back GL cycles later. A message for a vertex that is still inside the
// kernel must wait, or it would read a stale state. hazard says that the
// message at the head of the message FIFO (head_local) must wait this
// cycle; in_flight says that the kernel holds a message (a barrier waits
// until it is empty). read is high in the cycle a message is read.
//
// EXACT = 1, for generated kernels, whose latency GL the generator knows:
// the head's local index is compared exactly with those of the messages
// read in the last GL - 1 cycles (a shift register). A message for the
// same vertex may be read once the earlier one writes back in the next
// cycle or in this one: in the next cycle the PE bypasses the kernel's
// result to its input, in this one the state RAM's forwarding returns it.
// A kernel of latency 1 writes back in the cycle after its input, so the
// window is empty and nothing ever waits.
//
// EXACT = 0, the paper's detector, for hand-written kernels whose latency
// the PE does not know: one flag per slot (the low bits of the local
// index; SLOTS of them, or the power of two that covers NLOCAL when the PE
// is smaller), set when a message is read and cleared at its write-back
// (wb, wb_local). A message whose slot is taken waits, even for another
// vertex of the slot; it may be read in the cycle of the write-back.
// Reset is synchronous.
`default_nettype none

module gravf_hazard #(
    parameter EXACT  = 1,   // 1: exact window of GL - 1 cycles; 0: aliased slots
    parameter GL     = 1,   // gather kernel latency (EXACT = 1)
    parameter LA     = 1,   // bits of a local index
    parameter NLOCAL = 1,   // vertices of the PE
    parameter SLOTS  = 32   // slots of the aliased detector at most (EXACT = 0)
) (
    /* verilator lint_off UNUSEDSIGNAL */ // the exact detector reads no write-backs, and for a kernel of latency 1 nothing at all
    input  wire          clk,
    input  wire          rst,
    input  wire [LA-1:0] head_local,  // the message at the head of the message FIFO
    input  wire          read,        // a message is read (its state leaves the RAM) this cycle
    input  wire          wb,          // the gather kernel writes a state back this cycle ...
    input  wire [LA-1:0] wb_local,    // ... of this local vertex
    /* verilator lint_on UNUSEDSIGNAL */
    output wire          hazard,      // the head must wait
    output wire          in_flight    // a message is inside the gather kernel
);

generate
    if (EXACT != 0 && EXACT != 1) begin : check_exact
        gravf_hazard_EXACT_must_be_0_or_1 error ();
    end
    if (EXACT == 1 && GL < 1) begin : check_gl
        gravf_hazard_GL_must_be_at_least_1 error ();
    end
    if (SLOTS < 1) begin : check_slots
        gravf_hazard_SLOTS_must_be_at_least_1 error ();
    end
endgenerate

generate
    if (EXACT == 1 && GL > 1) begin : window
        localparam HW = GL - 1;     // the messages read in the last HW cycles
        reg  [HW-1:0] valid;
        reg  [LA-1:0] local_idx [0:HW-1];
        reg           meets, any;
        integer       k;
        always @* begin
            meets = 1'b0;
            any   = 1'b0;
            for (k = 0; k < HW; k = k + 1) begin
                if (valid[k]) any = 1'b1;
                if (valid[k] && local_idx[k] == head_local) meets = 1'b1;
            end
        end
        always @(posedge clk) begin
            valid[0]     <= !rst && read;
            local_idx[0] <= head_local;
            for (k = 1; k < HW; k = k + 1) begin
                valid[k]     <= !rst && valid[k-1];
                local_idx[k] <= local_idx[k-1];
            end
        end
        assign hazard    = meets;
        assign in_flight = any;
    end else if (EXACT == 1) begin : no_window
        // Latency 1: the write-back follows the read at once.
        assign hazard    = 1'b0;
        assign in_flight = 1'b0;
    end else begin : slots
        localparam HS = (NLOCAL >= SLOTS) ? SLOTS : (1 << $clog2(NLOCAL)); // a power of two
        localparam HB = (HS > 1) ? $clog2(HS) : 1;
        reg  [HS-1:0] busy;          // slots with a vertex inside the gather kernel
        wire [HB-1:0] slot    = (HS > 1) ? head_local[HB-1:0] : {HB{1'b0}};
        wire [HB-1:0] wb_slot = (HS > 1) ? wb_local[HB-1:0] : {HB{1'b0}};
        always @(posedge clk) begin
            if (rst) begin
                busy <= {HS{1'b0}};
            end else begin
                if (wb) busy[wb_slot] <= 1'b0;
                if (read) busy[slot] <= 1'b1;
            end
        end
        assign hazard    = busy[slot] && !(wb && wb_slot == slot);
        assign in_flight = |busy;
    end
endgenerate

endmodule

`default_nettype wire
