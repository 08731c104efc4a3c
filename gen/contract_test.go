package gen

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// probe is one figure of the elaborated RTL: a hierarchical name below
// tb_system (a parameter or localparam, whose value the elaborator
// computes from the generated parameter values) and what the contract
// says it is.
type probe struct {
	name string
	want int
}

// contractProbes lists what the generated RTL of a system must agree on
// with the hardware contract: item and memory-word widths, FIFO depths,
// off-chip figures.
func contractProbes(s *System) []probe {
	d, w := s.Design, s.Words
	top, pe := "tb_system.fpga0.fpga", "tb_system.fpga0.fpga.pe[0].core"
	sc := pe + ".bram.scatter"
	if s.OffChip() {
		sc = pe + ".offchip.scatter"
	}
	exact := 0
	if d.Hazard.Exact {
		exact = 1
	}
	ps := []probe{
		{top + ".UW", d.Item.Width()},
		{top + ".IW", d.LinkItem.Width()},
		{top + ".LW", d.MaskBits()},
		{pe + ".UW", d.Item.Width()},
		{pe + ".IW", d.LinkItem.Width()},
		{pe + ".LW", d.MaskBits()},
		{pe + ".VID", d.VertexIDBits},
		{pe + ".UPW", d.PayloadBits()},
		{pe + ".MPW", max(d.Message.Width(), 1)},
		{pe + ".STW", w.State.Width()},
		{pe + ".ED", d.EdgeData.Width()},
		{pe + ".LA", w.LocalBits},
		{pe + ".VW", w.VertexInfo.Width()},
		{pe + ".SSW", arch.SuperstepBits},
		{pe + ".DW", arch.DegreeBits},
		{pe + ".CW", arch.CounterBits},
		{pe + ".NLOCAL", len(s.Part.Members[0])},
		{pe + ".input_fifo.DEPTH", arch.InputFIFODepth},
		{pe + ".input_fifo.WIDTH", d.LinkItem.Width()},
		{pe + ".kernel_input_fifo.DEPTH", arch.KernelInputFIFODepth},
		{pe + ".KIN_SLACK", arch.KernelInputSlack},
		{pe + ".message_fifo.DEPTH", arch.MessageFIFODepth},
		{pe + ".side_fifo.DEPTH", d.SideDepth.Scatter},
		{pe + ".gather_side.DEPTH", d.SideDepth.Gather},
		{pe + ".apply_side.DEPTH", d.SideDepth.Apply},
		{pe + ".update_queue.DEPTH", len(s.Part.Members[0]) + arch.UpdateQueueExtra},
		{pe + ".update_queue.WIDTH", d.Item.Width()},
		{pe + ".state_ram.WIDTH", w.State.Width()},
		{pe + ".vertex_ram.WIDTH", w.VertexInfo.Width()},
		{pe + ".hazard_detector.EXACT", exact},
		{pe + ".hazard_detector.GL", d.Latency.Gather},
		{pe + ".hazard_detector.SLOTS", arch.HazardSlots},
		{pe + ".gather_kernel.STW", w.State.Width()},
		{pe + ".apply_kernel.UPW", d.PayloadBits()},
		{pe + ".scatter_kernel.EDW", max(d.EdgeData.Width(), 1)},
		{sc + ".IW", w.Index.Width()},
		{sc + ".index_ram.WIDTH", w.Index.Width()},
		{sc + ".barrier_counter.NPE", d.FPGAs * d.PEs},
	}
	if d.FPGAs > 1 {
		link := top + ".links.link[0]"
		ps = append(ps, probe{link + ".rx_fifo.DEPTH", arch.LinkReceiveFIFODepth}, probe{link + ".tx_fifo.DEPTH", arch.LinkSendFIFODepth},
			probe{link + ".tx_fifo.WIDTH", d.LinkItem.Width()}, probe{"tb_system.IW", d.LinkItem.Width()},
			probe{"tb_system.link_0_1.LATENCY", d.Link.LatencyCycles})
	}
	if s.OffChip() {
		m := d.EdgeMemory
		ps = append(ps, probe{sc + ".WORD", m.WordBits}, probe{sc + ".SLOT", m.SlotBits}, probe{sc + ".EPW", m.EdgesPerWord},
			probe{sc + ".INFLIGHT", m.InFlight}, probe{sc + ".MA", w.MemAddrBits}, probe{sc + ".EA", w.ListLenBits},
			probe{sc + ".SW", w.Slot.Width()}, probe{sc + ".order_fifo.DEPTH", m.InFlight + arch.OrderFIFOExtra},
			probe{sc + ".id_ram.WIDTH", w.ID.Width()},
			probe{"tb_system.mem0.LATENCY", m.LatencyCycles}, probe{"tb_system.mem0.WORD", m.WordBits}, probe{"tb_system.mem0.INFLIGHT", m.InFlight})
	} else {
		ps = append(ps, probe{sc + ".EW", w.Edge.Width()}, probe{sc + ".EA", w.EdgeAddrBits}, probe{sc + ".edge_ram.WIDTH", w.Edge.Width()})
	}
	return ps
}

