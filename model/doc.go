// Package model is the analytical performance model of GraVF-M and of the
// GraVF baseline: the four throughput limits (processing elements, off-chip
// memory, network interface, network), the capacity checks, the choice of
// the number of FPGAs and of PEs per FPGA, and a latency-aware run-time
// prediction that the bandwidth-only limits lack.
//
// Throughput is in traversed edges per second (TEPS): one message produced
// by a scatter kernel is one traversed edge. Bandwidths are in bit/s and
// sizes in bits. The model takes plain numbers (Platform, Workload), so it
// is cheap enough to re-evaluate on every keystroke; FromBoard and
// NewWorkload build them from a board file, a kernel and a graph.
package model
