package kernel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Checked is a spec bound to a vertex id width and parameter values: every
// program typed, every name resolved, constants folded. It is what the
// closure compiler and the Verilog generator consume.
type Checked struct {
	VertexIDBits int
	// Field types of each layout, parallel to the Spec's layouts.
	VertexT, EdgeT, UpdateT, MessageT, GlobalT []Type
	// Params holds the bound parameter values (f32 as bits), by name.
	Params                       map[string]ParamValue
	Init, Gather, Apply, Scatter *CheckedProgram
}

// ParamValue is a bound parameter.
type ParamValue struct {
	Type Type
	Bits uint64
}

// CheckedProgram is a typed program.
type CheckedProgram struct {
	Name   string
	Stmts  []Stmt
	Locals []Type // types of the let bindings, by index
}

// parse parses a parameter's textual value. lookup resolves vertex labels
// to ids; nil accepts any label as an id (load-time checking).
func (p Param) parse(text string, lookup func(uint64) (uint32, bool)) (uint64, error) {
	text = strings.TrimSpace(text)
	switch p.Kind {
	case ParamVertex:
		v, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a vertex label", text)
		}
		if lookup == nil {
			return v, nil
		}
		id, ok := lookup(v)
		if !ok {
			return 0, fmt.Errorf("vertex %d is not in the graph", v)
		}
		return uint64(id), nil
	case ParamUint:
		v, err := strconv.ParseUint(text, 0, 32)
		if err != nil {
			return 0, fmt.Errorf("%q is not an unsigned 32-bit integer", text)
		}
		return v, nil
	case ParamWidth:
		v, err := strconv.ParseUint(text, 10, 8)
		if err != nil || v < 1 || v > 64 {
			return 0, fmt.Errorf("%q is not a width in 1..64", text)
		}
		return v, nil
	case ParamF32:
		f, err := strconv.ParseFloat(text, 32)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return 0, fmt.Errorf("%q is not a finite f32", text)
		}
		return uint64(math.Float32bits(float32(f))), nil
	}
	return 0, fmt.Errorf("unknown parameter kind %q", p.Kind)
}

// fieldType resolves a layout width.
func fieldType(f Field, vid int, params map[string]ParamValue) Type {
	switch f.Width {
	case "vertexidsize":
		return Type{Width: vid, VID: true}
	case "floatsize", "f32":
		return F32
	}
	if w, err := strconv.Atoi(f.Width); err == nil {
		return Uint(w)
	}
	return Uint(int(params[f.Width].Bits))
}

// check binds the spec to a vertex id width, parameter overrides (textual,
// by name) and a label lookup, and type-checks every program.
func (s *Spec) check(overrides map[string]string, vid int, lookup func(uint64) (uint32, bool)) (*Checked, error) {
	return s.checkV(overrides, vid, lookup, 0)
}

