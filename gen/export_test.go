package gen

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
)

// loadSample loads a sample kernel and a graph (with weights when the
// kernel has edge data) and binds them, with every vertex parameter (the
// BFS/SSSP root) at label 1.
func loadSample(t *testing.T, kname, graphPath string, format graph.Format) (*kernel.Kernel, *graph.Graph) {
	t.Helper()
	spec, err := samples.Kernel(kname)
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load(graphPath, graph.ReadOptions{Format: format, Weighted: len(spec.Edge) > 0})
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]string{}
	for _, p := range spec.Params {
		if p.Kind == kernel.ParamVertex {
			params[p.Name] = "1"
		}
	}
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	return k, g
}

func exportProject(t *testing.T, kname, graphPath string, format graph.Format, nF, nP int, mem model.MemKind, dir string, force bool) (*Manifest, error) {
	t.Helper()
	k, g := loadSample(t, kname, graphPath, format)
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	return Export(context.Background(), ExportOptions{Board: b, Kernel: k, Graph: g, FPGAs: nF, PEs: nP, Filter: true, Mem: mem, Dir: dir, Force: force, Version: "test"})
}

func make_(t *testing.T, dir, target string) string {
	t.Helper()
	cmd := exec.Command("make", "-s", target)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", target, err, out)
	}
	return string(out)
}

// TestExportRuns exports projects for a covering set and runs make sim
// (Icarus), make sim-verilator and make lint on them; every simulation
// must print RESULT PASS with the reference's message count. Under each
// simulator every kernel, 1, 2 and 4 FPGAs, and edges in block RAM and in
// off-chip memory appear at least once, on four public datasets.
func TestExportRuns(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	testenv.NeedTool(t, "verilator")
	cases := []struct {
		kernel, file string
		format       graph.Format
		nF, nP       int
		mem          model.MemKind
		verilator    bool
	}{
		{"wcc", "karate.mtx", "", 1, 2, model.BRAM, true},
		{"bfs", "power.graph", graph.FormatMETIS, 2, 2, model.BRAM, false},
		{"sssp", "rome99.gr", "", 4, 2, model.BRAM, true},
		{"sswp", "fpgagraphlib-GRCite.graph", graph.FormatEdgeList, 2, 3, model.BRAM, false},
		{"wcc", "p2p-Gnutella08.txt", "", 4, 1, model.BRAM, false},
		{"pr", "karate.mtx", "", 2, 2, model.BRAM, true},
		{"bfs", "karate.mtx", "", 1, 2, model.OffChip, true},
		{"sssp", "power.graph", graph.FormatMETIS, 2, 2, model.OffChip, false},
		{"pr", "karate.mtx", "", 4, 2, model.OffChip, true},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/%dx%d/%s", c.kernel, c.file, c.nF, c.nP, c.mem), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "proj")
			m, err := exportProject(t, c.kernel, datasets.Path(t, c.file), c.format, c.nF, c.nP, c.mem, dir, false)
			if err != nil {
				t.Fatal(err)
			}
			out := make_(t, dir, "sim")
			want := "messages=" + strconv.FormatInt(m.Expected.Messages, 10)
			if !strings.Contains(out, "RESULT PASS") || !strings.Contains(out, want) {
				t.Fatalf("make sim:\n%s", out)
			}
			t.Log(strings.TrimSpace(lastLine(out)))
			make_(t, dir, "lint")
			if c.verilator {
				if out := make_(t, dir, "sim-verilator"); !strings.Contains(out, "RESULT PASS") {
					t.Fatalf("make sim-verilator:\n%s", out)
				}
			}
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "RESULT") {
			return lines[i]
		}
	}
	return lines[len(lines)-1]
}

// TestExportAtomicDeterministic: the same inputs give byte-identical
// files; an existing folder is refused without force.
func TestExportAtomicDeterministic(t *testing.T) {
	base := t.TempDir()
	karate := datasets.Path(t, "karate.mtx")
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	if _, err := exportProject(t, "bfs", karate, "", 2, 2, model.OffChip, a, false); err != nil {
		t.Fatal(err)
	}
	if _, err := exportProject(t, "bfs", karate, "", 2, 2, model.OffChip, b, false); err != nil {
		t.Fatal(err)
	}
	err := filepath.Walk(a, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two exports", rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exportProject(t, "bfs", karate, "", 2, 2, model.OffChip, a, false); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("second export into an existing folder: %v", err)
	}
	if _, err := exportProject(t, "wcc", karate, "", 1, 2, model.BRAM, a, true); err != nil {
		t.Fatalf("--force: %v", err)
	}
	ents, _ := os.ReadDir(base)
	if len(ents) != 2 {
		t.Fatalf("%d entries beside the projects; temporary folders were left behind", len(ents))
	}
}

// TestExportSynth runs make synth (yosys synth_xilinx) on small WCC
// (block RAM) and PageRank (off-chip edges) projects.
func TestExportSynth(t *testing.T) {
	testenv.NeedTool(t, "yosys")
	for _, c := range []struct {
		kernel string
		mem    model.MemKind
	}{{"wcc", model.BRAM}, {"pr", model.OffChip}} {
		t.Run(c.kernel, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "proj")
			if _, err := exportProject(t, c.kernel, datasets.Path(t, "karate.mtx"), "", 1, 2, c.mem, dir, false); err != nil {
				t.Fatal(err)
			}
			make_(t, dir, "synth")
			st, err := os.ReadFile(filepath.Join(dir, "build", "fpga0_stat.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(st), "fpga_top") || !strings.Contains(string(st), "LUT") {
				t.Fatalf("synthesis statistics:\n%s", st)
			}
			tot := ParseYosysStat(string(st))
			t.Logf("%s, edges in %s: per PE %+v; FPGA (2 PEs) %+v", c.kernel, c.mem, largestPE(tot), tot["fpga_top"])
		})
	}
}

