package vitis

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestHost builds the host program with make host against the system's
// XRT (Debian's libxrt-dev) and runs it without a card: --self-check
// passes on the exported files and fails on a manifest whose hash was
// changed; a bad buffer file is an error naming its line; a run without
// a device says so and exits with status 3.
func TestHost(t *testing.T) {
	testenv.NeedTool(t, "g++")
	testenv.NeedFile(t, "/usr/include/xrt/xrt/xrt_device.h", "libxrt-dev")
	d := design{board: "u280", kernel: "bfs", graph: "uniform:v=40,d=3,seed=1", fpgas: 2, pes: 2, mem: model.OffChip}
	dir, m := d.export(t)
	runMake(t, dir, "host")
	host := filepath.Join(dir, "build", "gravf_host")
	run := func(args ...string) (string, int) {
		cmd := exec.Command(host, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "XILINX_XRT=")
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	out, code := run("--self-check")
	want := "RESULT PASS self-check: every buffer read, state_sha256=" + m.Vitis.Kernels[0].StateSHA + "," + m.Vitis.Kernels[1].StateSHA
	if code != 0 || strings.TrimSpace(out) != want {
		t.Errorf("--self-check: status %d\n%s\nwant %s", code, out, want)
	}
	out, code = run("--xclbin", "build/hw/fpga0.xclbin", "--xclbin", "build/hw/fpga1.xclbin")
	if code != 3 || !strings.Contains(out, "cannot open Alveo device 0") {
		t.Errorf("without a device: status %d\n%s", code, out)
	}
	out, code = run("--xclbin", "a", "--xclbin", "b", "--xclbin", "c")
	if code != 2 || !strings.Contains(out, "3 xclbins for 2 FPGAs") {
		t.Errorf("three xclbins: status %d\n%s", code, out)
	}

	// A manifest that disagrees with the files fails the self-check.
	mf := filepath.Join(dir, "manifest.json")
	b, _ := os.ReadFile(mf)
	bad := strings.Replace(string(b), m.Vitis.Kernels[1].StateSHA, strings.Repeat("0", 64), 1)
	if err := os.WriteFile(mf, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code = run("--self-check"); code != 1 || !strings.Contains(out, "RESULT FAIL gravf_bfs_fpga1") {
		t.Errorf("changed manifest: status %d\n%s", code, out)
	}
	// A damaged buffer file is named with its line.
	img := filepath.Join(dir, "buffers", "fpga0_image.hex")
	b, _ = os.ReadFile(img)
	lines := strings.SplitAfter(string(b), "\n")
	lines[2] = "xyz\n"
	if err := os.WriteFile(img, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code = run("--self-check"); code != 2 || !strings.Contains(out, "buffers/fpga0_image.hex:3:") {
		t.Errorf("damaged image: status %d\n%s", code, out)
	}
}
