package arch

import "github.com/gravf-tui/gravf-tui/kernel"

// Operation latencies of the generated hardware, in clock cycles. Integer
// logic is combinational and absorbed into the register at the end of the
// kernel; the f32 units of the generator's library (gen/lib) are pipelined
// with an initiation interval of one and exactly these latencies, and the
// generator balances every path of a kernel to the longest, so the
// simulator and the model can take the same figures.
const (
	LatencyFAdd    = 5 // f32 add and subtract: align, add, normalise, round, register
	LatencyFMul    = 3 // f32 multiply: DSP product, normalise, round
	LatencyFDiv    = 8 // f32 divide: reciprocal-free radix-16 pipeline
	LatencyFCmp    = 1 // f32 compare, min and max
	LatencyFCvt    = 2 // conversions between f32 and integers
	LatencyInteger = 0 // integer operations
)

// OpLatency returns the cycles one node's own operation takes.
func OpLatency(n *kernel.Node) int {
	if n.Op == kernel.OpConst || n.Op == kernel.OpRef {
		return 0
	}
	floatIn := len(n.Args) > 0 && n.Args[0].Type.Float
	switch {
	case n.Op == kernel.OpCast && (n.Type.Float != n.Args[0].Type.Float):
		return LatencyFCvt
	case !floatIn:
		return LatencyInteger
	}
	switch n.Op {
	case kernel.OpAdd, kernel.OpSub:
		return LatencyFAdd
	case kernel.OpMul:
		return LatencyFMul
	case kernel.OpDiv:
		return LatencyFDiv
	case kernel.OpMin, kernel.OpMax, kernel.OpEq, kernel.OpNe, kernel.OpLt, kernel.OpLe, kernel.OpGt, kernel.OpGe:
		return LatencyFCmp
	}
	return LatencyInteger
}

// Depth returns the latency of an expression: its longest path of
// operation latencies. Reading a let binding costs that binding's depth
// (locals[i] for binding i).
func Depth(n *kernel.Node, locals []int) int {
	if n.Op == kernel.OpRef && n.Ref == kernel.RefLocal && n.Index < len(locals) {
		return locals[n.Index]
	}
	d := 0
	for _, a := range n.Args {
		d = max(d, Depth(a, locals))
	}
	return d + OpLatency(n)
}

// Latency returns the pipeline depth of a kernel program in cycles: the
// longest path through its statements plus one output register. Every
// generated kernel is fully pipelined (one input per cycle). A nil program
// (the scatter of a kernel whose message is its update, a copy) has
// latency 0.
func Latency(p *kernel.CheckedProgram) int {
	if p == nil {
		return 0
	}
	locals := make([]int, len(p.Locals))
	d := 0
	for _, st := range p.Stmts {
		x := Depth(st.Value, locals)
		if st.Kind == kernel.TargetLocal {
			locals[st.Index] = x
			continue
		}
		d = max(d, x)
	}
	return d + 1
}

// ReduceLatency is the pipeline depth of the unit that combines two values
// of every global field of a kernel at once, in cycles: the slowest
// field's operation plus the output register (as Latency counts a
// program). It is also the number of lanes over which a PE interleaves its
// contributions, so that the unit takes one per cycle. 0 when the kernel
// has no globals.
func ReduceLatency(k *kernel.Kernel) int {
	if len(k.Spec.Global) == 0 {
		return 0
	}
	l := 0
	for i, t := range k.Checked.GlobalT {
		ref := &kernel.Node{Op: kernel.OpRef, Ref: kernel.RefLocal, Type: t}
		l = max(l, OpLatency(k.ReduceNode(i, ref, ref)))
	}
	return l + 1
}
