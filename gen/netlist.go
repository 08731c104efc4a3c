package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// A kernel's netlist is the small IR between a kernel program and its
// Verilog. The program's expression trees become signals, each valid at a
// pipeline stage (the cycle, counted from the input, at which its value is
// there): inputs at stage 0, combinational logic at the stage of its
// latest operand, a pipelined f32 unit its latency later. Passes then
// align every use to its stage (delayPass: constants are never delayed,
// and a signal needed at several later stages gets one delay line with a
// tap per stage), drop what no output needs (prune), and the printer
// writes the module, each node under a comment with the kernel.toml line
// it implements.

// sigKind says what drives a signal.
type sigKind uint8

const (
	sigInput sigKind = iota // a port of the kernel interface (stage 0)
	sigConst                // a constant: written as a literal, valid at every stage
	sigLogic                // combinational logic over its operands, in their stage
	sigUnit                 // a pipelined f32 unit: valid arch.OpLatency stages after its operands
	sigTap                  // a delay-line tap: from, delayed by stages
)

// signal is one value of a kernel's netlist.
type signal struct {
	kind  sigKind
	name  string
	width int
	stage int
	node  *kernel.Node // const, logic, unit: the expression node
	args  []*signal    // logic, unit: the operands as the node reads them (after delayPass, at its stage)
	src   *srcLine     // the kernel.toml line that made it (nil: the interface)
	from  *signal      // tap: the signal it delays ...
	by    int          // ... by this many stages
	reset bool         // tap: the delay line clears on rst (valid bits)
	used  bool
}

// srcLine is a line of kernel.toml that a statement came from.
type srcLine struct {
	file string
	num  int
	text string
}

func (l *srcLine) String() string { return fmt.Sprintf("%s:%d: %s", l.file, l.num, l.text) }

// output is one output port and the signal that drives it, at the
// kernel's latency.
type output struct {
	port  string
	sig   *signal
	width int
	doc   string
}

// netlist is a kernel program's signals, in creation order.
type netlist struct {
	sigs    []*signal
	outputs []output
	latency int
	// inputs resolves an input reference of the program to its port.
	inputs map[kernel.RefKind]func(idx int) *signal
	locals []*signal
	cur    *srcLine
	count  int
}

func (n *netlist) add(s *signal) *signal {
	s.src = n.cur
	n.sigs = append(n.sigs, s)
	return s
}

// input declares a port as a stage-0 signal.
func (n *netlist) input(name string, w int) *signal {
	return n.add(&signal{kind: sigInput, name: name, width: w})
}

// build adds the signals of an expression and returns its root.
func (n *netlist) build(x *kernel.Node) *signal {
	switch x.Op {
	case kernel.OpConst:
		return n.add(&signal{kind: sigConst, node: x, width: max(x.Type.Width, 1)})
	case kernel.OpRef:
		if x.Ref == kernel.RefLocal {
			return n.locals[x.Index]
		}
		return n.inputs[x.Ref](x.Index)
	}
	s := &signal{kind: sigLogic, node: x, width: max(x.Type.Width, 1)}
	for _, a := range x.Args {
		arg := n.build(a)
		s.args = append(s.args, arg)
		if arg.kind != sigConst {
			s.stage = max(s.stage, arg.stage)
		}
	}
	if lat := arch.OpLatency(x); lat > 0 {
		s.kind = sigUnit
		s.stage += lat
	}
	n.count++
	s.name = fmt.Sprintf("t%d", n.count)
	return n.add(s)
}

// useStage is the stage at which a signal reads its operands.
func (s *signal) useStage() int {
	if s.kind == sigUnit {
		return s.stage - arch.OpLatency(s.node)
	}
	return s.stage
}

// delayPass aligns every operand and output to the stage it is read at:
// a constant is used as it is; a signal needed later is read from a tap of
// its delay line, one line per signal with a tap per stage needed, each
// tap delaying the previous one.
func (n *netlist) delayPass() {
	need := map[*signal][]int{}
	note := func(s *signal, at int) {
		if s.kind != sigConst && at > s.stage && !slices.Contains(need[s], at) {
			need[s] = append(need[s], at)
		}
	}
	for _, s := range n.sigs {
		for _, a := range s.args {
			note(a, s.useStage())
		}
	}
	for _, o := range n.outputs {
		note(o.sig, n.latency)
	}
	taps := map[*signal]map[int]*signal{}
	for _, s := range slices.Clone(n.sigs) {
		stages := need[s]
		if len(stages) == 0 {
			continue
		}
		slices.Sort(stages)
		taps[s] = map[int]*signal{}
		prev := s
		for _, at := range stages {
			t := &signal{kind: sigTap, name: fmt.Sprintf("%s_d%d", s.name, at-s.stage), width: s.width, stage: at, from: prev, by: at - prev.stage, src: s.src}
			n.sigs = append(n.sigs, t)
			taps[s][at] = t
			prev = t
		}
	}
	at := func(s *signal, stage int) *signal {
		if t, ok := taps[s][stage]; ok {
			return t
		}
		return s
	}
	for _, s := range n.sigs {
		for i, a := range s.args {
			s.args[i] = at(a, s.useStage())
		}
	}
	for i, o := range n.outputs {
		n.outputs[i].sig = at(o.sig, n.latency)
	}
}

