package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestMain keeps the tests away from the user's cache, where synthesised
// PE costs would change the model's nP max.
func TestMain(m *testing.M) { os.Exit(testenv.RunWithPrivateCache(m.Run)) }

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
		{"boards", []string{"boards"}},
		{"boards_show_ac510", []string{"boards", "show", "ac510"}},
		{"model_wcc_d32", []string{"model", "--kernel", "wcc", "--graph", "uniform:v=262144,d=32,seed=1", "--no-latency"}},
		{"model_wcc_d2", []string{"model", "--kernel", "wcc", "--graph", "uniform:v=262144,d=2,seed=1"}},
		{"model_pr_gravf_json", []string{"model", "--kernel", "pr", "--graph", "rmat:scale=12,ef=16,seed=1", "--fpgas", "4", "--pes", "9", "--arch", "gravf", "--json"}},
		{"model_bfs_u280", []string{"model", "--board", "u280", "--kernel", "bfs", "--graph", karate, "--param", "root=1"}},
		{"sim_wcc_karate_cycle", []string{"sim", "--kernel", "wcc", "--graph", karate, "--fpgas", "2", "--pes", "2", "--detail", "cycle"}},
		{"sim_sssp_karate_gravf", []string{"sim", "--kernel", "sssp", "--graph", karate, "--fpgas", "2", "--pes", "3", "--arch", "gravf", "--mem", "bram", "--param", "root=1"}},
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

// TestModelJSONKeys checks the keys scripts rely on.
func TestModelJSONKeys(t *testing.T) {
	out, _, err := runCLI(t, "model", "--kernel", "wcc", "--graph", "uniform:v=262144,d=32,seed=1", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"fpgas", "pes", "arch", "limits", "tsys", "binding", "sizes", "curve", "predicted_seconds"} {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
	lim := m["limits"].(map[string]any)
	if lim["net"] != nil || lim["pe"] == nil {
		t.Errorf("limits %v: want pe set and net null on the ac510", lim)
	}
	if m["fpgas"].(float64) != 4 || m["pes"].(float64) != 9 || m["binding"] != "pe" {
		t.Errorf("chose %v x %v bound by %v, want 4 x 9 bound by pe", m["fpgas"], m["pes"], m["binding"])
	}
	for _, k := range []string{"m_vertex", "m_update", "m_message", "m_edge"} {
		if _, ok := m["sizes"].(map[string]any)[k]; !ok {
			t.Errorf("sizes lacks %s", k)
		}
	}
	if c := m["curve"].([]any); len(c) != 4 {
		t.Errorf("curve has %d points", len(c))
	}
}

// TestSimJSON checks the keys scripts rely on, and that result_sha256
// equals the SHA-256 of what ref writes.
func TestSimJSON(t *testing.T) {
	g := datasets.Path(t, "power.graph")
	ref, _, err := runCLI(t, "ref", "--kernel", "bfs", "--graph", g, "--format", "metis", "--param", "root=7", "-q")
	if err != nil {
		t.Fatal(err)
	}
	for _, detail := range []string{"fast", "cycle"} {
		out, _, err := runCLI(t, "sim", "--kernel", "bfs", "--graph", g, "--format", "metis", "--param", "root=7", "--fpgas", "2", "--pes", "4", "--detail", detail, "--json")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"cycles", "seconds", "messages", "teps", "supersteps", "result_sha256", "model_tsys", "per_superstep", "stalls"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: missing key %q", detail, k)
			}
		}
		if m["result_sha256"] != fmt.Sprintf("%x", sha256.Sum256([]byte(ref))) {
			t.Errorf("%s: result_sha256 differs from the SHA-256 of ref's output", detail)
		}
	}
}

// TestSimTrace records a trace and reads it back through the CLI.
func TestSimTrace(t *testing.T) {
	karate := datasets.Path(t, "karate.mtx")
	dir := t.TempDir()
	file := filepath.Join(dir, "run.trace.gz")
	if _, _, err := runCLI(t, "sim", "--kernel", "wcc", "--graph", karate, "--fpgas", "2", "--pes", "2", "--detail", "cycle", "--trace", file, "--trace-interval", "50"); err != nil {
		t.Fatal(err)
	}
	out, _, err := runCLI(t, "trace", "show", file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "wcc on karate.mtx") {
		t.Errorf("trace show: %q", out)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("the trace folder holds %d files; a temporary file was left behind", len(ents))
	}
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
		{[]string{"ref", "--kernel", "wcc", "--graph", "rmat:sclae=3"}, true, `unknown parameter "sclae"`},
		{[]string{"ref", "--kernel", "wcc", "--graph", karate, "--format", "xml"}, true, "xml"},
		{[]string{"ref", "--kernel", "wcc", "--graph", karate, "--bogus"}, true, "unknown flag"},
		{[]string{"graph", "partition", "--graph", "line:n=10", "--partition", "magic"}, true, "magic"},
		{[]string{"model", "--kernel", "wcc", "--graph", "uniform:v=16777216,d=2,seed=1", "--no-latency"}, true, "needs at least 33 FPGAs"},
		{[]string{"model", "--kernel", "wcc", "--graph", karate, "--pes", "10"}, true, "at most 9 PEs fit"},
		{[]string{"model", "--kernel", "wcc", "--graph", karate, "--fpgas", "5"}, true, "at most 4 FPGAs"},
		{[]string{"model", "--kernel", "wcc", "--graph", karate, "--board", "nope"}, true, "nope"},
		{[]string{"model", "--kernel", "wcc", "--graph", karate, "--arch", "x"}, true, "unknown architecture"},
		{[]string{"sim", "--kernel", "wcc", "--graph", karate, "--fpgas", "9", "--pes", "2"}, true, "at most 4 FPGAs"},
		{[]string{"sim", "--kernel", "wcc", "--graph", karate, "--detail", "exact"}, true, "unknown detail"},
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
