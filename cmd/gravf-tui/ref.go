package main

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/google/renameio/v2"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/spf13/cobra"
)

func newRefCmd() *cobra.Command {
	var kf kernelFlags
	var gf graphFlags
	var out string
	var maxSteps int
	var quiet bool
	cmd := &cobra.Command{
		Use:   "ref --kernel K --graph G [--param k=v] --out FILE",
		Short: "Run the BSP reference engine and write the final vertex states as TSV",
		Long: `ref runs a kernel on a graph in supersteps, exactly as the programming model
defines them, and writes one row per vertex under the input's own labels.
It is the functional golden model for the simulator and the generated RTL.
Per-superstep counts go to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			k, g, err := loadKernelGraph(&kf, &gf)
			if err != nil {
				return err
			}
			res, err := kernel.Run(context.Background(), k, g, kernel.RunOptions{MaxSupersteps: maxSteps})
			if err != nil {
				return err
			}
			if !quiet {
				printSupersteps(cmd.ErrOrStderr(), res)
			}
			if out == "" || out == "-" {
				w := bufio.NewWriter(cmd.OutOrStdout())
				if err := res.WriteTSV(w); err != nil {
					return err
				}
				return w.Flush()
			}
			return writeFileAtomic(out, res.WriteTSV)
		},
	}
	kf.register(cmd.Flags())
	gf.register(cmd.Flags())
	cmd.Flags().StringVar(&out, "out", "-", "output TSV file ('-' for stdout)")
	cmd.Flags().IntVar(&maxSteps, "max-supersteps", 0, "stop after this many supersteps (0: max(1000, V+2))")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "do not print the per-superstep table")
	return cmd
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

// writeFileAtomic writes through a temporary file in the same folder and
// renames it into place, so a failure never leaves a half-written file.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	f, err := renameio.NewPendingFile(path, renameio.WithPermissions(0o644))
	if err != nil {
		return err
	}
	defer f.Cleanup()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return f.CloseAtomicallyReplace()
}
