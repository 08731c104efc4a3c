package kernel

import (
	"math"
)

// Ctx carries the inputs of one program run. The engine and the simulator
// keep one Ctx per worker and refill its fields, so that running a kernel
// allocates nothing.
type Ctx struct {
	State  []uint64 // vertex state before the program (init: unused)
	Msg    []uint64 // gather: the message
	Update []uint64 // scatter: the update
	Edge   []uint64 // scatter: the edge data
	ID     uint64   // init, gather, apply: this vertex
	Sender uint64   // gather, scatter: the vertex that sent the update
	// Neighbor is the destination of the edge being scattered.
	Neighbor  uint64
	Degree    uint64 // init, apply: this vertex's out-degree; scatter: the sender's
	Superstep uint64
	// Global holds the reduced globals apply reads (global.<f>); Apply
	// writes this vertex's contributions to Contrib.
	Global, Contrib []uint64
	// Saturated counts the satadd operations whose sum did not fit and
	// stopped at all ones, so that a run can say a field was too narrow.
	Saturated int64

	locals []uint64
	vals   []uint64
}

type evalFn func(*Ctx) uint64

type step struct {
	fn    evalFn
	kind  TargetKind
	index int
}

type program struct {
	steps   []step
	nlocals int
	nassign int
	// fast, when set, runs the whole program: programs of one or two
	// assignments and no locals (most gathers) skip the general loop.
	fast func(c *Ctx, out []uint64)
}

// Kernel is a spec bound to a graph size and parameter values, compiled to
// Go closures. It is safe for concurrent use with one Ctx per goroutine.
type Kernel struct {
	Spec    *Spec
	Checked *Checked
	// Vertices is the V the kernel was bound to (nvertices).
	Vertices int

	init, gather, apply, scatter program
	// fold is the gather when it folds one message field into one state
	// field with +, min or max (PR's sum): Gather applies it without the
	// closures, which cost the cycle-level simulator a tenth of its time.
	fold *pullFold
	// The batch forms the reference engine runs (scatter's only when it
	// runs once per edge).
	binit, bgather, bapply, bscatter *vprogram
	bsenders                         *vprogram
	scatterCopy                      bool
	scatterPerSender                 bool
	reduce                           []func(a, b uint64) uint64
	identity                         []uint64
}

// Env is what binding a spec needs to know.
type Env struct {
	// Vertices is V, the value of nvertices.
	Vertices int
	// VertexIDBits overrides vertexidsize; 0 derives it from Vertices.
	VertexIDBits int
	// Params overrides parameter defaults, as text (vertex parameters are
	// labels of the input file).
	Params map[string]string
	// Lookup maps a vertex label to its id. Nil treats labels as ids.
	Lookup func(label uint64) (uint32, bool)
}

// Bind checks the spec for a concrete graph and compiles it.
func (s *Spec) Bind(env Env) (*Kernel, error) {
	vid := env.VertexIDBits
	if vid == 0 {
		vid = VertexIDBits(env.Vertices)
	}
	lookup := env.Lookup
	if lookup == nil {
		n := env.Vertices
		lookup = func(l uint64) (uint32, bool) { return uint32(l), l < uint64(n) }
	}
	c, err := s.checkV(env.Params, vid, lookup, env.Vertices)
	if err != nil {
		return nil, err
	}
	k := &Kernel{Spec: s, Checked: c, Vertices: env.Vertices}
	k.init = compileProgram(c.Init)
	k.gather = compileProgram(c.Gather)
	k.fold = recogniseFold(c.Gather)
	k.apply = compileProgram(c.Apply)
	k.reduce = compileReduce(s, c)
	k.identity = k.GlobalIdentity()
	if c.Scatter == nil {
		k.scatterCopy = true
	} else {
		k.scatter = compileProgram(c.Scatter)
		k.scatterPerSender = true
		for _, st := range c.Scatter.Stmts {
			if refers(st.Value, RefNeighbor) || refers(st.Value, RefEdge) {
				k.scatterPerSender = false
			}
		}
	}
	k.binit = compileBatch(c.Init, varying{state: true, id: true, degree: true})
	k.bapply = compileBatch(c.Apply, varying{state: true, id: true, degree: true})
	k.bgather = compileBatch(c.Gather, varying{state: true, id: true, msg: !k.ScatterPerSender()})
	switch {
	case !k.ScatterPerSender():
		k.bscatter = compileBatch(c.Scatter, varying{neighbor: true, edge: true})
	case k.scatterPerSender:
		// Once per sender, over the senders of an apply sweep.
		k.bsenders = compileBatch(c.Scatter, varying{update: true, sender: true, degree: true})
	}
	return k, nil
}

