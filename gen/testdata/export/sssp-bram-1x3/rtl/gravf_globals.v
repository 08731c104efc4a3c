// gravf_globals: a PE's globals unit, for kernels with globals (values
// every vertex's apply contributes to, reduced by sum, min or max, which
// apply reads in the next superstep).
//
// Local fold: the PE combines its vertices' contributions (contrib, in
// sweep order) over CL interleaved lanes (vertex i of the sweep to lane
// i mod CL) through a combine unit of latency CL, which takes a pair every
// cycle, so a lane's next contribution arrives as its last result
// returns. Once the sweep has ended (sweep_end: apply's barrier output)
// and every result is back, it folds the lanes in order into the PE's
// partial and raises marker_push for one cycle: the PE's barrier marker
// then enters the update queue with the partial in its payload.
//
// Global fold: every PE keeps the partial of every marker it counts
// (marker_take), by superstep parity and source PE (a fast PE's next
// marker may arrive before the fold is done); the channel's last marker
// (marker_last) starts the fold of the partials in PE order, from the
// identity, through a second combine unit. ready is high from the end of
// that fold until the PE's gather takes its barrier (gather_end), which
// waits for it; advance (the start of the next sweep) makes the fold the
// value apply reads. So every PE reads the same value, whatever the order
// in which the markers arrived.
//
// The combine units are the kernel's (gravf_combine_kernel, outside this
// module, so that it is linted alone): local_* and global_* are their
// ports: a, b in, y out CL cycles after valid. Reset is synchronous.
`default_nettype none

module gravf_globals #(
    parameter GW       = 1,                            // bits of the globals
    parameter CL       = 1,                            // the combine unit's latency: the lanes
    parameter NPE      = 1,                            // PEs in the system: partials per superstep
    parameter [GW-1:0] IDENTITY = {GW{1'b0}},          // the reductions' identity
    parameter PB       = (NPE > 1) ? $clog2(NPE) : 1,  // bits of a PE number
    parameter CLB      = (CL > 1) ? $clog2(CL) : 1     // bits of a lane number
) (
    input  wire          clk,
    input  wire          rst,
    // The apply sweep.
    input  wire          contrib,       // a vertex's contribution leaves apply ...
    input  wire [GW-1:0] contrib_data,  // ... with this value
    input  wire          sweep_end,     // apply's barrier output: the sweep is over
    output reg           marker_push,   // the PE's barrier marker enters the update queue, carrying ...
    output reg  [GW-1:0] partial,       // ... this PE's partial
    // Barrier markers, as the PE's input FIFO hands them to the scatter unit.
    input  wire          marker_take,   // a marker leaves the input FIFO ...
    input  wire          marker_parity, // ... of a superstep of this parity (round[0]) ...
    input  wire [PB-1:0] marker_pe,     // ... from this PE ...
    input  wire [GW-1:0] marker_data,   // ... with its partial
    input  wire          marker_last,   // ... and it is its channel's last
    // The gather unit and the mode machine.
    output reg           ready,         // the fold of the partials is complete
    input  wire          gather_end,    // gather takes the superstep's barrier
    input  wire          advance,       // the next superstep's sweep begins
    output reg  [GW-1:0] value,         // what apply reads this superstep
    // The combine units.
    output wire [GW-1:0] local_a,
    output wire [GW-1:0] local_b,
    output wire          local_valid,
    input  wire [GW-1:0] local_y,
    input  wire          local_y_valid,
    output wire [GW-1:0] global_a,
    output wire [GW-1:0] global_b,
    output wire          global_valid,
    input  wire [GW-1:0] global_y,
    input  wire          global_y_valid
);

generate
    if (GW < 1 || CL < 1 || NPE < 1) begin : check_params
        gravf_globals_GW_CL_and_NPE_must_be_at_least_1 error ();
    end
endgenerate

localparam integer      LAST_LANE_I = CL - 1;
localparam [CLB-1:0]    LAST_LANE   = LAST_LANE_I[CLB-1:0];
localparam [CLB:0]      LANES       = CL[CLB:0];
localparam [PB:0]       PES         = NPE[PB:0];

// ------------------------------------------------------------ local fold
localparam L_SWEEP = 2'd0, L_DRAIN = 2'd1, L_FOLD = 2'd2;
reg  [GW-1:0]   lane [0:CL-1];
reg  [CLB-1:0]  lane_in;            // the lane of the next contribution
reg  [CL-1:0]   lane_sr_valid;      // bit i: a contribution entered the unit i + 1 cycles ago ...
reg  [CLB-1:0]  lane_sr [0:CL-1];   // ... for this lane
reg  [1:0]      lmode;
reg  [CLB:0]    fold_i;             // the next lane to fold into partial
reg             fold_busy;          // a fold pair is in the combine unit
wire            lc_ret = lane_sr_valid[CL-1]; // a contribution's result returns
// The contribution's lane may be the one whose result returns this cycle.
wire [GW-1:0]   lane_now   = (lc_ret && lane_sr[CL-1] == lane_in) ? local_y : lane[lane_in];
wire            fold_issue = lmode == L_FOLD && !fold_busy && fold_i < LANES;
assign local_a     = (lmode == L_FOLD) ? partial : lane_now;
assign local_b     = (lmode == L_FOLD) ? lane[fold_i[CLB-1:0]] : contrib_data;
assign local_valid = contrib || fold_issue;

integer li;
always @(posedge clk) begin
    marker_push      <= 1'b0;
    lane_sr_valid[0] <= contrib;
    lane_sr[0]       <= lane_in;
    for (li = 1; li < CL; li = li + 1) begin
        lane_sr_valid[li] <= lane_sr_valid[li-1];
        lane_sr[li]       <= lane_sr[li-1];
    end
    if (lc_ret) lane[lane_sr[CL-1]] <= local_y;
    if (contrib) lane_in <= (lane_in == LAST_LANE) ? {CLB{1'b0}} : lane_in + 1'b1;
    if (rst) begin
        lmode         <= L_SWEEP;
        lane_in       <= {CLB{1'b0}};
        lane_sr_valid <= {CL{1'b0}};
        fold_busy     <= 1'b0;
        for (li = 0; li < CL; li = li + 1) lane[li] <= IDENTITY;
    end else begin
        case (lmode)
        L_SWEEP: if (sweep_end) lmode <= L_DRAIN;
        L_DRAIN: if (lane_sr_valid == {CL{1'b0}}) begin
            // Every contribution is in its lane: fold lane 0 onwards.
            partial <= lane[0];
            fold_i  <= {{CLB{1'b0}}, 1'b1};
            lmode   <= L_FOLD;
        end
        default: begin
            if (fold_issue) fold_busy <= 1'b1;
            if (local_y_valid && fold_busy) begin
                partial   <= local_y;
                fold_busy <= 1'b0;
                fold_i    <= fold_i + 1'b1;
            end
            if (fold_i == LANES && !fold_busy) begin
                marker_push <= 1'b1;
                lmode       <= L_SWEEP;
                lane_in     <= {CLB{1'b0}};
                for (li = 0; li < CL; li = li + 1) lane[li] <= IDENTITY;
            end
        end
        endcase
    end
end

// ----------------------------------------------------------- global fold
reg  [GW-1:0]   part [0:(2<<PB)-1]; // by {parity, source PE}
reg             gf_active, gf_busy, gf_par;
reg  [PB:0]     gf_i;               // the next partial to fold
reg  [GW-1:0]   gacc;
reg  [GW-1:0]   next;               // the fold of the last superstep's partials
assign global_a     = gacc;
assign global_b     = part[{gf_par, gf_i[PB-1:0]}];
assign global_valid = gf_active && !gf_busy && gf_i < PES;

always @(posedge clk) begin
    if (marker_take) part[{marker_parity, marker_pe}] <= marker_data;
    if (rst) begin
        gf_active <= 1'b0;
        gf_busy   <= 1'b0;
        ready     <= 1'b0;
        value     <= IDENTITY;
    end else begin
        if (marker_take && marker_last) begin
            gf_active <= 1'b1;
            gf_par    <= marker_parity;
            gf_i      <= {(PB+1){1'b0}};
            gacc      <= IDENTITY;
        end
        if (global_valid) gf_busy <= 1'b1;
        if (global_y_valid && gf_busy) begin
            gacc    <= global_y;
            gf_busy <= 1'b0;
            gf_i    <= gf_i + 1'b1;
        end
        if (gf_active && gf_i == PES && !gf_busy) begin
            gf_active <= 1'b0;
            next      <= gacc;
            ready     <= 1'b1;
        end
        if (gather_end) ready <= 1'b0;
        if (advance) value <= next;
    end
end

endmodule

`default_nettype wire
