// Package datasets locates the public graph files that the tests of several
// packages run on.
//
// Every file the tests name ships with the repository, gzip-compressed, in
// testdata/datasets (see its SOURCES.md); a test that asks for one gets the
// path of a decompressed copy, made once per machine in a folder of the
// temporary directory named after the compressed bytes. So a fresh clone
// runs every dataset test with nothing beside it. Extra sources, for files
// that do not ship (larger graphs a user adds), are $GRAVF_DATASETS and a
// folder "shared/datasets" beside the repository or one of its parents, as
// CI provides; where they hold a shipped file too, this package's test
// checks that both are the same bytes.
package datasets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// modulePath identifies the repository's go.mod when the package looks for
// the repository root above the test's working directory.
const modulePath = "github.com/gravf-tui/gravf-tui"

// Env names the environment variable of an extra dataset folder.
const Env = "GRAVF_DATASETS"

// shipped is the repository's dataset folder, relative to its root.
var shipped = filepath.Join("testdata", "datasets")

// Dir returns a folder that holds every dataset shipped with the
// repository, decompressed, under its original name (karate.mtx, ...), and
// the graphalytics/ folder of the LDBC validation graphs.
func Dir(tb testing.TB) string {
	tb.Helper()
	d, err := materialised()
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// Names lists the graph files that ship with the repository, sorted.
func Names(tb testing.TB) []string {
	tb.Helper()
	ents, err := os.ReadDir(Dir(tb))
	if err != nil {
		tb.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Type().IsRegular() && filepath.Ext(e.Name()) != ".md" {
			names = append(names, e.Name())
		}
	}
	return names
}

// Path returns the path of one dataset file: a shipped one (see Dir), or
// else one of the extra sources. A name found nowhere fails the test: the
// tests name the files they need, and every such file ships; use Optional
// for the large ones that do not.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(Dir(tb), filepath.FromSlash(name))
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if p, ok := extra(name); ok {
		return p
	}
	tb.Fatalf("dataset %s is neither in %s nor in $%s or shared/datasets beside the repository", name, shipped, Env)
	return ""
}

// Optional returns the path of a large dataset that does not ship with the
// repository, from $GRAVF_DATASETS or shared/datasets beside the
// repository, and false when neither holds it.
func Optional(name string) (string, bool) {
	if d, err := materialised(); err == nil {
		if p := filepath.Join(d, filepath.FromSlash(name)); fileExists(p) {
			return p, true
		}
	}
	return extra(name)
}

// extra looks name up in the extra sources.
func extra(name string) (string, bool) {
	var dirs []string
	if d := os.Getenv(Env); d != "" {
		dirs = append(dirs, d)
	}
	if wd, err := os.Getwd(); err == nil {
		for d := wd; ; d = filepath.Dir(d) {
			dirs = append(dirs, filepath.Join(d, "shared", "datasets"), filepath.Join(d, "..", "shared", "datasets"))
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	for _, d := range dirs {
		if p := filepath.Join(d, filepath.FromSlash(name)); fileExists(p) {
			return p, true
		}
	}
	return "", false
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

var (
	once    sync.Once
	onceDir string
	onceErr error
)

// materialised decompresses the shipped datasets once per process (and
// once per machine: the folder is named after a hash of the compressed
// files and reused when complete).
func materialised() (string, error) {
	once.Do(func() { onceDir, onceErr = materialise() })
	return onceDir, onceErr
}

func materialise() (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	src := filepath.Join(root, shipped)
	files, sum, err := listShipped(src)
	if err != nil {
		return "", err
	}
	dst := filepath.Join(os.TempDir(), "gravf-tui-datasets-"+sum)
	if st, err := os.Stat(dst); err == nil && st.IsDir() {
		return dst, nil
	}
	tmp, err := os.MkdirTemp(os.TempDir(), "gravf-tui-datasets-tmp")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	for _, f := range files {
		if err := unpack(filepath.Join(src, f), filepath.Join(tmp, strings.TrimSuffix(f, ".gz"))); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, dst); err != nil {
		// Another test process made the same folder first: use it.
		if st, serr := os.Stat(dst); serr == nil && st.IsDir() {
			return dst, nil
		}
		return "", err
	}
	return dst, nil
}

// listShipped returns the files under src (slash-separated, sorted) and a
// hash of their names and bytes.
func listShipped(src string) ([]string, string, error) {
	var files []string
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		return nil, "", err
	}
	slices.Sort(files)
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return nil, "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(b))
		h.Write(b)
	}
	return files, hex.EncodeToString(h.Sum(nil))[:16], nil
}

// unpack copies src to dst, decompressing a .gz file.
func unpack(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if strings.HasSuffix(src, ".gz") {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// repoRoot finds the repository above the working directory (a test runs
// in its package's folder).
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && bytes.Contains(b, []byte("module "+modulePath+"\n")) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", errors.New("datasets: the repository (go.mod of " + modulePath + ") is not above the working directory")
		}
	}
}
