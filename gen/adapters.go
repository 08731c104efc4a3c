package gen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// The adapters connect the PE's packed buses (gravf_pe) to a kernel's
// named ports: gravf_gather_kernel, gravf_apply_kernel and
// gravf_scatter_kernel, one per program, with fixed module names so that
// the hand-written PE instantiates them. They are generated for the
// design's widths, which their parameters must equal (an elaboration-time
// check), and contain nothing but the kernel instance and its wiring.

// adapterBus is one packed bus of an adapter and the kernel ports it
// carries, first field in the most significant bits.
type adapterBus struct {
	name, kernelPrefix string
	param              string // the parameter that holds its width
	fields             arch.Layout
	out                bool
	doc                string
}

// width is the bus's width, at least one bit.
func (b adapterBus) width() int { return max(b.fields.Width(), 1) }

// generateAdapter writes the adapter of one program.
func generateAdapter(k *kernel.Kernel, d *arch.Design, program string) (string, error) {
	km, err := GenerateKernel(k, program)
	if err != nil {
		return "", err
	}
	edge := d.EdgeData
	buses := map[string][]adapterBus{
		"gather": {{"message_in", "message_in_", "MPW", d.Message, false, "the message payload"},
			{"state_in", "state_in_", "STW", d.State, false, "the destination's state"},
			{"state_out", "state_out_", "STW", d.State, true, "its new state"}},
		"apply": {{"state_in", "state_in_", "STW", d.State, false, "the vertex's state"},
			{"global_in", "global_in_", "GLW", d.Global, false, "the globals (the last superstep's reduction)"},
			{"state_out", "state_out_", "STW", d.State, true, "its new state"},
			{"update_out", "update_out_", "UPW", d.Update, true, "the update payload"},
			{"global_out", "global_out_", "GLW", d.Global, true, "the vertex's contribution to the globals"}},
		"scatter": {{"update_in", "update_in_", "UPW", d.Update, false, "the update payload"},
			{"edge_in", "edge_in_", "EDW", edge, false, "the edge data"},
			{"message_out", "message_out_", "MPW", d.Message, true, "the message payload"}},
	}[program]
	params := []vparam{{"VID", fmt.Sprint(d.VertexIDBits), "bits of a vertex id"},
		{"SSW", fmt.Sprint(arch.SuperstepBits), "bits of the superstep number"}, {"DW", fmt.Sprint(arch.DegreeBits), "bits of an out-degree"}}
	check := []string{fmt.Sprintf("VID != %d || SSW != %d || DW != %d", d.VertexIDBits, arch.SuperstepBits, arch.DegreeBits)}
	name := []string{fmt.Sprintf("VID_%d", d.VertexIDBits)}
	seen := map[string]bool{}
	for _, b := range buses {
		if !seen[b.param] {
			seen[b.param] = true
			params = append(params, vparam{b.param, fmt.Sprint(b.width()), "bits of the " + strings.TrimPrefix(b.doc, "the ") + " bus"})
			check = append(check, fmt.Sprintf("%s != %d", b.param, b.width()))
			name = append(name, fmt.Sprintf("%s_%d", b.param, b.width()))
		}
	}
	module := "gravf_" + program + "_kernel"
	var p printer
	p.generatedHeader(" for the "+k.Spec.Name+" kernel", wrapText([]string{fmt.Sprintf("%s: the PE's %s kernel, %s, behind packed buses: each bus holds the kernel's fields, the first in the most significant bits. The handshakes and the other ports pass straight through (the GraVF-M kernel interface, see %s).", module, program, km.Name, km.Name)}, 76)...)
	p.Module(module, params, adapterPorts(km, buses))
	p.NL()
	p.Linef("generate")
	p.Indent(func() {
		p.Linef("if (%s) begin : check_widths", strings.Join(check, " || "))
		p.Indent(func() { p.Linef("%s_is_generated_for_%s error ();", module, strings.Join(name, "_")) })
		p.Linef("end")
	})
	p.Linef("endgenerate")
	p.NL()
	for _, b := range buses {
		if b.out && len(b.fields.Fields) == 0 {
			p.Linef("assign %s = 1'b0; // %s has no fields", b.name, strings.TrimPrefix(b.doc, "the "))
		}
	}
	var kparams []vparam
	if d.HandWritten {
		kparams = []vparam{{name: "VERTEXIDSIZE", value: "VID"}}
	}
	p.Instance(km.Name, kparams, "kernel", adapterConns(km, buses))
	p.EndModule()
	return p.String()
}