// validLine adds the delay line that carries valid_in to the outputs, with
// a reset so that no undefined value ever looks like an operation.
func (n *netlist) validLine(valid *signal) *signal {
	if n.latency == 0 {
		return valid
	}
	t := &signal{kind: sigTap, name: "valid_q", width: 1, stage: n.latency, from: valid, by: n.latency, reset: true}
	n.sigs = append(n.sigs, t)
	return t
}

// prune marks what the outputs need and drops the rest.
func (n *netlist) prune(extra ...*signal) {
	var mark func(s *signal)
	mark = func(s *signal) {
		if s.used {
			return
		}
		s.used = true
		for _, a := range s.args {
			mark(a)
		}
		if s.from != nil {
			mark(s.from)
		}
	}
	for _, o := range n.outputs {
		mark(o.sig)
	}
	for _, s := range extra {
		mark(s)
	}
	kept := n.sigs[:0]
	for _, s := range n.sigs {
		if s.used || s.kind == sigInput {
			kept = append(kept, s)
		}
	}
	n.sigs = kept
}

// ref is how an operand reads in an expression: a literal for a
// constant, else the signal's name.
func (s *signal) ref() string {
	if s.kind == sigConst {
		return lit(s.node.Const, s.node.Type)
	}
	return s.name
}

func lit(v uint64, t kernel.Type) string {
	if t.Float {
		return fmt.Sprintf("32'h%08x", uint32(v))
	}
	w := t.Width
	if w <= 0 {
		w = 64
	}
	return fmt.Sprintf("%d'd%d", w, v&t.Mask())
}

// logicExpr is the Verilog expression of a combinational node.
func (s *signal) logicExpr() (string, error) {
	x, w := s.node, s.width
	a := func(i int) string { return s.args[i].ref() }
	floatIn := len(x.Args) > 0 && x.Args[0].Type.Float
	switch x.Op {
	case kernel.OpCast:
		from := x.Args[0].Type
		switch {
		case from.Float == x.Type.Float && x.Type.Width == from.Width:
			return a(0), nil
		case from.Float == x.Type.Float && x.Type.Width > from.Width:
			return fmt.Sprintf("{%d'd0, %s}", x.Type.Width-from.Width, a(0)), nil
		}
		return fmt.Sprintf("%s[%d:0]", a(0), x.Type.Width-1), nil
	case kernel.OpNeg:
		if floatIn {
			return fmt.Sprintf("{~%s[31], %s[30:0]}", a(0), a(0)), nil
		}
		return "-" + a(0), nil
	case kernel.OpAbs:
		return fmt.Sprintf("{1'b0, %s[30:0]}", a(0)), nil
	case kernel.OpNot:
		return fmt.Sprintf("(%s == %d'd0)", a(0), s.args[0].width), nil
	case kernel.OpBitNot:
		return "~" + a(0), nil
	case kernel.OpLAnd:
		return fmt.Sprintf("(|%s) && (|%s)", a(0), a(1)), nil
	case kernel.OpLOr:
		return fmt.Sprintf("(|%s) || (|%s)", a(0), a(1)), nil
	case kernel.OpCond:
		return fmt.Sprintf("(|%s) ? %s : %s", a(0), a(1), a(2)), nil
	case kernel.OpMin:
		return fmt.Sprintf("(%s < %s) ? %s : %s", a(0), a(1), a(0), a(1)), nil
	case kernel.OpMax:
		return fmt.Sprintf("(%s > %s) ? %s : %s", a(0), a(1), a(0), a(1)), nil
	case kernel.OpSatAdd:
		// The sum wraps around exactly when it is below an operand.
		return fmt.Sprintf("(%s + %s < %s) ? {%d{1'b1}} : %s + %s", a(0), a(1), a(0), w, a(0), a(1)), nil
	case kernel.OpDiv:
		return fmt.Sprintf("(%s == %d'd0) ? {%d{1'b1}} : %s / %s", a(1), w, w, a(0), a(1)), nil
	case kernel.OpRem:
		return fmt.Sprintf("(%s == %d'd0) ? %s : %s %% %s", a(1), w, a(0), a(0), a(1)), nil
	}
	op, ok := binaryOps[x.Op]
	if !ok {
		return "", fmt.Errorf("gen: no Verilog for %s", x.Op)
	}
	return fmt.Sprintf("%s %s %s", a(0), op, a(1)), nil
}

var binaryOps = map[kernel.Op]string{kernel.OpAdd: "+", kernel.OpSub: "-", kernel.OpMul: "*", kernel.OpAnd: "&", kernel.OpOr: "|",
	kernel.OpXor: "^", kernel.OpEq: "==", kernel.OpNe: "!=", kernel.OpLt: "<", kernel.OpLe: "<=", kernel.OpGt: ">", kernel.OpGe: ">=",
	kernel.OpShl: "<<", kernel.OpShr: ">>"}

