package gen

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// GenerateCombine generates the module that combines two values of the
// kernel's globals, field by field, by each field's reduction (sum, min or
// max): "<kernel>_combine", fully pipelined, latency arch.ReduceLatency.
// Its ports are a_<f> and b_<f> in, y_<f> out, and valid_in/valid_out; it
// advances every cycle (the PE always takes its result). The PE's globals
// unit (gravf_globals) folds its vertices' contributions and every PE's
// partial through it, behind the adapter gravf_combine_kernel.
func GenerateCombine(k *kernel.Kernel) (*KernelModule, error) {
	s, c := k.Spec, k.Checked
	if len(s.Global) == 0 {
		return nil, fmt.Errorf("kernel %s has no globals", s.Name)
	}
	m := &KernelModule{Name: s.Ident() + "_combine", Program: "combine", Latency: arch.ReduceLatency(k)}
	n := &netlist{latency: m.Latency}
	m.Ports = []Port{{Name: "clk", Width: 1}, {Name: "rst", Width: 1, Doc: "synchronous reset"}}
	var as, bs []*signal
	for i, f := range s.Global {
		w := c.GlobalT[i].Width
		m.Ports = append(m.Ports, Port{Name: "a_" + f.Name, Width: w, Doc: "global " + f.Name + ", left operand"},
			Port{Name: "b_" + f.Name, Width: w, Doc: "global " + f.Name + ", right operand"})
		as, bs = append(as, n.input("a_"+f.Name, w)), append(bs, n.input("b_"+f.Name, w))
	}
	valid := n.input("valid_in", 1)
	m.Ports = append(m.Ports, Port{Name: "valid_in", Width: 1, Doc: "the operands hold a pair to combine"})
	n.inputs = map[kernel.RefKind]func(int) *signal{
		kernel.RefGlobal: func(i int) *signal { return as[i] },
		kernel.RefMsg:    func(i int) *signal { return bs[i] },
	}
	for i, f := range s.Global {
		t := c.GlobalT[i]
		a := &kernel.Node{Op: kernel.OpRef, Ref: kernel.RefGlobal, Index: i, Type: t}
		b := &kernel.Node{Op: kernel.OpRef, Ref: kernel.RefMsg, Index: i, Type: t}
		n.outputs = append(n.outputs, output{port: "y_" + f.Name, sig: n.build(k.ReduceNode(i, a, b)), width: t.Width, doc: "a_" + f.Name + " " + f.Reduce + " b_" + f.Name})
	}
	n.delayPass()
	vq := n.validLine(valid)
	n.prune(vq)
	var p printer
	p.generatedHeader(" from the kernel spec", wrapText([]string{fmt.Sprintf("%s: combines two values of the %s kernel's globals, fully pipelined, latency %d: it takes a pair every cycle and never stalls.", m.Name, s.Name, m.Latency)}, 76)...)
	for _, o := range n.outputs {
		m.Ports = append(m.Ports, Port{Name: o.port, Width: o.width, Output: true, Doc: o.doc})
	}
	m.Ports = append(m.Ports, Port{Name: "valid_out", Width: 1, Output: true, Doc: "y holds the combination of the pair taken Latency cycles ago"})
	var ports []vport
	for _, pt := range m.Ports {
		ports = append(ports, vport{out: pt.Output, width: vwidth(pt.Width), name: pt.Name, doc: pt.Doc})
	}
	p.Module(m.Name, nil, ports)
	p.NL()
	p.Linef("wire ce = 1'b1; // the pipeline always advances")
	n.printBody(&p)
	p.NL()
	p.Comment("Outputs.")
	for _, o := range n.outputs {
		p.Linef("assign %s = %s;", o.port, o.sig.ref())
	}
	p.Linef("assign valid_out = %s;", vq.ref())
	p.EndModule()
	v, err := p.String()
	if err != nil {
		return nil, err
	}
	m.Verilog = v
	return m, nil
}
