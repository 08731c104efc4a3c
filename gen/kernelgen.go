package gen

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
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
	Latency int    // cycles from input to output (arch.Latency)
	Ports   []Port
	Verilog string
}

// kernelBuilder builds the netlist and the ports of one kernel module.
type kernelBuilder struct {
	k    *kernel.Kernel
	m    *KernelModule
	n    *netlist
	port map[string]*signal
	// internal are outputs that stay inside the module (apply's send,
	// round and barrier at the output stage).
	internal []output
}

func (b *kernelBuilder) in(name string, w int, doc string) *signal {
	b.m.Ports = append(b.m.Ports, Port{Name: name, Width: w, Doc: doc})
	s := b.n.input(name, w)
	b.port[name] = s
	return s
}

func (b *kernelBuilder) out(name string, w int, doc string) {
	b.m.Ports = append(b.m.Ports, Port{Name: name, Width: w, Output: true, Doc: doc})
}

// fields declares one input port per field of a layout.
func (b *kernelBuilder) fields(prefix string, l kernel.Layout, ts []kernel.Type, doc string) []*signal {
	var out []*signal
	for i, f := range l {
		out = append(out, b.in(prefix+f.Name, ts[i].Width, doc+" "+f.Name))
	}
	return out
}

// inputs declares the program's input ports (the GraVF-M kernel
// interface) and what the program's references read.
func (b *kernelBuilder) inputs(program string) {
	k, n := b.k, b.n
	c, s, vid := k.Checked, k.Spec, k.Checked.VertexIDBits
	var state, msg, upd, edge, glob []*signal
	level := b.in("level_in", arch.SuperstepBits, "the current superstep")
	n.inputs = map[kernel.RefKind]func(int) *signal{kernel.RefSuperstep: func(int) *signal { return level }}
	switch program {
	case "gather":
		node := b.in("nodeid_in", vid, "the destination vertex")
		sender := b.in("sender_in", vid, "the vertex that sent the message")
		msg = b.fields("message_in_", s.Message, c.MessageT, "message field")
		state = b.fields("state_in_", s.Vertex, c.VertexT, "vertex state field")
		n.inputs[kernel.RefID] = func(int) *signal { return node }
		n.inputs[kernel.RefSender] = func(int) *signal { return sender }
	case "apply":
		node := b.in("nodeid_in", vid, "the vertex being applied")
		deg := b.in("degree_in", arch.DegreeBits, "its out-degree")
		state = b.fields("state_in_", s.Vertex, c.VertexT, "vertex state field")
		b.in("round_in", arch.RoundBits, "the superstep channel")
		b.in("barrier_in", 1, "a barrier marker rides with this input")
		glob = b.fields("global_in_", s.Global, c.GlobalT, "global (the last superstep's reduction)")
		n.inputs[kernel.RefID] = func(int) *signal { return node }
		n.inputs[kernel.RefDegree] = func(int) *signal { return deg }
		n.inputs[kernel.RefGlobal] = func(i int) *signal { return glob[i] }
	case "scatter":
		upd = b.fields("update_in_", s.Update, c.UpdateT, "update field")
		sender := b.in("sender_in", vid, "the vertex that issued the update")
		b.in("round_in", arch.RoundBits, "the superstep channel")
		b.in("barrier_in", 1, "a barrier marker rides with this input")
		nb := b.in("neighbor_in", vid, "the destination of this edge")
		deg := b.in("num_neighbors_in", arch.DegreeBits, "the sender's out-degree")
		edge = b.fields("edge_in_", s.Edge, c.EdgeT, "edge field")
		n.inputs[kernel.RefSender] = func(int) *signal { return sender }
		n.inputs[kernel.RefNeighbor] = func(int) *signal { return nb }
		n.inputs[kernel.RefDegree] = func(int) *signal { return deg }
	}
	b.in("valid_in", 1, "the inputs hold an operation")
	n.inputs[kernel.RefState] = func(i int) *signal { return state[i] }
	n.inputs[kernel.RefMsg] = func(i int) *signal { return msg[i] }
	n.inputs[kernel.RefUpdate] = func(i int) *signal { return upd[i] }
	n.inputs[kernel.RefEdge] = func(i int) *signal { return edge[i] }
}

