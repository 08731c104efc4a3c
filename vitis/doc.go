// Package vitis is the Vitis/Alveo export target: it wraps each FPGA of a
// generated GraVF-M system as a Vitis RTL kernel that a user can link
// into an xclbin and run on an Alveo card with the XRT host program it
// writes beside it.
//
// What the package owns:
//
//   - hand-written, parameterised RTL (rtl/): the AXI4-Lite control slave
//     in the Vitis register map, AXI4 read and write engines, the port
//     that shares an AXI4 master among a PE group's edge reads, the loader
//     and writer that move the PEs' tables between host buffers and block
//     RAM, the run sequencer, credit-based AXI4-Stream link ports and a
//     clock-domain-crossing FIFO for the link kernel;
//   - simulation models and protocol checkers (tb/): an AXI4 slave memory
//     with random back-pressure and latency, AXI4, AXI4-Lite and
//     AXI4-Stream checkers that fail the run, an AXI4-Lite master that
//     drives the register map as the host does, and link models.
//
// The export itself (kernel tops, kernel.xml, Tcl, v++ configuration,
// host program) builds on these.
package vitis
