package gen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// testbench writes tb/tb_system.v: the FPGA tops joined by link models
// (and, off-chip, each with its memory model), run to termination, every
// final state compared with the BSP reference, one RESULT line.
func testbench(s *System, k *kernel.Kernel, watchdog int64) (string, error) {
	d, ref := s.Design, s.Expected
	if watchdog <= 0 {
		watchdog = 10*ref.Messages + 20*int64(len(ref.Supersteps))*int64(k.Vertices+200) + 100000
	}
	var p printer
	p.generatedHeader("", "tb_system: the whole system. It joins the FPGA tops with link models,",
		"runs until every PE has terminated, compares every final vertex state",
		"with the BSP reference and prints exactly one line:",
		"  RESULT PASS cycles=<n> messages=<m>    or    RESULT FAIL <reason>",
		"Failures end with $fatal so that the simulator exits non-zero. Before it,",
		"one line SUPERSTEP <s> start=<cycle> as each superstep's first apply",
		"sweep begins. Reset is released by the clock, so that every simulator",
		"counts the same cycles.")
	p.Linef("`timescale 1ns/1ps")
	p.Linef("`default_nettype none")
	p.NL()
	p.Linef("module tb_system;")
	p.NL()
	p.Linef("localparam IW = %d; // link item", d.LinkItem.Width())
	p.Linef("localparam WATCHDOG = %d;", watchdog)
	p.Linef("localparam EXPECTED_MESSAGES = %d;", ref.Messages)
	p.NL()
	p.Linef("reg clk = 1'b0;")
	p.Linef("reg rst = 1'b1;")
	p.Linef("always #2 clk = ~clk;")
	for f := 0; f < d.FPGAs; f++ {
		tbFPGA(&p, s, f)
	}
	tbLinks(&p, s)
	tbCheck(&p, s, k)
	tbRun(&p, s)
	p.NL()
	p.Linef("endmodule")
	p.NL()
	p.Linef("`default_nettype wire")
	return p.String()
}

// tbFPGA writes FPGA f: its wires, its edge memory's model (off-chip) and
// its top.
func tbFPGA(p *printer, s *System, f int) {
	d := s.Design
	lw := d.MaskBits()
	p.NL()
	p.Comment(fmt.Sprintf("FPGA %d.", f))
	conns := []conn{{"clk", "clk"}, {"rst", "rst"}}
	if d.FPGAs > 1 {
		p.Linef("wire [%d*IW-1:0] rx_data%d, tx_data%d;", lw, f, f)
		p.Linef("wire [%d:0] rx_valid%d, rx_ready%d, tx_valid%d, tx_ready%d;", lw-1, f, f, f, f)
		for _, n := range []string{"rx_data", "rx_valid", "rx_ready", "tx_data", "tx_valid", "tx_ready"} {
			conns = append(conns, conn{n, n + strconv.Itoa(f)})
		}
	}
	p.Linef("wire done%d;", f)
	p.Linef("wire [%d:0] messages%d;", arch.CounterBits-1, f)
	if s.OffChip() {
		m, np := d.EdgeMemory, d.PEs
		p.Linef("wire [%d:0] mem_req_valid%d, mem_req_ready%d, mem_resp_valid%d, mem_resp_ready%d;", np-1, f, f, f, f)
		p.Linef("wire [%d:0] mem_req_addr%d;", np*s.Words.MemAddrBits-1, f)
		p.Linef("wire [%d:0] mem_resp_data%d;", np*m.WordBits-1, f)
		p.Instance("gravf_mem_model", []vparam{{name: "NP", value: strconv.Itoa(np)}, {name: "WORD", value: strconv.Itoa(m.WordBits)},
			{name: "AW", value: strconv.Itoa(s.Words.MemAddrBits)}, {name: "DEPTH", value: strconv.Itoa(max(s.MemoryWords(f), 1))},
			{name: "LATENCY", value: strconv.Itoa(m.LatencyCycles)}, {name: "INFLIGHT", value: strconv.Itoa(m.InFlight)},
			{name: "RATE", value: verilogReal(m.WordsPerCycle)}, {name: "INIT", value: fmt.Sprintf(`"mem/fpga%d_edges.hex"`, f)}},
			fmt.Sprintf("mem%d", f), []conn{{"clk", "clk"}, {"rst", "rst"},
				{"req_valid", fmt.Sprintf("mem_req_valid%d", f)}, {"req_ready", fmt.Sprintf("mem_req_ready%d", f)}, {"req_addr", fmt.Sprintf("mem_req_addr%d", f)},
				{"resp_valid", fmt.Sprintf("mem_resp_valid%d", f)}, {"resp_ready", fmt.Sprintf("mem_resp_ready%d", f)}, {"resp_data", fmt.Sprintf("mem_resp_data%d", f)}})
		for _, n := range []string{"mem_req_valid", "mem_req_ready", "mem_req_addr", "mem_resp_valid", "mem_resp_ready", "mem_resp_data"} {
			conns = append(conns, conn{n, n + strconv.Itoa(f)})
		}
	}
	conns = append(conns, conn{"done", fmt.Sprintf("done%d", f)}, conn{"messages", fmt.Sprintf("messages%d", f)})
	p.Instance("fpga_top", []vparam{{name: "FPGA", value: strconv.Itoa(f)}}, fmt.Sprintf("fpga%d", f), conns)
}

