package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

// traceFixture returns the committed trace the golden tests read. A fixed
// file keeps `trace show` output independent of simulator changes and
// checks that version-1 files stay readable; -update records it anew
// (WCC on 600 vertices, 2 FPGAs × 3 PEs, cycle detail, interval 500).
func traceFixture(t *testing.T) string {
	t.Helper()
	path := filepath.Join("testdata", "trace_wcc.trace.gz")
	if !*update {
		return path
	}
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	s, err := samples.Kernel("wcc")
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load("uniform:v=600,d=6,seed=2", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	setup := &sim.Setup{Board: b, Kernel: k, Graph: g, FPGAs: 2, PEs: 3, Filter: true, Detail: sim.Cycle}
	meta, err := sim.NewTraceMeta(setup)
	if err != nil {
		t.Fatal(err)
	}
	meta.Generator, meta.GoVersion = "gravf-tui (test fixture)", "go"
	var buf bytes.Buffer
	rec, err := sim.NewRecorder(&buf, sim.TraceOptions{Interval: 500, Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
	setup.Listener = rec
	res, err := sim.Run(context.Background(), setup)
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(res); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestTraceShowGolden(t *testing.T) {
	path := traceFixture(t)
	out, _, err := runCLI(t, "trace", "show", path)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "trace_show_wcc", out)

	out, _, err = runCLI(t, "trace", "show", path, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Meta       map[string]any   `json:"meta"`
		Samples    int              `json:"samples"`
		Summary    map[string]any   `json:"summary"`
		Supersteps []map[string]any `json:"supersteps"`
		Links      []map[string]any `json:"links"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Meta["kernel"] != "wcc" || r.Samples == 0 || r.Summary["cycles"] == nil || len(r.Supersteps) == 0 ||
		len(r.Links) != 2 || r.Links[0]["peak_util"] == nil || r.Links[0]["peak_to_cycle"] == nil {
		t.Errorf("JSON report %s", out)
	}
}

func TestTraceExportChrome(t *testing.T) {
	path := traceFixture(t)
	out := filepath.Join(t.TempDir(), "run.json")
	_, stderr, err := runCLI(t, "trace", "export", "--chrome", path, out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "wrote "+out) {
		t.Errorf("stderr %q", stderr)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents     []map[string]any `json:"traceEvents"`
		DisplayTimeUnit string           `json:"displayTimeUnit"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.TraceEvents) < 10 || doc.DisplayTimeUnit != "ns" {
		t.Errorf("%d events, unit %q", len(doc.TraceEvents), doc.DisplayTimeUnit)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("export left %d files in the folder", len(entries))
	}
}

func TestTraceCLIErrors(t *testing.T) {
	dir := t.TempDir()
	fixture := traceFixture(t)
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.trace.gz")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"trace", "show"}, "one trace file"},
		{[]string{"trace", "show", filepath.Join(dir, "missing.gz")}, "no such file"},
		{[]string{"trace", "show", cut}, "trace truncated"},
		{[]string{"trace", "export", fixture, out}, "--chrome"},
		{[]string{"trace", "export", "--chrome", fixture}, "a trace file and an output file"},
		{[]string{"trace", "export", "--chrome", cut, out}, "trace truncated"},
		{[]string{"trace", "nope"}, "unknown trace subcommand"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			_, _, err := runCLI(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var ue usageError
			if !errors.As(err, &ue) {
				t.Errorf("%v is not a usage error", err)
			}
		})
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed export left %s", out)
	}
}
