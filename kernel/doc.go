// Package kernel owns the vertex-centric kernels of gravf-tui: the kernel spec
// file (kernel.toml), its small expression language, type checking,
// compilation to Go closures, the sizes the performance model needs, and the
// BSP reference engine that is the functional golden model for the
// simulator and the generated RTL.
//
// # Spec files
//
// A kernel is a folder with a kernel.toml. It declares the data layouts
// (vertex state, edge data, update and message payloads) as ordered
// (field, width) pairs, the kernel's parameters, and four short programs:
// init (per vertex, before superstep 0), gather (per received message),
// apply (per vertex at the barrier; it decides whether an update is sent)
// and scatter (per local out-edge of a vertex whose update arrived).
//
// # The language
//
// Each program is a list of lines. A line is either an assignment
// "target = expr" or a local binding "let name = expr"; '#' starts a
// comment. Assignments have parallel semantics, as registers do: every
// right-hand side reads the state as it was before the program ran, and
// fields that are not assigned keep their value. Locals are visible to the
// lines below them.
//
// Values are unsigned integers of 1 to 64 bits or IEEE-754 binary32 (f32).
// Integer arithmetic wraps at the operand width (the wider of the two); x/0
// is all ones and x%0 is x, so every expression is total. satadd(a, b)
// adds without wrapping: a sum that does not fit is all ones, the "none"
// of a field (so an SSSP distance too long for its field reads as
// unreachable instead of wrapping to a short one), and engines count such
// sums (Ctx.Saturated) so that a run can say so. Operators and precedence
// follow Go: * / % << >> & (tightest), + - | ^, comparisons, &&, || and
// the ternary c ? a : b (loosest). Built-in functions are min, max,
// satadd, abs (f32), and the casts f32(x), vid(x) and uN(x) for any N.
// f32 arithmetic is IEEE-754 with round-to-nearest-even; f32-to-integer
// casts truncate toward zero and saturate; NaN becomes 0.
//
// Names in scope depend on the program: id, degree, superstep, sender,
// neighbor, nvertices, state.<f>, msg.<f>, update.<f>, edge.<f>, the
// parameters, the constant none (all ones at the width of its context,
// the "no vertex" sentinel) and the f32 constant inf (+infinity, the
// distance of an unreachable vertex in f32 kernels).
package kernel
