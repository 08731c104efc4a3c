package vitis

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestExportWritesOnlyWhatItOwns is issue 16 item 3 for the Vitis target:
// like the plain export it replaces, with Force, only a folder holding a
// previous export; a regular file or a folder of the user's is never
// replaced, with or without Force.
func TestExportWritesOnlyWhatItOwns(t *testing.T) {
	d := design{board: "u280", kernel: "wcc", graph: "uniform:v=600,d=8,seed=3", fpgas: 1, pes: 2, mem: model.OffChip}
	base := t.TempDir()
	thesis := filepath.Join(base, "thesis")
	os.Mkdir(thesis, 0o755)
	os.WriteFile(filepath.Join(thesis, "ch1.tex"), []byte("precious"), 0o644)
	file := filepath.Join(base, "notes.txt")
	os.WriteFile(file, []byte("precious"), 0o644)
	for _, dir := range []string{thesis, file} {
		o := d.options(t, dir)
		o.Force = true
		if _, err := Export(context.Background(), o); err == nil || !strings.Contains(err.Error(), "not") {
			t.Errorf("export over %s: %v", dir, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(thesis, "ch1.tex")); err != nil || string(b) != "precious" {
		t.Errorf("the foreign folder was touched: %q, %v", b, err)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != "precious" {
		t.Errorf("the file was touched: %q, %v", b, err)
	}
	proj := filepath.Join(base, "proj")
	o := d.options(t, proj)
	if _, err := Export(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if _, err := Export(context.Background(), o); err == nil || !strings.Contains(err.Error(), "use --force") {
		t.Errorf("a second export without Force: %v", err)
	}
	o.Force = true
	if _, err := Export(context.Background(), o); err != nil {
		t.Errorf("a second export with Force: %v", err)
	}
}

// TestExportHostileBoardStrings is issue 16 item 1 for the Vitis target:
// a part that is not a plain word (from a board built in code, bypassing
// the loader's check) is quoted in the Vivado script and kept on its
// comment line, and a family yosys cannot take is refused.
func TestExportHostileBoardStrings(t *testing.T) {
	d := design{board: "u280", kernel: "wcc", graph: "uniform:v=600,d=8,seed=3", fpgas: 1, pes: 2, mem: model.OffChip}
	o := d.options(t, filepath.Join(t.TempDir(), "proj"))
	b := *o.Board
	b.FPGA.Part = "xcu280[exec touch pwned]\nsynth -top x"
	o.Board = &b
	if _, err := Export(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join("scripts", "package_gravf_wcc_fpga0.tcl")
	tcl, err := os.ReadFile(filepath.Join(o.Dir, script))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(tcl), `set part  "xcu280\[exec touch pwned\]\nsynth -top x"`) {
		t.Errorf("the part is not quoted:\n%s", tcl)
	}
	// Under tclsh with stub Vivado commands, Vivado receives the part byte
	// for byte and nothing runs.
	tclsh := testenv.NeedTool(t, "tclsh")
	stub := strings.Replace(packageStub, `proc create_project {args} { if {[lsearch $args -part] < 0} { puts "NO PART"; exit 1 } }`,
		`proc create_project {args} { puts "PART=[lindex $args [expr {[lsearch $args -part] + 1}]]=" }`, 1)
	if err := os.WriteFile(filepath.Join(o.Dir, "stub.tcl"), []byte(stub), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(tclsh, "stub.tcl", script)
	cmd.Dir = o.Dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "PART="+b.FPGA.Part+"=") {
		t.Errorf("tclsh %s: %v\n%s", script, err, out)
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "pwned")); err == nil {
		t.Error("the part ran a command")
	}
	ys, _ := filepath.Glob(filepath.Join(o.Dir, "scripts", "*.ys"))
	for _, f := range ys {
		data, _ := os.ReadFile(f)
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "synth -top x") {
				t.Errorf("%s: the part broke out of its comment", f)
			}
		}
	}
	o = d.options(t, filepath.Join(t.TempDir(), "proj"))
	b = *o.Board
	b.FPGA.Family = "xcup; exec touch pwned"
	o.Board = &b
	if _, err := Export(context.Background(), o); err == nil || !strings.Contains(err.Error(), "fpga.family") {
		t.Errorf("a hostile family: %v", err)
	}
	if _, err := os.Stat(o.Dir); err == nil {
		t.Errorf("%s written despite the error", o.Dir)
	}
}
