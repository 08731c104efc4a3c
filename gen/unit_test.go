package gen

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestBuildingBlocksBehave runs the unit testbenches of the hand-written
// building blocks that have behaviour of their own (testdata/unit/tb_<module>.v:
// the delay line, the barrier counter, both hazard detectors, the
// block-RAM scatter unit, the globals unit) in Icarus. Each drives its
// module with seeded random stimulus, checks it against a model in the testbench and prints
// PASS. The PE, the FPGA and the crossbar are checked whole by the system
// testbenches against the BSP reference and, cycle for cycle, against the
// simulator (cmd/gravf-tui TestRTLAgreesWithSimulator).
func TestBuildingBlocksBehave(t *testing.T) {
	iverilog := testenv.NeedTool(t, "iverilog")
	vvp := testenv.NeedTool(t, "vvp")
	names, files := writeBlocks(t)
	dir := t.TempDir()
	tbs, err := filepath.Glob(filepath.Join("testdata", "unit", "tb_*.v"))
	if err != nil || len(tbs) == 0 {
		t.Fatalf("no unit testbenches: %v", err)
	}
	for _, tb := range tbs {
		top := strings.TrimSuffix(filepath.Base(tb), ".v")
		t.Run(strings.TrimPrefix(top, "tb_"), func(t *testing.T) {
			if !slices.Contains(names, strings.TrimPrefix(top, "tb_")+".v") {
				t.Fatalf("%s tests no building block", tb)
			}
			abs, _ := filepath.Abs(tb)
			bin := filepath.Join(dir, top+".vvp")
			args := append([]string{"-g2005", "-o", bin, "-s", top, abs}, files...)
			if out, err := exec.Command(iverilog, args...).CombinedOutput(); err != nil {
				t.Fatalf("iverilog: %v\n%s", err, out)
			}
			out, err := exec.Command(vvp, "-n", bin).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "PASS") {
				t.Fatalf("%v\n%s", err, out)
			}
		})
	}
}
