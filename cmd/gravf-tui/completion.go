package main

import (
	"slices"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/teps"
	"github.com/spf13/cobra"
)

// flagValues lists the values the shell completes for the flags that take
// one of a few names, by flag name, whichever command declares them.
func flagValues() map[string][]string {
	var formats, to []string
	formats = append(formats, "auto")
	for _, f := range graph.Formats {
		formats = append(formats, string(f))
	}
	for _, f := range graph.Writable {
		to = append(to, string(f))
	}
	var defs []string
	for _, d := range teps.Definitions {
		defs = append(defs, string(d))
	}
	return map[string][]string{
		"kernel":     samples.KernelNames(),
		"board":      boards.Names(),
		"format":     formats,
		"to":         to,
		"teps":       defs,
		"out-format": {"tsv", "graphalytics"},
		"detail":     {"fast", "cycle"},
		"arch":       {"gravf-m", "gravf"},
		"mem":        {"bram", "offchip"},
		"pe":         {"generated", "paper"},
		"partition":  {"robin", "greedy", "greedy-sorted", "metis"},
	}
}

// registerCompletions adds the value completions of flagValues to every
// command of the tree, and the built-in sample names to run's argument.
func registerCompletions(root *cobra.Command) {
	values := flagValues()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, vs := range values {
			if c.Flags().Lookup(name) == nil {
				continue
			}
			vs := vs
			// A kernel or board may also be a path: complete files too.
			dirs := cobra.ShellCompDirectiveNoFileComp
			if name == "kernel" || name == "board" {
				dirs = cobra.ShellCompDirectiveDefault
			}
			_ = c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return vs, dirs
			})
		}
		if c.Name() == "run" {
			c.ValidArgsFunction = func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
				if len(args) > 0 {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				return slices.Clone(samples.NotebookNames()), cobra.ShellCompDirectiveDefault
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}
