package gen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// writeBlocks writes every building block into a temporary folder and
// returns their names and paths.
func writeBlocks(t *testing.T) (names, files []string) {
	t.Helper()
	names, src := BuildingBlocks()
	dir := t.TempDir()
	for _, n := range names {
		f := filepath.Join(dir, n)
		if err := os.WriteFile(f, []byte(src[n]), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return names, files
}

// TestBuildingBlocksLint runs verilator -Wall on every building block as
// the top module, with every other block beside it, in parameterisations
// the systems use and at the edges of their ranges. gravf_pe and
// gravf_fpga need a design's kernel adapters: TestSystemLint lints them
// through fpga_top in every variant.
func TestBuildingBlocksLint(t *testing.T) {
	verilator := testenv.NeedTool(t, "verilator")
	names, files := writeBlocks(t)
	params := map[string][][]string{
		"gravf_crossbar.v":        {{"-GNP=1", "-GNR=0", "-GBW=12"}, {"-GNP=9", "-GNR=3", "-GBW=40"}, {"-GNP=2", "-GNR=1", "-GBW=8"}},
		"gravf_fifo.v":            {{"-GWIDTH=8", "-GDEPTH=8"}, {"-GWIDTH=33", "-GDEPTH=100"}, {"-GWIDTH=1", "-GDEPTH=2"}},
		"gravf_ram.v":             {{"-GWIDTH=8", "-GDEPTH=16"}, {"-GWIDTH=40", "-GDEPTH=1", "-GABITS=1"}},
		"gravf_delay.v":           {{"-GWIDTH=8", "-GDELAY=0"}, {"-GWIDTH=1", "-GDELAY=1", "-GRESET=1"}, {"-GWIDTH=32", "-GDELAY=9"}},
		"gravf_barrier_counter.v": {{"-GNPE=1"}, {"-GNPE=2"}, {"-GNPE=36"}},
		"gravf_globals.v":         {{"-GGW=32", "-GCL=6", "-GNPE=4"}, {"-GGW=1", "-GCL=1", "-GNPE=1"}, {"-GGW=40", "-GCL=2", "-GNPE=9"}},
		"gravf_hazard.v": {{"-GEXACT=1", "-GGL=1"}, {"-GEXACT=1", "-GGL=6", "-GLA=5", "-GNLOCAL=20"},
			{"-GEXACT=0", "-GGL=1", "-GLA=4", "-GNLOCAL=9"}, {"-GEXACT=0", "-GLA=10", "-GNLOCAL=1000"}, {"-GEXACT=0", "-GLA=1", "-GNLOCAL=1"}},
		"gravf_scatter_bram.v": {{}, {"-GNPE=4", "-GVID=10", "-GUPW=32", "-GLA=7", "-GED=16", "-GNVERTICES=1000", "-GNEDGES=500", "-GEA=9"}},
		"gravf_scatter_offchip.v": {{}, {"-GNPE=4", "-GVID=10", "-GUPW=32", "-GLA=7", "-GED=16", "-GSLOT=32", "-GWORD=128", "-GMA=12", "-GINFLIGHT=8"},
			{"-GSLOT=64", "-GWORD=64", "-GINFLIGHT=1", "-GLA=3", "-GED=32"}},
	}
	for _, n := range names {
		ps, ok := params[n]
		if !ok {
			if n != "gravf_pe.v" && n != "gravf_fpga.v" {
				t.Errorf("%s: no parameter set to lint it with", n)
			}
			continue
		}
		for _, p := range ps {
			args := append([]string{"--lint-only", "-Wall", "--top-module", strings.TrimSuffix(n, ".v")}, p...)
			if out, err := exec.Command(verilator, append(args, files...)...).CombinedOutput(); err != nil {
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