// statements builds every statement and returns the signal each target
// is assigned ("state_out_<f>", "update_out_<f>", "message_out_<f>",
// "send"). Assignments read the inputs (the old state), as the language
// defines.
func (b *kernelBuilder) statements(prog *kernel.CheckedProgram, src *kernel.Program) map[string]*signal {
	s, n := b.k.Spec, b.n
	assigned := map[string]*signal{}
	n.locals = make([]*signal, len(prog.Locals))
	for _, st := range prog.Stmts {
		n.cur = stmtLine(src, st)
		sig := n.build(st.Value)
		n.cur = nil
		switch st.Kind {
		case kernel.TargetLocal:
			n.locals[st.Index] = sig
		case kernel.TargetState:
			assigned["state_out_"+s.Vertex[st.Index].Name] = sig
		case kernel.TargetUpdate:
			assigned["update_out_"+s.Update[st.Index].Name] = sig
		case kernel.TargetMessage:
			assigned["message_out_"+s.Message[st.Index].Name] = sig
		case kernel.TargetSend:
			assigned["send"] = sig
		case kernel.TargetGlobal:
			assigned["global_out_"+s.Global[st.Index].Name] = sig
		}
	}
	return assigned
}

// zero is a constant 0 of a width, for an output the program leaves
// unassigned.
func (b *kernelBuilder) zero(w int) *signal {
	return b.n.add(&signal{kind: sigConst, width: w, node: &kernel.Node{Op: kernel.OpConst, Type: kernel.Uint(w)}})
}

// outputs lists the output ports and what drives them.
func (b *kernelBuilder) outputs(program string, assigned map[string]*signal) {
	k, n := b.k, b.n
	c, s, vid := k.Checked, k.Spec, k.Checked.VertexIDBits
	pass := func(port string, sig *signal, w int, doc string) {
		n.outputs = append(n.outputs, output{port: port, sig: sig, width: w, doc: doc})
	}
	assignedOr := func(name string, dflt *signal, w int) *signal {
		if a, ok := assigned[name]; ok {
			return a
		}
		if dflt != nil {
			return dflt
		}
		return b.zero(w)
	}
	switch program {
	case "gather", "apply":
		doc := "the vertex to write back"
		if program == "apply" {
			doc += " and the update's sender"
		}
		pass("nodeid_out", b.port["nodeid_in"], vid, doc)
		for i, f := range s.Vertex {
			pass("state_out_"+f.Name, assignedOr("state_out_"+f.Name, b.port["state_in_"+f.Name], 0), c.VertexT[i].Width, "new state field "+f.Name)
		}
	case "scatter":
		for i, f := range s.Message {
			src := b.port["update_in_"+f.Name] // a copy when the message is the update
			if !s.MessageIsUpdate {
				src = nil
			}
			pass("message_out_"+f.Name, assignedOr("message_out_"+f.Name, src, c.MessageT[i].Width), c.MessageT[i].Width, "message field "+f.Name)
		}
		pass("neighbor_out", b.port["neighbor_in"], vid, "the message's destination")
		pass("sender_out", b.port["sender_in"], vid, "the message's sender")
		pass("round_out", b.port["round_in"], arch.RoundBits, "the superstep channel")
		pass("barrier_out", b.port["barrier_in"], 1, "a barrier marker rides with this output")
	}
	if program == "apply" {
		for i, f := range s.Update {
			pass("update_out_"+f.Name, assignedOr("update_out_"+f.Name, nil, c.UpdateT[i].Width), c.UpdateT[i].Width, "update field "+f.Name)
		}
		// A vertex that does not contribute to a global gives its identity.
		ident := k.GlobalIdentity()
		for i, f := range s.Global {
			t := c.GlobalT[i]
			id := b.n.add(&signal{kind: sigConst, width: t.Width, node: &kernel.Node{Op: kernel.OpConst, Type: t, Const: ident[i]}})
			pass("global_out_"+f.Name, assignedOr("global_out_"+f.Name, id, t.Width), t.Width, "this vertex's contribution to global "+f.Name)
		}
		// Beside the outputs, inside the module.
		first := len(n.outputs)
		pass("send_q", assignedOr("send", nil, 1), 1, "")
		pass("round_q", b.port["round_in"], arch.RoundBits, "")
		pass("barrier_q", b.port["barrier_in"], 1, "")
		b.internal = n.outputs[first:]
		n.outputs = n.outputs[:first]
	}
}

