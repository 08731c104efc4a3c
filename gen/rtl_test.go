package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestBuildingBlocksLint runs verilator -Wall on every building block, in
// the parameterisations the systems use.
func TestBuildingBlocksLint(t *testing.T) {
	verilator := testenv.NeedTool(t, "verilator")
	names, src := BuildingBlocks()
	dir := t.TempDir()
	params := map[string][][]string{
		"gravf_crossbar.v": {{"-GNP=1", "-GNR=0", "-GBW=12"}, {"-GNP=9", "-GNR=3", "-GBW=40"}, {"-GNP=2", "-GNR=1", "-GBW=8"}},
		"gravf_fifo.v":     {{"-GWIDTH=8", "-GDEPTH=8"}, {"-GWIDTH=33", "-GDEPTH=100"}},
		"gravf_ram.v":      {{"-GWIDTH=8", "-GDEPTH=16"}},
	}
	for _, n := range names {
		f := filepath.Join(dir, n)
		if err := os.WriteFile(f, []byte(src[n]), 0o644); err != nil {
			t.Fatal(err)
		}
		ps := params[n]
		if ps == nil {
			ps = [][]string{nil}
		}
		for _, p := range ps {
			args := append([]string{"--lint-only", "-Wall"}, p...)
			if out, err := exec.Command(verilator, append(args, f)...).CombinedOutput(); err != nil {
				t.Errorf("%s %v:\n%s", n, p, out)
			}
		}
	}
}

// TestTestbenchModelsLint runs verilator -Wall on the testbench's link and
// edge memory models.
func TestTestbenchModelsLint(t *testing.T) {
	verilator := testenv.NeedTool(t, "verilator")
	dir := t.TempDir()
	for name, params := range map[string][][]string{
		"gravf_link_model.v": {{"-GWIDTH=40", "-GLATENCY=10"}},
		"gravf_mem_model.v":  {{"-GNP=1"}, {"-GNP=3", "-GWORD=64", "-GAW=7", "-GDEPTH=100"}, {"-GNP=9", "-GINFLIGHT=4"}},
	} {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(testbenchModel(name)), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, p := range params {
			args := append([]string{"--lint-only", "-Wall"}, p...)
			if out, err := exec.Command(verilator, append(args, f)...).CombinedOutput(); err != nil {
				t.Errorf("%s %v:\n%s", name, p, out)
			}
		}
	}
}
