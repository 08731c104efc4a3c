package main

import (
	"errors"
	"fmt"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/teps"
	"github.com/spf13/cobra"
)

func newModelCmd() *cobra.Command {
	var pf pointFlags
	var kf kernelFlags
	var gf graphFlags
	var asJSON, noLatency bool
	var tf tepsFlags
	cmd := &cobra.Command{
		Use:   "model --board B --kernel K --graph G [--fpgas N] [--pes N] [--arch gravf-m|gravf] [--set KEY=VALUE] [--json]",
		Short: "Evaluate the analytical performance model and choose nF and nP",
		Long: `model evaluates the four throughput limits of GraVF-M (or GraVF): the PEs,
the off-chip memory, the network interface and the network; T_sys is their
minimum. With --fpgas 0 or --pes 0 it chooses the design with the highest
T_sys over every nF and nP that fit, fewer FPGAs and then fewer PEs winning
ties (the paper's rule where T_sys only grows with nP; when memory binds,
fewer PEs can be faster). The curves over nF and nP are always printed, with
recommendations in plain words.

--set KEY=VALUE changes what a notebook's platform cell would: a key of the
cell (fpgas, arch, ...) or a board figure (--set memory.peak_gib_s=10), so
that every edit of the TUI's platform cell can be repeated here.

` + explorer.LatencyNote,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			def, err := tf.definition()
			if err != nil {
				return err
			}
			p, err := resolvePoint(&pf, &kf, &gf, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			var steps []kernel.Superstep
			if !noLatency {
				prog := newProgress(cmd.ErrOrStderr())
				res, err := kernel.Run(cmd.Context(), p.Kernel, p.Graph, kernel.RunOptions{Progress: func(s kernel.Superstep) {
					prog.line(fmt.Sprintf("reference run for the latency-aware prediction: superstep %d", s.Index+1))
				}})
				prog.done()
				var le *kernel.LimitError
				if errors.As(err, &le) {
					return limitError{fmt.Errorf("the reference run for the latency-aware prediction: %w (--no-latency skips it)", err)}
				}
				if err != nil {
					return err
				}
				steps = res.Supersteps
			}
			out, err := explorer.EvaluateModel(p.Platform, p.Kernel, p.Graph, p.Config(), p.Options.PE, p.Options.CPE, steps)
			if err != nil {
				return asUsage(err)
			}
			doc := modelDoc{ModelOutput: out, TEPSDefinition: teps.GraVF}
			if def == teps.Graph500 {
				if doc.Graph500, err = graph500Model(cmd.Context(), out, p.Platform, p.Kernel, p.Graph, p.Options.PE, p.Options.CPE, p.Config(), !noLatency, kf.params, tf); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSONDoc(cmd.OutOrStdout(), schemaModel, doc)
			}
			out.WriteText(cmd.OutOrStdout())
			if doc.Graph500 != nil {
				printGraph500(cmd.OutOrStdout(), doc.Graph500)
			}
			return nil
		},
	}
	pf.register(cmd.Flags())
	kf.register(cmd.Flags())
	gf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&noLatency, "no-latency", false, "skip the reference run that feeds the latency-aware prediction")
	tf.register(cmd)
	return cmd
}

// modelDoc is the model command's JSON document: the model's output, which
// definition its throughputs count by (gravf: messages per second), and
// the graph500 count when asked for.
type modelDoc struct {
	*explorer.ModelOutput
	TEPSDefinition teps.Definition `json:"teps_definition"`
	Graph500       *Graph500       `json:"graph500,omitempty"`
}

// asUsage turns the explorer's usage errors into the CLI's (exit 2).
func asUsage(err error) error {
	var ue explorer.UsageError
	if errors.As(err, &ue) {
		return usageError{ue.Err}
	}
	return err
}
