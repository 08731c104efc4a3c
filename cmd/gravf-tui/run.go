package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/teps"
	"github.com/spf13/cobra"
)

func newRunCmd() *cobra.Command {
	var asJSON, allowOutside bool
	var outDir string
	var cf cacheFlags
	cmd := &cobra.Command{
		Use:   "run NOTEBOOK [--json] [--out-dir DIR] [--allow-outside]",
		Short: "Evaluate every cell of a notebook headless",
		Long: `run evaluates a notebook (a *.gravf.toml file, or the name of a built-in
sample: ` + strings.Join(samples.NotebookNames(), ", ") + `) from top to bottom, as the TUI would
with "run all", and prints every cell's output. Simulate cells simulate,
sweep cells sweep, and export cells write their project. With --json it prints
one document (docs/JSON.md) with every cell's kind, inputs and output.

A notebook file's outputs (traces, exported projects) go beside it. A
built-in sample writes them into a folder named after it (./default for
"run default"), or into --out-dir, and ends with a line naming what that
folder holds.

The first failing cell stops the run; its error names the file, the line and
the cell.

A notebook whose cells would replace files outside its folder (a simulate
cell's trace, or an export cell with force = true, at an absolute path, a
path with "..", or through a link that leads out) is refused before anything
runs, unless --allow-outside.

` + cacheHelp,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			nb, sample, err := loadNotebook(args[0])
			if err != nil {
				return err
			}
			if cf.off {
				nb.WithoutDiskCache()
			}
			outputsDone, err := placeOutputs(cmd, nb, sample, outDir)
			if err != nil {
				return err
			}
			defer outputsDone()
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
				doc := struct {
					Title          string                `json:"title,omitempty"`
					TEPSDefinition teps.Definition       `json:"teps_definition"`
					Cells          []explorer.CellResult `json:"cells"`
				}{nb.Title, teps.GraVF, results}
				if werr := writeJSONDoc(cmd.OutOrStdout(), schemaRun, doc); werr != nil {
					return werr
				}
			} else {
				printCells(cmd, nb, results)
			}
			return err
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON document: the title and every cell with its kind, inputs and output")
	cf.register(cmd.Flags())
	cmd.Flags().BoolVar(&allowOutside, "allow-outside", false, "let cells replace files outside the notebook's folder (traces, exports with force = true)")
	cmd.Flags().StringVar(&outDir, "out-dir", "", "folder for a built-in sample's outputs (default: one named after the sample)")
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

// loadNotebook reads a notebook file, or a built-in sample by name (then
// sample is its name).
func loadNotebook(arg string) (nb *explorer.Notebook, sample string, err error) {
	nb, err = explorer.Load(arg)
	if err == nil {
		return nb, "", nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		if s, serr := explorer.Sample(arg); serr == nil {
			return s, arg, nil
		}
		return nil, "", usagef("%s: no such notebook file (built-in samples: %s)", arg, strings.Join(samples.NotebookNames(), ", "))
	}
	var pe *explorer.ParseError
	if errors.As(err, &pe) {
		return nil, "", usageError{err}
	}
	return nil, "", err
}

// placeOutputs gives a built-in sample a folder of its own, so that its
// traces and exports do not land in the working directory: the notebook
// lives in that folder (relative paths resolve there) for the run. The
// returned func, called after the run, lists what the folder holds, or
// removes it when this run made it and wrote nothing.
func placeOutputs(cmd *cobra.Command, nb *explorer.Notebook, sample, outDir string) (func(), error) {
	if sample == "" {
		if outDir != "" {
			return nil, usagef("--out-dir is for the built-in samples; the outputs of a notebook file go beside it")
		}
		return func() {}, nil
	}
	if outDir == "" {
		outDir = sample
	}
	_, err := os.Stat(outDir)
	made := errors.Is(err, fs.ErrNotExist)
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	nb.Path = filepath.Join(outDir, sample+samples.NotebookSuffix)
	return func() { summariseOutputs(cmd.ErrOrStderr(), sample, outDir, made) }, nil
}

// summariseOutputs prints one line naming the entries of a sample's output
// folder (a folder with its file count), or removes the folder when the
// run made it and left it empty.
func summariseOutputs(w io.Writer, sample, dir string, made bool) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	if len(ents) == 0 {
		if made {
			os.Remove(dir)
		}
		fmt.Fprintf(w, "%s: no outputs\n", sample)
		return
	}
	var parts []string
	for _, e := range ents {
		if !e.IsDir() {
			parts = append(parts, e.Name())
			continue
		}
		n := 0
		filepath.WalkDir(filepath.Join(dir, e.Name()), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				n++
			}
			return nil
		})
		parts = append(parts, fmt.Sprintf("%s/ (%d files)", e.Name(), n))
	}
	fmt.Fprintf(w, "%s: outputs in %s: %s\n", sample, dir, strings.Join(parts, ", "))
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
