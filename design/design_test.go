package design

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
)

func TestMain(m *testing.M) {
	// Keep synthesised PE costs of the user's cache away from NewPoint.
	dir, err := os.MkdirTemp("", "design-test-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// TestSetKey sets every key a platform cell has, and checks the values
// and the errors.
func TestSetKey(t *testing.T) {
	o := DefaultOptions()
	for _, kv := range [][2]string{
		{"board", "u250"}, {"fpgas", "3"}, {"pes", "auto"}, {"arch", "gravf"}, {"mem", "bram"}, {"pe", "paper"},
		{"packing", "on"}, {"filter", "false"}, {"cpe", "1.25"}, {"clock_mhz", "250"}, {"set.memory.word_bits", "256"},
	} {
		if err := o.SetKey(kv[0], kv[1]); err != nil {
			t.Fatalf("%s=%s: %v", kv[0], kv[1], err)
		}
	}
	want := Options{Board: "u250", FPGAs: 3, Arch: model.GraVF, Mem: model.BRAM, PE: model.PEPaper, Packing: true, CPE: 1.25,
		Set: map[string]float64{"clock_mhz": 250, "memory.word_bits": 256}}
	if !reflect.DeepEqual(o, want) {
		t.Fatalf("got %+v\nwant %+v", o, want)
	}
	if err := o.SetKey("clock_mhz", ""); err != nil || len(o.Set) != 1 {
		t.Errorf("an empty value keeps the override: %v, %v", err, o.Set)
	}
	for _, kv := range [][2]string{
		{"fpgas", "two"}, {"arch", "gravf-x"}, {"packing", "2"}, {"speed", "3"}, {"memory.word_bits", "-8"}, {"max_fpgas", "2.5"},
	} {
		if err := o.SetKey(kv[0], kv[1]); err == nil {
			t.Errorf("%s=%s accepted", kv[0], kv[1])
		}
	}
}

// TestArgs: the command line of a platform cell, read back with SetKey (as
// the flags would), is the same options.
func TestArgs(t *testing.T) {
	o := Options{Board: "f1", FPGAs: 8, PEs: 4, Arch: model.GraVF, Mem: model.BRAM, PE: model.PEPaper, Packing: true, Filter: false, CPE: 1.5,
		Set: map[string]float64{"network.link_gbit_s": 40, "clock_mhz": 200}}
	args := o.Args()
	want := "--board f1 --fpgas 8 --pes 4 --arch gravf --mem bram --pe paper --packing=true --filter=false --cpe 1.5 --set clock_mhz=200 --set network.link_gbit_s=40"
	if got := strings.Join(args, " "); got != want {
		t.Fatalf("Args = %s\nwant   %s", got, want)
	}
	back := DefaultOptions()
	for i := 0; i < len(args); i++ {
		key, value, ok := strings.Cut(strings.TrimPrefix(args[i], "--"), "=")
		if !ok {
			i++
			value = args[i]
		}
		if key == "set" {
			key, value, _ = strings.Cut(value, "=")
		}
		if err := back.SetKey(key, value); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(back, o) {
		t.Errorf("read back %+v", back)
	}
	d := DefaultOptions()
	if len(d.Args()) != 0 {
		t.Errorf("the defaults have arguments %v", d.Args())
	}
}

// TestCheckCanonical: values set in code read as a file's would.
func TestCheckCanonical(t *testing.T) {
	o := Options{Board: "ac510", Arch: "M", Mem: "HBM", PE: ""}
	if _, err := o.Check(); err != nil {
		t.Fatal(err)
	}
	if o.Arch != model.GraVFM || o.Mem != model.OffChip || o.PE != model.PEGenerated {
		t.Errorf("not canonical: %+v", o)
	}
	d := Dataset{Graph: "line:n=4", Format: "snap"}
	p := Partition{Partitioner: "rr"}
	if _, err := d.Check(); err != nil || d.Format != graph.FormatEdgeList {
		t.Errorf("format %q, %v", d.Format, err)
	}
	if _, err := p.Check(); err != nil || p.Partitioner != graph.Robin {
		t.Errorf("partitioner %q, %v", p.Partitioner, err)
	}
	for _, tc := range []struct {
		c   interface{ Check() (string, error) }
		key string
	}{
		{&Options{Board: " "}, "board"},
		{&Options{Board: "x", PEs: -1}, "pes"},
		{&Options{Board: "x", Set: map[string]float64{"clock": 1}}, "set.clock"},
		{&Options{Board: "x", Set: map[string]float64{"clock_mhz": -1}}, "set.clock_mhz"},
		{&Kernel{Kernel: "wcc", Widths: map[string]string{"state.x": "3"}}, "widths.state.x"},
		{&Dataset{Graph: "rmat:sclae=3"}, "graph"},
		{&Dataset{Graph: "line:n=3", Format: "csv"}, "format"},
		{&Partition{Partitioner: "best"}, "partitioner"},
	} {
		if key, err := tc.c.Check(); err == nil || key != tc.key {
			t.Errorf("%+v: key %q, %v; want %q", tc.c, key, err, tc.key)
		}
	}
}

// TestResolve resolves a design point as a notebook's cells do, from
// files relative to a folder: a board file with an override, a kernel
// folder with a width edit, a graph file found through $GRAVF_DATASETS.
func TestResolve(t *testing.T) {
	dir := t.TempDir()
	src, err := boards.Source("u250")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.toml"), []byte(strings.Replace(string(src), `name  = "u250"`, `name  = "mine"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	if err := os.WriteFile(filepath.Join(data, "tri.txt"), []byte("0 1\n1 2\n2 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(DatasetsEnv, data)
	o := DefaultOptions()
	o.Board, o.FPGAs = "mine.toml", 2
	o.Set = map[string]float64{"clock_mhz": 150}
	b, err := o.LoadBoard(dir)
	if err != nil || b.Name != "mine" || b.ClockMHz != 150 {
		t.Fatalf("board %+v, %v", b, err)
	}
	k := Kernel{Kernel: "sssp", Params: map[string]string{"root": "2"}, Widths: map[string]string{"vertex.active": "2"}}
	spec, edited, err := k.Load(dir)
	if err != nil || !edited["vertex.active"] || spec.Vertex[spec.Vertex.Index("active")].Width != "2" {
		t.Fatalf("kernel %v, edited %v", err, edited)
	}
	d := Dataset{Graph: "tri.txt", RandomWeights: 5, WeightSeed: 1}
	g, file, err := d.Load(context.Background(), dir, true, false, nil)
	if err != nil || file != filepath.Join(data, "tri.txt") || g.NumVertices() != 3 {
		t.Fatalf("graph %v, file %q", err, file)
	}
	bound, err := k.Bind(spec, g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPoint(b, bound, g, o)
	if err != nil || p.Platform.ClockHz != 150e6 || p.Config().FPGAs != 2 || p.Platform.MaxFPGAs != 8 {
		t.Fatalf("point %+v, %v", p, err)
	}
	// Errors of each step.
	o.FPGAs = 9
	if _, err := o.LoadBoard(dir); err == nil || !strings.Contains(err.Error(), "mine has at most 8 FPGAs") {
		t.Errorf("nine FPGAs: %v", err)
	}
	o.FPGAs, o.Set = 1, map[string]float64{"clock_mhz": 0}
	if _, err := o.LoadBoard(dir); err == nil || !strings.Contains(err.Error(), "clock_mhz: must be positive") {
		t.Errorf("clock 0: %v", err)
	}
	if _, err := (&Kernel{Kernel: "sssp", Params: map[string]string{"nope": "1"}}).Bind(spec, g); err == nil {
		t.Error("a parameter the kernel lacks")
	}
	t.Setenv(DatasetsEnv, "")
	if _, _, err := (&Dataset{Graph: "missing.txt"}).Load(context.Background(), dir, false, false, nil); err == nil || !strings.Contains(err.Error(), "$GRAVF_DATASETS") {
		t.Errorf("missing graph: %v", err)
	}
}
