package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/gravf-tui/gravf-tui/bench"
	"github.com/spf13/cobra"
)

func newBenchCmd() *cobra.Command {
	var only []string
	var large, asJSON, markdown bool
	var repeats int
	var python, work, baseline, revision, from string
	var groups strings.Builder
	for _, g := range bench.Groups() {
		fmt.Fprintf(&groups, "  %-10s %s\n", g[0], g[1])
	}
	cmd := &cobra.Command{
		Use:   "bench [--only GROUP,...] [--large] [--json|--markdown]",
		Short: "Measure every engine against its peer (Verilator, scipy, numpy, the disk) in one run",
		Long: `bench measures the engines on fixed graphs and designs next to their peers,
timed alternately in the same run (ours, peer, ours, peer, ...), and prints the
medians, the speedup (the peer's time over ours), the figure measured before the
performance work, and the target. Peak memory is measured by running this
binary on the real command. The peers need Verilator and Debian's
python3-scipy (make bench installs them); a full run takes about an hour on
two cores, most of it Verilator compiling the 4 x 9 designs.

Groups (in run order):
` + groups.String(),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			self, err := os.Executable()
			if err != nil {
				return err
			}
			var base *bench.Report
			if baseline == "" {
				if base, err = bench.Baseline(); err != nil {
					return err
				}
			} else if base, err = readReport(baseline); err != nil {
				return err
			}
			var rep *bench.Report
			if from != "" {
				rep, err = readReport(from)
			} else {
				rep, err = bench.Run(cmd.Context(), bench.Options{Only: only, Large: large, Repeats: repeats, Self: self,
					Python: python, Work: work, Revision: revision, Log: cmd.ErrOrStderr()})
			}
			if rep != nil {
				out := cmd.OutOrStdout()
				switch {
				case asJSON:
					enc := json.NewEncoder(out)
					enc.SetIndent("", "  ")
					if werr := enc.Encode(rep); werr != nil {
						return werr
					}
				case markdown:
					if werr := rep.WriteMarkdown(out, base); werr != nil {
						return werr
					}
				default:
					if werr := rep.WriteText(out, base); werr != nil {
						return werr
					}
				}
			}
			return err
		},
	}
	cmd.Flags().StringSliceVar(&only, "only", nil, "measure only these groups (comma-separated)")
	cmd.Flags().BoolVar(&large, "large", false, "add the large group (fast detail on R-MAT scale 24)")
	cmd.Flags().IntVar(&repeats, "repeats", 5, "timed repetitions of each side (groups of long runs use at most 3)")
	cmd.Flags().StringVar(&python, "python", "/usr/bin/python3", "the python3 with numpy and scipy")
	cmd.Flags().StringVar(&work, "work", "", "scratch folder, kept afterwards (default: a temporary folder)")
	cmd.Flags().StringVar(&baseline, "baseline", "", "a report written by --json to print beside (default: the figures before the performance work)")
	cmd.Flags().StringVar(&revision, "revision", "", "name of the measured code in the report (default: the build's VCS revision)")
	cmd.Flags().StringVar(&from, "from", "", "print a report written earlier by --json instead of measuring")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the table of docs/PERFORMANCE.md")
	cmd.MarkFlagsMutuallyExclusive("json", "markdown")
	return cmd
}

// readReport reads a report written by bench --json.
func readReport(path string) (*bench.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usageError{err}
	}
	var r bench.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, usagef("%s: not a bench report: %v", path, err)
	}
	return &r, nil
}