// TestVivadoScripts runs every build_fpga<i>.tcl under tclsh with stub
// Vivado commands: every file a script reads must exist, and every RTL
// file of the project must be read.
func TestVivadoScripts(t *testing.T) {
	tclsh := testenv.NeedTool(t, "tclsh")
	dir := filepath.Join(t.TempDir(), "proj")
	if _, err := exportProject(t, "pr", datasets.Path(t, "karate.mtx"), "", 2, 2, model.OffChip, dir, false); err != nil {
		t.Fatal(err)
	}
	stub := `set read {}
proc read_verilog {f} { global read; if {![file exists $f]} { puts "MISSING $f"; exit 1 }; lappend read $f }
proc read_xdc {f} { if {![file exists $f]} { puts "MISSING $f"; exit 1 } }
proc synth_design {args} { if {[lsearch $args -part] < 0} { puts "NO PART"; exit 1 } }
foreach p {opt_design place_design route_design report_utilization report_timing_summary write_bitstream} { proc $p {args} {} }
source [lindex $argv 0]
puts [join $read "\n"]
`
	if err := os.WriteFile(filepath.Join(dir, "stub.tcl"), []byte(stub), 0o644); err != nil {
		t.Fatal(err)
	}
	var rtl []string
	ents, _ := os.ReadDir(filepath.Join(dir, "rtl"))
	for _, e := range ents {
		rtl = append(rtl, "rtl/"+e.Name())
	}
	for f := 0; f < 2; f++ {
		cmd := exec.Command(tclsh, "stub.tcl", filepath.Join("scripts", "build_fpga"+strconv.Itoa(f)+".tcl"))
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tclsh: %v\n%s", err, out)
		}
		got := strings.Fields(string(out))
		for _, r := range rtl {
			if !slices.Contains(got, r) {
				t.Errorf("build_fpga%d.tcl does not read %s", f, r)
			}
		}
	}
}

// TestExportOffChipProject checks what an off-chip project lists: the
// manifest's memory, the Makefile's and the FuseSoC core's testbench and
// memory images, the README's memory ports and every lint waiver with its
// reason.
func TestExportOffChipProject(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "proj")
	m, err := exportProject(t, "sssp", datasets.Path(t, "karate.mtx"), "", 2, 3, model.OffChip, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	if m.Mem != "offchip" || m.OffChip == nil || m.OffChip.EdgesPerWord < 1 || len(m.OffChip.Words) != 2 {
		t.Fatalf("manifest: edge_memory %q, offchip_memory %+v", m.Mem, m.OffChip)
	}
	read := func(p string) string {
		b, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	mk, core, readme := read("Makefile"), read("gravf_sssp.core"), read("README.md")
	for _, f := range []string{"tb/gravf_mem_model.v", "tb/gravf_link_model.v", "tb/tb_system.v"} {
		if !strings.Contains(mk, f) || !strings.Contains(core, "- "+f) {
			t.Errorf("%s is missing from the Makefile or the FuseSoC core", f)
		}
	}
	for _, f := range []string{"mem/fpga0_edges.hex", "mem/fpga1_edges.hex", "mem/pe5_ids.hex"} {
		if !strings.Contains(core, "- "+f) || !slices.Contains(m.Files, f) {
			t.Errorf("%s is missing from the FuseSoC core or the manifest", f)
		}
	}
	if slices.Contains(m.Files, "mem/pe0_edges.hex") {
		t.Error("an off-chip project holds block-RAM edge images")
	}
	if !strings.Contains(readme, "## Edge memory ports") || !strings.Contains(readme, "mem_req_ready") {
		t.Errorf("README does not describe the edge memory ports:\n%s", readme)
	}
	top := read("rtl/fpga_top.v")
	for _, p := range []string{"output wire [2:0] mem_req_valid", "input  wire [383:0] mem_resp_data"} {
		if !strings.Contains(top, p) {
			t.Errorf("fpga_top.v lacks %q", p)
		}
	}
	// Every waiver has a reason, and the README lists it.
	var files []string
	for _, sub := range []string{"rtl", "tb"} {
		ents, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".v") {
				files = append(files, sub+"/"+e.Name())
			}
		}
	}
	n := 0
	for _, p := range files {
		for _, line := range strings.Split(read(p), "\n") {
			rule, reason, ok := parseWaiver(line)
			if !ok {
				continue
			}
			n++
			if reason == "" {
				t.Errorf("%s: a %s waiver without a reason: %q", p, rule, line)
			}
			if !strings.Contains(readme, fmt.Sprintf("| `%s` | %s | %s |", p, rule, reason)) {
				t.Errorf("README does not list the %s waiver of %s (%s)", rule, p, reason)
			}
		}
	}
	if n == 0 {
		t.Fatal("no waivers found")
	}
}
