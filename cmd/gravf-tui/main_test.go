package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// runCLI runs the command line in-process and returns stdout, stderr and
// the error Execute returned.
func runCLI(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRoot()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errb.String(), err
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update after checking):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

func TestGoldenCLI(t *testing.T) {
	karate := datasets.Path(t, "karate.mtx")
	tests := []struct {
		name string
		args []string
	}{
		{"kernels", []string{"kernels"}},
		{"kernels_show_wcc", []string{"kernels", "show", "wcc", "--vertices", "65536"}},
		{"kernels_show_pr", []string{"kernels", "show", "pr", "--vertices", "65536"}},
		{"ref_bfs_karate", []string{"ref", "--kernel", "bfs", "--graph", karate, "--param", "root=1", "-q"}},
		{"ref_pr_karate", []string{"ref", "--kernel", "pr", "--graph", karate, "-q"}},
		{"graph_stats_grid", []string{"graph", "stats", "--graph", "grid:rows=20,cols=30,seed=3"}},
		{"graph_partition_uniform", []string{"graph", "partition", "--graph", "uniform:v=4096,d=16,seed=1", "--fpgas", "2", "--pes", "4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runCLI(t, tc.args...)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, out)
		})
	}
}

// TestRefOut checks --out writes the same bytes as stdout, atomically.
func TestRefOut(t *testing.T) {
	g := datasets.Path(t, "power.graph")
	out, stderr, err := runCLI(t, "ref", "--kernel", "wcc", "--graph", g, "--format", "metis")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "wcc on power.graph: V=4941 E=6594") {
		t.Errorf("stderr summary: %q", stderr)
	}
	file := filepath.Join(t.TempDir(), "wcc.tsv")
	if _, _, err := runCLI(t, "ref", "--kernel", "wcc", "--graph", g, "--format", "metis", "--out", file, "-q"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != out {
		t.Fatal("--out differs from stdout")
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "vertex\tlabel\tactive" || len(lines) != 4941+1 {
		t.Fatalf("header %q, %d lines", lines[0], len(lines))
	}
	t.Logf("sha256 %x", sha256.Sum256(b))
}

func TestCLIErrors(t *testing.T) {
	karate := datasets.Path(t, "karate.mtx")
	tests := []struct {
		args  []string
		usage bool
		want  string
	}{
		{[]string{"ref", "--graph", karate}, true, "--kernel is required"},
		{[]string{"ref", "--kernel", "nope", "--graph", karate}, true, `unknown kernel "nope"`},
		{[]string{"ref", "--kernel", "bfs", "--graph", karate, "--param", "root=99"}, true, "vertex 99 is not in the graph"},
		{[]string{"ref", "--kernel", "bfs", "--graph", karate, "--param", "rot=1"}, true, `no parameter "rot"`},
		{[]string{"ref", "--kernel", "wcc", "--graph", "rmat:sclae=3"}, false, `unknown parameter "sclae"`},
		{[]string{"ref", "--kernel", "wcc", "--graph", karate, "--format", "xml"}, true, "xml"},
		{[]string{"ref", "--kernel", "wcc", "--graph", karate, "--bogus"}, true, "unknown flag"},
		{[]string{"graph", "partition", "--graph", "line:n=10", "--partition", "magic"}, true, "magic"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not contain %q", err, tc.want)
			}
			var ue usageError
			if errors.As(err, &ue) != tc.usage {
				t.Errorf("usage error = %v, want %v (%v)", !tc.usage, tc.usage, fmt.Sprint(err))
			}
		})
	}
}
