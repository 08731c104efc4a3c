package explorer_test

import (
	"context"
	"fmt"

	"github.com/gravf-tui/gravf-tui/explorer"
)

// A notebook is parsed from its TOML text and evaluated cell by cell; a
// cell's result depends only on the cells above it.
func ExampleParse() {
	nb, err := explorer.Parse("d32.gravf.toml", []byte(`version = 1
title = "WCC on four AC-510"

[[cell]]
kind = "platform"
board = "ac510"
fpgas = 4

[[cell]]
kind = "kernel"
kernel = "wcc"

[[cell]]
kind = "dataset"
graph = "uniform:v=65536,d=32,seed=1"

[[cell]]
kind = "model"
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := nb.Eval(context.Background(), 3, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := out.(*explorer.ModelOutput)
	fmt.Printf("%d FPGAs x %d PEs: %s, bound by %s\n", m.FPGAs, m.PEs, explorer.TEPS(m.TSys), m.Binding)
	// Output: 4 FPGAs x 9 PEs: 6.750 GTEPS, bound by pe
}

// Editing a cell marks the cells that depend on it stale; undo brings the
// cached results back.
func ExampleNotebook_Edit() {
	nb := explorer.Default()
	model := 5 // the default notebook's model cell
	if _, err := nb.Eval(context.Background(), model, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("stale before the edit:", nb.Stale(model))
	_ = nb.Edit(1, func(in explorer.Input) error {
		in.(*explorer.Platform).Packing = true
		return nil
	})
	fmt.Println("stale after the edit:", nb.Stale(model))
	_ = nb.Undo()
	fmt.Println("stale after undo:", nb.Stale(model))
	// Output:
	// stale before the edit: false
	// stale after the edit: true
	// stale after undo: false
}

// A grid sweep evaluates every point with the model; Merge joins the
// shards of a sweep that ran on several machines.
func ExampleParseGrid() {
	g, err := explorer.ParseGrid("fpgas=1..4,pes=1|2|4|8,arch=gravf-m|gravf")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g.Size(), "points:", g)
	// Output: 32 points: arch=gravf-m|gravf,fpgas=1..4,pes=1|2|4|8
}
