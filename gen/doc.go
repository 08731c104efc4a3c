// Package gen generates the Verilog of a GraVF-M system and exports it as
// a project.
//
// The fixed logic is hand-written, parameterised Verilog in gen/rtl (the
// PE, its scatter units, barrier counter and hazard detector, the
// crossbar, the FPGA, FIFOs, RAMs and delay lines), embedded and copied
// into every project. What depends on the kernel spec and the design
// point is generated, through one printer: the kernels (integer logic and
// pipelined f32 units from a small library, scheduled and latency-balanced
// over a small netlist IR), their adapters from the PE's packed buses to
// the kernels' named ports, fpga_top with the design's parameter values,
// the memory images and the testbench. Every figure comes from the
// hardware contract, package arch.
//
// Generated Verilog is plain Verilog-2005, one module per file, with
// `default_nettype none, named port connections, and a header that says
// what the module does and how its handshake works. The same inputs give
// byte-identical files (testdata/export holds golden projects).
package gen
