package gen

import (
	"embed"
	"io/fs"
	"path"
	"slices"
)

// rtlFS holds the hand-written, parameterised building blocks of the
// system (FIFO, RAM, crossbar); the generator adds the kernel-specific
// modules around them.
//
//go:embed rtl/*.v
var rtlFS embed.FS

// tbFS holds the testbench's models of what surrounds the FPGAs: the
// links between them and the off-chip edge memory.
//
//go:embed tb/*.v
var tbFS embed.FS

// testbenchModel returns one of the testbench models by file name.
func testbenchModel(name string) string {
	b, err := fs.ReadFile(tbFS, path.Join("tb", name))
	if err != nil {
		panic(err) // embedded at build time; the names are constants
	}
	return string(b)
}

// BuildingBlocks returns the building-block modules by file name, sorted.
func BuildingBlocks() (names []string, src map[string]string) {
	src = map[string]string{}
	ents, err := fs.ReadDir(rtlFS, "rtl")
	if err != nil {
		panic(err) // embedded at build time
	}
	for _, e := range ents {
		b, err := fs.ReadFile(rtlFS, path.Join("rtl", e.Name()))
		if err != nil {
			panic(err)
		}
		src[e.Name()] = string(b)
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names, src
}
