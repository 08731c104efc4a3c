package kernel

// The batch form of a compiled program. The reference engine runs a
// program over a batch of up to vbatchSize elements at once (the vertices
// of a range for init and apply, the neighbours of one sender for scatter
// and gather): every expression node fills a flat column of values with a
// tight loop instead of being called once per value through a closure.
// Subtrees that read only inputs shared by the whole batch (constants,
// the superstep, the sender, its update or message) are uniform: they are
// evaluated once per batch by the scalar closures of compile.go and, where
// a column needs them, broadcast.
//
// The two forms must agree bit for bit: the column loops below use the
// same formulas as compileInt, compileFloat and compileCast (the helpers
// shared by both live in compile.go), and TestBatchMatchesScalar checks
// every operation on random operands. Eager evaluation of both sides of
// ?:, && and || is safe because no expression has a side effect or can
// trap (division by zero and wide shifts are defined).

// vbatchSize bounds a batch; longer ranges and neighbour lists are run in
// pieces.
const vbatchSize = 256

// batch holds the inputs of one batch run. The engine keeps one per worker.
type batch struct {
	n   int
	ids []uint32 // the element vertices: this vertex, or the edge's neighbour
	// fields hold the state of every vertex, one array per field; a state
	// reference of element k reads fields[i] at ids[k].
	fields  []field
	offsets []uint32 // the graph's CSR offsets, for degree columns
	msg     [][]uint64
	edge    [][]uint64
	update  [][]uint64
	scalar  *Ctx // uniform inputs (superstep, sender, update, msg, degree)
	cols    [][]uint64
}

// field is one state field of every vertex. Fields of at most 32 bits
// (f32 included) are kept in 32-bit words: the random reads and writes of
// gather then touch half the memory, which is what bounds the engine on
// large graphs.
type field struct {
	u32 []uint32
	u64 []uint64
}

func newField(t Type, n int) field {
	if t.Width <= 32 {
		return field{u32: make([]uint32, n)}
	}
	return field{u64: make([]uint64, n)}
}

// load reads the field of the vertices ids into out.
func (f field) load(ids []uint32, out []uint64) {
	if f.u32 != nil {
		a := f.u32
		for k, v := range ids {
			out[k] = uint64(a[v])
		}
		return
	}
	a := f.u64
	for k, v := range ids {
		out[k] = a[v]
	}
}

// store writes vals (or, when vals is nil, x) to the field of ids.
func (f field) store(ids []uint32, vals []uint64, x uint64) {
	switch {
	case f.u32 != nil && vals != nil:
		a := f.u32
		for k, v := range ids {
			a[v] = uint32(vals[k])
		}
	case f.u32 != nil:
		a := f.u32
		for _, v := range ids {
			a[v] = uint32(x)
		}
	case vals != nil:
		a := f.u64
		for k, v := range ids {
			a[v] = vals[k]
		}
	default:
		a := f.u64
		for _, v := range ids {
			a[v] = x
		}
	}
}

// get returns the field of vertex v.
func (f field) get(v int) uint64 {
	if f.u32 != nil {
		return uint64(f.u32[v])
	}
	return f.u64[v]
}

// set sets the field of vertex v.
func (f field) set(v int, x uint64) {
	if f.u32 != nil {
		f.u32[v] = uint32(x)
	} else {
		f.u64[v] = x
	}
}

// vnode is one compiled expression node of the batch form.
type vnode struct {
	uniform bool
	scalar  evalFn // uniform nodes: the value, once per batch
	slot    int    // the column this node fills
	// fill computes the column (varying nodes), reading its arguments'
	// columns, which run filled beforehand.
	fill func(b *batch, out []uint64)
	args []*vnode
}

// vprogram is a program in batch form.
type vprogram struct {
	stmts  []vstmt
	nslots int
	// letSlot holds the column of each varying let, which its references
	// read.
	letSlot []int
	// order lists every varying node in evaluation order (arguments
	// first), and broadcasts the uniform arguments of varying nodes.
	order []*vnode
	bcast []*vnode
}

