package gen

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/model"
)

// hostileBoard is the AC-510 with a value in every string field that runs
// a command, splits a word or ends a line in one of the languages of the
// exported scripts. Loading a board file rejects most of them (the part
// pattern, the id rules); Export must stay safe even for a board built in
// code, so it escapes everything it writes.
func hostileBoard(t *testing.T) *boards.Board {
	t.Helper()
	b0, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	b := *b0
	b.Memory = append([]boards.Memory(nil), b0.Memory...)
	evil := func(tag string) string {
		return tag + ` $(touch pwned) ` + "`touch pwned`" + ` [exec touch pwned] "q" 'q' {b} \` + "\n! touch pwned\nexec touch pwned\n$(shell touch pwned)"
	}
	b.Name, b.Title, b.Doc, b.Source = evil("name"), evil("title"), evil("doc"), evil("source")
	b.FPGA.Part = evil("xcku060")
	for i := range b.Memory {
		b.Memory[i].Name = evil("mem")
	}
	return &b
}

// hostileDir is an output folder name with spaces, quotes, $(...), [...]
// and a newline.
const hostileDir = "my proj $(touch pwned) [exec touch pwned] 'q' \"dq\" \nnext line"

func noPwned(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pwned")); err == nil {
			t.Fatalf("a script ran a command from the board or the path: %s/pwned exists", d)
		}
	}
}

// TestExportHostileStrings is issue 16 item 1: with a hostile value in
// every string field of the board and in the output path, the exported
// scripts still run (the Vivado scripts and the XDC under tclsh with stub
// commands, the yosys script under yosys, every make target under make
// -n) and run nothing but themselves; Vivado gets the part exactly as the
// board wrote it.
func TestExportHostileStrings(t *testing.T) {
	tclsh := testenv.NeedTool(t, "tclsh")
	yosys := testenv.NeedTool(t, "yosys")
	base := t.TempDir()
	dir := filepath.Join(base, hostileDir)
	k, g := loadSample(t, "wcc", datasets.Path(t, "karate.mtx"), "")
	b := hostileBoard(t)
	if _, err := Export(context.Background(), ExportOptions{Board: b, Kernel: k, Graph: g, FPGAs: 2, PEs: 1, Filter: true,
		Mem: model.BRAM, Dir: dir, Version: "test"}); err != nil {
		t.Fatal(err)
	}

	// Vivado: each build script, with read_xdc sourcing the XDC as Vivado
	// does (XDC is Tcl), and synth_design recording its -part.
	stub := `proc read_verilog {f} { if {![file exists $f]} { puts "MISSING $f"; exit 1 } }
proc read_xdc {f} { source $f }
proc get_ports {p} { return $p }
proc create_clock {args} {}
proc synth_design {args} {
	set f [open part.txt w]; fconfigure $f -translation binary
	puts -nonewline $f [lindex $args [expr {[lsearch $args -part] + 1}]]; close $f
}
foreach p {opt_design place_design route_design report_utilization report_timing_summary write_bitstream} { proc $p {args} {} }
source [lindex $argv 0]
`
	os.WriteFile(filepath.Join(dir, "stub.tcl"), []byte(stub), 0o644)
	for _, s := range []string{"scripts/build_fpga0.tcl", "scripts/build_fpga1.tcl"} {
		cmd := exec.Command(tclsh, "stub.tcl", s)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("tclsh %s: %v\n%s", s, err, out)
		}
		got, err := os.ReadFile(filepath.Join(dir, "part.txt"))
		if err != nil || string(got) != b.FPGA.Part {
			t.Fatalf("%s gave synth_design -part %q, want %q (%v)", s, got, b.FPGA.Part, err)
		}
	}

	// make -n: every target parses and expands to commands.
	cmd := exec.Command("make", "-n", "sim", "sim-verilator", "lint", "synth", "bit", "clean")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make -n: %v\n%s", err, out)
	}

	// yosys runs the real script; the RTL is replaced by a one-register
	// design so that synthesis takes seconds: what is tested is how yosys
	// reads the script's lines.
	rtl, err := os.ReadDir(filepath.Join(dir, "rtl")) // not Glob: the folder's name holds [...]
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rtl {
		f := filepath.Join(dir, "rtl", e.Name())
		m := strings.TrimSuffix(e.Name(), ".v")
		src := "module " + m + "; endmodule\n"
		if strings.HasSuffix(m, "_top") {
			src = "module " + m + " #(parameter FPGA = 0) (input clk, input d, output reg q); always @(posedge clk) q <= d; endmodule\n"
		}
		os.WriteFile(f, []byte(src), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "build"), 0o755)
	cmd = exec.Command(yosys, "-q", "-l", "build/synth.log", "scripts/synth.ys")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("yosys: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "fpga1_stat.txt")); err != nil {
		t.Fatalf("yosys did not reach the last FPGA: %v", err)
	}
	core, _ := os.ReadFile(filepath.Join(dir, "gravf_wcc.core"))
	if !strings.Contains(string(core), "\ndescription: \"GraVF-M wcc on 2 x name $(touch pwned)") {
		t.Errorf("the FuseSoC description is not one quoted scalar:\n%s", core)
	}
	noPwned(t, dir, base, ".")
}

// TestExportRefusesUnquotableFamily: a value that cannot be escaped for
// yosys stops the export before anything is written.
func TestExportRefusesUnquotableFamily(t *testing.T) {
	b0, _ := boards.Get("ac510")
	b := *b0
	b.FPGA.Family = "xcu; ! touch pwned"
	k, g := loadSample(t, "wcc", datasets.Path(t, "karate.mtx"), "")
	dir := filepath.Join(t.TempDir(), "proj")
	_, err := Export(context.Background(), ExportOptions{Board: &b, Kernel: k, Graph: g, FPGAs: 1, PEs: 1, Mem: model.BRAM, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "fpga.family") || !strings.Contains(err.Error(), "yosys") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("a project was written")
	}
}

// TestExportForceReplacesOnlyExports is issue 16 item 3: --force replaces
// a folder holding a previous export's manifest.json, and nothing else: a
// regular file and a folder that is not an export stay as they were, with
// or without --force.
func TestExportForceReplacesOnlyExports(t *testing.T) {
	karate := datasets.Path(t, "karate.mtx")
	base := t.TempDir()
	export := func(dir string, force bool) error {
		_, err := exportProject(t, "wcc", karate, "", 1, 1, model.BRAM, dir, force)
		return err
	}
	refused := func(err error, want string) {
		t.Helper()
		var oe *OutputError
		if !errors.As(err, &oe) || !strings.Contains(err.Error(), want) {
			t.Fatalf("err = %v, want an OutputError saying %q", err, want)
		}
	}

	file := filepath.Join(base, "thesis.pdf")
	os.WriteFile(file, []byte("precious"), 0o600)
	for _, force := range []bool{false, true} {
		refused(export(file, force), "never replaces a file")
		if b, _ := os.ReadFile(file); string(b) != "precious" {
			t.Fatalf("force=%v: the file now holds %q", force, b)
		}
	}

	thesis := filepath.Join(base, "thesis")
	os.MkdirAll(filepath.Join(thesis, "chapters"), 0o755)
	os.WriteFile(filepath.Join(thesis, "chapters", "one.tex"), []byte("years of work"), 0o644)
	refused(export(thesis, true), "not a previous export (no manifest.json)")
	os.WriteFile(filepath.Join(thesis, "manifest.json"), []byte(`{"name": "my own manifest"}`), 0o644)
	refused(export(thesis, true), "not written by gravf-tui")
	if b, _ := os.ReadFile(filepath.Join(thesis, "chapters", "one.tex")); string(b) != "years of work" {
		t.Fatal("the foreign folder was touched")
	}

	empty := filepath.Join(base, "empty")
	os.Mkdir(empty, 0o755)
	if err := export(empty, false); err != nil {
		t.Fatalf("an empty folder: %v", err)
	}

	proj := filepath.Join(base, "proj")
	if err := export(proj, false); err != nil {
		t.Fatal(err)
	}
	refused(export(proj, false), "use --force")
	os.WriteFile(filepath.Join(proj, "stale.v"), nil, 0o644)
	link := filepath.Join(base, "link")
	os.Symlink("proj", link)
	if err := export(link, true); err != nil {
		t.Fatalf("--force on a previous export (through a link): %v", err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced by a folder")
	}
	if _, err := os.Stat(filepath.Join(proj, "stale.v")); err == nil {
		t.Fatal("the previous export was not replaced")
	}
	if _, err := os.Stat(filepath.Join(proj, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(base)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("temporary %s left beside the projects", e.Name())
		}
	}
}