// unitInstance is the f32 library unit of a node: its module, parameter
// values and operand connections.
func (s *signal) unitInstance() (module string, params []vparam, conns []conn, err error) {
	x := s.node
	ab := func() []conn { return []conn{{"a", s.args[0].ref()}, {"b", s.args[1].ref()}} }
	switch x.Op {
	case kernel.OpAdd, kernel.OpSub:
		sub := "1'b0"
		if x.Op == kernel.OpSub {
			sub = "1'b1"
		}
		return "gravf_fadd", nil, append(ab(), conn{"sub", sub}), nil
	case kernel.OpMul:
		return "gravf_fmul", nil, ab(), nil
	case kernel.OpDiv:
		return "gravf_fdiv", nil, ab(), nil
	case kernel.OpCast:
		if x.Type.Float {
			return "gravf_u2f", []vparam{{name: "W", value: fmt.Sprint(x.Args[0].Type.Width)}}, []conn{{"a", s.args[0].ref()}}, nil
		}
		return "gravf_f2u", []vparam{{name: "W", value: fmt.Sprint(x.Type.Width)}}, []conn{{"a", s.args[0].ref()}}, nil
	}
	if m, ok := compareUnits[x.Op]; ok {
		return m, nil, ab(), nil
	}
	return "", nil, nil, fmt.Errorf("gen: no f32 unit for %s", x.Op)
}

var compareUnits = map[kernel.Op]string{kernel.OpMin: "gravf_fmin", kernel.OpMax: "gravf_fmax", kernel.OpEq: "gravf_feq", kernel.OpNe: "gravf_fne",
	kernel.OpLt: "gravf_flt", kernel.OpLe: "gravf_fle", kernel.OpGt: "gravf_fgt", kernel.OpGe: "gravf_fge"}

// printBody writes the netlist's signals: their declarations, then their
// logic, unit instances and delay lines, grouped under the kernel.toml line
// they implement.
func (n *netlist) printBody(p *printer) {
	for _, s := range n.sigs {
		if s.kind == sigLogic || s.kind == sigUnit || s.kind == sigTap {
			p.Linef("wire %s%s;", vrange(s.width), s.name)
		}
	}
	var last *srcLine
	comment := func(s *signal) {
		if s.src != last && s.src != nil {
			p.NL()
			p.Comment(s.src.String())
		}
		last = s.src
	}
	for _, s := range n.sigs {
		switch s.kind {
		case sigLogic:
			comment(s)
			e, err := s.logicExpr()
			if err != nil {
				p.Errorf("%v", err)
			}
			p.Linef("assign %s = %s;", s.name, e)
		case sigUnit:
			comment(s)
			m, params, conns, err := s.unitInstance()
			if err != nil {
				p.Errorf("%v", err)
			}
			p.Instance(m, params, s.name+"_unit", append(append([]conn{{"clk", "clk"}, {"ce", "ce"}}, conns...), conn{"y", s.name}))
		}
	}
	first := true
	for _, s := range n.sigs {
		if s.kind != sigTap {
			continue
		}
		if first {
			p.NL()
			p.Comment("Delay lines: every value read later than it is ready, and valid_in (cleared", "on reset) beside the outputs.")
			first = false
		}
		params := []vparam{{name: "WIDTH", value: fmt.Sprint(s.width)}, {name: "DELAY", value: fmt.Sprint(s.by)}}
		if s.reset {
			params = append(params, vparam{name: "RESET", value: "1"})
		}
		p.Instance("gravf_delay", params, s.name+"_line", []conn{{"clk", "clk"}, {"rst", "rst"}, {"ce", "ce"}, {"in", s.from.ref()}, {"out", s.name}})
	}
}

// usesInput reports whether a used signal or an output reads the port.
func (n *netlist) usesInput(name string) bool {
	for _, s := range n.sigs {
		for _, a := range s.args {
			if a.name == name && a.kind == sigInput {
				return true
			}
		}
		if s.from != nil && s.from.kind == sigInput && s.from.name == name {
			return true
		}
	}
	for _, o := range n.outputs {
		if o.sig.kind == sigInput && o.sig.name == name {
			return true
		}
	}
	return false
}

// stmtLine finds the kernel.toml line of a statement of a program.
func stmtLine(prog *kernel.Program, st kernel.Stmt) *srcLine {
	if prog == nil || st.Pos.Line < prog.Pos.Line {
		return nil
	}
	lines := strings.Split(prog.Text, "\n")
	i := st.Pos.Line - prog.Pos.Line
	if i >= len(lines) {
		return nil
	}
	file := st.Pos.File
	if j := strings.LastIndexAny(file, `/\`); j >= 0 {
		file = file[j+1:]
	}
	return &srcLine{file: file, num: st.Pos.Line, text: strings.TrimSpace(lines[i])}
}
