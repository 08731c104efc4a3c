package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/sim"
	"github.com/gravf-tui/gravf-tui/teps"
	"github.com/spf13/cobra"
)

func newExploreCmd() *cobra.Command {
	var pf pointFlags
	var kf kernelFlags
	var gf graphFlags
	var partf partitionFlags
	var cf cacheFlags
	var grid, cost, shard string
	detail := sim.Fast
	var simulate, asJSON bool
	var workers int
	cmd := &cobra.Command{
		Use:   "explore --board B --kernel K --graph G --sweep fpgas=1..8,pes=1..16 [--sim] [--json]",
		Short: "Sweep a grid of design points with the model and, optionally, the simulator",
		Long: `explore evaluates every point of a grid with the analytical model, and with
--sim also simulates every point, in parallel on all cores. It prints the best
point, the Pareto front of throughput against cost (--cost fpgas, pes or price)
and, when simulating, the points where model and simulation disagree most.

Axes of --sweep: board, kernel, dataset, partitioner, arch, mem, packing,
filter, fpgas, pes. Values are separated by '|', integer axes take ranges a..b:
  --sweep fpgas=1..4,arch=gravf-m|gravf
  --sweep dataset=uniform:v=4096,d=8|uniform:v=4096,d=32
Axes left out take the value of the other flags; --fpgas 0 or --pes 0 let the
optimiser choose per point. The design flags and --set are those of
"gravf-tui model"; --set overrides apply to every board of the sweep.

--shard i/n evaluates points i, i+n, i+2n, ... only (0 <= i < n); "explore
merge" joins the --json outputs of all shards into the unsharded result. Ready
runners for Slurm job arrays and Kubernetes Indexed Jobs are in deploy/.

Interrupting a --sim sweep prints what was finished (complete: false).

` + cacheHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := pf.options()
			if err != nil {
				return err
			}
			k, err := kf.choice()
			if err != nil {
				return err
			}
			d, err := gf.dataset()
			if err != nil {
				return err
			}
			part, err := partf.partition()
			if err != nil {
				return err
			}
			if grid == "" {
				return usagef("--sweep is required (for example --sweep fpgas=1..8,pes=1..16)")
			}
			nb := explorer.New("explore")
			if cf.off {
				nb.WithoutDiskCache()
			}
			platform, kcell, dcell, pcell := explorer.Platform(o), explorer.Kernel(k), explorer.Dataset(d), explorer.Partition(part)
			cells := []explorer.Input{&platform, &kcell, &dcell, &pcell,
				&explorer.Sweep{Grid: grid, Simulate: simulate, Detail: detail, Cost: cost, Workers: workers, Shard: shard},
			}
			for _, in := range cells {
				if key, err := in.Check(); err != nil {
					return usagef("%s: %v", flagFor(key), err)
				}
				nb.Append(in)
			}
			ctx, stop := context.WithCancel(cmd.Context())
			defer stop()
			prog := newProgress(cmd.ErrOrStderr())
			out, err := nb.Eval(ctx, len(cells)-1, func(p explorer.Progress) { prog.line(p.Text) })
			prog.done()
			if err != nil && out == nil {
				var ce *explorer.CellError
				if errors.As(err, &ce) {
					return usageError{ce.Err}
				}
				return err
			}
			if asJSON {
				sw, _ := out.(*explorer.SweepOutput)
				if werr := writeJSONDoc(cmd.OutOrStdout(), schemaExplore, exploreDoc{sw, teps.GraVF}); werr != nil {
					return werr
				}
			} else {
				fmt.Fprint(cmd.OutOrStdout(), out.Text())
			}
			return err
		},
	}
	pf.register(cmd.Flags())
	cf.register(cmd.Flags())
	kf.register(cmd.Flags())
	gf.register(cmd)
	partf.register(cmd.Flags())
	cmd.Flags().StringVar(&grid, "sweep", "", "the grid, e.g. fpgas=1..8,pes=1..16,arch=gravf-m|gravf")
	cmd.Flags().BoolVar(&simulate, "sim", false, "simulate every point besides the model")
	cmd.Flags().Var(typed(&detail), "detail", "simulation detail: fast or cycle")
	cmd.Flags().StringVar(&cost, "cost", "fpgas", "cost axis of the Pareto front: fpgas, pes or price")
	cmd.Flags().IntVar(&workers, "workers", 0, "parallel simulations (0: one per core)")
	cmd.Flags().StringVar(&shard, "shard", "", "evaluate only shard i/n of the grid")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.AddCommand(newMergeCmd())
	return cmd
}

func newMergeCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "merge PART.json... [--json]",
		Short: "Join the --json outputs of the shards of one sweep",
		Long: `merge reads the JSON outputs of "explore --shard i/n --json" for every i and
prints the result of the whole sweep, equal to an unsharded run. It fails when
the parts come from different sweeps, overlap, or leave points out.`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var parts []*explorer.SweepOutput
			for _, f := range args {
				data, err := readJSONInput(f)
				if err != nil {
					return err
				}
				if err := checkSchema(f, data, schemaExplore); err != nil {
					return usageError{err}
				}
				var p explorer.SweepOutput
				if err := json.Unmarshal(data, &p); err != nil {
					return usagef("%s: not a sweep's JSON output: %v", f, err)
				}
				if p.Grid == "" {
					return usagef("%s: not a sweep's JSON output (no grid)", f)
				}
				parts = append(parts, &p)
			}
			out, err := explorer.Merge(parts)
			if err != nil {
				return usageError{err}
			}
			if asJSON {
				return writeJSONDoc(cmd.OutOrStdout(), schemaExplore, exploreDoc{out, teps.GraVF})
			}
			fmt.Fprint(cmd.OutOrStdout(), out.Text())
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	return cmd
}

// exploreDoc is the explore command's JSON document: the sweep, and the
// definition its TEPS count by (gravf: messages per second).
type exploreDoc struct {
	*explorer.SweepOutput
	TEPSDefinition teps.Definition `json:"teps_definition"`
}
