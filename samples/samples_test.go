package samples

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// TestCopyKernel: a copy of a built-in kernel loads as the same kernel,
// and a copy never overwrites a folder.
func TestCopyKernel(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "wcc")
	if err := CopyKernel("wcc", dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"kernel.toml", "gather.v", "apply.v", "scatter.v"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the copy lacks %s: %v", f, err)
		}
	}
	spec, err := kernel.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := Kernel("wcc")
	if err != nil {
		t.Fatal(err)
	}
	if spec.Name != orig.Name || len(spec.Vertex) != len(orig.Vertex) || len(spec.Verilog) != len(orig.Verilog) {
		t.Errorf("the copy reads as %s with %d vertex fields and %d Verilog files, want %s, %d, %d",
			spec.Name, len(spec.Vertex), len(spec.Verilog), orig.Name, len(orig.Vertex), len(orig.Verilog))
	}
	if err := CopyKernel("wcc", dir); err == nil {
		t.Error("a second copy into the same folder succeeded")
	}
	if err := CopyKernel("nope", filepath.Join(t.TempDir(), "x")); err == nil {
		t.Error("copied a kernel that does not exist")
	}
}
