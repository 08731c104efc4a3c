package vitis

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// writeSources writes the embedded RTL and testbench models, gen's
// building blocks and this package's unit testbenches into dir and
// returns their paths.
func writeSources(t *testing.T, dir string, units bool) []string {
	t.Helper()
	var paths []string
	put := func(name, src string) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, set := range []func() ([]string, map[string]string){RTLFiles, TBFiles, gen.BuildingBlocks} {
		names, src := set()
		for _, n := range names {
			put(n, src[n])
		}
	}
	if units {
		ents, err := os.ReadDir("testdata")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".v") {
				b, err := os.ReadFile(filepath.Join("testdata", e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				put(e.Name(), string(b))
			}
		}
	}
	return paths
}

// TestLint runs verilator --lint-only -Wall on every hand-written kernel
// module (with the kernel RTL and gen's building blocks) and every
// testbench model (alone): each must be clean with only the waivers in its
// source.
func TestLint(t *testing.T) {
	verilator := testenv.NeedTool(t, "verilator")
	dir := t.TempDir()
	writeSources(t, dir, false)
	var rtl []string
	for _, set := range []func() ([]string, map[string]string){RTLFiles, gen.BuildingBlocks} {
		for _, n := range first(set()) {
			rtl = append(rtl, filepath.Join(dir, n))
		}
	}
	lint := func(top string, args ...string) {
		t.Run(top, func(t *testing.T) {
			t.Parallel()
			args = append([]string{"--lint-only", "-Wall", "--top-module", top}, args...)
			if out, err := exec.Command(verilator, args...).CombinedOutput(); err != nil {
				t.Fatalf("verilator --lint-only -Wall %s: %v\n%s", top, err, out)
			}
		})
	}
	for _, n := range first(RTLFiles()) {
		lint(strings.TrimSuffix(n, ".v"), rtl...)
	}
	for _, n := range first(TBFiles()) {
		lint(strings.TrimSuffix(n, ".v"), "--timing", filepath.Join(dir, n))
	}
}

func first(names []string, _ map[string]string) []string { return names }

// TestUnits runs testdata/tb_units.v, every building block against the
// models with its own parameters, in Icarus and in Verilator: both must
// print UNITS PASS, after the same number of cycles.
func TestUnits(t *testing.T) {
	dir := t.TempDir()
	files := writeSources(t, dir, true)
	var cycles []string
	t.Run("icarus", func(t *testing.T) {
		iverilog := testenv.NeedTool(t, "iverilog")
		vvp := testenv.NeedTool(t, "vvp")
		bin := filepath.Join(dir, "units.vvp")
		if out, err := exec.Command(iverilog, append([]string{"-g2005", "-s", "tb_units", "-o", bin}, files...)...).CombinedOutput(); err != nil {
			t.Fatalf("iverilog: %v\n%s", err, out)
		}
		cycles = append(cycles, expectPass(t, exec.Command(vvp, "-n", bin), "UNITS PASS"))
	})
	t.Run("verilator", func(t *testing.T) {
		verilator := testenv.NeedTool(t, "verilator")
		mdir := filepath.Join(dir, "obj")
		args := []string{"--binary", "--timing", "--timescale", "1ns/1ps", "-Wno-fatal", "-Wno-lint", "-Wno-style",
			"-Mdir", mdir, "--top-module", "tb_units", "-o", "tb_units"}
		if out, err := exec.Command(verilator, append(args, files...)...).CombinedOutput(); err != nil {
			t.Fatalf("verilator: %v\n%s", err, out)
		}
		cycles = append(cycles, expectPass(t, exec.Command(filepath.Join(mdir, "tb_units")), "UNITS PASS"))
	})
	if len(cycles) == 2 && cycles[0] != cycles[1] {
		t.Errorf("Icarus and Verilator disagree: %q and %q", cycles[0], cycles[1])
	}
}

// expectPass runs a simulation and returns its line that starts with
// want; it fails the test with the output when there is none.
func expectPass(t *testing.T, cmd *exec.Cmd, want string) string {
	t.Helper()
	out, err := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, want) && err == nil {
			return line
		}
	}
	t.Fatalf("%s: no %q line (%v):\n%s", cmd.Path, want, err, out)
	return ""
}