// combineAdapter writes gravf_combine_kernel, the combine unit of the
// globals behind packed buses a, b and y (GLW bits, the first field in the
// most significant bits), which gravf_globals drives.
func combineAdapter(km *KernelModule, d *arch.Design) (string, error) {
	gw := d.Global.Width()
	buses := []adapterBus{{"a", "a_", "GLW", d.Global, false, "the left operands"}, {"b", "b_", "GLW", d.Global, false, "the right operands"},
		{"y", "y_", "GLW", d.Global, true, "their combination"}}
	var p printer
	p.generatedHeader(" for the "+d.Kernel+" kernel", wrapText([]string{fmt.Sprintf("gravf_combine_kernel: the globals' combine unit, %s, behind packed buses (see gravf_globals).", km.Name)}, 76)...)
	p.Module("gravf_combine_kernel", []vparam{{"GLW", fmt.Sprint(gw), "bits of the globals"}}, adapterPorts(km, buses))
	p.NL()
	p.Linef("generate")
	p.Indent(func() {
		p.Linef("if (GLW != %d) begin : check_widths", gw)
		p.Indent(func() { p.Linef("gravf_combine_kernel_is_generated_for_GLW_%d error ();", gw) })
		p.Linef("end")
	})
	p.Linef("endgenerate")
	p.NL()
	p.Instance(km.Name, nil, "kernel", adapterConns(km, buses))
	p.EndModule()
	return p.String()
}

// adapterPorts lists the adapter's ports: the kernel's, with its field
// ports replaced by the packed buses.
func adapterPorts(km *KernelModule, buses []adapterBus) []vport {
	var out []vport
	done := map[string]bool{}
	for _, pt := range sortedPorts(km) {
		if b, ok := busOf(pt.Name, buses); ok {
			if !done[b.name] {
				done[b.name] = true
				vp := vport{out: b.out, width: b.param, name: b.name, doc: b.doc}
				out = append(out, vp)
			}
			continue
		}
		w := vwidth(pt.Width)
		if pw, ok := adapterWidths[pt.Name]; ok {
			w = pw
		}
		out = append(out, vport{out: pt.Output, width: w, name: pt.Name, doc: pt.Doc})
	}
	// Buses without fields still have their (padding) port.
	for _, b := range buses {
		if !done[b.name] {
			vp := vport{out: b.out, width: b.param, name: b.name, doc: b.doc + " (no fields: one padding bit)"}
			if !b.out {
				vp.unused = "the kernel has no such field; the bus is one padding bit"
			}
			out = append(out, vp)
		}
	}
	return out
}

// adapterWidths are the parameters that give the widths of the kernel
// interface's fixed ports.
var adapterWidths = map[string]string{"level_in": "SSW", "nodeid_in": "VID", "nodeid_out": "VID", "sender_in": "VID", "sender_out": "VID",
	"neighbor_in": "VID", "neighbor_out": "VID", "update_sender": "VID", "degree_in": "DW", "num_neighbors_in": "DW"}

// adapterConns connects the kernel's ports: field ports to slices of
// their bus, the rest by name.
func adapterConns(km *KernelModule, buses []adapterBus) []conn {
	var out []conn
	for _, pt := range sortedPorts(km) {
		b, ok := busOf(pt.Name, buses)
		if !ok {
			out = append(out, conn{pt.Name, pt.Name})
			continue
		}
		field := strings.TrimPrefix(pt.Name, b.kernelPrefix)
		lsb, w, _ := b.fields.Find(field)
		out = append(out, conn{pt.Name, fmt.Sprintf("%s[%d:%d]", b.name, lsb+w-1, lsb)})
	}
	return out
}

// busOf finds the bus a kernel port belongs to.
func busOf(port string, buses []adapterBus) (adapterBus, bool) {
	for _, b := range buses {
		if strings.HasPrefix(port, b.kernelPrefix) && b.fields.Has(strings.TrimPrefix(port, b.kernelPrefix)) {
			return b, true
		}
	}
	return adapterBus{}, false
}

// sortedPorts lists a kernel's ports as its module declares them: clock,
// reset, inputs, outputs.
func sortedPorts(km *KernelModule) []Port {
	ports := append([]Port(nil), km.Ports...)
	sort.SliceStable(ports, func(i, j int) bool { return portRank(ports[i]) < portRank(ports[j]) })
	return ports
}