// NewCtx returns a context sized for this kernel.
func (k *Kernel) NewCtx() *Ctx {
	n := max(k.init.nlocals, k.gather.nlocals, k.apply.nlocals, k.scatter.nlocals)
	a := max(k.init.nassign, k.gather.nassign, k.apply.nassign, k.scatter.nassign)
	return &Ctx{locals: make([]uint64, n), vals: make([]uint64, a),
		Global: k.GlobalIdentity(), Contrib: k.GlobalIdentity()}
}

// Init computes the initial state of vertex c.ID (with c.Degree set) into
// state. Fields the program does not assign are zero.
func (k *Kernel) Init(c *Ctx, state []uint64) {
	clear(state)
	c.State = state
	k.init.run(c, state, nil, nil)
}

// Gather folds the message c.Msg from c.Sender into state, in place.
func (k *Kernel) Gather(c *Ctx, state []uint64) {
	if f := k.fold; f != nil {
		state[f.field] = f.apply(state[f.field], c.Msg[f.msg])
		return
	}
	c.State = state
	k.gather.run(c, state, nil, nil)
}

// Apply runs the apply program on state (in place) and fills upd, and
// c.Contrib with the vertex's contributions to the globals (reading
// c.Global). It reports whether the vertex sends upd this superstep.
func (k *Kernel) Apply(c *Ctx, state, upd []uint64) bool {
	c.State = state
	copy(c.Contrib, k.identity)
	var send uint64
	k.apply.run(c, state, upd, &send)
	return send != 0
}

// Scatter computes the message for one edge into msg, from c.Update,
// c.Edge, c.Sender, c.Neighbor and c.Degree.
func (k *Kernel) Scatter(c *Ctx, msg []uint64) {
	if k.scatterCopy {
		copy(msg, c.Update)
		return
	}
	k.scatter.run(c, msg, nil, nil)
}

// ScatterPerSender reports whether the message depends only on the update
// and the sender (not on the edge or the neighbour), so that an engine may
// run scatter once per update instead of once per edge. The result is the
// same; only the work differs.
func (k *Kernel) ScatterPerSender() bool { return k.scatterPerSender || k.scatterCopy }

// refers reports whether n reads the input r.
func refers(n *Node, r RefKind) bool {
	if n.Op == OpRef && n.Ref == r {
		return true
	}
	for _, a := range n.Args {
		if refers(a, r) {
			return true
		}
	}
	return false
}

// ScatterIsCopy reports whether the message is the update unchanged, which
// lets engines skip the scatter program.
func (k *Kernel) ScatterIsCopy() bool { return k.scatterCopy }

// run evaluates every step in order: lets become visible at once; all
// assignments read the old values and are written at the end.
func (p *program) run(c *Ctx, out, upd []uint64, send *uint64) {
	if p.fast != nil {
		p.fast(c, out)
		return
	}
	vals := c.vals
	j := 0
	for i := range p.steps {
		s := &p.steps[i]
		v := s.fn(c)
		if s.kind == TargetLocal {
			c.locals[s.index] = v
			continue
		}
		vals[j] = v
		j++
	}
	j = 0
	for i := range p.steps {
		s := &p.steps[i]
		switch s.kind {
		case TargetLocal:
			continue
		case TargetState, TargetMessage:
			out[s.index] = vals[j]
		case TargetUpdate:
			upd[s.index] = vals[j]
		case TargetSend:
			*send = vals[j]
		case TargetGlobal:
			c.Contrib[s.index] = vals[j]
		}
		j++
	}
}

func compileProgram(cp *CheckedProgram) program {
	if cp == nil {
		return program{}
	}
	p := program{nlocals: len(cp.Locals)}
	for _, st := range cp.Stmts {
		p.steps = append(p.steps, step{fn: compileExpr(st.Value), kind: st.Kind, index: st.Index})
		if st.Kind != TargetLocal {
			p.nassign++
		}
	}
	simple := len(p.steps) == p.nassign
	for _, s := range p.steps {
		simple = simple && (s.kind == TargetState || s.kind == TargetMessage)
	}
	switch {
	case simple && len(p.steps) == 1:
		f, i := p.steps[0].fn, p.steps[0].index
		p.fast = func(c *Ctx, out []uint64) { out[i] = f(c) }
	case simple && len(p.steps) == 2:
		f, i := p.steps[0].fn, p.steps[0].index
		g, j := p.steps[1].fn, p.steps[1].index
		p.fast = func(c *Ctx, out []uint64) {
			a, b := f(c), g(c)
			out[i], out[j] = a, b
		}
	}
	return p
}

