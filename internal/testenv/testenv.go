// Package testenv tells tests whether the external tools they need
// (iverilog, verilator, yosys, gpmetis, tclsh) are installed. Outside CI a
// missing tool skips the test; in CI (CI set) it fails it, because a check
// that is skipped in CI does not count.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// NeedTool returns the path of the named program, or stops the test as
// the package doc says.
func NeedTool(tb testing.TB, name string) string {
	tb.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%s is required in CI (make test installs it): %v", name, err)
		}
		tb.Skipf("%s not installed: %v", name, err)
	}
	return p
}

// NeedFile returns path if it exists, or stops the test as NeedTool does;
// pkg names the Debian package that installs it.
func NeedFile(tb testing.TB, path, pkg string) string {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%s (Debian package %s) is required in CI (make test installs it): %v", path, pkg, err)
		}
		tb.Skipf("%s not installed (Debian package %s): %v", path, pkg, err)
	}
	return path
}
