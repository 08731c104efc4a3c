// Package sim is the cycle-level simulator of the architecture that the
// RTL generator builds: GraVF-M (broadcast updates, local scatter) and the
// GraVF baseline (unicast messages), with edges in block RAM or off-chip
// memory.
//
// # Micro-architecture
//
// Time is an integer number of clock cycles. Every component is stepped
// once per cycle in a fixed order, so runs are deterministic. Every figure
// of the hardware (FIFO depths, latencies, words, the hazard detector)
// comes from the hardware contract (package arch) through Params, the
// same that the RTL generator builds from. Per FPGA:
//
//   - Each PE has an input FIFO (depth InFIFODepth) fed by the crossbar, a
//     barrier counter, a scatter unit, a message FIFO (depth MsgFIFODepth), a
//     gather unit with a hazard window and an apply unit with an update
//     queue that can hold one update per local vertex.
//   - Scatter (BRAM edges): a lookup stage takes an update and reads its
//     edge-index entry (one cycle); a walker reads one edge per cycle. The
//     walker takes the looked-up list in the cycle it reads the last edge
//     of the previous one, and the lookup stage then takes the next
//     update, so lists follow each other without a gap: an update costs
//     its list's length in cycles, and an empty list only a lookup, which
//     overlaps the walk. Barrier markers are counted as they arrive. (With
//     Setup.PE = PEPaper, the published PE: one lookup cycle before every
//     list, 1 + len cycles per update, markers counted when idle.) Scatter
//     (off-chip edges): the lookup issues one memory word request per cycle
//     (edges are stored in power-of-two slots, lists aligned to words), up
//     to RequestsInFlight per PE, each answered after the memory latency
//     subject to the FPGA's memory bandwidth; the next update is taken as
//     soon as the current one's requests are issued, so lookups overlap
//     the edge stream. Edges leave at one per cycle through the scatter
//     kernel (latency from the spec) into the message FIFO.
//   - Gather issues one message per cycle. A message to a vertex whose
//     previous message is still inside the gather kernel stalls: the
//     hazard detector. The generated PE compares vertices exactly and
//     bypasses the kernel's result to its input, so the message may issue
//     GatherLatency cycles after the earlier one (the next cycle for a
//     kernel of latency 1). The paper's detector (PEPaper, and the
//     generated PE with hand-written kernels, whose latency is unknown to
//     the generator) has arch.HazardSlots flags indexed by the low bits of the
//     local index and no bypass: GatherLatency + 1 cycles, for any vertex
//     of the same slot.
//   - A barrier marker that has passed the barrier counter (it has seen the
//     barriers of every PE of the system for that superstep) follows the
//     messages through scatter; when it reaches gather and gather has
//     drained, apply sweeps every local vertex, one per cycle, into the
//     update queue, then queues its own barrier marker (with its update
//     count and a halt bit when it sent nothing). While apply sweeps, no
//     message is gathered.
//   - The crossbar moves at most one update per cycle: remote inputs first,
//     then the PEs' update queues in round-robin order, and only items of
//     the FPGA's current superstep channel. An update is written in the
//     same cycle to every local PE's input FIFO and, for local updates, to
//     the send FIFO of every other FPGA that holds a neighbour (the
//     filter); if any destination is full, nothing moves (lockstep
//     broadcast). The channel advances when every local PE has passed the
//     barrier of the current one.
//   - Each ordered FPGA pair has a link: a send FIFO, serialisation at the
//     pair's rate within the FPGA's interface bandwidth (in link words of
//     LinkWordBits), the link latency, and a receive FIFO whose space the
//     sender must hold credit for.
//
// The run ends when every PE has seen a superstep in which no PE sent an
// update; its vertex states then equal the BSP reference engine's.
//
// # Fast detail
//
// Detail Fast follows the same items through the same units with the same
// rules, but does not step idle cycles: the crossbars and links are
// stepped (sleeping until they can move), while each PE's units are
// max-plus recurrences over its items, so an update costs only the PEs
// holding part of its list and a list's messages follow in closed form
// once no hazard can hold them (fast.go, fastpe.go; the GraVF baseline,
// whose walkers are coupled message by message, steps its walkers and
// crossbar ports: fastg.go). GraVF-M's FPGAs are stepped in parallel,
// each on its own clock, through windows of the link latency, the
// lookahead of a conservative scheme (fastwindow.go); a run is the same on
// any number of cores. The functional result is the reference
// engine's, run on its own goroutine a superstep ahead. It agrees with
// cycle detail within 5 % in total and 10 % per superstep on the fidelity
// corpus, to the cycle on most designs with edges in block RAM.
//
// # Trace files
//
// A Recorder, set as the Setup's Listener, writes a trace: gzip-compressed
// JSON lines with a header (TraceMeta), a sample of every PE's cycle
// breakdown and every link's words per interval, one record per
// superstep, the summary and a trailer with the record count and a
// CRC-32. OpenTrace loads and validates a trace for replay (Seek*, Window,
// SuperstepAt); WriteChrome exports it for Perfetto. docs/TRACE.md
// specifies the format.
package sim
