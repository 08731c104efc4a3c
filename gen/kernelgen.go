package gen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// Widths of the built-in inputs in hardware.
const (
	SuperstepBits = 32 // level_in: the superstep number
	DegreeBits    = 32 // degree_in / num_neighbors_in: an out-degree
)

// Port is one port of a generated kernel module.
type Port struct {
	Name   string
	Width  int
	Output bool
	Doc    string
}

// KernelModule is a generated kernel: its Verilog and its interface.
type KernelModule struct {
	Name    string // module name, "<kernel>_<program>"
	Program string // "gather", "apply" or "scatter"
	Latency int    // cycles from input to output (kernel.CheckedProgram.Latency)
	Ports   []Port
	Verilog string
}

// netlist builds one pipelined module body.
type netlist struct {
	decl    []string // wire and reg declarations
	body    []string // assigns, instances, always blocks
	nextID  int
	delays  map[string]string // "sig@stage" -> name of the delayed signal
	stageOf map[string]int    // signal -> stage its value belongs to
	widths  map[string]int
	inputs  map[kernel.RefKind]func(idx int) string
	locals  []string
	units   int
}

func newNetlist() *netlist {
	return &netlist{delays: map[string]string{}, stageOf: map[string]int{}, widths: map[string]int{}}
}

func (n *netlist) wire(prefix string, w int) string {
	name := fmt.Sprintf("%s%d", prefix, n.nextID)
	n.nextID++
	n.decl = append(n.decl, fmt.Sprintf("wire %s%s;", vrange(w), name))
	n.widths[name] = w
	return name
}

func vrange(w int) string {
	if w == 1 {
		return ""
	}
	return fmt.Sprintf("[%d:0] ", w-1)
}

// at returns signal sig delayed to stage s, building a register chain
// that advances with ce.
func (n *netlist) at(sig string, s int) string {
	from := n.stageOf[sig]
	if s <= from {
		return sig
	}
	key := fmt.Sprintf("%s@%d", sig, s)
	if d, ok := n.delays[key]; ok {
		return d
	}
	prev := n.at(sig, s-1)
	w := n.widths[sig]
	name := fmt.Sprintf("%s_d%d", sig, s-from)
	n.decl = append(n.decl, fmt.Sprintf("reg  %s%s;", vrange(w), name))
	n.body = append(n.body, fmt.Sprintf("always @(posedge clk) if (ce) %s <= %s;", name, prev))
	n.delays[key] = name
	n.stageOf[name] = s
	n.widths[name] = w
	return name
}

