// Package gen generates the Verilog of a GraVF-M system: the user kernels
// from their specs (integer logic plus pipelined f32 units from a small
// library, scheduled and latency-balanced), and the project around them.
//
// Generated Verilog is plain Verilog-2005, one module per file, with
// `default_nettype none`, named port connections, and a header that says
// what the module does and how its handshake works. The same inputs give
// byte-identical files.
package gen