// tbLinks joins the FPGAs: FPGA a's link j goes to the j-th other FPGA c,
// which receives it on its link index for a.
func tbLinks(p *printer, s *System) {
	d := s.Design
	if d.FPGAs == 1 {
		return
	}
	idx := func(from, to int) int {
		if to < from {
			return to
		}
		return to - 1
	}
	p.NL()
	p.Comment(fmt.Sprintf("Links: %d cycles one way (the board's latency).", d.Link.LatencyCycles))
	for a := 0; a < d.FPGAs; a++ {
		for c := 0; c < d.FPGAs; c++ {
			if a == c {
				continue
			}
			ja, jc := idx(a, c), idx(c, a)
			p.Instance("gravf_link_model", []vparam{{name: "WIDTH", value: "IW"}, {name: "LATENCY", value: strconv.Itoa(d.Link.LatencyCycles)}},
				fmt.Sprintf("link_%d_%d", a, c), []conn{{"clk", "clk"}, {"rst", "rst"},
					{"in_data", fmt.Sprintf("tx_data%d[%d*IW +: IW]", a, ja)}, {"in_valid", fmt.Sprintf("tx_valid%d[%d]", a, ja)},
					{"in_ready", fmt.Sprintf("tx_ready%d[%d]", a, ja)},
					{"out_data", fmt.Sprintf("rx_data%d[%d*IW +: IW]", c, jc)}, {"out_valid", fmt.Sprintf("rx_valid%d[%d]", c, jc)},
					{"out_ready", fmt.Sprintf("rx_ready%d[%d]", c, jc)}})
		}
	}
}

// pePath is the hierarchical name of global PE g in the testbench.
func pePath(s *System, g int) string {
	return fmt.Sprintf("fpga%d.fpga.pe[%d].core", g/s.Design.PEs, g%s.Design.PEs)
}

