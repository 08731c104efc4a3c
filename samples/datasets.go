package samples

import (
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
)

//go:embed datasets/*.gz
var datasetFS embed.FS

// DatasetNames lists the graph files embedded for the sample notebooks
// (names as notebooks spell them, without the .gz of their storage).
func DatasetNames() []string {
	ents, err := fs.ReadDir(datasetFS, "datasets")
	if err != nil {
		panic(err) // embedded at build time
	}
	var names []string
	for _, e := range ents {
		names = append(names, strings.TrimSuffix(e.Name(), ".gz"))
	}
	slices.Sort(names)
	return names
}

// OpenDataset opens an embedded graph file by name, decompressed.
func OpenDataset(name string) (io.ReadCloser, error) {
	if !slices.Contains(DatasetNames(), name) {
		return nil, fmt.Errorf("no built-in dataset %q (built-in: %s)", name, strings.Join(DatasetNames(), ", "))
	}
	f, err := datasetFS.Open("datasets/" + name + ".gz")
	if err != nil {
		return nil, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, f}, nil
}
