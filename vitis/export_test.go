package vitis

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// design is one export of the tests: a sample kernel on a graph spec.
type design struct {
	board, kernel, graph string
	fpgas, pes           int
	mem                  model.MemKind
}

func (d design) options(t *testing.T, dir string) gen.ExportOptions {
	t.Helper()
	spec, err := samples.Kernel(d.kernel)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load(d.graph, graph.ReadOptions{Weighted: len(spec.Edge) > 0})
	if err != nil {
		t.Fatal(err)
	}
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Get(d.board)
	if err != nil {
		t.Fatal(err)
	}
	return gen.ExportOptions{Board: b, Kernel: k, Graph: g, FPGAs: d.fpgas, PEs: d.pes, Filter: true, Mem: d.mem, Dir: dir, Version: "test"}
}

func (d design) export(t *testing.T) (string, *Manifest) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "proj")
	m, err := Export(context.Background(), d.options(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	return dir, m
}

func runMake(t *testing.T, dir, target string) string {
	t.Helper()
	cmd := exec.Command("make", "-s", target)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", target, err, out)
	}
	return string(out)
}

func resultLine(t *testing.T, out string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "RESULT PASS") {
			return l
		}
	}
	t.Fatalf("no RESULT PASS line:\n%s", out)
	return ""
}

// exportCases are the designs of the acceptance: u280 (HBM) and
// u250 (DDR), WCC and PR, 1 and 2 FPGAs, edges in memory and in block RAM,
// on small graphs so that CI stays quick.
var exportCases = []design{
	{board: "u280", kernel: "wcc", graph: "uniform:v=60,d=4,seed=3", fpgas: 1, pes: 2, mem: model.OffChip},
	{board: "u280", kernel: "pr", graph: "rmat:scale=6,ef=4,seed=2", fpgas: 2, pes: 2, mem: model.OffChip},
	{board: "u250", kernel: "wcc", graph: "rmat:scale=6,ef=4,seed=5", fpgas: 2, pes: 3, mem: model.OffChip},
	{board: "u250", kernel: "pr", graph: "uniform:v=50,d=3,seed=9", fpgas: 1, pes: 2, mem: model.BRAM},
}

// TestExportSimulates exports every case and runs its testbench (the
// kernels driven as the host drives them, AXI memory models with random
// back-pressure and latency, every protocol checker on) in Icarus and in
// Verilator, and make lint: both simulators must print RESULT PASS with
// the reference's message count, the same cycles and the same state
// hashes, which for an integer kernel are manifest.json's.
func TestExportSimulates(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	testenv.NeedTool(t, "verilator")
	for _, d := range exportCases {
		t.Run(d.name(), func(t *testing.T) { checkSimulates(t, d) })
	}
}

// TestExportMatrix is TestExportSimulates on every Alveo board with WCC,
// PR and BFS on 1 and 2 FPGAs, and WCC on 3 (the most two QSFP28 cages
// join), the edge memory alternating between off-chip and block RAM: 21
// designs outside CI (make check-vitis sets GRAVF_VITIS_MATRIX).
func TestExportMatrix(t *testing.T) {
	if os.Getenv("GRAVF_VITIS_MATRIX") == "" {
		t.Skip("every board, kernel and FPGA count: set GRAVF_VITIS_MATRIX=1 (make check-vitis)")
	}
	testenv.NeedTool(t, "iverilog")
	testenv.NeedTool(t, "verilator")
	seed := 0
	for _, board := range []string{"u280", "u250", "u55c"} {
		for _, k := range []string{"wcc", "pr", "bfs"} {
			for fpgas := 1; fpgas <= 3; fpgas++ {
				if fpgas == 3 && k != "wcc" {
					continue
				}
				seed++
				// BFS from vertex 0 on a uniform graph: on R-MAT vertex 0 may
				// have no edges.
				g, mem := fmt.Sprintf("rmat:scale=6,ef=4,seed=%d", seed), model.OffChip
				if seed%2 == 0 || k == "bfs" {
					g = fmt.Sprintf("uniform:v=64,d=4,seed=%d", seed)
				}
				if seed%2 == 0 {
					mem = model.BRAM
				}
				d := design{board: board, kernel: k, graph: g, fpgas: fpgas, pes: 1 + seed%3, mem: mem}
				t.Run(d.name(), func(t *testing.T) { checkSimulates(t, d) })
			}
		}
	}
}

func (d design) name() string {
	return fmt.Sprintf("%s_%s_%dx%d_%s", d.board, d.kernel, d.fpgas, d.pes, d.mem)
}

// checkSimulates exports d and runs make sim, make sim-verilator and make
// lint on it (see TestExportSimulates).
func checkSimulates(t *testing.T, d design) {
	dir, m := d.export(t)
	if m.Expected.Messages == 0 {
		t.Fatalf("%s: the kernel sends no message on this graph, so its run would test little", d.graph)
	}
	icarus := resultLine(t, runMake(t, dir, "sim"))
	verilator := resultLine(t, runMake(t, dir, "sim-verilator"))
	if icarus != verilator {
		t.Errorf("Icarus and Verilator disagree:\n  %s\n  %s", icarus, verilator)
	}
	if want := fmt.Sprintf("messages=%d ", m.Expected.Messages); !strings.Contains(icarus, want) {
		t.Errorf("%s: want %s", icarus, want)
	}
	if d.kernel != "pr" {
		var hashes []string
		for _, k := range m.Vitis.Kernels {
			hashes = append(hashes, k.StateSHA)
		}
		if want := "state_sha256=" + strings.Join(hashes, ","); !strings.HasSuffix(icarus, want) {
			t.Errorf("%s: want %s", icarus, want)
		}
	}
	runMake(t, dir, "lint")
	t.Log(icarus)
}