// GenerateKernel generates the Verilog module of one program of a bound
// kernel ("gather", "apply" or "scatter"), with the ports of the GraVF-M
// kernel interface. Its latency is arch.Latency of the program: the
// longest path of f32 units plus one output register; a scatter whose
// message is the update is a copy without registers (latency 0).
func GenerateKernel(k *kernel.Kernel, program string) (*KernelModule, error) {
	c, s := k.Checked, k.Spec
	progs := map[string]struct {
		checked *kernel.CheckedProgram
		src     *kernel.Program
	}{"gather": {c.Gather, s.Gather}, "apply": {c.Apply, s.Apply}, "scatter": {c.Scatter, s.Scatter}}
	pr, ok := progs[program]
	if !ok {
		return nil, fmt.Errorf("unknown program %q", program)
	}
	if pr.checked == nil && program != "scatter" {
		return nil, fmt.Errorf("gen: kernel %s has no %s program", s.Name, program)
	}
	b := &kernelBuilder{k: k, m: &KernelModule{Name: s.Ident() + "_" + program, Program: program}, n: &netlist{}, port: map[string]*signal{}}
	b.inputs(program)
	assigned := map[string]*signal{}
	if pr.checked != nil {
		b.n.latency = arch.Latency(pr.checked)
		assigned = b.statements(pr.checked, pr.src)
	}
	b.m.Latency = b.n.latency
	b.outputs(program, assigned)
	b.handshakePorts(program)
	b.n.outputs = append(b.n.outputs, b.internal...)
	b.n.delayPass()
	b.internal = b.n.outputs[len(b.n.outputs)-len(b.internal):]
	b.n.outputs = b.n.outputs[:len(b.n.outputs)-len(b.internal)]
	valid := b.n.validLine(b.port["valid_in"])
	b.n.prune(append([]*signal{valid}, sigsOf(b.internal)...)...)
	v, err := b.print(valid)
	if err != nil {
		return nil, err
	}
	b.m.Verilog = v
	return b.m, nil
}

func sigsOf(os []output) []*signal {
	var out []*signal
	for _, o := range os {
		out = append(out, o.sig)
	}
	return out
}

// handshakePorts declares the ports of the program's handshake.
func (b *kernelBuilder) handshakePorts(program string) {
	vid := b.k.Checked.VertexIDBits
	for _, o := range b.n.outputs {
		b.out(o.port, o.width, o.doc)
	}
	switch program {
	case "gather":
		b.out("state_valid", 1, "the output holds a state to write back")
		b.in("state_ack", 1, "the write-back was taken")
	case "apply":
		b.out("state_barrier", 1, "a barrier marker rides with this output")
		b.out("state_valid", 1, "the state output is valid this cycle (always taken)")
		b.out("update_sender", vid, "the update's sender")
		b.out("update_round", arch.RoundBits, "the update's superstep channel")
		b.out("barrier_out", 1, "a barrier marker rides with the update output")
		b.out("update_valid", 1, "the update output holds an update")
		b.in("update_ack", 1, "the update was taken")
	case "scatter":
		b.out("valid_out", 1, "the output holds a message")
		b.in("message_ack", 1, "the message was taken")
	}
	b.out("ready", 1, "the kernel takes an input this cycle")
	b.in("clk", 1, "")
	b.in("rst", 1, "synchronous reset")
}

