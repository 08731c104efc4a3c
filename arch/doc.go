// Package arch is the hardware contract of a GraVF-M system: everything
// that the analytical model, the simulator and the RTL generator must
// agree on, derived once from a board and a bound kernel (Derive).
//
// It holds the PE designs and architectures by name, the layouts of the
// crossbar item, the link item, the memory words of a PE (edge index,
// edge, edge slot, vertex info, state) as field lists with widths, the
// FIFO depths, the hazard detector, the latencies of the f32 units and of
// the kernels built from them, the link's words and rates, and the
// off-chip word and slot layout with its bandwidth and latency in cycles.
//
// The model reads its on-wire sizes from here (WireBits, LinkBits), the
// simulator its parameters (Design), and the generator the parameters of
// its RTL and the layouts of its memory images (Design.Memories). No
// other package writes a figure of this contract as a literal; a test in
// package gen parses the widths and depths out of the generated RTL and
// checks them against it.
//
// arch sits below model, sim and gen and imports only boards and kernel.
package arch