type vstmt struct {
	node  *vnode
	kind  TargetKind
	index int
}

// varying says which inputs differ between the elements of a batch.
type varying struct {
	state, id, degree, msg, edge, neighbor, update, sender bool
}

func compileBatch(cp *CheckedProgram, vary varying) *vprogram {
	if cp == nil {
		return nil
	}
	p := &vprogram{letSlot: make([]int, len(cp.Locals))}
	localVary := make([]bool, len(cp.Locals))
	for _, st := range cp.Stmts {
		n := p.node(st.Value, vary, localVary)
		if st.Kind == TargetLocal {
			localVary[st.Index] = !n.uniform
			p.letSlot[st.Index] = n.slot
		}
		p.stmts = append(p.stmts, vstmt{node: n, kind: st.Kind, index: st.Index})
	}
	return p
}

// node compiles n, after its arguments, into the program's order.
func (p *vprogram) node(n *Node, vary varying, localVary []bool) *vnode {
	if n.Op == OpRef && n.Ref == RefLocal && localVary[n.Index] {
		return &vnode{slot: p.letSlot[n.Index]}
	}
	v := &vnode{slot: p.nslots}
	p.nslots++
	if n.Op == OpRef {
		v.uniform = !refVaries(n, vary, localVary)
	} else if n.Op == OpSatAdd {
		// Varying whatever its arguments, so that every element counts
		// its own saturation (Ctx.Saturated).
		for _, a := range n.Args {
			v.args = append(v.args, p.node(a, vary, localVary))
		}
	} else {
		v.uniform = true
		for _, a := range n.Args {
			c := p.node(a, vary, localVary)
			v.args = append(v.args, c)
			v.uniform = v.uniform && c.uniform
		}
	}
	if v.uniform {
		v.scalar = compileExpr(n)
		return v
	}
	for _, a := range v.args {
		if a.uniform {
			p.bcast = append(p.bcast, a)
		}
	}
	v.fill = fillFor(n, v)
	p.order = append(p.order, v)
	return v
}

func refVaries(n *Node, vary varying, localVary []bool) bool {
	switch n.Ref {
	case RefState:
		return vary.state
	case RefID:
		return vary.id
	case RefDegree:
		return vary.degree
	case RefMsg:
		return vary.msg
	case RefEdge:
		return vary.edge
	case RefNeighbor:
		return vary.neighbor
	case RefUpdate:
		return vary.update
	case RefSender:
		return vary.sender
	case RefLocal:
		return localVary[n.Index]
	}
	return false
}

// run evaluates the program over b: afterwards statement i's values are
// col(b, i), or vals[i] for a uniform statement. Uniform lets are stored
// in b.scalar's locals, where uniform closures read them.
func (p *vprogram) run(b *batch, vals []uint64) {
	for len(b.cols) < p.nslots {
		b.cols = append(b.cols, make([]uint64, vbatchSize))
	}
	n := b.n
	// Uniform lets first, in order, as varying nodes may read them.
	for i, st := range p.stmts {
		if st.node.uniform {
			vals[i] = st.node.scalar(b.scalar)
			if st.kind == TargetLocal {
				b.scalar.locals[st.index] = vals[i]
			}
		}
	}
	for _, u := range p.bcast {
		c := b.cols[u.slot][:n]
		x := u.scalar(b.scalar)
		for k := range c {
			c[k] = x
		}
	}
	for _, v := range p.order {
		v.fill(b, b.cols[v.slot][:n])
	}
}

// col returns statement i's column after run, nil for a uniform one.
func (p *vprogram) col(b *batch, i int) []uint64 {
	if p.stmts[i].node.uniform {
		return nil
	}
	return b.cols[p.stmts[i].node.slot][:b.n]
}

