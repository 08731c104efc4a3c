package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/gravf-tui/gravf-tui/fidelity"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/spf13/cobra"
)

// validateFlags select a subset of the fidelity corpus.
type validateFlags struct {
	kernels, classes, graphs, boards, mems, archs, pes []string
	fpgas, pesPer                                      []int
	ci, list, points, asJSON, markdown, model          bool
	datasets, from, cycleFrom                          string
	workers, worst                                     int
}

func newValidateCmd() *cobra.Command {
	var f validateFlags
	cmd := &cobra.Command{
		Use:   "validate [--kernel K,...] [--class C,...] [--graph G,...] [--fpgas N,...] [--pes N,...] [--mem M,...] [--arch A,...] [--pe P,...] [--board B,...] [--ci] [--json]",
		Short: "Measure fast detail and the model against cycle detail on the fidelity corpus",
		Long: `validate runs every point of the fidelity corpus (or the subset the flags
select) at cycle detail, the level the generated RTL agrees with, at fast
detail, and through the model's prediction, and prints, per kernel and per
graph class, the median and the worst error of fast detail against cycle
detail (total cycles, and per superstep for supersteps of at least 1000
cycles) and of the model's predicted throughput against cycle detail's,
then the worst points of each.

The corpus covers every public graph of the dataset folder, R-MAT scales 12
to 16 with scrambled and unscrambled ids, uniform graphs of degree 2 to 64,
grids, the layered graphs of the paper's Fig. 10, the kernels WCC, BFS, PR
and SSSP, 1, 2 and 4 FPGAs x 1, 4 and 9 PEs, edges in BRAM and off-chip,
GraVF-M and GraVF, both PE designs and two boards. --list prints the points
without running them. Points run in parallel (--workers, one per core by
default); progress goes to stderr. The exit status is 1 when a point is
outside the bounds: fast within 5 % in total and 10 % per superstep, the
prediction within 15 % where at least 100,000 edges are traversed.

--model-only leaves fast detail out; with --cycle-from FILE it does not
simulate either, but takes cycle detail's results from an earlier --json
run (cycle detail is deterministic: they stand while its cycle behaviour
has not changed) and evaluates only the model, checking that every stored
point is the corpus's point on the same graph with the same traversed
edges and supersteps. The output says which results it reused.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter, err := f.filter()
			if err != nil {
				return err
			}
			pts := filter.Select(fidelity.Corpus())
			if len(pts) == 0 {
				return usagef("no corpus point matches the flags")
			}
			if f.list {
				for _, p := range pts {
					fmt.Fprintf(cmd.OutOrStdout(), "%s\t%s\n", p.Name(), p.Why)
				}
				return nil
			}
			ms, err := f.measure(cmd, filter, pts)
			if err != nil {
				return err
			}
			s := fidelity.Summarise(ms, f.worst)
			out := cmd.OutOrStdout()
			if f.asJSON {
				if err := writeJSON(out, validateOutput{s, ms}); err != nil {
					return err
				}
			} else if f.markdown {
				s.WriteMarkdown(out, ms, f.points)
			} else {
				if f.points {
					fidelity.WritePoints(out, ms)
					fmt.Fprintln(out)
				}
				s.WriteText(out)
			}
			if s.FastFailures+s.ModelFailures > 0 {
				return fmt.Errorf("%d points outside the fast bounds, %d outside the model's", s.FastFailures, s.ModelFailures)
			}
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&f.kernels, "kernel", nil, "kernels to keep: "+strings.Join(fidelity.Kernels, ", "))
	fl.StringSliceVar(&f.classes, "class", nil, "graph classes to keep: "+strings.Join(fidelity.Classes, ", "))
	fl.StringArrayVar(&f.graphs, "graph", nil, "graphs to keep, as points name them: a generator spec (rmat:scale=12,ef=16,seed=1,scramble=true) or a dataset file (astro-ph.graph); repeat the flag for several")
	fl.StringSliceVar(&f.boards, "board", nil, "boards to keep: ac510, u280")
	fl.IntSliceVar(&f.fpgas, "fpgas", nil, "FPGA counts to keep: 1, 2, 4")
	fl.IntSliceVar(&f.pesPer, "pes", nil, "PEs per FPGA to keep: 1, 4, 9")
	fl.StringSliceVar(&f.mems, "mem", nil, "edge memories to keep: bram, offchip")
	fl.StringSliceVar(&f.archs, "arch", nil, "architectures to keep: gravf-m, gravf")
	fl.StringSliceVar(&f.pes, "pe", nil, "PE designs to keep: generated, paper")
	fl.BoolVar(&f.ci, "ci", false, "only the CI subset (what go test ./fidelity runs)")
	fl.BoolVar(&f.list, "list", false, "list the selected points and exit")
	fl.BoolVar(&f.points, "points", false, "print one line per point before the summary")
	fl.StringVar(&f.datasets, "datasets", "", "the dataset folder (default $GRAVF_DATASETS, else shared/datasets beside the working directory, else the repository's testdata/datasets)")
	fl.IntVar(&f.workers, "workers", 0, "points simulated at once (0: one per core)")
	fl.IntVar(&f.worst, "worst", 5, "worst points listed per comparison")
	fl.BoolVar(&f.asJSON, "json", false, "print the summary and every point as one JSON object")
	fl.BoolVar(&f.markdown, "markdown", false, "print the tables in Markdown (as docs/FIDELITY.md shows them)")
	fl.StringVar(&f.from, "from", "", "summarise the points of an earlier --json run (a file) instead of simulating")
	fl.BoolVar(&f.model, "model-only", false, "measure the model's prediction against cycle detail only (no fast detail)")
	fl.StringVar(&f.cycleFrom, "cycle-from", "", "with --model-only: take cycle detail's results from an earlier --json run (a file) instead of simulating")
	return cmd
}

// validateOutput is validate's JSON.
type validateOutput struct {
	Summary fidelity.Summary        `json:"summary"`
	Points  []*fidelity.Measurement `json:"points"`
}

// measure simulates the selected points, or reads them from an earlier
// run's JSON (--from), keeping those the filter accepts.
func (f *validateFlags) measure(cmd *cobra.Command, filter fidelity.Filter, pts []fidelity.Point) ([]*fidelity.Measurement, error) {
	if f.from != "" && f.cycleFrom == "" {
		out, err := readValidateJSON(f.from)
		if err != nil {
			return nil, err
		}
		var ms []*fidelity.Measurement
		for _, m := range out.Points {
			if m != nil && filter.Keep(m.Point) {
				ms = append(ms, m)
			}
		}
		if len(ms) == 0 {
			return nil, usagef("%s: no point matches the flags", f.from)
		}
		return ms, nil
	}
	measure, err := f.measurer(pts)
	if err != nil {
		return nil, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(cmd.ErrOrStderr())
	ms, err := fidelity.RunFunc(ctx, pts, f.workers, measure, func(p fidelity.Progress) {
		if p.Measurement != nil {
			prog.line(fmt.Sprintf("validate: %d of %d: %s", p.Done, p.Total, p.Measurement.Name))
		}
	})
	prog.done()
	return ms, err
}

// measurer returns how each point is measured: at both levels of detail,
// at cycle detail only (--model-only), or not at all with cycle detail's
// results of an earlier run (--cycle-from), which must hold every point.
func (f *validateFlags) measurer(pts []fidelity.Point) (func(context.Context, fidelity.Point) (*fidelity.Measurement, error), error) {
	env := fidelity.Env{Datasets: f.datasets}
	if f.workers != 1 && len(pts) > 1 {
		env.Cores = 1 // the points run side by side, a core each
	}
	if env.Datasets == "" {
		env.Datasets = fidelity.DatasetDir()
	}
	switch {
	case f.cycleFrom != "":
		if !f.model {
			return nil, usagef("--cycle-from reuses cycle detail for the model only: add --model-only")
		}
		if f.from != "" {
			return nil, usagef("--from and --cycle-from exclude each other")
		}
		stored, err := readStoredPoints(f.cycleFrom)
		if err != nil {
			return nil, err
		}
		for _, p := range pts {
			if stored[p.Name()] == nil {
				return nil, usagef("%s: no result for the corpus point %q (a subset, or an older corpus)", f.cycleFrom, p.Name())
			}
		}
		return func(ctx context.Context, p fidelity.Point) (*fidelity.Measurement, error) {
			return fidelity.MeasureModel(ctx, env, p, stored[p.Name()], f.cycleFrom)
		}, nil
	case f.model:
		return func(ctx context.Context, p fidelity.Point) (*fidelity.Measurement, error) {
			return fidelity.MeasureCycle(ctx, env, p)
		}, nil
	}
	return func(ctx context.Context, p fidelity.Point) (*fidelity.Measurement, error) {
		return fidelity.Measure(ctx, env, p)
	}, nil
}

// readValidateJSON reads the output of an earlier --json run.
func readValidateJSON(file string) (validateOutput, error) {
	var out validateOutput
	data, err := readJSONInput(file)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return out, usagef("%s: not the JSON of gravf-tui validate: %v", file, err)
	}
	return out, nil
}

// readStoredPoints reads the points of an earlier --json run by name.
func readStoredPoints(file string) (map[string]*fidelity.Measurement, error) {
	out, err := readValidateJSON(file)
	if err != nil {
		return nil, err
	}
	byName := map[string]*fidelity.Measurement{}
	for _, m := range out.Points {
		if m != nil && m.Cycle > 0 {
			byName[m.Name] = m
		}
	}
	return byName, nil
}

func (f *validateFlags) filter() (fidelity.Filter, error) {
	flt := fidelity.Filter{Kernels: f.kernels, Classes: f.classes, Graphs: f.graphs, Boards: f.boards, FPGAs: f.fpgas, PEs: f.pesPer, CI: f.ci}
	for _, s := range f.mems {
		m, err := model.ParseMemKind(s)
		if err != nil {
			return flt, usageError{err}
		}
		flt.Mems = append(flt.Mems, m)
	}
	for _, s := range f.archs {
		a, err := model.ParseArch(s)
		if err != nil {
			return flt, usageError{err}
		}
		flt.Archs = append(flt.Archs, a)
	}
	for _, s := range f.pes {
		d, err := model.ParsePEDesign(s)
		if err != nil {
			return flt, usageError{err}
		}
		flt.PEDesigns = append(flt.PEDesigns, d)
	}
	return flt, nil
}