func f32(v uint64) float32  { return math.Float32frombits(uint32(v)) }
func bits(f float32) uint64 { return uint64(math.Float32bits(f)) }

// compileExpr turns a typed node into a closure. Integer results are kept
// within their width; f32 values travel as their IEEE bits.
func compileExpr(n *Node) evalFn {
	switch n.Op {
	case OpConst:
		v := n.Const
		return func(*Ctx) uint64 { return v }
	case OpRef:
		i := n.Index
		switch n.Ref {
		case RefState:
			return func(c *Ctx) uint64 { return c.State[i] }
		case RefMsg:
			return func(c *Ctx) uint64 { return c.Msg[i] }
		case RefUpdate:
			return func(c *Ctx) uint64 { return c.Update[i] }
		case RefEdge:
			return func(c *Ctx) uint64 { return c.Edge[i] }
		case RefLocal:
			return func(c *Ctx) uint64 { return c.locals[i] }
		case RefID:
			return func(c *Ctx) uint64 { return c.ID }
		case RefSender:
			return func(c *Ctx) uint64 { return c.Sender }
		case RefNeighbor:
			return func(c *Ctx) uint64 { return c.Neighbor }
		case RefDegree:
			return func(c *Ctx) uint64 { return c.Degree }
		case RefSuperstep:
			return func(c *Ctx) uint64 { return c.Superstep }
		case RefGlobal:
			return func(c *Ctx) uint64 { return c.Global[i] }
		}
		panic("kernel: unknown reference " + n.Ref.String())
	case OpCast:
		return compileCast(n)
	}
	args := make([]evalFn, len(n.Args))
	for i, a := range n.Args {
		args[i] = compileExpr(a)
	}
	if n.Op == OpCond {
		c, a, b := args[0], args[1], args[2]
		return func(x *Ctx) uint64 {
			if c(x) != 0 {
				return a(x)
			}
			return b(x)
		}
	}
	if len(args) == 1 {
		x := args[0]
		m := n.Type.Mask()
		switch {
		case n.Op == OpNot:
			return func(c *Ctx) uint64 { return b2u(x(c) == 0) }
		case n.Op == OpNeg && n.Type.Float:
			return func(c *Ctx) uint64 { return bits(-f32(x(c))) }
		case n.Op == OpNeg:
			return func(c *Ctx) uint64 { return -x(c) & m }
		case n.Op == OpBitNot:
			return func(c *Ctx) uint64 { return ^x(c) & m }
		case n.Op == OpAbs:
			return func(c *Ctx) uint64 { return x(c) &^ (1 << 31) }
		}
		panic("kernel: unknown unary " + n.Op.String())
	}
	x, y := args[0], args[1]
	if n.Op == OpLAnd {
		return func(c *Ctx) uint64 { return b2u(x(c) != 0 && y(c) != 0) }
	}
	if n.Op == OpLOr {
		return func(c *Ctx) uint64 { return b2u(x(c) != 0 || y(c) != 0) }
	}
	if n.Args[0].Type.Float {
		return compileFloat(n.Op, x, y)
	}
	return compileInt(n.Op, n.Type, n.Args[0].Type.Width, x, y)
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func compileFloat(op Op, x, y evalFn) evalFn {
	switch op {
	case OpAdd:
		return func(c *Ctx) uint64 { return bits(f32(x(c)) + f32(y(c))) }
	case OpSub:
		return func(c *Ctx) uint64 { return bits(f32(x(c)) - f32(y(c))) }
	case OpMul:
		return func(c *Ctx) uint64 { return bits(f32(x(c)) * f32(y(c))) }
	case OpDiv:
		return func(c *Ctx) uint64 { return bits(f32(x(c)) / f32(y(c))) }
	case OpMin:
		return func(c *Ctx) uint64 { return bits(FMin(f32(x(c)), f32(y(c)))) }
	case OpMax:
		return func(c *Ctx) uint64 { return bits(FMax(f32(x(c)), f32(y(c)))) }
	case OpEq:
		return func(c *Ctx) uint64 { return b2u(f32(x(c)) == f32(y(c))) }
	case OpNe:
		return func(c *Ctx) uint64 { return b2u(f32(x(c)) != f32(y(c))) }
	case OpLt:
		return func(c *Ctx) uint64 { return b2u(f32(x(c)) < f32(y(c))) }
	case OpLe:
		return func(c *Ctx) uint64 { return b2u(f32(x(c)) <= f32(y(c))) }
	case OpGt:
		return func(c *Ctx) uint64 { return b2u(f32(x(c)) > f32(y(c))) }
	case OpGe:
		return func(c *Ctx) uint64 { return b2u(f32(x(c)) >= f32(y(c))) }
	}
	panic("kernel: unknown f32 operation " + op.String())
}

// FMin and FMax are the language's f32 min and max: they return the other
// operand when one is NaN, as IEEE-754 minNum/maxNum do. Back ends (the
// generated hardware and its tests) must match them.
func FMin(a, b float32) float32 {
	if a < b || b != b {
		return a
	}
	return b
}

// FMax is the language's f32 max (see FMin).
func FMax(a, b float32) float32 {
	if a > b || b != b {
		return a
	}
	return b
}

func compileInt(op Op, t Type, opw int, x, y evalFn) evalFn {
	m := t.Mask()
	switch op {
	case OpAdd:
		return func(c *Ctx) uint64 { return (x(c) + y(c)) & m }
	case OpSub:
		return func(c *Ctx) uint64 { return (x(c) - y(c)) & m }
	case OpMul:
		return func(c *Ctx) uint64 { return (x(c) * y(c)) & m }
	case OpDiv, OpRem, OpShl, OpShr:
		f := intScalar(op, m)
		return func(c *Ctx) uint64 { return f(x(c), y(c)) }
	case OpAnd:
		return func(c *Ctx) uint64 { return x(c) & y(c) }
	case OpOr:
		return func(c *Ctx) uint64 { return x(c) | y(c) }
	case OpXor:
		return func(c *Ctx) uint64 { return x(c) ^ y(c) }
	case OpMin:
		return func(c *Ctx) uint64 { return min(x(c), y(c)) }
	case OpMax:
		return func(c *Ctx) uint64 { return max(x(c), y(c)) }
	case OpSatAdd:
		return func(c *Ctx) uint64 {
			a, b := x(c), y(c)
			if s := a + b; s >= a && s <= m {
				return s
			}
			if c != nil {
				c.Saturated++
			}
			return m
		}
	case OpEq:
		return func(c *Ctx) uint64 { return b2u(x(c) == y(c)) }
	case OpNe:
		return func(c *Ctx) uint64 { return b2u(x(c) != y(c)) }
	case OpLt:
		return func(c *Ctx) uint64 { return b2u(x(c) < y(c)) }
	case OpLe:
		return func(c *Ctx) uint64 { return b2u(x(c) <= y(c)) }
	case OpGt:
		return func(c *Ctx) uint64 { return b2u(x(c) > y(c)) }
	case OpGe:
		return func(c *Ctx) uint64 { return b2u(x(c) >= y(c)) }
	}
	_ = opw
	panic("kernel: unknown integer operation " + op.String())
}

// intScalar returns the integer operations whose definition needs more
// than an operator (a zero divisor, a shift of 64 or more), shared by the
// closure and batch forms.
func intScalar(op Op, m uint64) func(a, b uint64) uint64 {
	switch op {
	case OpDiv:
		return func(a, b uint64) uint64 {
			if b == 0 {
				return m
			}
			return a / b
		}
	case OpRem:
		return func(a, b uint64) uint64 {
			if b == 0 {
				return a
			}
			return a % b
		}
	case OpShl:
		return func(a, s uint64) uint64 {
			if s >= 64 {
				return 0
			}
			return (a << s) & m
		}
	case OpShr:
		return func(a, s uint64) uint64 {
			if s >= 64 {
				return 0
			}
			return a >> s
		}
	}
	panic("kernel: unknown integer operation " + op.String())
}

func compileCast(n *Node) evalFn {
	x := compileExpr(n.Args[0])
	from, to := n.Args[0].Type, n.Type
	switch {
	case from.Float && to.Float:
		return x
	case !from.Float && to.Float:
		return func(c *Ctx) uint64 { return bits(float32(x(c))) }
	case from.Float && !to.Float:
		m := to.Mask()
		return func(c *Ctx) uint64 { return F32ToUint(f32(x(c)), m) }
	}
	if to.Width >= from.Width {
		return x
	}
	m := to.Mask()
	return func(c *Ctx) uint64 { return x(c) & m }
}

// F32ToUint is the language's f32-to-integer cast into [0, m]: it truncates
// toward zero and saturates; NaN gives 0.
func F32ToUint(f float32, m uint64) uint64 {
	switch {
	case f != f || f <= 0:
		return 0
	case float64(f) >= float64(m):
		return m
	}
	return uint64(f)
}
