package boards

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/tomldoc"
)

//go:embed data/*.toml
var dataFS embed.FS

// dataDir is where the built-in boards are embedded, and the prefix their
// errors and Board.File carry.
const dataDir = "data"

// Names lists the built-in boards, sorted.
func Names() []string {
	ents, err := fs.ReadDir(dataFS, dataDir)
	if err != nil {
		panic(err) // embedded at build time
	}
	var names []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".toml"); ok && !e.IsDir() {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Source returns the text of a built-in board file, so that a user can
// start a board of their own from it.
func Source(name string) ([]byte, error) {
	if !slices.Contains(Names(), name) {
		return nil, unknownBoard(name)
	}
	return dataFS.ReadFile(path.Join(dataDir, name+".toml"))
}

func unknownBoard(name string) error {
	return fmt.Errorf("unknown board %q (built-in boards: %s; or give the path of a .toml file)", name, strings.Join(Names(), ", "))
}

// Get returns a built-in board by name. Each call returns a fresh copy
// that the caller may change.
func Get(name string) (*Board, error) {
	data, err := Source(name)
	if err != nil {
		return nil, err
	}
	return Parse("boards/"+dataDir+"/"+name+".toml", data)
}

// LoadFile reads and checks a board file on disk (of at most 1 MiB).
func LoadFile(p string) (*Board, error) {
	data, err := tomldoc.ReadFile(p, limits)
	if err != nil {
		return nil, err
	}
	return Parse(p, data)
}

// Load resolves what a user typed: a path to a .toml file (anything ending
// in .toml or holding a path separator), which overrides the built-in
// boards, or else the name of a built-in board.
func Load(nameOrPath string) (*Board, error) {
	if IsPath(nameOrPath) {
		return LoadFile(nameOrPath)
	}
	return Get(nameOrPath)
}

// IsPath says whether what a user typed names a board file rather than a
// built-in board: it ends in .toml or holds a path separator.
func IsPath(nameOrPath string) bool {
	return strings.HasSuffix(nameOrPath, ".toml") || strings.ContainsAny(nameOrPath, `/\`)
}
