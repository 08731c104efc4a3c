package datasets

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShippedMatchExtraSources: a shipped file that an extra source
// ($GRAVF_DATASETS, shared/datasets beside the repository) also holds is
// the same bytes there, so the tests give the same answers with or
// without the extra folder.
func TestShippedMatchExtraSources(t *testing.T) {
	dir := Dir(t)
	var names []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) != ".md" { // the notes are the repository's own
			rel, _ := filepath.Rel(dir, p)
			names = append(names, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(names) < 12 {
		t.Fatalf("%d shipped files, want at least the 12 graphs: %v", len(names), names)
	}
	compared := 0
	for _, name := range names {
		other, ok := extra(name)
		if !ok {
			continue
		}
		a, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(other)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the shipped copy (%d bytes) differs from %s (%d bytes)", name, len(a), other, len(b))
		}
		compared++
	}
	t.Logf("%d shipped files, %d of them compared with an extra source", len(names), compared)
}

// TestNames lists the graphs, not the notes or the Graphalytics folder.
func TestNames(t *testing.T) {
	names := Names(t)
	for _, n := range names {
		if strings.HasSuffix(n, ".md") || strings.HasSuffix(n, ".gz") || n == "graphalytics" {
			t.Errorf("Names lists %q", n)
		}
	}
	for _, want := range []string{"karate.mtx", "fpgagraphlib-s14e16.graph", "rome99.gr"} {
		if !strings.Contains(strings.Join(names, "\n")+"\n", want+"\n") {
			t.Errorf("Names lacks %s: %v", want, names)
		}
	}
}

// TestPathExtraSource: a file that does not ship is found in
// $GRAVF_DATASETS; a shipped one comes from the repository even when the
// extra folder has another file of that name.
func TestPathExtraSource(t *testing.T) {
	d := t.TempDir()
	for name, body := range map[string]string{"mine.txt": "0 1\n", "karate.mtx": "not karate\n"} {
		if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(Env, d)
	if p := Path(t, "mine.txt"); p != filepath.Join(d, "mine.txt") {
		t.Errorf("Path(mine.txt) = %s", p)
	}
	if p, ok := Optional("mine.txt"); !ok || p != filepath.Join(d, "mine.txt") {
		t.Errorf("Optional(mine.txt) = %s, %v", p, ok)
	}
	if _, ok := Optional("nowhere.txt"); ok {
		t.Error("Optional found a file that is nowhere")
	}
	p := Path(t, "karate.mtx")
	if filepath.Dir(p) != Dir(t) {
		t.Errorf("Path(karate.mtx) = %s, want the shipped copy in %s", p, Dir(t))
	}
	b, err := os.ReadFile(p)
	if err != nil || !bytes.HasPrefix(b, []byte("%%MatrixMarket")) {
		t.Errorf("the shipped karate.mtx: %q, %v", b[:min(len(b), 20)], err)
	}
}
