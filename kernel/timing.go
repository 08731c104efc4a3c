package kernel

// Operation latencies of the generated hardware, in clock cycles. Integer
// logic is combinational and absorbed into the register at the end of the
// kernel; f32 units are pipelined with an initiation interval of one. The
// RTL generator builds units with exactly these latencies and balances
// every path to the longest, so the simulator can take the same figures.
const (
	LatencyFAdd    = 5 // f32 add and subtract: align, add, normalise, round, register
	LatencyFMul    = 3 // f32 multiply: DSP product, normalise, round
	LatencyFDiv    = 8 // f32 divide: reciprocal-free radix-16 pipeline
	LatencyFCmp    = 1 // f32 compare, min and max
	LatencyFCvt    = 2 // conversions between f32 and integers
	LatencyDefault = 0 // integer operations
)

// OpLatency returns the cycles one node's own operation takes.
func OpLatency(n *Node) int {
	if n.Op == OpConst || n.Op == OpRef {
		return 0
	}
	floatIn := len(n.Args) > 0 && n.Args[0].Type.Float
	switch {
	case n.Op == OpCast && (n.Type.Float != n.Args[0].Type.Float):
		return LatencyFCvt
	case !floatIn:
		return LatencyDefault
	}
	switch n.Op {
	case OpAdd, OpSub:
		return LatencyFAdd
	case OpMul:
		return LatencyFMul
	case OpDiv:
		return LatencyFDiv
	case OpMin, OpMax, OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return LatencyFCmp
	}
	return LatencyDefault
}

// Depth returns the latency of an expression: its longest path of
// operation latencies. Reading a let binding costs that binding's depth.
func Depth(n *Node, locals []int) int {
	if n.Op == OpRef && n.Ref == RefLocal && n.Index < len(locals) {
		return locals[n.Index]
	}
	d := 0
	for _, a := range n.Args {
		d = max(d, Depth(a, locals))
	}
	return d + OpLatency(n)
}

// Latency returns the pipeline depth of a program in cycles: the longest
// path through its statements plus one output register. Every program is
// fully pipelined (one input per cycle).
func (p *CheckedProgram) Latency() int {
	if p == nil {
		return 0
	}
	locals := make([]int, len(p.Locals))
	d := 0
	for _, st := range p.Stmts {
		x := Depth(st.Value, locals)
		if st.Kind == TargetLocal {
			locals[st.Index] = x
			continue
		}
		d = max(d, x)
	}
	return d + 1
}
