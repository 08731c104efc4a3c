package vitis

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestSynth runs make synth (yosys synth_xilinx) on a kernel with its
// edges in HBM and reports its resources, the kernel's infrastructure
// (control, loader, writer, edge ports, links) beside its PEs. The kernel
// has one PE, which make lint checks too (TestExportSimulates has more).
func TestSynth(t *testing.T) {
	testenv.NeedTool(t, "yosys")
	testenv.NeedTool(t, "verilator")
	d := design{board: "u280", kernel: "wcc", graph: "uniform:v=40,d=3,seed=1", fpgas: 2, pes: 1, mem: model.OffChip}
	dir, m := d.export(t)
	runMake(t, dir, "lint")
	// FPGA 0's kernel: make synth would synthesise every FPGA's.
	for _, k := range m.Vitis.Kernels[:1] {
		cmd := exec.Command("yosys", "-q", "-l", "build/synth.log", "scripts/synth_"+k.Name+".ys")
		cmd.Dir = dir
		if err := os.MkdirAll(filepath.Join(dir, "build"), 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("yosys: %v\n%s", err, out)
		}
		b, err := os.ReadFile(filepath.Join(dir, "build", k.Name+"_stat.txt"))
		if err != nil {
			t.Fatal(err)
		}
		res := gen.ParseYosysStat(string(b))
		top, pe := res[k.Name], gen.Resources{}
		for name, r := range res {
			if strings.Contains(name, "gravf_pe") {
				pe = r
			}
		}
		if top.LUT == 0 || top.FF == 0 || pe.LUT == 0 || top.LUT <= pe.LUT {
			t.Fatalf("%s: kernel %+v, PE %+v", k.Name, top, pe)
		}
		t.Logf("%s (1 PE, edges in HBM, one link): %d LUT (%d as memory), %d FF, %.1f BRAM36, %d DSP; the PE %d LUT, %d FF",
			k.Name, top.LUT, top.LUTRAM, top.FF, top.BRAM36, top.DSP, pe.LUT, pe.FF)
	}
	// The link kernel, its Aurora core a black box.
	cmd := exec.Command("yosys", "-q", "-l", "build/synth_link.log", "scripts/synth_gravf_aurora_link.ys")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("yosys: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "build", "gravf_aurora_link_stat.txt"))
	if err != nil {
		t.Fatal(err)
	}
	link := gen.ParseYosysStat(string(b))["gravf_aurora_link"]
	if link.LUT == 0 || link.FF == 0 {
		t.Fatalf("gravf_aurora_link: %+v", link)
	}
	t.Logf("gravf_aurora_link (without the Aurora core): %d LUT (%d as memory), %d FF, %.1f BRAM36", link.LUT, link.LUTRAM, link.FF, link.BRAM36)
}
