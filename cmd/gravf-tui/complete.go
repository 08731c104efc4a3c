package main

import (
	"strings"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/design"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
	"github.com/spf13/cobra"
)

// Shell completion (gravf-tui completion bash|zsh|fish|powershell) offers
// the values of the shared flags. Because a flag has one name and one
// meaning on every command (flags.go), its values are listed once here, by
// name, and registered on whichever commands have the flag.

// valueCompletions lists what completion offers for a flag's value. A
// board or a kernel may also be a file or a folder, a graph a file, so
// those leave the shell's own file completion on.
func valueCompletions() map[string]cobra.CompletionFunc {
	fixed := func(values ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
	}
	orFiles := func(values ...string) cobra.CompletionFunc {
		return cobra.FixedCompletions(values, cobra.ShellCompDirectiveDefault)
	}
	var generators []string
	for _, k := range graph.GenKinds {
		generators = append(generators, k+":")
	}
	formats := []string{"auto"} // graph.FormatAuto as flags spell it
	for _, f := range graph.Formats {
		formats = append(formats, string(f))
	}
	var partitioners []string
	for _, p := range graph.Partitioners {
		partitioners = append(partitioners, string(p))
	}
	var setKeys []string
	for _, k := range design.Keys {
		setKeys = append(setKeys, k+"=")
	}
	for _, p := range boards.Params {
		setKeys = append(setKeys, p.Name+"=")
	}
	var layouts []string
	for _, l := range design.Layouts {
		layouts = append(layouts, l+".")
	}
	return map[string]cobra.CompletionFunc{
		"board":     orFiles(boards.Names()...),
		"kernel":    orFiles(samples.KernelNames()...),
		"graph":     cobra.FixedCompletions(generators, cobra.ShellCompDirectiveNoSpace|cobra.ShellCompDirectiveDefault),
		"format":    fixed(formats...),
		"arch":      fixed(string(model.GraVFM), string(model.GraVF)),
		"mem":       fixed(string(model.OffChip), string(model.BRAM)),
		"pe":        fixed(string(model.PEGenerated), string(model.PEPaper)),
		"partition": fixed(partitioners...),
		"detail":    fixed(string(sim.Fast), string(sim.Cycle)),
		"target":    fixed("plain", "vitis"),
		"set":       cobra.FixedCompletions(setKeys, cobra.ShellCompDirectiveNoSpace|cobra.ShellCompDirectiveNoFileComp),
		"width":     cobra.FixedCompletions(layouts, cobra.ShellCompDirectiveNoSpace|cobra.ShellCompDirectiveNoFileComp),
	}
}

// registerCompletions registers the value completions on every command of
// root that has one of the flags.
func registerCompletions(root *cobra.Command) {
	comps := valueCompletions()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, f := range comps {
			if c.LocalFlags().Lookup(name) != nil && !strings.HasPrefix(c.Name(), "__") {
				_ = c.RegisterFlagCompletionFunc(name, f) // only fails for a flag registered twice
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