// input declares a stage-0 signal (a port).
func (n *netlist) input(name string, w int) string {
	n.stageOf[name] = 0
	n.widths[name] = w
	return name
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

// expr emits node x and returns its signal and the stage it is valid at.
func (n *netlist) expr(x *kernel.Node) (string, int) {
	w := max(x.Type.Width, 1)
	switch x.Op {
	case kernel.OpConst:
		name := n.wire("c", w)
		n.body = append(n.body, fmt.Sprintf("assign %s = %s;", name, lit(x.Const, x.Type)))
		n.stageOf[name] = 0
		return name, 0
	case kernel.OpRef:
		if x.Ref == kernel.RefLocal {
			s := n.locals[x.Index]
			return s, n.stageOf[s]
		}
		s := n.inputs[x.Ref](x.Index)
		return s, 0
	}
	args := make([]string, len(x.Args))
	stage := 0
	for i, a := range x.Args {
		s, st := n.expr(a)
		args[i] = s
		stage = max(stage, st)
	}
	for i := range args {
		args[i] = n.at(args[i], stage)
	}
	lat := kernel.OpLatency(x)
	out := n.wire("n", w)
	n.stageOf[out] = stage + lat
	floatIn := len(x.Args) > 0 && x.Args[0].Type.Float
	if lat > 0 {
		n.unit(x, out, args)
		return out, stage + lat
	}
	var e string
	a := func(i int) string { return args[i] }
	switch x.Op {
	case kernel.OpCast:
		from := x.Args[0].Type
		switch {
		case from.Float == x.Type.Float && x.Type.Width >= from.Width:
			if x.Type.Width == from.Width {
				e = a(0)
			} else {
				e = fmt.Sprintf("{%d'd0, %s}", x.Type.Width-from.Width, a(0))
			}
		default:
			e = fmt.Sprintf("%s[%d:0]", a(0), x.Type.Width-1)
		}
	case kernel.OpNeg:
		if floatIn {
			e = fmt.Sprintf("{~%s[31], %s[30:0]}", a(0), a(0))
		} else {
			e = fmt.Sprintf("-%s", a(0))
		}
	case kernel.OpAbs:
		e = fmt.Sprintf("{1'b0, %s[30:0]}", a(0))
	case kernel.OpNot:
		e = fmt.Sprintf("(%s == %d'd0)", a(0), n.widths[args[0]])
	case kernel.OpBitNot:
		e = "~" + a(0)
	case kernel.OpLAnd, kernel.OpLOr:
		op := "&&"
		if x.Op == kernel.OpLOr {
			op = "||"
		}
		e = fmt.Sprintf("(|%s) %s (|%s)", a(0), op, a(1))
	case kernel.OpCond:
		e = fmt.Sprintf("(|%s) ? %s : %s", a(0), a(1), a(2))
	case kernel.OpMin:
		e = fmt.Sprintf("(%s < %s) ? %s : %s", a(0), a(1), a(0), a(1))
	case kernel.OpMax:
		e = fmt.Sprintf("(%s > %s) ? %s : %s", a(0), a(1), a(0), a(1))
	case kernel.OpSatAdd:
		// The sum one bit wider: its carry means the sum does not fit.
		sum := n.wire("sat", w+1)
		n.body = append(n.body, fmt.Sprintf("assign %s = {1'b0, %s} + {1'b0, %s};", sum, a(0), a(1)))
		n.stageOf[sum] = stage
		e = fmt.Sprintf("%s[%d] ? {%d{1'b1}} : %s[%d:0]", sum, w, w, sum, w-1)
	case kernel.OpDiv:
		e = fmt.Sprintf("(%s == %d'd0) ? {%d{1'b1}} : %s / %s", a(1), w, w, a(0), a(1))
	case kernel.OpRem:
		e = fmt.Sprintf("(%s == %d'd0) ? %s : %s %% %s", a(1), w, a(0), a(0), a(1))
	case kernel.OpShl, kernel.OpShr:
		op := "<<"
		if x.Op == kernel.OpShr {
			op = ">>"
		}
		e = fmt.Sprintf("%s %s %s", a(0), op, a(1))
	default:
		ops := map[kernel.Op]string{kernel.OpAdd: "+", kernel.OpSub: "-", kernel.OpMul: "*", kernel.OpAnd: "&", kernel.OpOr: "|",
			kernel.OpXor: "^", kernel.OpEq: "==", kernel.OpNe: "!=", kernel.OpLt: "<", kernel.OpLe: "<=", kernel.OpGt: ">", kernel.OpGe: ">="}
		op, ok := ops[x.Op]
		if !ok {
			panic("gen: no Verilog for " + x.Op.String())
		}
		e = fmt.Sprintf("%s %s %s", a(0), op, a(1))
	}
	n.body = append(n.body, fmt.Sprintf("assign %s = %s;", out, e))
	return out, stage
}

// unit instantiates a pipelined f32 library unit for node x.
func (n *netlist) unit(x *kernel.Node, out string, args []string) {
	inst := fmt.Sprintf("u%d", n.units)
	n.units++
	conn := func(m string, params string, ports ...string) {
		n.body = append(n.body, fmt.Sprintf("%s%s %s (\n    .clk(clk), .ce(ce), %s, .y(%s)\n);", m, params, inst, strings.Join(ports, ", "), out))
	}
	switch x.Op {
	case kernel.OpAdd, kernel.OpSub:
		sub := "1'b0"
		if x.Op == kernel.OpSub {
			sub = "1'b1"
		}
		conn("gravf_fadd", "", ".a("+args[0]+")", ".b("+args[1]+")", ".sub("+sub+")")
	case kernel.OpMul:
		conn("gravf_fmul", "", ".a("+args[0]+")", ".b("+args[1]+")")
	case kernel.OpDiv:
		conn("gravf_fdiv", "", ".a("+args[0]+")", ".b("+args[1]+")")
	case kernel.OpMin, kernel.OpMax, kernel.OpEq, kernel.OpNe, kernel.OpLt, kernel.OpLe, kernel.OpGt, kernel.OpGe:
		mod := map[kernel.Op]string{kernel.OpMin: "gravf_fmin", kernel.OpMax: "gravf_fmax", kernel.OpEq: "gravf_feq", kernel.OpNe: "gravf_fne",
			kernel.OpLt: "gravf_flt", kernel.OpLe: "gravf_fle", kernel.OpGt: "gravf_fgt", kernel.OpGe: "gravf_fge"}[x.Op]
		conn(mod, "", ".a("+args[0]+")", ".b("+args[1]+")")
	case kernel.OpCast:
		if x.Type.Float {
			conn("gravf_u2f", fmt.Sprintf(" #(.W(%d))", x.Args[0].Type.Width), ".a("+args[0]+")")
		} else {
			conn("gravf_f2u", fmt.Sprintf(" #(.W(%d))", x.Type.Width), ".a("+args[0]+")")
		}
	default:
		panic("gen: no f32 unit for " + x.Op.String())
	}
}

// GenerateKernel generates the Verilog module of one program of a bound
// kernel ("gather", "apply" or "scatter"), with the ports of the GraVF-M
// kernel interface.
func GenerateKernel(k *kernel.Kernel, program string) (*KernelModule, error) {
	c := k.Checked
	s := k.Spec
	var prog *kernel.CheckedProgram
	switch program {
	case "gather":
		prog = c.Gather
	case "apply":
		prog = c.Apply
	case "scatter":
		prog = c.Scatter
	default:
		return nil, fmt.Errorf("unknown program %q", program)
	}
	vid := c.VertexIDBits
	m := &KernelModule{Name: s.Ident() + "_" + program, Program: program}
	n := newNetlist()
	in := func(name string, w int, doc string) string {
		m.Ports = append(m.Ports, Port{Name: name, Width: w, Doc: doc})
		return n.input(name, w)
	}
	out := func(name string, w int, doc string) {
		m.Ports = append(m.Ports, Port{Name: name, Width: w, Output: true, Doc: doc})
	}
	fields := func(prefix string, l kernel.Layout, ts []kernel.Type, doc string) []string {
		var names []string
		for i, f := range l {
			names = append(names, in(prefix+f.Name, ts[i].Width, doc+" "+f.Name))
		}
		return names
	}
	n.inputs = map[kernel.RefKind]func(int) string{}
	level := in("level_in", SuperstepBits, "the current superstep")
	n.inputs[kernel.RefSuperstep] = func(int) string { return level }
	var stateIn, msgIn, updIn, edgeIn, globIn []string
	switch program {
	case "gather":
		node := in("nodeid_in", vid, "the destination vertex")
		sender := in("sender_in", vid, "the vertex that sent the message")
		msgIn = fields("message_in_", s.Message, c.MessageT, "message field")
		stateIn = fields("state_in_", s.Vertex, c.VertexT, "vertex state field")
		n.inputs[kernel.RefID] = func(int) string { return node }
		n.inputs[kernel.RefSender] = func(int) string { return sender }
	case "apply":
		node := in("nodeid_in", vid, "the vertex being applied")
		deg := in("degree_in", DegreeBits, "its out-degree")
		stateIn = fields("state_in_", s.Vertex, c.VertexT, "vertex state field")
		in("round_in", 2, "the superstep channel")
		in("barrier_in", 1, "a barrier marker rides with this input")
		globIn = fields("global_in_", s.Global, c.GlobalT, "global (the last superstep's reduction)")
		n.inputs[kernel.RefID] = func(int) string { return node }
		n.inputs[kernel.RefDegree] = func(int) string { return deg }
		n.inputs[kernel.RefGlobal] = func(i int) string { return globIn[i] }
	case "scatter":
		updIn = fields("update_in_", s.Update, c.UpdateT, "update field")
		sender := in("sender_in", vid, "the vertex that issued the update")
		in("round_in", 2, "the superstep channel")
		in("barrier_in", 1, "a barrier marker rides with this input")
		nb := in("neighbor_in", vid, "the destination of this edge")
		deg := in("num_neighbors_in", DegreeBits, "the sender's out-degree")
		edgeIn = fields("edge_in_", s.Edge, c.EdgeT, "edge field")
		n.inputs[kernel.RefSender] = func(int) string { return sender }
		n.inputs[kernel.RefNeighbor] = func(int) string { return nb }
		n.inputs[kernel.RefDegree] = func(int) string { return deg }
	}
	in("valid_in", 1, "the inputs hold an operation")
	n.inputs[kernel.RefState] = func(i int) string { return stateIn[i] }
	n.inputs[kernel.RefMsg] = func(i int) string { return msgIn[i] }
	n.inputs[kernel.RefUpdate] = func(i int) string { return updIn[i] }
	n.inputs[kernel.RefEdge] = func(i int) string { return edgeIn[i] }

	if prog == nil {
		// scatter of a kernel whose message is the update: a copy.
		prog = &kernel.CheckedProgram{Name: program}
		for i := range s.Message {
			prog.Stmts = append(prog.Stmts, kernel.Stmt{Kind: kernel.TargetMessage, Index: i,
				Value: &kernel.Node{Op: kernel.OpRef, Ref: kernel.RefUpdate, Index: i, Type: c.MessageT[i]}})
		}
	}
	m.Latency = prog.Latency()
	depth := m.Latency - 1 // stage of the last computation; one output register follows
	// Evaluate statements; assignments read the inputs (old state).
	n.locals = make([]string, len(prog.Locals))
	assigned := map[string]string{}
	for _, st := range prog.Stmts {
		sig, _ := n.expr(st.Value)
		switch st.Kind {
		case kernel.TargetLocal:
			n.locals[st.Index] = sig
		case kernel.TargetState:
			assigned[fmt.Sprintf("state_out_%s", s.Vertex[st.Index].Name)] = sig
		case kernel.TargetUpdate:
			assigned[fmt.Sprintf("update_out_%s", s.Update[st.Index].Name)] = sig
		case kernel.TargetMessage:
			assigned[fmt.Sprintf("message_out_%s", s.Message[st.Index].Name)] = sig
		case kernel.TargetSend:
			assigned["send"] = sig
		case kernel.TargetGlobal:
			assigned["global_out_"+s.Global[st.Index].Name] = sig
		}
	}
	type outSig struct {
		port, src string
		w         int
		doc       string
	}
	var outs []outSig
	pass := func(port, src string, w int, doc string) { outs = append(outs, outSig{port, src, w, doc}) }
	switch program {
	case "gather":
		pass("nodeid_out", "nodeid_in", vid, "the vertex to write back")
		for i, f := range s.Vertex {
			src := stateIn[i]
			if a, ok := assigned["state_out_"+f.Name]; ok {
				src = a
			}
			pass("state_out_"+f.Name, src, c.VertexT[i].Width, "new state field "+f.Name)
		}
	case "apply":
		pass("nodeid_out", "nodeid_in", vid, "the vertex to write back and the update's sender")
		for i, f := range s.Vertex {
			src := stateIn[i]
			if a, ok := assigned["state_out_"+f.Name]; ok {
				src = a
			}
			pass("state_out_"+f.Name, src, c.VertexT[i].Width, "new state field "+f.Name)
		}
		for i, f := range s.Update {
			pass("update_out_"+f.Name, assigned["update_out_"+f.Name], c.UpdateT[i].Width, "update field "+f.Name)
		}
		ident := k.GlobalIdentity()
		for i, f := range s.Global {
			src, ok := assigned["global_out_"+f.Name]
			if !ok {
				// A vertex that does not contribute gives the identity.
				src, _ = n.expr(&kernel.Node{Op: kernel.OpConst, Type: c.GlobalT[i], Const: ident[i]})
			}
			pass("global_out_"+f.Name, src, c.GlobalT[i].Width, "this vertex's contribution to global "+f.Name)
		}
		pass("send_q", assigned["send"], 1, "")
		pass("round_q", "round_in", 2, "")
		pass("barrier_q", "barrier_in", 1, "")
	case "scatter":
		for i, f := range s.Message {
			pass("message_out_"+f.Name, assigned["message_out_"+f.Name], c.MessageT[i].Width, "message field "+f.Name)
		}
		pass("neighbor_out", "neighbor_in", vid, "the message's destination")
		pass("sender_out", "sender_in", vid, "the message's sender")
		pass("round_out", "round_in", 2, "the superstep channel")
		pass("barrier_out", "barrier_in", 1, "a barrier marker rides with this output")
	}
	// Output registers.
	var regs []string
	for _, o := range outs {
		if _, ok := n.widths[o.src]; !ok {
			n.widths[o.src], n.stageOf[o.src] = o.w, 0
		}
		src := n.at(o.src, depth)
		reg := o.port
		if !strings.HasSuffix(o.port, "_q") {
			reg = o.port + "_q"
			out(o.port, o.w, o.doc)
		}
		n.decl = append(n.decl, fmt.Sprintf("reg  %s%s;", vrange(o.w), reg))
		regs = append(regs, fmt.Sprintf("        %s <= %s;", reg, src))
	}
	// Valid pipeline.
	vq := "valid_q"
	n.decl = append(n.decl, fmt.Sprintf("reg  %s; // the output registers hold an operation", vq))
	// The valid bits get their own shift register with reset, so no
	// undefined value ever looks like an operation.
	vAt := "valid_in"
	if depth > 0 {
		n.decl = append(n.decl, fmt.Sprintf("reg  [%d:0] valid_sr; // valid_in delayed to each stage", depth-1))
		shift := "valid_in"
		if depth > 1 {
			shift = fmt.Sprintf("{valid_sr[%d:0], valid_in}", depth-2)
		}
		n.body = append(n.body, fmt.Sprintf("always @(posedge clk) if (rst) valid_sr <= %d'd0; else if (ce) valid_sr <= %s;", depth, shift))
		vAt = fmt.Sprintf("valid_sr[%d]", depth-1)
	}
	var hs []string
	switch program {
	case "gather":
		out("state_valid", 1, "the output holds a state to write back")
		in("state_ack", 1, "the write-back was taken")
		hs = append(hs, "assign state_valid = valid_q;", "assign ce = !valid_q || state_ack;")
	case "apply":
		out("state_barrier", 1, "a barrier marker rides with this output")
		out("state_valid", 1, "the state output is valid this cycle (always taken)")
		out("update_sender", vid, "the update's sender")
		out("update_round", 2, "the update's superstep channel")
		out("barrier_out", 1, "a barrier marker rides with the update output")
		out("update_valid", 1, "the update output holds an update")
		in("update_ack", 1, "the update was taken")
		hs = append(hs,
			"// The state write-back leaves as the pipeline advances; the update",
			"// waits for update_ack, and the pipeline with it.",
			"assign update_valid  = valid_q && (send_q || barrier_q);",
			"assign ce            = !update_valid || update_ack;",
			"assign state_valid   = valid_q && ce;",
			"assign state_barrier = barrier_q;",
			"assign barrier_out   = barrier_q;",
			"assign update_sender = nodeid_out;",
			"assign update_round  = round_q;")
	case "scatter":
		out("valid_out", 1, "the output holds a message")
		in("message_ack", 1, "the message was taken")
		hs = append(hs, "assign valid_out = valid_q;", "assign ce = !valid_q || message_ack;")
	}
	out("ready", 1, "the kernel takes an input this cycle")
	in("clk", 1, "")
	in("rst", 1, "synchronous reset")
	m.Verilog = render(m, n, regs, vAt, hs)
	return m, nil
}

func render(m *KernelModule, n *netlist, regs []string, vAt string, hs []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "// Code generated by gravf-tui from the kernel spec. DO NOT EDIT.\n//\n")
	fmt.Fprintf(&b, "// %s: the %s kernel, fully pipelined, latency %d cycle(s).\n", m.Name, m.Program, m.Latency)
	fmt.Fprintf(&b, "// Handshake: an input is taken when valid_in && ready; the pipeline\n")
	fmt.Fprintf(&b, "// advances (ce) whenever its output register is empty or being taken,\n")
	fmt.Fprintf(&b, "// so a result stays on the outputs until it is acknowledged.\n")
	fmt.Fprintf(&b, "`default_nettype none\n\nmodule %s (\n", m.Name)
	ports := append([]Port(nil), m.Ports...)
	sort.SliceStable(ports, func(i, j int) bool { return portRank(ports[i]) < portRank(ports[j]) })
	used := strings.Join(n.body, "\n") + "\n" + strings.Join(regs, "\n") + "\n" + vAt + "\n" + strings.Join(hs, "\n")
	for i, p := range ports {
		dir := "input  wire"
		if p.Output {
			dir = "output wire"
		}
		sep := ","
		if i == len(ports)-1 {
			sep = ""
		}
		comment := ""
		if p.Doc != "" {
			comment = " // " + p.Doc
		}
		unused := !p.Output && p.Name != "clk" && p.Name != "rst" && !usesWord(used, p.Name)
		if unused {
			b.WriteString("    /* verilator lint_off UNUSEDSIGNAL */ // the kernel interface is fixed; this kernel does not read it\n")
		}
		fmt.Fprintf(&b, "    %s %s%s%s%s\n", dir, vrange(p.Width), p.Name, sep, comment)
		if unused {
			b.WriteString("    /* verilator lint_on UNUSEDSIGNAL */\n")
		}
	}
	b.WriteString(");\n\n")
	b.WriteString("wire ce; // pipeline enable\n")
	for _, d := range n.decl {
		b.WriteString(d + "\n")
	}
	b.WriteString("\n")
	for _, x := range n.body {
		b.WriteString(x + "\n")
	}
	b.WriteString("\nalways @(posedge clk) begin\n    if (rst) begin\n        valid_q <= 1'b0;\n    end else if (ce) begin\n")
	fmt.Fprintf(&b, "        valid_q <= %s;\n", vAt)
	b.WriteString("    end\n    if (ce) begin\n")
	for _, r := range regs {
		b.WriteString(r + "\n")
	}
	b.WriteString("    end\nend\n\n")
	for _, p := range m.Ports {
		if p.Output && hasReg(regs, p.Name+"_q") {
			fmt.Fprintf(&b, "assign %s = %s_q;\n", p.Name, p.Name)
		}
	}
	for _, h := range hs {
		b.WriteString(h + "\n")
	}
	b.WriteString("assign ready = ce;\n\nendmodule\n\n`default_nettype wire\n")
	return b.String()
}

// usesWord reports whether name occurs in text as a whole identifier.
func usesWord(text, name string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		before := j == 0 || !isIdent(text[j-1])
		after := end == len(text) || !isIdent(text[end])
		if before && after {
			return true
		}
		i = end
	}
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func hasReg(regs []string, name string) bool {
	for _, r := range regs {
		if strings.HasPrefix(strings.TrimSpace(r), name+" <=") {
			return true
		}
	}
	return false
}

func portRank(p Port) int {
	switch {
	case p.Name == "clk":
		return 0
	case p.Name == "rst":
		return 1
	case !p.Output:
		return 2
	}
	return 3
}
