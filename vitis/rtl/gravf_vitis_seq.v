// gravf_vitis_seq: the run sequence of a GraVF-M Vitis kernel.
//
//   idle --ap_start--> check --args_ok--> load --> run --> write back --> done
//                        \--otherwise: done with a mismatch flag ----------/
//
// idle:       ap_idle high; the PEs are held in reset (core_rst).
// check:      the scalar arguments must be the ones the design was built
//             for (args_ok), else the run ends at once with mismatch set.
// load:       load_start pulses; the loader fills the PEs' tables from the
//             host buffers; an AXI error ends the run (axi_error).
// run:        core_rst falls; the PEs run until every one has terminated
//             (core_done).
// write back: wb_start pulses; the writer stores every vertex state.
// done:       ap_done and ap_ready pulse for one cycle, then idle again.
//
// The cycle counters (load, run, write back) and the flags hold the last
// run's values until the next start. Reset is synchronous, active high.
`default_nettype none

module gravf_vitis_seq (
    input  wire        clk,
    input  wire        rst,
    input  wire        ap_start,
    output wire        ap_idle,
    output reg         ap_done,
    output wire        ap_ready,
    input  wire        args_ok,
    output reg         load_start,
    input  wire        load_busy,
    input  wire        load_error,
    output wire        core_rst,
    input  wire        core_done,
    output reg         wb_start,
    input  wire        wb_busy,
    input  wire        wb_error,
    // Status of the last run.
    output reg         mismatch,       // the scalar arguments did not match
    output reg         axi_error,      // a memory access failed
    output reg  [31:0] load_cycles,
    output reg  [63:0] run_cycles,
    output reg  [31:0] wb_cycles
);

localparam [2:0] S_IDLE = 3'd0, S_CHECK = 3'd1, S_LOAD = 3'd2, S_RUN = 3'd3, S_WB = 3'd4, S_DONE = 3'd5;

reg [2:0] state;
reg       started;                     // the loader or writer took its start pulse

assign ap_idle  = state == S_IDLE;
assign ap_ready = ap_done;
assign core_rst = state != S_RUN && state != S_WB;

always @(posedge clk) begin
    load_start <= 1'b0;
    wb_start   <= 1'b0;
    ap_done    <= 1'b0;
    if (rst) begin
        state     <= S_IDLE;
        mismatch  <= 1'b0;
        axi_error <= 1'b0;
        started   <= 1'b0;
    end else begin
        case (state)
        // ap_start is still high in the cycle of the ap_done pulse (the
        // control slave clears it then): that is not a new start.
        S_IDLE: if (ap_start && !ap_done) begin
            state       <= S_CHECK;
            mismatch    <= 1'b0;
            axi_error   <= 1'b0;
            load_cycles <= 32'd0;
            run_cycles  <= 64'd0;
            wb_cycles   <= 32'd0;
        end
        S_CHECK: if (args_ok) begin
            state      <= S_LOAD;
            load_start <= 1'b1;
            started    <= 1'b0;
        end else begin
            state    <= S_DONE;
            mismatch <= 1'b1;
        end
        S_LOAD: begin
            load_cycles <= load_cycles + 32'd1;
            if (load_busy) started <= 1'b1;
            if (started && !load_busy) begin
                if (load_error) begin
                    state     <= S_DONE;
                    axi_error <= 1'b1;
                end else begin
                    state <= S_RUN;
                end
            end
        end
        S_RUN: begin
            run_cycles <= run_cycles + 64'd1;
            if (core_done) begin
                state    <= S_WB;
                wb_start <= 1'b1;
                started  <= 1'b0;
            end
        end
        S_WB: begin
            wb_cycles <= wb_cycles + 32'd1;
            if (wb_busy) started <= 1'b1;
            if (started && !wb_busy) begin
                state     <= S_DONE;
                axi_error <= wb_error;
            end
        end
        default: begin   // S_DONE
            state   <= S_IDLE;
            ap_done <= 1'b1;
        end
        endcase
    end
end

endmodule

`default_nettype wire