// fillFor returns the loop of a varying node.
func fillFor(n *Node, v *vnode) func(b *batch, out []uint64) {
	if n.Op == OpRef {
		return refFill(n, v)
	}
	arg := func(i int) int { return v.args[i].slot }
	switch {
	case n.Op == OpCast:
		return castFill(n, arg(0))
	case n.Op == OpCond:
		c, x, y := arg(0), arg(1), arg(2)
		return func(b *batch, out []uint64) {
			cc, xs, ys := b.cols[c][:len(out)], b.cols[x][:len(out)], b.cols[y][:len(out)]
			for k := range out {
				if cc[k] != 0 {
					out[k] = xs[k]
				} else {
					out[k] = ys[k]
				}
			}
		}
	case len(n.Args) == 1:
		return unaryFill(n, arg(0))
	case n.Op == OpSatAdd:
		x, y, m := arg(0), arg(1), n.Type.Mask()
		return func(b *batch, out []uint64) {
			xs, ys := b.cols[x][:len(out)], b.cols[y][:len(out)]
			var sat int64
			for k := range out {
				if s := xs[k] + ys[k]; s >= xs[k] && s <= m {
					out[k] = s
				} else {
					out[k] = m
					sat++
				}
			}
			b.scalar.Saturated += sat
		}
	case n.Op == OpLAnd:
		return binFill(arg(0), arg(1), func(out, x, y []uint64) {
			for k := range out {
				out[k] = b2u(x[k] != 0 && y[k] != 0)
			}
		})
	case n.Op == OpLOr:
		return binFill(arg(0), arg(1), func(out, x, y []uint64) {
			for k := range out {
				out[k] = b2u(x[k] != 0 || y[k] != 0)
			}
		})
	case n.Args[0].Type.Float:
		return binFill(arg(0), arg(1), floatLoop(n.Op))
	}
	return binFill(arg(0), arg(1), intLoop(n.Op, n.Type.Mask()))
}

func refFill(n *Node, v *vnode) func(b *batch, out []uint64) {
	i := n.Index
	switch n.Ref {
	case RefState:
		return func(b *batch, out []uint64) { b.fields[i].load(b.ids[:len(out)], out) }
	case RefID, RefNeighbor, RefSender:
		return func(b *batch, out []uint64) {
			ids := b.ids[:len(out)]
			for k := range out {
				out[k] = uint64(ids[k])
			}
		}
	case RefDegree:
		return func(b *batch, out []uint64) {
			ids, off := b.ids[:len(out)], b.offsets
			for k := range out {
				out[k] = uint64(off[ids[k]+1] - off[ids[k]])
			}
		}
	case RefMsg:
		return func(b *batch, out []uint64) { copy(out, b.msg[i]) }
	case RefEdge:
		return func(b *batch, out []uint64) { copy(out, b.edge[i]) }
	case RefUpdate:
		return func(b *batch, out []uint64) { copy(out, b.update[i]) }
	}
	panic("kernel: reference " + n.Ref.String() + " cannot vary in a batch")
}

func binFill(x, y int, loop func(out, x, y []uint64)) func(b *batch, out []uint64) {
	return func(b *batch, out []uint64) {
		loop(out, b.cols[x][:len(out)], b.cols[y][:len(out)])
	}
}

func unaryFill(n *Node, x int) func(b *batch, out []uint64) {
	m := n.Type.Mask()
	var loop func(out, xs []uint64)
	switch {
	case n.Op == OpNot:
		loop = func(out, xs []uint64) {
			for k := range out {
				out[k] = b2u(xs[k] == 0)
			}
		}
	case n.Op == OpNeg && n.Type.Float:
		loop = func(out, xs []uint64) {
			for k := range out {
				out[k] = bits(-f32(xs[k]))
			}
		}
	case n.Op == OpNeg:
		loop = func(out, xs []uint64) {
			for k := range out {
				out[k] = -xs[k] & m
			}
		}
	case n.Op == OpBitNot:
		loop = func(out, xs []uint64) {
			for k := range out {
				out[k] = ^xs[k] & m
			}
		}
	case n.Op == OpAbs:
		loop = func(out, xs []uint64) {
			for k := range out {
				out[k] = xs[k] &^ (1 << 31)
			}
		}
	default:
		panic("kernel: unknown unary " + n.Op.String())
	}
	return func(b *batch, out []uint64) { loop(out, b.cols[x][:len(out)]) }
}

