package explorer

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/samples"
)

// TestKernelFolderNamedAsBuiltIn: a kernel cell naming ./wcc reads the
// folder beside the notebook, not the built-in kernel of that name (the
// TUI's e copies wcc there), so the folder's errors show.
func TestKernelFolderNamedAsBuiltIn(t *testing.T) {
	dir := t.TempDir()
	if err := samples.CopyKernel("wcc", filepath.Join(dir, "wcc")); err != nil {
		t.Fatal(err)
	}
	toml := filepath.Join(dir, "wcc", "kernel.toml")
	f, err := os.OpenFile(toml, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("bogus = 1\n")
	f.Close()
	nb := Default()
	nb.Path = filepath.Join(dir, "nb.gravf.toml")
	if err := nb.Edit(2, func(in Input) error { in.(*Kernel).Kernel = "./wcc"; return nil }); err != nil {
		t.Fatal(err)
	}
	_, err = nb.Eval(context.Background(), 2, nil)
	if err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Fatalf("the kernel was not read from the folder: %v", err)
	}
	if _, fe := nb.Blame(2, err); fe == nil || fe.Key != "kernel" {
		t.Errorf("the error is not at the kernel field: %+v", fe)
	}
}
