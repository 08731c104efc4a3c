package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/teps"
	"github.com/spf13/cobra"
)

func newModelCmd() *cobra.Command {
	var pf pointFlags
	var kf kernelFlags
	var gf graphFlags
	var partition string
	var asJSON, noLatency bool
	var tf tepsFlags
	var cf cacheFlags
	cmd := &cobra.Command{
		Use:   "model --board B --kernel K --graph G [--fpgas N] [--pes N] [--arch gravf-m|gravf] [--set KEY=VALUE] [--json]",
		Short: "Evaluate the analytical performance model and choose nF and nP",
		Long: `model evaluates the four throughput limits of GraVF-M (or GraVF): the PEs,
the off-chip memory, the network interface and the network; T_sys is their
minimum, the paper's bound. It then runs the BSP reference engine once and
predicts the run time superstep by superstep on the partition (--partition):
the most loaded PE, the lockstep broadcast, gather hazards, the links, the
apply sweeps and t_sync, with where the time goes; the prediction is never
above T_sys. With --fpgas 0 or --pes 0 it chooses the design with the
highest prediction over every nF and nP that fit (the highest T_sys with
--no-latency), fewer FPGAs and then fewer PEs winning ties. The curves over
nF and nP are always printed with both, with recommendations in plain words.

--set KEY=VALUE changes what a notebook's platform cell would: a key of the
cell (fpgas, arch, ...) or a board figure (--set memory.peak_gib_s=10), so
that every edit of the TUI's platform cell can be repeated here.

` + cacheHelp + `

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
			method, err := graph.ParsePartitioner(partition)
			if err != nil {
				return usageError{err}
			}
			ctx, stop := context.WithCancel(cmd.Context())
			defer stop()
			var ps *model.Profiles
			if !noLatency {
				prog := newProgress(cmd.ErrOrStderr())
				act, err := model.ReferenceActivity(ctx, p.Kernel, p.Graph, kernel.RunOptions{Progress: func(s kernel.Superstep) {
					prog.line(fmt.Sprintf("reference run for the latency-aware prediction: superstep %d", s.Index+1))
				}}, cf.store())
				prog.done()
				var le *kernel.LimitError
				if errors.As(err, &le) {
					return limitError{fmt.Errorf("the reference run for the latency-aware prediction: %w (--no-latency skips it)", err)}
				}
				if err != nil {
					return err
				}
				ps = model.NewProfiles(p.Graph, act, graph.PartitionOptions{Method: method, Seed: 1})
			}
			evalCtx, prog := ctx, newProgress(cmd.ErrOrStderr())
			if ps != nil {
				// The profiles of the design points the optimiser and the
				// recommendations predict are the prediction's long step.
				var mu sync.Mutex
				evalCtx = model.WithProfileProgress(ctx, func(pp model.ProfileProgress) {
					mu.Lock()
					defer mu.Unlock()
					prog.line(pp.String())
				})
			}
			out, err := explorer.EvaluateModel(evalCtx, p.Platform, p.Kernel, p.Graph, p.Config(), p.Options.PE, p.Options.CPE, ps)
			prog.done()
			if err != nil {
				return asUsage(err)
			}
			doc := modelDoc{ModelOutput: out, TEPSDefinition: teps.GraVF}
			if def == teps.Graph500 {
				if doc.Graph500, err = graph500Model(cmd.Context(), out, p.Platform, p.Kernel, p.Graph, p.Options.PE, p.Options.CPE, p.Config(), !noLatency, kf.params, tf, cf.store()); err != nil {
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
	cmd.Flags().StringVar(&partition, "partition", "greedy", "partitioner the prediction uses: robin, greedy, greedy-sorted or metis")
	cmd.Flags().BoolVar(&noLatency, "no-latency", false, "skip the reference run that feeds the prediction (the optimiser then chooses on T_sys)")
	tf.register(cmd)
	cf.register(cmd.Flags())
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
