// Package samples embeds the sample kernels (WCC, BFS, PageRank, SSSP and
// single-source widest path), their hand-written Verilog where there is
// some, and the sample notebooks, so that the binary works without any
// files beside it.
package samples

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
	"github.com/gravf-tui/gravf-tui/kernel"
)

//go:embed kernels
var kernelFS embed.FS

// FS returns the embedded kernel folders, one per kernel under "kernels/".
func FS() fs.FS { return kernelFS }

// KernelNames lists the embedded kernels in alphabetical order.
func KernelNames() []string {
	ents, err := fs.ReadDir(kernelFS, "kernels")
	if err != nil {
		panic(err) // embedded at build time
	}
	var names []string
	for _, e := range ents {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// Kernel loads an embedded kernel by name.
func Kernel(name string) (*kernel.Spec, error) {
	if !slices.Contains(KernelNames(), name) {
		return nil, fmt.Errorf("unknown kernel %q (built-in kernels: %s; or give a folder with kernel.toml)", name, strings.Join(KernelNames(), ", "))
	}
	return kernel.LoadDir(kernelFS, path.Join("kernels", name))
}

// LoadKernel resolves what a user typed: the name of a built-in kernel, or
// a path to a kernel folder or kernel.toml file.
func LoadKernel(nameOrPath string) (*kernel.Spec, error) {
	if _, err := os.Stat(nameOrPath); err == nil && (strings.ContainsAny(nameOrPath, `/\.`) || !slices.Contains(KernelNames(), nameOrPath)) {
		return kernel.Load(nameOrPath)
	}
	return Kernel(nameOrPath)
}

// CopyKernel writes the files of the built-in kernel name (kernel.toml and
// any hand-written Verilog) into dir, which must not exist yet, so that a
// user can edit a copy of it.
func CopyKernel(name, dir string) error {
	if !slices.Contains(KernelNames(), name) {
		return fmt.Errorf("unknown kernel %q (built-in kernels: %s)", name, strings.Join(KernelNames(), ", "))
	}
	if _, err := os.Stat(dir); err == nil {
		return fmt.Errorf("copy kernel %s: %s exists", name, dir)
	}
	src := path.Join("kernels", name)
	ents, err := fs.ReadDir(kernelFS, src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return fmt.Errorf("copy kernel %s: %w", name, err)
	}
	// The folder is written beside dir and renamed into place, so that a
	// failure leaves no half-copied kernel (internal/outfile).
	out, err := outfile.CreateDir(dir)
	if err != nil {
		return fmt.Errorf("copy kernel %s: %w", name, err)
	}
	defer out.Discard()
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		data, err := fs.ReadFile(kernelFS, path.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := out.WriteFile(e.Name(), data, 0o644); err != nil {
			return fmt.Errorf("copy kernel %s: %w", name, err)
		}
	}
	if err := out.Commit(false); err != nil {
		return fmt.Errorf("copy kernel %s: %w", name, err)
	}
	return nil
}