// TestRTLContract generates the golden configurations and checks the
// elaborated RTL against the hardware contract: Icarus computes every
// probed parameter from the generated values, and a probe module prints
// them. It also checks that every memory image's words have the width of
// the contract's layout.
func TestRTLContract(t *testing.T) {
	iverilog := testenv.NeedTool(t, "iverilog")
	vvp := testenv.NeedTool(t, "vvp")
	brd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range goldenProjects {
		t.Run(c.name, func(t *testing.T) {
			k, g := loadSample(t, c.kernel, c.graph, "")
			d, err := arch.Derive(brd, k, arch.Options{FPGAs: c.nF, PEs: c.nP, Mem: c.mem})
			if err != nil {
				t.Fatal(err)
			}
			s, err := GenerateSystem(context.Background(), SystemOptions{Design: d, Kernel: k, Graph: g, Filter: true})
			if err != nil {
				t.Fatal(err)
			}
			checkImageWidths(t, s)
			probes := contractProbes(s)
			var b strings.Builder
			b.WriteString("module contract_probe;\ninitial begin\n")
			for _, p := range probes {
				fmt.Fprintf(&b, "    $display(\"%s %%0d\", %s);\n", p.name, p.name)
			}
			b.WriteString("    $finish;\nend\nendmodule\n")
			s.Files["tb/contract_probe.v"] = b.String()
			dir := writeSystem(t, s)
			args := append([]string{"-g2005", "-o", "probe.vvp", "-s", "tb_system", "-s", "contract_probe"}, s.RTLFiles()...)
			cmd := exec.Command(iverilog, append(args, s.TBFiles()...)...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("iverilog: %v\n%s", err, out)
			}
			run := exec.Command(vvp, "-n", "probe.vvp")
			run.Dir = dir
			out, err := run.CombinedOutput()
			if err != nil {
				t.Fatalf("vvp: %v\n%s", err, out)
			}
			got := map[string]int{}
			for _, line := range strings.Split(string(out), "\n") {
				if f := strings.Fields(line); len(f) == 2 {
					if v, err := strconv.Atoi(f[1]); err == nil {
						got[f[0]] = v
					}
				}
			}
			for _, p := range probes {
				if v, ok := got[p.name]; !ok || v != p.want {
					t.Errorf("%s = %d (found %v), the contract says %d", p.name, v, ok, p.want)
				}
			}
		})
	}
}

// checkImageWidths checks that every word of every memory image has the
// hex digits of its layout.
func checkImageWidths(t *testing.T, s *System) {
	t.Helper()
	w := s.Words
	layouts := map[string]arch.Layout{"index": w.Index, "edges": w.Edge, "ids": w.ID, "vertices": w.VertexInfo, "state": w.State, "expected": w.State}
	for _, p := range s.Paths() {
		if !strings.HasSuffix(p, ".hex") {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(p), ".hex")
		kind := base[strings.LastIndex(base, "_")+1:]
		l, ok := layouts[kind]
		if strings.HasPrefix(base, "fpga") {
			l, ok = w.MemWord, kind == "edges"
		}
		if !ok {
			t.Errorf("%s: no layout for this image", p)
			continue
		}
		text, err := s.Content(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
			if len(line) != l.HexDigits() {
				t.Fatalf("%s:%d: %d hex digits, the %s (%s) has %d", p, i+1, len(line), l.Name, l, l.HexDigits())
			}
		}
	}
}
