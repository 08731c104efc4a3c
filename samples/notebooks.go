package samples

import (
	"embed"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

//go:embed notebooks/*.gravf.toml
var notebookFS embed.FS

// DefaultNotebook is the notebook `gravf-tui` opens without a file: the
// paper's four AC-510 boards running WCC on a degree-32 graph.
const DefaultNotebook = "default"

// NotebookSuffix ends every notebook file name.
const NotebookSuffix = ".gravf.toml"

// NotebookNames lists the embedded notebooks by name (file name without
// the suffix), alphabetically.
func NotebookNames() []string {
	ents, err := fs.ReadDir(notebookFS, "notebooks")
	if err != nil {
		panic(err) // embedded at build time
	}
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), NotebookSuffix))
	}
	slices.Sort(names)
	return names
}

// Notebook returns the text of an embedded notebook and its file name.
func Notebook(name string) (file string, data []byte, err error) {
	if !slices.Contains(NotebookNames(), name) {
		return "", nil, fmt.Errorf("unknown sample notebook %q (built-in: %s)", name, strings.Join(NotebookNames(), ", "))
	}
	file = name + NotebookSuffix
	data, err = notebookFS.ReadFile("notebooks/" + file)
	return file, data, err
}