// TestExportHyphenatedKernel: a kernel whose name holds hyphens
// (pr-graphalytics, with a global sum) exports under its identifier, the
// name gen gives its kernel modules (the PE is gravf_pe with the globals
// unit): make sim of such a project passes in
// Icarus (RESULT PASS, 4680 messages on karate at 2 x 2).
func TestExportHyphenatedKernel(t *testing.T) {
	d := design{board: "u280", kernel: "pr-graphalytics", graph: "uniform:v=300,d=4,seed=2", fpgas: 2, pes: 2, mem: model.BRAM}
	dir, m := d.export(t)
	for f, k := range m.Vitis.Kernels {
		if want := fmt.Sprintf("gravf_pr_graphalytics_fpga%d", f); k.Name != want {
			t.Errorf("kernel %d is %q, want %q", f, k.Name, want)
		}
	}
	top, err := os.ReadFile(filepath.Join(dir, "rtl", "gravf_pr_graphalytics_fpga0.v"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"pr_graphalytics_apply.v", "pr_graphalytics_combine.v", "gravf_globals.v"} {
		if _, err := os.Stat(filepath.Join(dir, "rtl", f)); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(string(top), "gravf_pe #(") || strings.Contains(string(top), "pr-graphalytics_") {
		t.Error("the top does not instantiate the PE, or names a module by the kernel's name instead of its identifier")
	}
}

// TestExportRefuses holds the export to what a card can run, each refusal
// naming the limit: a board without a Vitis platform, more FPGAs than the
// cards' QSFP28 cages can join, a kernel name Vitis cannot use, a buffer
// larger than a bank, and buffers that together overflow a bank.
func TestExportRefuses(t *testing.T) {
	small := design{board: "u280", kernel: "wcc", graph: "uniform:v=600,d=8,seed=3", fpgas: 1, pes: 2, mem: model.OffChip}
	cases := []struct {
		name string
		d    design
		edit func(*gen.ExportOptions)
		bank int64
		want string
	}{
		{name: "board", d: design{board: "ac510", kernel: "wcc", graph: "uniform:v=40,d=3,seed=1", fpgas: 1, pes: 1},
			want: `board "ac510" is not an Alveo board with a known Vitis platform (supported: u250, u280, u55c)`},
		{name: "fpgas", d: design{board: "u250", kernel: "wcc", graph: "uniform:v=40,d=3,seed=1", fpgas: 4, pes: 1},
			want: "4 FPGAs: each FPGA talks to every other over its own QSFP28 cage, and a u250 card has 2, so at most 3 FPGAs"},
		{name: "name", d: small, edit: func(o *gen.ExportOptions) { o.Kernel.Spec.Name = "my wcc" },
			want: `kernel name "my wcc" is not an identifier`},
		{name: "buffer", d: small, bank: 4096,
			want: "buffer image of FPGA 0 needs 15.2 KiB, more than one HBM bank holds (4.0 KiB); XRT allocates a buffer in one bank"},
		{name: "bank", d: small, bank: 16 << 10,
			want: "the buffers of FPGA 0 in HBM[0] need 16.4 KiB, more than the bank's 16.0 KiB"},
		{name: "on chip", d: small, edit: func(o *gen.ExportOptions) {
			b := *o.Board
			b.FPGA.BRAM36, b.FPGA.URAM = 1, 0
			o.Board = &b
		}, want: "the PEs of FPGA 0 need 102.0 Kbit of on-chip tables (edge index 64.5 Kbit, id-table 5.9 Kbit, vertex info 25.2 Kbit, states 6.4 Kbit), more than the 36.0 Kbit of block RAM and UltraRAM on xcu280-fsvh2892-2L-e"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.bank > 0 {
				saved := platforms["u280"]
				pl := saved
				pl.BankBytes = c.bank
				platforms["u280"] = pl
				defer func() { platforms["u280"] = saved }()
			}
			o := c.d.options(t, filepath.Join(t.TempDir(), "proj"))
			if c.edit != nil {
				spec := *o.Kernel.Spec
				k := *o.Kernel
				k.Spec = &spec
				o.Kernel = &k
				c.edit(&o)
			}
			_, err := Export(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
			if _, serr := os.Stat(o.Dir); serr == nil {
				t.Errorf("%s written despite the error", o.Dir)
			}
		})
	}
}

// TestExportDeterministic exports one design twice: every file must be
// the same, byte for byte.
func TestExportDeterministic(t *testing.T) {
	d := design{board: "u280", kernel: "pr", graph: "rmat:scale=5,ef=4,seed=2", fpgas: 2, pes: 3, mem: model.OffChip}
	a, ma := d.export(t)
	b, _ := d.export(t)
	for _, f := range ma.Files {
		x, err := os.ReadFile(filepath.Join(a, f))
		if err != nil {
			t.Fatal(err)
		}
		y, err := os.ReadFile(filepath.Join(b, f))
		if err != nil {
			t.Fatal(err)
		}
		if string(x) != string(y) {
			t.Errorf("%s differs between two exports of the same design", f)
		}
	}
}
