package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// copyNotebook puts a testdata notebook in a fresh folder, so that the
// files its cells write (traces, projects) land there.
func copyNotebook(t *testing.T, name string) (dir, path string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

var wallTime = regexp.MustCompile(`"wall_seconds": [0-9.e-]+`)

func TestRunJSONGolden(t *testing.T) {
	dir, path := copyNotebook(t, "run.gravf.toml")
	out, _, err := runCLI(t, "run", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	// The output is a document with every cell's kind, inputs and output.
	var doc struct {
		Schema string `json:"schema"`
		Cells  []struct {
			Kind   string          `json:"kind"`
			Inputs json.RawMessage `json:"inputs"`
			Output json.RawMessage `json:"output"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != schemaRun {
		t.Errorf("schema %q", doc.Schema)
	}
	cells := doc.Cells
	kinds := []string{"notes", "platform", "kernel", "dataset", "partition", "model", "sweep", "simulate", "trace"}
	if len(cells) != len(kinds) {
		t.Fatalf("%d cells", len(cells))
	}
	for i, c := range cells {
		if c.Kind != kinds[i] || len(c.Inputs) < 2 || len(c.Output) < 2 {
			t.Fatalf("cell %d: %s %s %s", i+1, c.Kind, c.Inputs, c.Output)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "run.trace.gz")); err != nil {
		t.Fatal("the simulate cell wrote no trace")
	}
	out = strings.ReplaceAll(out, dir, "$DIR")
	out = wallTime.ReplaceAllString(out, `"wall_seconds": 0`)
	golden(t, "run_json", out)
	text, _, err := runCLI(t, "run", path)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "run_text", wallTime.ReplaceAllString(strings.ReplaceAll(text, dir, "$DIR"), ""))
}

func TestRunErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.gravf.toml")
	os.WriteFile(bad, []byte("version = 1\n\n[[cell]]\nkind = \"platform\"\nboard = \"nope\"\n\n[[cell]]\nkind = \"kernel\"\n"), 0o644)
	missing := filepath.Join(dir, "missing.gravf.toml")
	os.WriteFile(missing, []byte("version = 1\n\n[[cell]]\nkind = \"dataset\"\ngraph = \"nowhere/g.mtx\"\n"), 0o644)
	syntax := filepath.Join(dir, "syntax.gravf.toml")
	os.WriteFile(syntax, []byte("version = 1\n\n[[cell]]\nkind = \"platform\"\nfpgas = four\n"), 0o644)
	tests := []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"run", bad}, "bad.gravf.toml:3: cell 1 (platform): ", false},
		{[]string{"run", missing}, "missing.gravf.toml:3: cell 1 (dataset): graph nowhere/g.mtx: file does not exist", false},
		{[]string{"run", syntax}, "syntax.gravf.toml:5:", true},
		{[]string{"run", filepath.Join(dir, "none.gravf.toml")}, "no such notebook file", true},
	}
	for _, tc := range tests {
		_, _, err := runCLI(t, tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: err = %v, want %q", tc.args, err, tc.want)
			continue
		}
		if _, isUsage := err.(usageError); isUsage != tc.usage {
			t.Errorf("%v: usage error = %v", tc.args, isUsage)
		}
	}
}

// TestRunExportCell checks that run writes the project of an export cell
// and, with run_sim, simulates it with Icarus.
func TestRunExportCell(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	for _, mem := range []string{"bram", "offchip"} {
		t.Run(mem, func(t *testing.T) { runExportCell(t, mem) })
	}
}

func runExportCell(t *testing.T, mem string) {
	dir := t.TempDir()
	nb := filepath.Join(dir, "export.gravf.toml")
	os.WriteFile(nb, []byte(`version = 1
title = "export"

[[cell]]
kind = "platform"
board = "u250"
fpgas = 2
pes = 2
mem = "`+mem+`"

[[cell]]
kind = "kernel"
kernel = "wcc"

[[cell]]
kind = "dataset"
graph = "grid:rows=6,cols=6,seed=1"

[[cell]]
kind = "export"
out = "project"
run_sim = true
`), 0o644)
	out, _, err := runCLI(t, "run", nb)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Makefile", "manifest.json", "rtl/fpga_top.v", "rtl/gravf_pe.v", "tb/tb_system.v"} {
		if _, err := os.Stat(filepath.Join(dir, "project", f)); err != nil {
			t.Errorf("project lacks %s", f)
		}
	}
	manifest, _ := os.ReadFile(filepath.Join(dir, "project", "manifest.json"))
	if !strings.Contains(string(manifest), `"edge_memory": "`+mem+`"`) {
		t.Errorf("manifest does not say edge_memory %s", mem)
	}
	if !strings.Contains(out, "make sim: RESULT PASS cycles=") {
		t.Fatalf("no RESULT PASS in:\n%s", out)
	}
}

// TestRunSampleAnywhere runs the built-in partitioner comparison from an
// empty folder with no dataset folder set (its graph is built in), and
// checks that a sample's outputs go to a folder named after it, or to
// --out-dir.
func TestRunSampleAnywhere(t *testing.T) {
	testenv.NeedTool(t, "gpmetis")
	t.Setenv(explorer.DatasetsEnv, "")
	t.Chdir(t.TempDir())
	out, stderr, err := runCLI(t, "run", "partitioners")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "p2p-Gnutella08.txt: V=6301, E=20777") || !strings.Contains(stderr, "partitioners: no outputs") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out, stderr)
	}
	if _, err := os.Stat("partitioners"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a sample that wrote nothing left its folder: %v", err)
	}
	nb, sample, err := loadNotebook("default")
	if err != nil || sample != "default" {
		t.Fatal(err)
	}
	cmd := newRunCmd()
	var msg strings.Builder
	cmd.SetErr(&msg)
	done, err := placeOutputs(cmd, nb, sample, filepath.Join("elsewhere", "x"))
	if err != nil {
		t.Fatal(err)
	}
	if got := nb.Resolve("wcc-4xac510"); got != filepath.Join("elsewhere", "x", "wcc-4xac510") {
		t.Errorf("the export of the default notebook goes to %s", got)
	}
	for _, f := range []string{"wcc-4xac510/rtl/a.v", "wcc-4xac510/rtl/b.v", "wcc-4xac510/Makefile", "wcc-4xac510.trace.gz"} {
		p := nb.Resolve(f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	done()
	if want := "default: outputs in " + filepath.Join("elsewhere", "x") + ": wcc-4xac510/ (3 files), wcc-4xac510.trace.gz\n"; msg.String() != want {
		t.Errorf("summary %q, want %q", msg.String(), want)
	}
	file := filepath.Join(t.TempDir(), "n.gravf.toml")
	os.WriteFile(file, []byte("version = 1\n"), 0o644)
	if _, _, err := runCLI(t, "run", file, "--out-dir", "y"); err == nil || !strings.Contains(err.Error(), "--out-dir is for the built-in samples") {
		t.Errorf("--out-dir with a file: %v", err)
	}
}