// tbCheck writes the comparison of the final states with the reference:
// the cycle counter and reset, f32_to_real, close_enough (integer fields
// equal, f32 fields within 1e-4 relative), check_pe and state_of.
func tbCheck(p *printer, s *System, k *kernel.Kernel) {
	d, st := s.Design, s.Words.State.Width()
	var dones, msgs []string
	for f := 0; f < d.FPGAs; f++ {
		dones = append(dones, fmt.Sprintf("done%d", f))
		msgs = append(msgs, fmt.Sprintf("messages%d", f))
	}
	p.NL()
	p.Linef("wire all_done = %s;", strings.Join(dones, " && "))
	p.Linef("wire [%d:0] total_messages = %s;", arch.CounterBits-1, strings.Join(msgs, " + "))
	p.Linef("integer cycles = 0;")
	p.Linef("integer errors = 0;")
	p.Linef("reg [%d:0] expected [0:%d-1];", st-1, max(s.Extent.MaxLocal, 1))
	p.Comment("Reset for the first four cycles, released by the clock so that every", "simulator sees it fall at the same edge.")
	p.Linef("always @(posedge clk) begin")
	p.Indent(func() {
		p.Linef("cycles <= cycles + 1;")
		p.Linef("if (cycles == 3) rst <= 1'b0;")
	})
	p.Linef("end")
	p.NL()
	stateCompare(p, s.Words.State, k)
	p.NL()
	for _, l := range strings.Split(strings.TrimSpace(checkPE), "\n") {
		p.Linef("%s", l)
	}
	p.NL()
	p.Comment("state_of reads the state RAMs hierarchically.")
	p.Linef("function [%d:0] state_of;", st-1)
	p.Indent(func() {
		p.Linef("input integer pe;")
		p.Linef("input integer i;")
		p.Linef("begin")
		p.Indent(func() {
			p.Linef("case (pe)")
			for g := 0; g < s.Part.NumPEs(); g++ {
				p.Linef("%d: state_of = %s.state_ram.mem[i];", g, pePath(s, g))
			}
			p.Linef("default: state_of = 0;")
			p.Linef("endcase")
		})
		p.Linef("end")
	})
	p.Linef("endfunction")
}

// StateCompare is the Verilog of a testbench's state comparison (the
// plain export's and the Vitis kernel's): the function close_enough(got,
// want) over a packed vertex state of the given layout, integer fields
// equal and f32 fields within 1e-4 relative, with f32_to_real, which it
// uses.
func StateCompare(k *kernel.Kernel, state arch.Layout) string {
	var p printer
	stateCompare(&p, state, k)
	v, _ := p.String() // the printer fails only on a bad instance
	return v
}

func stateCompare(p *printer, state arch.Layout, k *kernel.Kernel) {
	st := state.Width()
	p.Comment("f32 fields are compared within a relative tolerance: their sums follow", "message arrival order, which differs from the reference's.")
	for _, l := range strings.Split(strings.TrimSpace(f32ToReal), "\n") {
		p.Linef("%s", l)
	}
	p.NL()
	p.Linef("function close_enough;")
	p.Indent(func() {
		p.Linef("input [%d:0] got;", st-1)
		p.Linef("input [%d:0] want;", st-1)
		p.Linef("real a, b, d;")
		p.Linef("begin")
		p.Indent(func() {
			p.Linef("close_enough = 1'b1;")
			fieldChecks(p, state, k)
		})
		p.Linef("end")
	})
	p.Linef("endfunction")
}

const f32ToReal = `
function real f32_to_real;
    input [31:0] x;
    real m;
    integer e;
    begin
        e = x[30:23];
        m = x[22:0];
        if (e == 0) f32_to_real = m * (2.0 ** -149);
        else f32_to_real = (1.0 + m / 8388608.0) * (2.0 ** (e - 127));
        if (x[31]) f32_to_real = -f32_to_real;
    end
endfunction
`

const checkPE = `
task check_pe;
    input integer pe;
    input integer n;
    integer i;
    begin
        for (i = 0; i < n; i = i + 1) begin
            if (!close_enough(state_of(pe, i), expected[i])) begin
                if (errors < 10) $display("vertex state mismatch: PE %0d local %0d: %h, want %h", pe, i, state_of(pe, i), expected[i]);
                errors = errors + 1;
            end
        end
    end
endtask
`

// fieldChecks writes the body of the testbench's close_enough: integer
// fields equal, f32 fields within 1e-4 relative (1e-30 absolute near 0).
func fieldChecks(p *printer, state arch.Layout, k *kernel.Kernel) {
	for i, off := range state.Offsets() {
		f := state.Fields[i]
		hi := off + f.Width - 1
		if k.Checked.VertexT[i].Float {
			p.Linef("a = f32_to_real(got[%d:%d]); b = f32_to_real(want[%d:%d]); d = a - b;", hi, off, hi, off)
			p.Linef("if (d < 0) d = -d;")
			p.Linef("if (b < 0) b = -b;")
			p.Linef("if (d > 1.0e-4 * b && d > 1.0e-30) close_enough = 1'b0; // %s", f.Name)
		} else {
			p.Linef("if (got[%d:%d] !== want[%d:%d]) close_enough = 1'b0; // %s", hi, off, hi, off, f.Name)
		}
	}
}