// handshake is the logic of the program's valid/ready handshake: the
// pipeline advances (ce) whenever its output stage is empty or being
// taken.
func (b *kernelBuilder) handshake(program string, valid *signal) []string {
	if b.n.latency == 0 {
		// A copy: the inputs are the outputs.
		return []string{"assign valid_out = valid_in;", "assign ready     = message_ack;"}
	}
	vq := valid.ref()
	switch program {
	case "gather":
		return []string{"assign state_valid = " + vq + ";", "assign ce          = !" + vq + " || state_ack;", "assign ready       = ce;"}
	case "apply":
		return []string{
			"// The state write-back leaves as the pipeline advances; the update",
			"// waits for update_ack, and the pipeline with it.",
			"assign update_valid  = " + vq + " && (send_q || barrier_q);",
			"assign ce            = !update_valid || update_ack;",
			"assign state_valid   = " + vq + " && ce;",
			"assign state_barrier = barrier_q;",
			"assign barrier_out   = barrier_q;",
			"assign update_sender = nodeid_out;",
			"assign update_round  = round_q;",
			"assign ready         = ce;"}
	}
	return []string{"assign valid_out = " + vq + ";", "assign ce        = !" + vq + " || message_ack;", "assign ready     = ce;"}
}

// print writes the module.
func (b *kernelBuilder) print(valid *signal) (string, error) {
	m, n := b.m, b.n
	var p printer
	doc := fmt.Sprintf("%s: the %s kernel of %s, fully pipelined, latency %d. Handshake: an input is taken when valid_in && ready; the pipeline advances (ce) whenever its output stage is empty or being taken, so a result stays on the outputs until it is acknowledged.",
		m.Name, m.Program, b.k.Spec.Name, m.Latency)
	if m.Latency == 0 {
		doc = fmt.Sprintf("%s: the %s kernel of %s, a copy of the update into the message without registers (latency 0): the handshake passes through (valid_out = valid_in, ready = message_ack).",
			m.Name, m.Program, b.k.Spec.Name)
	}
	p.generatedHeader(" from the kernel spec", wrapText([]string{doc, "Every operation carries the kernel.toml line it implements."}, 76)...)
	ports := sortedPorts(m)
	handshake := map[string]bool{"valid_in": true, "state_ack": true, "update_ack": true, "message_ack": true}
	var vps []vport
	for _, pt := range ports {
		vp := vport{out: pt.Output, width: vwidth(pt.Width), name: pt.Name, doc: pt.Doc}
		switch {
		case pt.Output, handshake[pt.Name]:
		case (pt.Name == "clk" || pt.Name == "rst") && n.latency == 0:
			vp.unused = "a copy without registers takes no clock"
		case pt.Name == "clk" || pt.Name == "rst":
		case !n.usesInput(pt.Name):
			vp.unused = "the kernel interface is fixed; this kernel does not read it"
		}
		vps = append(vps, vp)
	}
	p.Module(m.Name, nil, vps)
	if n.latency > 0 {
		p.NL()
		p.Linef("wire ce; // pipeline enable")
	}
	n.printBody(&p)
	p.NL()
	p.Comment("Outputs.")
	for _, o := range b.internal {
		p.Linef("wire %s%s = %s;", vrange(o.width), o.port, o.sig.ref())
	}
	for _, o := range n.outputs {
		p.Linef("assign %s = %s;", o.port, o.sig.ref())
	}
	for _, l := range b.handshake(m.Program, valid) {
		p.Linef("%s", l)
	}
	p.EndModule()
	return p.String()
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
