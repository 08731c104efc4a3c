package vitis

import (
	"embed"
	"io/fs"
	"path"
	"slices"
)

// rtlFS holds the kernel's hand-written building blocks; tbFS the
// simulation models and protocol checkers that surround a kernel in its
// testbench.
//
//go:embed rtl/*.v
var rtlFS embed.FS

//go:embed tb/*.v
var tbFS embed.FS

// RTLFiles returns the hand-written kernel modules by file name, sorted.
func RTLFiles() (names []string, src map[string]string) { return readDir(rtlFS, "rtl") }

// TBFiles returns the testbench models and checkers by file name, sorted.
func TBFiles() (names []string, src map[string]string) { return readDir(tbFS, "tb") }

func readDir(fsys embed.FS, dir string) ([]string, map[string]string) {
	src := map[string]string{}
	var names []string
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		panic(err) // embedded at build time
	}
	for _, e := range ents {
		b, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			panic(err)
		}
		src[e.Name()] = string(b)
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names, src
}