// tbRun writes the superstep lines and the run: wait for termination or
// the watchdog (which prints every PE's state), check every PE, print the
// result.
func tbRun(p *printer, s *System) {
	npe := s.Part.NumPEs()
	p.NL()
	p.Comment("One line per superstep: the cycle the first PE begins its apply sweep", "(flushed at once, for progress through a pipe).")
	p.Linef("integer superstep_seen = 0;")
	p.Linef("always @(posedge clk) begin")
	p.Indent(func() {
		p.Linef("if (!rst) begin")
		p.Indent(func() {
			for g := 0; g < npe; g++ {
				pe := pePath(s, g)
				p.Linef("if (%s.superstep > superstep_seen) begin", pe)
				p.Indent(func() {
					p.Linef("superstep_seen = %s.superstep;", pe)
					p.Linef(`$display("SUPERSTEP %%0d start=%%0d", superstep_seen, cycles - 5);`)
					p.Linef("$fflush;")
				})
				p.Linef("end")
			}
		})
		p.Linef("end")
	})
	p.Linef("end")
	p.NL()
	scatter := "bram"
	if s.OffChip() {
		scatter = "offchip"
	}
	p.Linef("initial begin")
	p.Indent(func() {
		p.Linef("wait (!rst);")
		p.Linef("while (!all_done && cycles < WATCHDOG) @(posedge clk);")
		p.Linef("if (!all_done) begin")
		p.Indent(func() {
			p.Linef(`$display("RESULT FAIL watchdog: no termination after %%0d cycles", cycles);`)
			for g := 0; g < npe; g++ {
				pe := pePath(s, g)
				sc := pe + "." + scatter + ".scatter"
				p.Linef(`$display("  PE %d: mode %%0d superstep %%0d, barriers counted %%0d, input %%0d, kernel input %%0d, messages queued %%0d, updates queued %%0d", %s.mode, %s.superstep, %s.barrier_counter.count, %s.inf_count, %s.kin_count, %s.mq_count, %s.uq_count);`,
					g, pe, pe, sc, pe, pe, pe, pe)
				if s.OffChip() {
					p.Linef(`$display("        memory words in flight %%0d, order FIFO %%0d, unpacking %%0d", %s.inflight, %s.ot_count, %s.up_active);`, sc, sc, sc)
				}
			}
			p.Linef(`$fatal(1, "watchdog");`)
		})
		p.Linef("end")
		for g := 0; g < npe; g++ {
			p.Linef(`$readmemh("%s", expected);`, peFile("tb", g, npe, "expected"))
			p.Linef("check_pe(%d, %d);", g, len(s.Part.Members[g]))
		}
		p.Linef("if (errors != 0) begin")
		p.Indent(func() {
			p.Linef(`$display("RESULT FAIL %%0d vertex states differ from the reference", errors);`)
			p.Linef(`$fatal(1, "mismatch");`)
		})
		p.Linef("end")
		p.Linef("if (total_messages != EXPECTED_MESSAGES) begin")
		p.Indent(func() {
			p.Linef(`$display("RESULT FAIL messages=%%0d, the reference traversed %%0d edges", total_messages, EXPECTED_MESSAGES);`)
			p.Linef(`$fatal(1, "messages");`)
		})
		p.Linef("end")
		p.Linef(`$display("RESULT PASS cycles=%%0d messages=%%0d", cycles - 4, total_messages);`)
		p.Linef("$finish;")
	})
	p.Linef("end")
}

// verilogReal writes a real literal that reads back as exactly x, so the
// testbench's memory model does the simulator's float64 arithmetic.
func verilogReal(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
