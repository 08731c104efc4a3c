package main

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/design"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// TestSetMatchesSimulateCell is TestSetMatchesPlatformCell for the
// simulator: a simulate cell after an edit of the platform cell and `sim`
// with the same edits as --set measure the same run (cycles, messages, per
// superstep and per PE, the model's T_sys beside it), so that a simulation
// seen in the TUI can be repeated headless.
func TestSetMatchesSimulateCell(t *testing.T) {
	const graphSpec = "uniform:v=512,d=8,seed=2"
	tests := []struct {
		name string
		edit func(p *explorer.Platform)
		sets []string
	}{
		{"clock and design point", func(p *explorer.Platform) {
			p.FPGAs, p.PEs, p.Set = 2, 2, map[string]float64{"clock_mhz": 250}
		}, []string{"fpgas=2", "pes=2", "clock_mhz=250"}},
		{"block RAM, the baseline, slow links", func(p *explorer.Platform) {
			p.FPGAs, p.PEs, p.Mem, p.Arch = 3, 1, model.BRAM, model.GraVF
			p.Set = map[string]float64{"network.link_gbit_s": 5}
		}, []string{"fpgas=3", "pes=1", "mem=bram", "arch=gravf", "network.link_gbit_s=5"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nb := explorer.New("set")
			p := explorer.Platform(design.DefaultOptions())
			part := explorer.Partition(design.DefaultPartition())
			for _, in := range []explorer.Input{&p, &explorer.Kernel{Kernel: "wcc"}, &explorer.Dataset{Graph: graphSpec, WeightSeed: 1},
				&part, &explorer.Simulate{Detail: sim.Fast, Seed: 1}} {
				nb.Append(in)
			}
			if err := nb.Edit(0, func(in explorer.Input) error { tc.edit(in.(*explorer.Platform)); return nil }); err != nil {
				t.Fatal(err)
			}
			out, err := nb.Eval(context.Background(), 4, nil)
			if err != nil {
				t.Fatal(err)
			}
			cell := jsonOf(t, out.(*explorer.SimulateOutput).Result).(map[string]any)
			args := []string{"sim", "--kernel", "wcc", "--graph", graphSpec, "--json"}
			for _, s := range tc.sets {
				args = append(args, "--set", s)
			}
			stdout, stderr, err := runCLI(t, args...)
			if err != nil {
				t.Fatalf("%v: %v\n%s", args, err, stderr)
			}
			cli := docBody(t, stdout).(map[string]any)
			for _, m := range []map[string]any{cell, cli} {
				delete(m, "wall_seconds") // the only figure of the machine
			}
			if cli["cycles"] == nil || !reflect.DeepEqual(cell, cli) {
				t.Errorf("simulate cell and %s differ:\n%v\n%v", strings.Join(args, " "), cell, cli)
			}
		})
	}
}