func castFill(n *Node, x int) func(b *batch, out []uint64) {
	from, to := n.Args[0].Type, n.Type
	m := to.Mask()
	var loop func(out, xs []uint64)
	switch {
	case from.Float == to.Float && (from.Float || to.Width >= from.Width):
		loop = func(out, xs []uint64) { copy(out, xs) }
	case to.Float:
		loop = func(out, xs []uint64) {
			for k := range out {
				out[k] = bits(float32(xs[k]))
			}
		}
	case from.Float:
		loop = func(out, xs []uint64) {
			for k := range out {
				out[k] = F32ToUint(f32(xs[k]), m)
			}
		}
	default:
		loop = func(out, xs []uint64) {
			for k := range out {
				out[k] = xs[k] & m
			}
		}
	}
	return func(b *batch, out []uint64) { loop(out, b.cols[x][:len(out)]) }
}

func floatLoop(op Op) func(out, x, y []uint64) {
	switch op {
	case OpAdd:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = bits(f32(x[k]) + f32(y[k]))
			}
		}
	case OpSub:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = bits(f32(x[k]) - f32(y[k]))
			}
		}
	case OpMul:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = bits(f32(x[k]) * f32(y[k]))
			}
		}
	case OpDiv:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = bits(f32(x[k]) / f32(y[k]))
			}
		}
	case OpMin:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = bits(FMin(f32(x[k]), f32(y[k])))
			}
		}
	case OpMax:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = bits(FMax(f32(x[k]), f32(y[k])))
			}
		}
	}
	cmp := floatCompare(op)
	return func(out, x, y []uint64) {
		for k := range out {
			out[k] = b2u(cmp(f32(x[k]), f32(y[k])))
		}
	}
}

func floatCompare(op Op) func(a, b float32) bool {
	switch op {
	case OpEq:
		return func(a, b float32) bool { return a == b }
	case OpNe:
		return func(a, b float32) bool { return a != b }
	case OpLt:
		return func(a, b float32) bool { return a < b }
	case OpLe:
		return func(a, b float32) bool { return a <= b }
	case OpGt:
		return func(a, b float32) bool { return a > b }
	case OpGe:
		return func(a, b float32) bool { return a >= b }
	}
	panic("kernel: unknown f32 operation " + op.String())
}

func intLoop(op Op, m uint64) func(out, x, y []uint64) {
	switch op {
	case OpAdd:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = (x[k] + y[k]) & m
			}
		}
	case OpSub:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = (x[k] - y[k]) & m
			}
		}
	case OpMul:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = (x[k] * y[k]) & m
			}
		}
	case OpAnd:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = x[k] & y[k]
			}
		}
	case OpOr:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = x[k] | y[k]
			}
		}
	case OpXor:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = x[k] ^ y[k]
			}
		}
	case OpMin:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = min(x[k], y[k])
			}
		}
	case OpMax:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = max(x[k], y[k])
			}
		}
	case OpEq:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = b2u(x[k] == y[k])
			}
		}
	case OpNe:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = b2u(x[k] != y[k])
			}
		}
	case OpLt:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = b2u(x[k] < y[k])
			}
		}
	case OpLe:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = b2u(x[k] <= y[k])
			}
		}
	case OpGt:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = b2u(x[k] > y[k])
			}
		}
	case OpGe:
		return func(out, x, y []uint64) {
			for k := range out {
				out[k] = b2u(x[k] >= y[k])
			}
		}
	}
	f := intScalar(op, m)
	return func(out, x, y []uint64) {
		for k := range out {
			out[k] = f(x[k], y[k])
		}
	}
}
