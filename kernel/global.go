package kernel

import (
	"fmt"
	"math"
)

// Globals. A kernel may declare global fields ([layout] global, each with
// a reduction: sum, min or max). In superstep s, apply assigns
// global.<f> = x: this vertex's contribution (a vertex that does not
// assign it contributes the reduction's identity). The contributions of
// every vertex combine into one value, which apply reads as global.<f> in
// superstep s+1; in superstep 0 it reads the identity. This is Pregel's
// aggregator with the same one-superstep delay as messages.
//
// The order in which contributions combine is each engine's: the
// reference engine folds them in vertex order; the simulator and the
// hardware fold each PE's contributions in its local order, over as many
// interleaved lanes as the reduction's latency, and then the PEs' partial
// results in PE order (see the sim and gen packages). Integer sums wrap
// and min and max are exact, so the order matters only for f32 sums.

// ReduceOp returns the expression operation of a global field's reduction.
func (f Field) ReduceOp() Op {
	switch f.Reduce {
	case "min":
		return OpMin
	case "max":
		return OpMax
	}
	return OpAdd
}

// identity returns the value that leaves the reduction unchanged.
func identity(op Op, t Type) uint64 {
	switch {
	case op == OpAdd && t.Float:
		return uint64(math.Float32bits(0))
	case op == OpMin && t.Float:
		return uint64(math.Float32bits(float32(math.Inf(1))))
	case op == OpMax && t.Float:
		return uint64(math.Float32bits(float32(math.Inf(-1))))
	case op == OpMin:
		return t.Mask()
	}
	return 0
}

// checkGlobals checks what the hardware needs of the globals: they ride
// in the payload of the barrier marker, which is as wide as an update.
func checkGlobals(s *Spec, c *Checked) *Error {
	gw, uw := 0, 0
	for _, t := range c.GlobalT {
		gw += t.Width
	}
	for _, t := range c.UpdateT {
		uw += t.Width
	}
	if gw > uw {
		return errorAt(s.Global[0].Pos, fmt.Sprintf("layout.global: the globals take %d bits, but they travel in the barrier marker's update payload of %d bits; the update must be at least as wide", gw, uw))
	}
	return nil
}

// GlobalIdentity returns the identities of the global fields: what a
// vertex contributes when apply does not assign a global, and what apply
// reads in superstep 0.
func (k *Kernel) GlobalIdentity() []uint64 {
	out := make([]uint64, len(k.Spec.Global))
	for i, f := range k.Spec.Global {
		out[i] = identity(f.ReduceOp(), k.Checked.GlobalT[i])
	}
	return out
}

// Reduce combines the contributions x into acc, field by field.
func (k *Kernel) Reduce(acc, x []uint64) {
	for i, f := range k.reduce {
		acc[i] = f(acc[i], x[i])
	}
}

// compileReduce returns the combining function of every global field.
func compileReduce(s *Spec, c *Checked) []func(a, b uint64) uint64 {
	var fs []func(a, b uint64) uint64
	for i, f := range s.Global {
		t := c.GlobalT[i]
		a := &Node{Op: OpRef, Ref: RefLocal, Index: 0, Type: t}
		b := &Node{Op: OpRef, Ref: RefLocal, Index: 1, Type: t}
		fn := compileExpr(&Node{Op: f.ReduceOp(), Type: t, Args: []*Node{a, b}})
		ctx := &Ctx{locals: make([]uint64, 2)}
		fs = append(fs, func(x, y uint64) uint64 {
			ctx.locals[0], ctx.locals[1] = x, y
			return fn(ctx)
		})
	}
	return fs
}

// ReduceNode returns the expression that combines a and b, two values of
// global field i, by the field's reduction (for the hardware generator).
func (k *Kernel) ReduceNode(i int, a, b *Node) *Node {
	return &Node{Op: k.Spec.Global[i].ReduceOp(), Type: k.Checked.GlobalT[i], Args: []*Node{a, b}}
}
