package main

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/design"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestSetMatchesPlatformCell edits a notebook's platform cell as the TUI's
// form does (the cell's fields and its set table) and runs `model` with
// the same edits as --set KEY=VALUE: the model's output must be the same
// JSON, so that every edit of the cell can be repeated headless. It also
// checks that the cell's own Args, given to the command, say the same.
func TestSetMatchesPlatformCell(t *testing.T) {
	const graphSpec = "uniform:v=4096,d=16,seed=2"
	tests := []struct {
		name string
		edit func(p *explorer.Platform)
		sets []string
	}{
		{"memory bandwidth", func(p *explorer.Platform) { p.Set = map[string]float64{"memory.peak_gib_s": 12.5} },
			[]string{"memory.peak_gib_s=12.5"}},
		{"clock and links", func(p *explorer.Platform) {
			p.Set = map[string]float64{"clock_mhz": 250, "network.link_gbit_s": 12}
		}, []string{"clock_mhz=250", "set.network.link_gbit_s=12"}},
		{"design fields", func(p *explorer.Platform) { p.FPGAs, p.Arch, p.Filter, p.Packing = 3, model.GraVF, false, true },
			[]string{"fpgas=3", "arch=gravf", "filter=false", "packing=on"}},
		{"PE and edges", func(p *explorer.Platform) {
			p.PE, p.Mem, p.PEs = model.PEPaper, model.BRAM, 4
			p.Set = map[string]float64{"pe.max_per_fpga": 6}
		}, []string{"pe=paper", "mem=bram", "pes=4", "pe.max_per_fpga=6"}},
		{"another board", func(p *explorer.Platform) { p.Board, p.CPE = "u250", 1.5 }, []string{"board=u250", "cpe=1.5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nb := explorer.New("set")
			for _, in := range []explorer.Input{
				func() explorer.Input { p := explorer.Platform(design.DefaultOptions()); return &p }(),
				&explorer.Kernel{Kernel: "wcc"},
				&explorer.Dataset{Graph: graphSpec, WeightSeed: 1},
				&explorer.Model{},
			} {
				nb.Append(in)
			}
			if err := nb.Edit(0, func(in explorer.Input) error { tc.edit(in.(*explorer.Platform)); return nil }); err != nil {
				t.Fatal(err)
			}
			out, err := nb.Eval(context.Background(), 3, nil)
			if err != nil {
				t.Fatal(err)
			}
			cell := jsonOf(t, out)
			args := []string{"model", "--kernel", "wcc", "--graph", graphSpec, "--no-latency", "--json"}
			for _, s := range tc.sets {
				args = append(args, "--set", s)
			}
			cli, stderr, err := runCLI(t, args...)
			if err != nil {
				t.Fatalf("%v: %v\n%s", args, err, stderr)
			}
			if !reflect.DeepEqual(cell, docBody(t, cli)) {
				t.Errorf("model cell and %s differ:\n%s\n%s", strings.Join(args, " "), mustJSON(t, out), cli)
			}
			// The cell's own command line says the same.
			twin := append([]string{"model", "--kernel", "wcc", "--graph", graphSpec, "--no-latency", "--json"},
				nb.Cells[0].In.(*explorer.Platform).Options().Args()...)
			again, _, err := runCLI(t, twin...)
			if err != nil || !reflect.DeepEqual(cell, docBody(t, again)) {
				t.Errorf("%s: %v, output differs", strings.Join(twin, " "), err)
			}
		})
	}
}

// TestSetErrors: --set takes the platform cell's keys and checks, and says
// what it accepts.
func TestSetErrors(t *testing.T) {
	base := []string{"model", "--kernel", "wcc", "--graph", "uniform:v=256,d=4", "--no-latency"}
	for _, tc := range []struct{ set, want string }{
		{"clock", `--set "clock": want KEY=VALUE`},
		{"clock=200", `unknown key "clock" (want one of board, fpgas, pes, arch, mem, pe, packing, filter, cpe, or a board figure: clock_mhz,`},
		{"memory.word_bits=12.5", "memory.word_bits must be a whole number"},
		{"clock_mhz=fast", `clock_mhz: "fast" is not a number`},
		{"arch=gravf-x", `unknown architecture "gravf-x"`},
		{"fpgas=-2", "--fpgas: fpgas must be 0 (auto) or positive, not -2"},
		{"fpgas=9", "fpgas 9: ac510 has at most 4 FPGAs"},
		{"clock_mhz=0", "clock_mhz: must be positive (f_clk of the design), got 0"},
		{"packing=maybe", `packing: "maybe" is not true or false`},
	} {
		_, _, err := runCLI(t, append(base, "--set", tc.set)...)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &ue) {
			t.Errorf("--set %s: %v, want a usage error with %q", tc.set, err, tc.want)
		}
	}
}

// TestSharedFlags: the commands that take a design point, a kernel, a
// graph or a partitioner name each flag the same, with the same default.
func TestSharedFlags(t *testing.T) {
	root := newRoot()
	groups := map[string][]string{
		"point":     {"board", "fpgas", "pes", "arch", "mem", "pe", "packing", "filter", "cpe", "set"},
		"kernel":    {"kernel", "param", "width"},
		"graph":     {"graph", "format", "directed", "random-weights", "weight-seed"},
		"partition": {"partition"},
	}
	uses := map[string][]string{
		"model":   {"point", "kernel", "graph"},
		"sim":     {"point", "kernel", "graph", "partition"},
		"explore": {"point", "kernel", "graph", "partition"},
		"export":  {"point", "kernel", "graph", "partition"},
		"ref":     {"kernel", "graph"},
	}
	defaults := map[string]string{}
	for name, gs := range uses {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			for _, fl := range groups[g] {
				f := cmd.Flags().Lookup(fl)
				if f == nil {
					t.Errorf("%s has no --%s", name, fl)
					continue
				}
				def := f.DefValue
				if name == "export" && fl == "mem" {
					continue // the generator's own default, block RAM
				}
				if d, ok := defaults[fl]; ok && d != def {
					t.Errorf("--%s defaults to %q in %s, %q elsewhere", fl, def, name, d)
				}
				defaults[fl] = def
			}
		}
	}
}

func jsonOf(t *testing.T, v any) any {
	t.Helper()
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	default:
		b = []byte(mustJSON(t, v))
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docBody decodes a command's --json document without what only the
// document carries (its schema and TEPS definition), for comparison with
// a cell's output.
func docBody(t *testing.T, out string) any {
	t.Helper()
	m, ok := jsonOf(t, out).(map[string]any)
	if !ok {
		t.Fatalf("not a JSON object: %.200s", out)
	}
	delete(m, "schema")
	delete(m, "teps_definition")
	return m
}