func (s *Spec) checkV(overrides map[string]string, vid int, lookup func(uint64) (uint32, bool), nverts int) (*Checked, error) {
	c := &Checked{VertexIDBits: vid, Params: map[string]ParamValue{}}
	var errs ErrorList
	for name := range overrides {
		found := false
		for _, p := range s.Params {
			found = found || p.Name == name
		}
		if !found {
			var names []string
			for _, p := range s.Params {
				names = append(names, p.Name)
			}
			return nil, fmt.Errorf("kernel %s has no parameter %q (parameters: %s)", s.Name, name, strings.Join(names, ", "))
		}
	}
	for _, p := range s.Params {
		text, set := overrides[p.Name]
		if !set {
			text = p.Default
		}
		bits, err := p.parse(text, lookup)
		if err != nil {
			if set {
				return nil, fmt.Errorf("kernel %s: parameter %s: %v", s.Name, p.Name, err)
			}
			errs = append(errs, errorAt(p.Pos, fmt.Sprintf("parameter %s: default %v", p.Name, err)))
			continue
		}
		var t Type
		switch p.Kind {
		case ParamVertex:
			t = Type{Width: vid, VID: true}
			if lookup == nil && bits > Uint(vid).Mask() {
				bits &= Uint(vid).Mask()
			}
		case ParamUint, ParamWidth:
			t = Uint(32)
		case ParamF32:
			t = F32
		}
		c.Params[p.Name] = ParamValue{Type: t, Bits: bits}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	types := func(l Layout) []Type {
		ts := make([]Type, len(l))
		for i, f := range l {
			ts[i] = fieldType(f, vid, c.Params)
		}
		return ts
	}
	c.VertexT, c.EdgeT, c.UpdateT, c.MessageT = types(s.Vertex), types(s.Edge), types(s.Update), types(s.Message)
	c.GlobalT = types(s.Global)
	if e := checkGlobals(s, c); e != nil {
		errs = append(errs, e)
	}
	nv := uint64(nverts)
	ck := func(p *Program) *CheckedProgram {
		if p == nil {
			return nil
		}
		cp, e := checkProgram(s, c, p, nv)
		errs = append(errs, e...)
		return cp
	}
	c.Init, c.Gather, c.Apply, c.Scatter = ck(s.Init), ck(s.Gather), ck(s.Apply), ck(s.Scatter)
	if len(errs) > 0 {
		return nil, errs
	}
	return c, nil
}

type checker struct {
	s      *Spec
	c      *Checked
	prog   string
	nv     uint64
	locals map[string]int
	ltypes []Type
	// failed holds the locals whose definition had an error: using them
	// is not reported again.
	failed map[string]bool
	errs   ErrorList
}

func (k *checker) errorf(p Pos, format string, args ...any) {
	k.errs = append(k.errs, errorAt(p, fmt.Sprintf(format, args...)))
}

func checkProgram(s *Spec, c *Checked, p *Program, nv uint64) (*CheckedProgram, ErrorList) {
	k := &checker{s: s, c: c, prog: p.Name, nv: nv, locals: map[string]int{}, failed: map[string]bool{}}
	cp := &CheckedProgram{Name: p.Name}
	assigned := map[string]Pos{}
	for _, st := range p.Stmts {
		v := k.expr(st.Value)
		if v == nil {
			// The error is reported; count the statement as written, so
			// that no follow-up error says it is missing.
			if st.Let {
				k.failed[st.Target] = true
			} else if _, dup := assigned[st.Target]; !dup {
				assigned[st.Target] = st.Pos
			}
			continue
		}
		out := Stmt{Pos: st.Pos, Let: st.Let, Target: st.Target}
		if st.Let {
			if _, dup := k.locals[st.Target]; dup {
				k.errorf(st.Pos, "%s declared twice", st.Target)
				continue
			}
			if reserved[st.Target] || s.Vertex.Index(st.Target) >= 0 || k.param(st.Target) {
				k.errorf(st.Pos, "let %s shadows a field, parameter or built-in name", st.Target)
				continue
			}
			if v.Type.untyped != 0 {
				if v = k.typeLocal(st, v); v == nil {
					k.failed[st.Target] = true
					continue
				}
			}
			out.Kind, out.Index, out.Value = TargetLocal, len(k.ltypes), v
			k.locals[st.Target] = len(k.ltypes)
			k.ltypes = append(k.ltypes, v.Type)
			cp.Stmts = append(cp.Stmts, out)
			continue
		}
		if prev, dup := assigned[st.Target]; dup {
			k.errorf(st.Pos, "%s is assigned twice (first at line %d)", st.Target, prev.Line)
			continue
		}
		kind, idx, t, ok := k.target(st)
		if !ok {
			continue
		}
		assigned[st.Target] = st.Pos
		if kind == TargetSend {
			if v.Type.Float {
				k.errorf(st.Value.Pos, "send must be an integer truth value, not f32")
				continue
			}
			if v.Type.untyped == 0 && v.Type.Width > 1 {
				v = &Node{Op: OpNe, Type: boolType, Args: []*Node{v, {Op: OpConst, Type: v.Type}}, Pos: v.Pos}
			}
		}
		v = k.assignable(v, t, st.Target)
		if v == nil {
			continue
		}
		out.Kind, out.Index, out.Value = kind, idx, v
		cp.Stmts = append(cp.Stmts, out)
	}
	switch p.Name {
	case "apply":
		if _, ok := assigned["send"]; !ok {
			k.errorf(p.Pos, "apply must assign send (whether this vertex issues an update)")
		}
		for _, f := range s.Update {
			if _, ok := assigned["update."+f.Name]; !ok {
				k.errorf(p.Pos, "apply must assign update.%s", f.Name)
			}
		}
	case "scatter":
		for _, f := range s.Message {
			_, a := assigned[f.Name]
			_, b := assigned["msg."+f.Name]
			if !a && !b {
				k.errorf(p.Pos, "scatter must assign message field %s", f.Name)
			}
		}
	}
	cp.Locals = k.ltypes
	return cp, k.errs
}

func (k *checker) param(name string) bool {
	for _, p := range k.s.Params {
		if p.Name == name {
			return true
		}
	}
	return false
}

// target resolves an assignment target for the current program.
func (k *checker) target(st Stmt) (TargetKind, int, Type, bool) {
	name := st.Target
	switch k.prog {
	case "init", "gather", "apply":
		if k.prog == "apply" {
			if name == "send" {
				return TargetSend, 0, boolType, true
			}
			if f, ok := strings.CutPrefix(name, "update."); ok {
				if i := k.s.Update.Index(f); i >= 0 {
					return TargetUpdate, i, k.c.UpdateT[i], true
				}
				k.errorf(st.Pos, "update has no field %s (fields: %s)", f, fieldNames(k.s.Update))
				return 0, 0, Type{}, false
			}
			if f, ok := strings.CutPrefix(name, "global."); ok {
				if i := k.s.Global.Index(f); i >= 0 {
					return TargetGlobal, i, k.c.GlobalT[i], true
				}
				k.errorf(st.Pos, "global has no field %s (globals: %s)", f, fieldNames(k.s.Global))
				return 0, 0, Type{}, false
			}
		}
		f := strings.TrimPrefix(name, "state.")
		if i := k.s.Vertex.Index(f); i >= 0 {
			return TargetState, i, k.c.VertexT[i], true
		}
		k.errorf(st.Pos, "%s cannot assign %s: the vertex state has fields %s%s", k.prog, name, fieldNames(k.s.Vertex),
			map[bool]string{true: "; apply also assigns send and update.<field>"}[k.prog == "apply"])
	case "scatter":
		f := strings.TrimPrefix(name, "msg.")
		if i := k.s.Message.Index(f); i >= 0 {
			return TargetMessage, i, k.c.MessageT[i], true
		}
		k.errorf(st.Pos, "scatter cannot assign %s: the message has fields %s", name, fieldNames(k.s.Message))
	}
	return 0, 0, Type{}, false
}

func fieldNames(l Layout) string {
	if len(l) == 0 {
		return "(none)"
	}
	var n []string
	for _, f := range l {
		n = append(n, f.Name)
	}
	return strings.Join(n, ", ")
}

// assignable converts v for a target of type t, or reports why it cannot.
func (k *checker) assignable(v *Node, t Type, name string) *Node {
	if v.Type.untyped != 0 {
		if c := k.convert(v, t); c != nil {
			return c
		}
		return nil
	}
	if v.Type.Float != t.Float {
		k.errorf(v.Pos, "cannot assign %s to %s (%s): convert with %s(...)", v.Type, name, t, castName(t))
		return nil
	}
	if !t.Float && v.Type.Width > t.Width {
		k.errorf(v.Pos, "%s value does not fit %s (%s): cast with %s(...)", v.Type, name, t, castName(t))
		return nil
	}
	if !t.Float && v.Type.Width < t.Width {
		return &Node{Op: OpCast, Type: t, Args: []*Node{v}, Pos: v.Pos}
	}
	if v.Type != t {
		// Same width, different VID flag: a free retag.
		return &Node{Op: OpCast, Type: t, Args: []*Node{v}, Pos: v.Pos}
	}
	return v
}

func castName(t Type) string {
	switch {
	case t.Float:
		return "f32"
	case t.VID:
		return "vid"
	}
	return fmt.Sprintf("u%d", t.Width)
}

// convert gives an untyped constant the type t.
func (k *checker) convert(v *Node, t Type) *Node {
	if v.Op == OpCond && v.Type.untyped != 0 {
		a, b := k.convert(v.Args[1], t), k.convert(v.Args[2], t)
		if a == nil || b == nil {
			return nil
		}
		return foldNode(&Node{Op: OpCond, Type: t, Args: []*Node{v.Args[0], a, b}, Pos: v.Pos})
	}
	switch v.Type.untyped {
	case 2:
		if t.Float {
			k.errorf(v.Pos, "none has no f32 value")
			return nil
		}
		return &Node{Op: OpConst, Type: t, Const: t.Mask(), Pos: v.Pos, Name: "none"}
	case 1:
		if t.Float {
			return &Node{Op: OpConst, Type: F32, Const: uint64(math.Float32bits(float32(v.Const))), Pos: v.Pos, Name: v.Name}
		}
		if v.Const > t.Mask() {
			k.errorf(v.Pos, "constant %d overflows %s", v.Const, t)
			return nil
		}
		return &Node{Op: OpConst, Type: t, Const: v.Const, Pos: v.Pos, Name: v.Name}
	}
	return v
}

// typeLocal gives a local defined by an untyped expression its type: the
// width of the widest integer constant it can take. A local that may be
// none has no width to take (none is all ones of a type), so it needs a
// cast. It returns nil after reporting an error.
func (k *checker) typeLocal(st Stmt, v *Node) *Node {
	if v.Type.untyped >= 2 {
		k.errorf(st.Pos, "let %s may be none, which needs a type: use a field or a cast such as u8(...)", st.Target)
		return nil
	}
	return k.convert(v, Uint(constBits(v)))
}

// constBits is the width an untyped integer expression needs: the widest of
// a conditional's arms, or the bits of a constant.
func constBits(v *Node) int {
	if v.Op == OpCond {
		return max(constBits(v.Args[1]), constBits(v.Args[2]))
	}
	return BitsFor(v.Const)
}

// BitsFor returns the bits needed to write v (at least 1): the width an
// untyped constant takes, and the width of an address that reaches v.
func BitsFor(v uint64) int {
	w := 1
	for w < 64 && v>>uint(w) != 0 {
		w++
	}
	return w
}

// expr types an expression and folds constants. Constants, names and
// calls have checkers of their own; an operator's operands are typed first,
// then one checker per class of operator (negation, the two nots, shifts,
// the logical operators, ?: and the binary operators) types the result.
func (k *checker) expr(n *Node) *Node {
	if n == nil {
		return nil
	}
	switch n.Op {
	case OpConst:
		return n
	case OpIdent:
		return k.ident(n)
	case OpCall:
		return k.call(n)
	}
	args, ok := k.operands(n)
	if !ok {
		return nil
	}
	out := &Node{Op: n.Op, Args: args, Pos: n.Pos}
	switch n.Op {
	case OpNeg:
		ok = k.neg(out)
	case OpNot:
		ok = k.not(out)
	case OpBitNot:
		ok = k.bitNot(out)
	case OpShl, OpShr:
		ok = k.shift(out)
	case OpLAnd, OpLOr:
		ok = k.logical(out)
	case OpCond:
		ok = k.cond(out)
	default:
		return k.binary(out)
	}
	if !ok {
		return nil
	}
	return foldNode(out)
}

// operands types the operands of operator node n. Only ?: may mix a
// constant and none in an operand (c ? 0 : none takes its type from where
// it is used); every other operator needs it typed.
func (k *checker) operands(n *Node) ([]*Node, bool) {
	args := make([]*Node, len(n.Args))
	for i, a := range n.Args {
		if args[i] = k.expr(a); args[i] == nil {
			return nil, false
		}
	}
	if n.Op != OpCond {
		for _, a := range args {
			if a.Type.untyped == 3 {
				k.errorf(a.Pos, "this conditional mixes a constant and none: give it a type with a cast")
				return nil, false
			}
		}
	}
	return args, true
}

// typed gives an untyped constant the width it needs, where an operator
// takes any integer (a truth value, a shift amount).
func (k *checker) typed(a *Node) *Node {
	if a.Type.untyped != 0 {
		return k.convert(a, Uint(BitsFor(a.Const)))
	}
	return a
}

// neg types -x: of x's type, not a vertex id; a constant cannot be
// negated (the integers are unsigned), nor can none.
func (k *checker) neg(out *Node) bool {
	x := out.Args[0]
	if x.Type.untyped == 2 {
		k.errorf(out.Pos, "cannot negate none")
		return false
	}
	if x.Type.untyped == 1 {
		k.errorf(out.Pos, "negative constant -%d: the language has unsigned integers; write a float (-%d.0) or use a typed operand", x.Const, x.Const)
		return false
	}
	out.Type = x.Type
	out.Type.VID = false
	return true
}

// not types !x, a truth value of an integer.
func (k *checker) not(out *Node) bool {
	if out.Args[0].Type.Float {
		k.errorf(out.Pos, "! needs an integer, not f32")
		return false
	}
	out.Args[0] = k.typed(out.Args[0])
	out.Type = boolType
	return true
}

// bitNot types ~x: x must be a typed integer, since the width decides
// which bits are flipped.
func (k *checker) bitNot(out *Node) bool {
	x := out.Args[0]
	if x.Type.Float || x.Type.untyped != 0 {
		k.errorf(out.Pos, "~ needs a typed integer operand (cast the constant, e.g. ~u8(0))")
		return false
	}
	out.Type = x.Type
	out.Type.VID = false
	return true
}

// shift types x << y and x >> y: of x's type, which must be given (it
// decides the bits shifted out); y may be a constant.
func (k *checker) shift(out *Node) bool {
	x, y := out.Args[0], out.Args[1]
	if x.Type.Float || y.Type.Float {
		k.errorf(out.Pos, "%s needs integers", out.Op)
		return false
	}
	if x.Type.untyped != 0 {
		k.errorf(out.Pos, "the left operand of %s must be typed (cast it, e.g. u32(1) << n)", out.Op)
		return false
	}
	out.Args[1] = k.typed(y)
	out.Type = x.Type
	out.Type.VID = false
	return true
}

// logical types && and ||: truth values of integers.
func (k *checker) logical(out *Node) bool {
	for i, a := range out.Args {
		if a.Type.Float {
			k.errorf(a.Pos, "%s needs integer truth values, not f32", out.Op)
			return false
		}
		out.Args[i] = k.typed(a)
	}
	out.Type = boolType
	return true
}

// cond types c ? a : b: c an integer truth value, the arms unified.
func (k *checker) cond(out *Node) bool {
	c := out.Args[0]
	if c.Type.Float {
		k.errorf(c.Pos, "the condition of ?: must be an integer truth value, not f32")
		return false
	}
	out.Args[0] = k.typed(c)
	t, ok := k.unify(out, out.Args[1:])
	if !ok {
		return false
	}
	out.Type = t
	return true
}

// binary types the binary arithmetic, bitwise and comparison operators:
// the operands unified, a comparison a truth value, & and | a vertex id
// when both operands are. Two constants fold to a constant.
func (k *checker) binary(out *Node) *Node {
	t, ok := k.unify(out, out.Args)
	if !ok {
		return nil
	}
	op := out.Op
	if t.Float {
		switch op {
		case OpRem, OpAnd, OpOr, OpXor:
			k.errorf(out.Pos, "%s is not defined on f32", op)
			return nil
		}
	}
	if op.Comparison() {
		out.Type = boolType
	} else {
		out.Type = t
		if op != OpAnd && op != OpOr {
			out.Type.VID = false
		}
	}
	if t.untyped != 0 {
		return k.foldUntyped(out, t)
	}
	return foldNode(out)
}

// foldUntyped folds a binary operator on two untyped operands in 64 bits:
// arithmetic stays an untyped constant, a comparison is a truth value.
func (k *checker) foldUntyped(out *Node, t Type) *Node {
	a, b := out.Args[0], out.Args[1]
	if out.Op.Comparison() {
		tmp := &Node{Op: out.Op, Type: boolType, Args: []*Node{k.convert(a, Uint(64)), k.convert(b, Uint(64))}}
		return &Node{Op: OpConst, Type: boolType, Const: fold(tmp), Pos: out.Pos}
	}
	if t.untyped == 2 {
		k.errorf(out.Pos, "none needs a typed operand")
		return nil
	}
	tmp := &Node{Op: out.Op, Type: Uint(64), Args: []*Node{k.convert(a, Uint(64)), k.convert(b, Uint(64))}}
	return &Node{Op: OpConst, Type: untypedInt, Const: fold(tmp), Pos: out.Pos}
}

// unify gives the operands of an arithmetic node one type, converting
// untyped constants. Comparisons and min/max are checked the same way.
func (k *checker) unify(n *Node, args []*Node) (Type, bool) {
	var t Type
	typed := false
	for _, a := range args {
		if a.Type.untyped != 0 {
			continue
		}
		if !typed {
			t, typed = a.Type, true
			continue
		}
		if a.Type.Float != t.Float {
			k.errorf(n.Pos, "mismatched types %s and %s in %s: convert with f32(...) or uN(...)", t, a.Type, opWord(n))
			return Type{}, false
		}
		if a.Type.Width > t.Width {
			t.Width = a.Type.Width
		}
		t.VID = t.VID && a.Type.VID
	}
	if !typed {
		// All untyped: none wins over integer for the result kind.
		t = untypedInt
		for _, a := range args {
			if a.Type.untyped == 2 {
				t = untypedNone
			}
		}
		if t.untyped == 2 {
			for _, a := range args {
				if a.Type.untyped == 1 {
					if n.Op == OpCond {
						// c ? 0 : none takes its type from where it is used.
						return untypedMixed, true
					}
					k.errorf(n.Pos, "none needs a typed operand in %s", opWord(n))
					return Type{}, false
				}
			}
		}
		return t, true
	}
	for i, a := range args {
		if a.Type.untyped != 0 {
			c := k.convert(a, t)
			if c == nil {
				return Type{}, false
			}
			args[i] = c
		} else if !t.Float && a.Type.Width < t.Width {
			args[i] = &Node{Op: OpCast, Type: Type{Width: t.Width, VID: t.VID && a.Type.VID}, Args: []*Node{a}, Pos: a.Pos}
		}
	}
	return t, true
}

func opWord(n *Node) string {
	if n.Op == OpCall {
		return n.Name + "(...)"
	}
	return "'" + n.Op.String() + "'"
}

// scope lists the inputs of each program, for lookup and error messages.
var scope = map[string][]string{
	"init":    {"id", "degree", "nvertices"},
	"gather":  {"state.<f>", "msg.<f>", "id", "sender", "superstep", "nvertices"},
	"apply":   {"state.<f>", "global.<f>", "id", "degree", "superstep", "nvertices"},
	"scatter": {"update.<f>", "edge.<f>", "sender", "neighbor", "degree", "superstep", "nvertices"},
}

func (k *checker) inScope(name string) bool {
	for _, s := range scope[k.prog] {
		if s == name {
			return true
		}
	}
	return false
}

func (k *checker) ident(n *Node) *Node {
	name := n.Name
	vid := Type{Width: k.c.VertexIDBits, VID: true}
	ref := func(r RefKind, idx int, t Type) *Node {
		return &Node{Op: OpRef, Ref: r, Index: idx, Type: t, Name: name, Pos: n.Pos}
	}
	if prefix, field, dotted := strings.Cut(name, "."); dotted {
		var l Layout
		var ts []Type
		var r RefKind
		switch prefix {
		case "state":
			l, ts, r = k.s.Vertex, k.c.VertexT, RefState
		case "msg":
			l, ts, r = k.s.Message, k.c.MessageT, RefMsg
		case "update":
			l, ts, r = k.s.Update, k.c.UpdateT, RefUpdate
		case "edge":
			l, ts, r = k.s.Edge, k.c.EdgeT, RefEdge
		case "global":
			l, ts, r = k.s.Global, k.c.GlobalT, RefGlobal
		default:
			k.errorf(n.Pos, "unknown name %s (in %s: %s)", name, k.prog, strings.Join(scope[k.prog], ", "))
			return nil
		}
		if !k.inScope(prefix + ".<f>") {
			k.errorf(n.Pos, "%s is not available in %s (available: %s)", name, k.prog, strings.Join(scope[k.prog], ", "))
			return nil
		}
		i := l.Index(field)
		if i < 0 {
			k.errorf(n.Pos, "%s has no field %s (fields: %s)", prefix, field, fieldNames(l))
			return nil
		}
		return ref(r, i, ts[i])
	}
	if i, ok := k.locals[name]; ok {
		return ref(RefLocal, i, k.ltypes[i])
	}
	if k.failed[name] {
		return nil // its definition's error is reported
	}
	if p, ok := k.c.Params[name]; ok {
		return &Node{Op: OpConst, Type: p.Type, Const: p.Bits, Name: name, Pos: n.Pos}
	}
	switch name {
	case "none":
		return &Node{Op: OpConst, Type: untypedNone, Name: name, Pos: n.Pos}
	case "inf":
		return &Node{Op: OpConst, Type: F32, Const: uint64(math.Float32bits(float32(math.Inf(1)))), Name: name, Pos: n.Pos}
	case "nvertices":
		return &Node{Op: OpConst, Type: Uint(32), Const: k.nv, Name: name, Pos: n.Pos}
	}
	builtins := map[string]struct {
		r RefKind
		t Type
	}{
		"id": {RefID, vid}, "sender": {RefSender, vid}, "neighbor": {RefNeighbor, vid},
		"degree": {RefDegree, Uint(32)}, "superstep": {RefSuperstep, Uint(32)},
	}
	if b, ok := builtins[name]; ok {
		if !k.inScope(name) {
			k.errorf(n.Pos, "%s is not available in %s (available: %s)", name, k.prog, strings.Join(scope[k.prog], ", "))
			return nil
		}
		return ref(b.r, 0, b.t)
	}
	if k.s.Vertex.Index(name) >= 0 {
		k.errorf(n.Pos, "unknown name %s: read the vertex field as state.%s", name, name)
		return nil
	}
	k.errorf(n.Pos, "unknown name %s (in %s: %s, parameters and let names)", name, k.prog, strings.Join(scope[k.prog], ", "))
	return nil
}

func (k *checker) call(n *Node) *Node {
	args := make([]*Node, len(n.Args))
	for i, a := range n.Args {
		if args[i] = k.expr(a); args[i] == nil {
			return nil
		}
	}
	want := func(c int) bool {
		if len(args) != c {
			k.errorf(n.Pos, "%s takes %d argument(s), not %d", n.Name, c, len(args))
			return false
		}
		return true
	}
	switch n.Name {
	case "min", "max":
		if !want(2) {
			return nil
		}
		t, ok := k.unify(n, args)
		if !ok {
			return nil
		}
		op := OpMin
		if n.Name == "max" {
			op = OpMax
		}
		if t.untyped != 0 {
			k.errorf(n.Pos, "%s needs at least one typed operand", n.Name)
			return nil
		}
		return foldNode(&Node{Op: op, Type: t, Args: args, Pos: n.Pos})
	case "satadd":
		if !want(2) {
			return nil
		}
		t, ok := k.unify(n, args)
		if !ok {
			return nil
		}
		if t.Float || t.untyped != 0 {
			k.errorf(n.Pos, "satadd adds unsigned integers and needs a typed operand (f32 addition saturates at inf already)")
			return nil
		}
		t.VID = false
		return foldNode(&Node{Op: OpSatAdd, Type: t, Args: args, Pos: n.Pos})
	case "abs":
		if !want(1) {
			return nil
		}
		if !args[0].Type.Float {
			k.errorf(n.Pos, "abs is defined on f32 only (integers are unsigned)")
			return nil
		}
		return foldNode(&Node{Op: OpAbs, Type: F32, Args: args, Pos: n.Pos})
	case "f32", "vid":
		if !want(1) {
			return nil
		}
		t := F32
		if n.Name == "vid" {
			t = Type{Width: k.c.VertexIDBits, VID: true}
		}
		return k.cast(n, args[0], t)
	}
	if w, err := strconv.Atoi(strings.TrimPrefix(n.Name, "u")); err == nil && strings.HasPrefix(n.Name, "u") && w >= 1 && w <= 64 {
		if !want(1) {
			return nil
		}
		return k.cast(n, args[0], Uint(w))
	}
	k.errorf(n.Pos, "unknown function %s (functions: min, max, satadd, abs, f32, vid, u1..u64)", n.Name)
	return nil
}

func (k *checker) cast(n, x *Node, t Type) *Node {
	if x.Type.untyped >= 2 {
		return k.convert(x, t)
	}
	if x.Type.untyped == 1 {
		if !t.Float {
			x = &Node{Op: OpConst, Type: Uint(64), Const: x.Const, Pos: x.Pos}
		} else {
			return k.convert(x, t)
		}
	}
	return foldNode(&Node{Op: OpCast, Type: t, Args: []*Node{x}, Pos: n.Pos})
}

// foldNode replaces a node whose operands are all constants by its value.
func foldNode(n *Node) *Node {
	for _, a := range n.Args {
		if a.Op != OpConst {
			return n
		}
	}
	if len(n.Args) == 0 {
		return n
	}
	return &Node{Op: OpConst, Type: n.Type, Const: fold(n), Pos: n.Pos}
}

func fold(n *Node) uint64 { return compileExpr(n)(nil) }
