package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/spf13/cobra"
)

func newRefCmd() *cobra.Command {
	var kf kernelFlags
	var gf graphFlags
	var out string
	var maxSteps int
	var quiet, partial bool
	var outFormat, outField string
	cmd := &cobra.Command{
		Use:   "ref --kernel K --graph G [--param k=v] --out FILE",
		Short: "Run the BSP reference engine and write the final vertex states as TSV",
		Long: `ref runs a kernel on a graph in supersteps, exactly as the programming model
defines them, and writes one row per vertex under the input's own labels.
It is the functional golden model for the simulator and the generated RTL.
Per-superstep counts go to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			inputs := map[string]string{"--graph": gf.d.Graph}
			if err := checkNotInput(out, inputs); err != nil {
				return err // before the run, not after it
			}
			k, g, err := loadKernelGraph(&kf, &gf)
			if err != nil {
				return err
			}
			write, err := refWriter(k, outFormat, outField)
			if err != nil {
				return err
			}
			if maxSteps < 0 {
				return usagef("--max-supersteps must not be negative")
			}
			res, err := kernel.Run(cmd.Context(), k, g, kernel.RunOptions{MaxSupersteps: maxSteps})
			var le *kernel.LimitError
			switch {
			case errors.As(err, &le) && partial:
				fmt.Fprintf(cmd.ErrOrStderr(), "partial result: %v\n", err)
			case le != nil:
				return limitError{fmt.Errorf("%w; raise --max-supersteps, or pass --partial to write the partial states", err)}
			case err != nil:
				return err
			}
			if !quiet {
				printSupersteps(cmd.ErrOrStderr(), res)
			}
			if res.Saturated > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %d satadd sums did not fit their width and stopped at all ones (none): widen the field\n", res.Saturated)
			}
			if out == "" {
				out = "-"
			}
			return writeOutput(cmd, out, inputs, func(w io.Writer) error { return write(res, w) })
		},
	}
	kf.register(cmd.Flags())
	gf.register(cmd)
	cmd.Flags().StringVar(&out, "out", "-", "output file ('-' for stdout)")
	cmd.Flags().StringVar(&outFormat, "out-format", "tsv", "output format: tsv (every field, with a header) or graphalytics (\"vertex value\" lines as LDBC Graphalytics writes them: 9223372036854775807 for none, Infinity for f32 inf)")
	cmd.Flags().StringVar(&outField, "out-field", "", "the vertex field --out-format graphalytics writes (default: the first)")
	cmd.Flags().IntVar(&maxSteps, "max-supersteps", 0, "stop a kernel that has not converged after this many supersteps (0: max(1000, V+2)); reaching it is an error unless --partial")
	cmd.Flags().BoolVar(&partial, "partial", false, "accept a run stopped by --max-supersteps: write its partial states with exit status 0")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "do not print the per-superstep table")
	return cmd
}

// refWriter returns the writer of ref's output format.
func refWriter(k *kernel.Kernel, format, field string) (func(*kernel.Result, io.Writer) error, error) {
	switch format {
	case "tsv", "":
		if field != "" {
			return nil, usagef("--out-field needs --out-format graphalytics (the TSV has every field)")
		}
		return (*kernel.Result).WriteTSV, nil
	case "graphalytics":
		i := 0
		if field != "" {
			if i = k.Spec.Vertex.Index(field); i < 0 {
				return nil, usagef("--out-field %q: kernel %s has the vertex fields %s", field, k.Spec.Name, vertexFieldNames(k.Spec))
			}
		}
		return func(r *kernel.Result, w io.Writer) error { return r.WriteGraphalytics(w, i) }, nil
	}
	return nil, usagef("--out-format %q: want tsv or graphalytics", format)
}

func vertexFieldNames(s *kernel.Spec) string {
	var names []string
	for _, f := range s.Vertex {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

func printSupersteps(w io.Writer, res *kernel.Result) {
	fmt.Fprintf(w, "%s on %s: V=%d E=%d, %d supersteps, %d messages (traversed edges)%s\n",
		res.Kernel.Spec.Name, res.Graph.Name, res.Graph.NumVertices(), res.Graph.NumEdges(), len(res.Supersteps), res.Messages,
		map[bool]string{false: ", stopped at the superstep limit"}[res.Converged])
	if len(res.Supersteps) > 40 {
		fmt.Fprintf(w, "  (first 20 and last 20 supersteps)\n")
	}
	fmt.Fprintf(w, "  %9s %12s %14s\n", "superstep", "active", "messages")
	for i, s := range res.Supersteps {
		if len(res.Supersteps) > 40 && i >= 20 && i < len(res.Supersteps)-20 {
			continue
		}
		fmt.Fprintf(w, "  %9d %12d %14d\n", s.Index, s.Active, s.Messages)
	}
}

// writeOutput writes a command's output file through outfile (atomic for
// regular files, streamed to devices and FIFOs; "-" is standard output)
// after checking that it would not overwrite one of the command's inputs,
// named by flag.
func writeOutput(cmd *cobra.Command, path string, inputs map[string]string, write func(io.Writer) error) error {
	if err := checkNotInput(path, inputs); err != nil {
		return err
	}
	return outfile.Write(path, outfile.Options{Stdout: cmd.OutOrStdout()}, write)
}

// checkNotInput refuses an output path that names an input file; inputs
// maps what names the input ("--graph") to its path.
func checkNotInput(out string, inputs map[string]string) error {
	for _, what := range slices.Sorted(maps.Keys(inputs)) {
		if outfile.SameFile(out, inputs[what]) {
			return usagef("the output %s is the input %s %s; write elsewhere", out, what, inputs[what])
		}
	}
	return nil
}
