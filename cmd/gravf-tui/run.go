package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/spf13/cobra"
)

func newRunCmd() *cobra.Command {
	var asJSON, allowOutside bool
	cmd := &cobra.Command{
		Use:   "run NOTEBOOK [--json] [--allow-outside]",
		Short: "Evaluate every cell of a notebook headless",
		Long: `run evaluates a notebook (a *.gravf.toml file, or the name of a built-in
sample: ` + strings.Join(samples.NotebookNames(), ", ") + `) from top to bottom, as the TUI would
with "run all", and prints every cell's output. Simulate cells simulate,
sweep cells sweep, and export cells write their project. With --json it prints
a list of cells, each with its kind, inputs and output.

The first failing cell stops the run; its error names the file, the line and
the cell.

A notebook whose cells would replace files outside its folder (a simulate
cell's trace, or an export cell with force = true, at an absolute path, a
path with "..", or through a link that leads out) is refused before anything
runs, unless --allow-outside.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			nb, err := loadNotebook(args[0])
			if err != nil {
				return err
			}
			if err := checkOutside(nb, allowOutside); err != nil {
				return err
			}
			ctx, stop := context.WithCancel(cmd.Context())
			defer stop()
			prog := newProgress(cmd.ErrOrStderr())
			results, err := nb.RunAll(ctx, func(p explorer.Progress) {
				prog.line(fmt.Sprintf("cell %d (%s): %s", p.Cell+1, p.Kind, p.Text))
			})
			prog.done()
			if asJSON {
				if results == nil {
					results = []explorer.CellResult{}
				}
				if werr := writeJSON(cmd.OutOrStdout(), results); werr != nil {
					return werr
				}
			} else {
				printCells(cmd, nb, results)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON list of cells with kind, inputs and output")
	cmd.Flags().BoolVar(&allowOutside, "allow-outside", false, "let cells replace files outside the notebook's folder (traces, exports with force = true)")
	return cmd
}

// checkOutside refuses a notebook whose cells would replace files outside
// its folder, naming each, unless the user allows it.
func checkOutside(nb *explorer.Notebook, allow bool) error {
	ws := nb.WritesOutside()
	if len(ws) == 0 || allow {
		return nil
	}
	var b strings.Builder
	for _, w := range ws {
		fmt.Fprintf(&b, "\n  %s:%d: %s writes outside the notebook's folder", nb.Path, w.Line, w)
	}
	return usagef("%s: not run: %d cell(s) would replace files outside its folder (pass --allow-outside to run it anyway):%s", nb.Path, len(ws), b.String())
}

// loadNotebook reads a notebook file, or a built-in sample by name.
func loadNotebook(arg string) (*explorer.Notebook, error) {
	nb, err := explorer.Load(arg)
	if err == nil {
		return nb, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if s, serr := explorer.Sample(arg); serr == nil {
			return s, nil
		}
		return nil, usagef("%s: no such notebook file (built-in samples: %s)", arg, strings.Join(samples.NotebookNames(), ", "))
	}
	var pe *explorer.ParseError
	if errors.As(err, &pe) {
		return nil, usageError{err}
	}
	return nil, err
}

func printCells(cmd *cobra.Command, nb *explorer.Notebook, results []explorer.CellResult) {
	w := cmd.OutOrStdout()
	if nb.Title != "" {
		fmt.Fprintf(w, "# %s\n\n", nb.Title)
	}
	for i, r := range results {
		fmt.Fprintf(w, "-- cell %d: %s %s\n", i+1, r.Kind, strings.Repeat("-", max(0, 60-len(r.Kind))))
		if r.Error != "" {
			fmt.Fprintf(w, "error: %s\n\n", r.Error)
			continue
		}
		if r.Output != nil {
			fmt.Fprintf(w, "%s\n", strings.TrimRight(r.Output.Text(), "\n"))
		}
		fmt.Fprintln(w)
	}
}
