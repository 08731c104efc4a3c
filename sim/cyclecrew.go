package sim

// Cycle detail steps its FPGAs on more than one core: in windows of the
// link latency where it can (cyclewindow.go), else, for a kernel with
// globals or a run with a listener, cycle by cycle (a crew.Cycles,
// started by machine.stepper). Within a cycle an FPGA's gather, apply,
// scatter and crossbar read and write only its own PEs, its own memory
// arbiter, the receive side of the links that arrive at it and the send
// side of those that leave it, and the states of its own vertices (lane
// holds its counters, its progress and its kernel context); what crosses
// FPGAs, the links' serialisation and delivery and the stall accounting,
// runs after every FPGA has stepped, on the caller. So the FPGAs of one
// cycle may step in any order and at once, and a run is the same on any
// number of cores (TestCycleCoresIdentical).

// crewMinPEs is the smallest system whose cycles a crew steps. Below it
// a cycle's work is too little to share: the hand-over of each cycle
// costs about what stepping ten PEs does. WCC on rmat:scale=14, off-chip,
// one core's run time over two cores' (medians of three): 2 x 1 0.53,
// 2 x 2 0.92, 4 x 1 0.77, 2 x 4 0.85, 4 x 2 1.08, 3 x 3 1.00, 4 x 4 1.04,
// 2 x 9 1.14, 3 x 9 1.16, 4 x 6 1.15, 8 x 3 1.45, 2 x 16 1.15, 4 x 9 1.23
// to 1.55, 8 x 9 1.25; PR on rmat:scale=12: 2 x 4 0.85, 4 x 4 0.71,
// 2 x 9 1.07, 4 x 6 1.09, 4 x 9 1.28.
const crewMinPEs = 24
