package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/charmbracelet/x/term"
	"github.com/gravf-tui/gravf-tui/design"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
	"github.com/gravf-tui/gravf-tui/teps"
	"github.com/spf13/cobra"
)

// simFlags are the simulator's own flags.
type simFlags struct {
	detail           sim.Detail
	maxCycles        int64
	maxSupersteps    int
	partial          bool
	forceUnbuildable bool
	trace            string
	traceInterval    int64
	asJSON           bool
}

// simCmd is the sim command's flags.
type simCmd struct {
	pf    pointFlags
	kf    kernelFlags
	gf    graphFlags
	partf partitionFlags
	tf    tepsFlags
	sf    simFlags
	cf    cacheFlags
}

func newSimCmd() *cobra.Command {
	o := &simCmd{sf: simFlags{detail: sim.Fast}}
	cmd := &cobra.Command{
		Use:   "sim --board B --kernel K --graph G --fpgas N --pes N [--detail fast|cycle] [--arch gravf-m|gravf] [--mem bram|offchip] [--set KEY=VALUE] [--json]",
		Short: "Simulate the generated architecture on a graph",
		Long: `sim runs the architecture that the RTL generator builds on a real graph and
reports cycles, throughput, per-superstep times, the stall breakdown of every
PE and the utilisation of every link, next to the model's T_sys (its bound)
and its prediction for the same design (model_predicted_teps).

--detail cycle steps every unit every clock cycle (the generated RTL agrees
with it); --detail fast (the default) follows every update and message
through the same units without stepping idle cycles, and agrees with cycle
detail within 5 % in total and 10 % per superstep on every design of
'gravf-tui validate' (docs/FIDELITY.md).

result_sha256 is the SHA-256 of the final states as 'gravf-tui ref --out'
writes them, and result_order says how each vertex's messages were
gathered. At fast detail the states are the reference engine's
(result_order "reference"), so the hash is ref's. At cycle detail they are
gathered in the order the messages arrive ("arrival"): kernels whose gather
is exact whatever the order (min, max, integer sums: WCC, BFS, SSSP) still
give ref's hash, while f32 sums (PR) round differently, so the hash differs
from ref's although every state agrees within 1e-4 relative. The design
flags and --set are those of "gravf-tui model".

TEPS count messages per second (--teps gravf, as the paper does). --teps
graph500 also counts the input edges of the traversed component per second,
as Graph500 does: for a kernel with a root (bfs, sssp, ...) and no --param
root, over 64 roots drawn as Graph500 draws them, reporting the harmonic mean.

` + cacheHelp,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(cmd) },
	}
	o.pf.register(cmd.Flags())
	o.kf.register(cmd.Flags())
	o.gf.register(cmd)
	o.partf.register(cmd.Flags())
	cmd.Flags().Var(typed(&o.sf.detail), "detail", "level of detail: fast or cycle")
	cmd.Flags().Int64Var(&o.sf.maxCycles, "max-cycles", 0, "stop a run after this many simulated cycles (0: no limit)")
	cmd.Flags().IntVar(&o.sf.maxSupersteps, "max-supersteps", 0, "stop a run whose kernel has not converged after this many supersteps (0: max(1000, V+2)); reaching it is an error unless --partial")
	cmd.Flags().BoolVar(&o.sf.partial, "partial", false, "accept a run stopped by --max-supersteps or --max-cycles: print its partial result (and keep its trace) with exit status 0")
	cmd.Flags().BoolVar(&o.sf.forceUnbuildable, "force-unbuildable", false, "simulate a design the board cannot hold (more PEs than fit, data beyond its memories)")
	cmd.Flags().StringVar(&o.sf.trace, "trace", "", "record a trace file (cycle detail samples utilisation)")
	cmd.Flags().Int64Var(&o.sf.traceInterval, "trace-interval", sim.DefaultTraceInterval, "cycles between trace samples (at least 1)")
	cmd.Flags().BoolVar(&o.sf.asJSON, "json", false, "print one JSON object")
	o.tf.register(cmd)
	o.cf.register(cmd.Flags())
	return cmd
}

// run resolves the design point, lets the model choose what the flags
// leave open, simulates and reports.
func (o *simCmd) run(cmd *cobra.Command) error {
	part, def, err := o.check()
	if err != nil {
		return err
	}
	p, err := resolvePoint(&o.pf, &o.kf, &o.gf, cmd.ErrOrStderr())
	if err != nil {
		return err
	}
	cfg := p.Config()
	open := cfg.FPGAs == 0 || cfg.PEs == 0
	if !open {
		// Refuse a design the board cannot hold before the reference run,
		// which takes minutes on a large graph.
		if err := checkBuildable(p.Platform, p.Kernel, p.Graph, cfg, o.sf.forceUnbuildable); err != nil {
			return err
		}
	}
	ctx, stop := context.WithCancel(cmd.Context())
	defer stop()
	defer tightCollector()()
	cfg, predicted, err := o.predict(ctx, cmd, p, cfg, part, open)
	if err != nil {
		return err
	}
	setup := o.setup(p, cfg, part, predicted)
	prog := newProgress(cmd.ErrOrStderr())
	setup.Progress = prog.report
	finishTrace, err := attachTrace(setup, o.sf, p.Graph)
	if err != nil {
		return err
	}
	res, err := sim.Run(ctx, setup)
	prog.done()
	if err2 := finishTrace(res, err); err2 != nil {
		return errors.Join(err, err2)
	}
	if keep, err := o.sf.stopped(cmd, res, err); !keep {
		return err
	}
	return o.report(ctx, cmd, setup, res, def)
}

// check reads the flags that need no design point.
func (o *simCmd) check() (design.Partition, teps.Definition, error) {
	part, err := o.partf.partition()
	if err != nil {
		return part, "", err
	}
	def, err := o.tf.definition()
	if err != nil {
		return part, "", err
	}
	if err := o.sf.checkLimits(); err != nil {
		return part, "", err
	}
	if o.sf.trace != "" {
		if err := checkNotInput(o.sf.trace, map[string]string{"--graph": o.gf.d.Graph, "--board": o.pf.opts.Board}); err != nil {
			return part, "", err
		}
	}
	return part, def, nil
}

// predict runs the reference run whose activity feeds the model's
// prediction beside the simulation, lets the model choose what the user
// left open (open), and returns the design and its predicted TEPS (0
// when the kernel does not converge, which the simulation then reports).
func (o *simCmd) predict(ctx context.Context, cmd *cobra.Command, p *design.Point, cfg model.Config, part design.Partition, open bool) (model.Config, float64, error) {
	ps, err := explorer.NewPredictionProfiles(ctx, p.Kernel, p.Graph, graph.PartitionOptions{Method: part.Partitioner, Seed: part.Seed}, o.cf.store())
	var le *kernel.LimitError
	if errors.As(err, &le) {
		ps, err = nil, nil
	}
	if err != nil {
		return cfg, 0, err
	}
	if open {
		out, err := explorer.EvaluateModel(ctx, p.Platform, p.Kernel, p.Graph, cfg, p.Options.PE, p.Options.CPE, ps)
		if err != nil {
			return cfg, 0, asUsage(err)
		}
		cfg.FPGAs, cfg.PEs = out.FPGAs, out.PEs
		fmt.Fprintf(cmd.ErrOrStderr(), "design chosen by the model: %d FPGAs x %d PEs\n", cfg.FPGAs, cfg.PEs)
		if err := checkBuildable(p.Platform, p.Kernel, p.Graph, cfg, o.sf.forceUnbuildable); err != nil {
			return cfg, 0, err
		}
	}
	if ps == nil {
		return cfg, 0, nil
	}
	pr, err := model.PredictFor(ctx, p.Board, p.Kernel, p.Graph, cfg, p.Options.PE, ps)
	if err != nil {
		return cfg, 0, fmt.Errorf("the model's prediction: %w", err)
	}
	return cfg, pr.TEPS, nil
}

// setup is the simulation of the chosen design with the model's bound
// and its prediction (predicted TEPS, 0: none) beside it.
func (o *simCmd) setup(p *design.Point, cfg model.Config, part design.Partition, predicted float64) *sim.Setup {
	sf := o.sf
	return &sim.Setup{Board: p.Board, Kernel: p.Kernel, Graph: p.Graph, FPGAs: cfg.FPGAs, PEs: cfg.PEs, Arch: cfg.Arch, Mem: cfg.Mem, PE: p.Options.PE,
		Partitioner: part.Partitioner, UFactor: part.UFactor, Packing: cfg.Packing, Filter: cfg.Filter, Seed: part.Seed, Detail: sf.detail, MaxCycles: sf.maxCycles,
		MaxSupersteps: sf.maxSupersteps, ModelTSys: model.TSysFor(p.Board, p.Kernel, p.Graph, cfg, p.Options.PE), ModelPredictedTEPS: predicted}
}

// report prints the result (text or JSON), with the Graph500 count when
// --teps graph500 asks for it.
func (o *simCmd) report(ctx context.Context, cmd *cobra.Command, setup *sim.Setup, res *sim.Result, def teps.Definition) error {
	doc := simDoc{Result: res, TEPSDefinition: teps.GraVF}
	if def == teps.Graph500 {
		var err error
		if doc.Graph500, err = graph500Sim(ctx, setup, res, o.kf.params, o.tf); err != nil {
			return err
		}
	}
	if o.sf.asJSON {
		return writeJSONDoc(cmd.OutOrStdout(), schemaSim, doc)
	}
	printSim(cmd.OutOrStdout(), setup, res)
	if doc.Graph500 != nil {
		printGraph500(cmd.OutOrStdout(), doc.Graph500)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "simulated in %.2f s (%.1f M messages/s)\n", res.WallSeconds, float64(res.Messages)/max(res.WallSeconds, 1e-9)/1e6)
	return nil
}

// simDoc is the sim command's JSON document: the result, which definition
// its teps field counts by (always gravf: messages), and the graph500
// count when asked for.
type simDoc struct {
	*sim.Result
	TEPSDefinition teps.Definition `json:"teps_definition"`
	Graph500       *Graph500       `json:"graph500,omitempty"`
}

// checkBuildable runs the shared capacity check (explorer.CheckBuildable)
// unless the user forces the design.
func checkBuildable(p *model.Platform, k *kernel.Kernel, g *graph.Graph, cfg model.Config, force bool) error {
	if force {
		return nil
	}
	if err := explorer.CheckBuildable(p, k, g, cfg); err != nil {
		return usagef("%v (--force-unbuildable goes ahead anyway)", err)
	}
	return nil
}

// checkLimits refuses limits that would be ignored or meaningless.
func (sf simFlags) checkLimits() error {
	switch {
	case sf.maxCycles < 0 || sf.maxSupersteps < 0:
		return usagef("--max-cycles and --max-supersteps must not be negative")
	case sf.traceInterval < 1:
		return usagef("--trace-interval %d: the interval between trace samples must be at least 1 cycle", sf.traceInterval)
	}
	return nil
}

// stopped handles a run that stopped early (sim.StopError): an
// interruption or a limit is an error that says what was kept, unless
// --partial asked for the partial result of a limit. keep reports whether
// the result should be printed.
func (sf simFlags) stopped(cmd *cobra.Command, res *sim.Result, err error) (keep bool, _ error) {
	var se *sim.StopError
	var oe *graph.OptionError
	switch {
	case errors.As(err, &oe):
		return false, usageError{err} // sizes the partitioner cannot serve
	case !errors.As(err, &se):
		return err == nil, err
	}
	kept := ""
	switch {
	case res == nil:
		kept = "; fast detail keeps no partial result"
		if sf.trace != "" {
			kept += " (no trace written)"
		}
	case sf.trace != "":
		kept = fmt.Sprintf("; the trace so far is in %s (marked partial)", sf.trace)
	}
	switch {
	case se.Reason == sim.StopInterrupted:
		return false, fmt.Errorf("%w%s", err, kept)
	case !sf.partial || res == nil:
		flag := "--max-supersteps"
		if se.Reason == sim.StopCycleLimit {
			flag = "--max-cycles"
		}
		if res == nil {
			return false, limitError{fmt.Errorf("%w%s; raise %s", err, kept, flag)}
		}
		return false, limitError{fmt.Errorf("%w%s; raise %s, or pass --partial to print the partial result", err, kept, flag)}
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "partial result: %v%s\n", err, kept)
	return true, nil
}

// progress prints a one-line indicator on stderr for runs longer than a
// second: rewritten in place on a terminal, and as a plain line every few
// seconds in a log (a file, a pipe, a CI job), where carriage returns
// would pile up on one line.
type progress struct {
	w     io.Writer
	tty   bool
	start time.Time
	shown bool
	last  time.Time
}

// logEvery is the time between two progress lines in a log.
const logEvery = 5 * time.Second

// progressAfter is how long a job runs before it shows progress (a
// variable so that a test sees the lines of a short job).
var progressAfter = time.Second

func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	return &progress{w: w, tty: ok && term.IsTerminal(f.Fd()), start: time.Now()}
}

func (p *progress) report(s sim.Progress) {
	p.line(fmt.Sprintf("simulating: superstep %d, cycle %d", s.Superstep, s.Cycle))
}

// line shows one progress text, at most five times a second and only once
// the job has run for progressAfter.
func (p *progress) line(text string) {
	now := time.Now()
	every := 200 * time.Millisecond
	if !p.tty {
		every = logEvery
	}
	if now.Sub(p.start) < progressAfter || now.Sub(p.last) < every {
		return
	}
	p.last, p.shown = now, true
	if !p.tty {
		fmt.Fprintf(p.w, "%s (%.1f s)\n", text, now.Sub(p.start).Seconds())
		return
	}
	if len(text) > 70 {
		text = text[:70]
	}
	fmt.Fprintf(p.w, "\r%-70s %.1fs ", text, now.Sub(p.start).Seconds())
}

func (p *progress) done() {
	if p.shown && p.tty {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 80))
	}
}

func printSim(w io.Writer, s *sim.Setup, r *sim.Result) {
	fmt.Fprintf(w, "%s on %s: %s, %d FPGAs x %d PEs, %s, edges %s, %s detail\n", s.Kernel.Spec.Name, s.Board.Name, s.Graph.Name,
		r.FPGAs, r.PEs, r.Arch, r.Mem, r.Detail)
	fmt.Fprintf(w, "  cycles      %d (%.6g s at %.1f MHz)\n", r.Cycles, r.Seconds, s.Board.ClockMHz)
	fmt.Fprintf(w, "  messages    %d over %d supersteps\n", r.Messages, r.Supersteps)
	fmt.Fprintf(w, "  throughput  %s; the model's T_sys %s; simulation/model %.2f (%s)\n", explorer.TEPS(r.TEPS), explorer.TEPS(r.ModelTSys), r.Efficiency, teps.GraVF.Label())
	if r.ModelPredictedTEPS > 0 {
		fmt.Fprintf(w, "  predicted   %s by the model for this design; simulation/prediction %.2f\n", explorer.TEPS(r.ModelPredictedTEPS), r.PredictedRatio)
	}
	fmt.Fprintf(w, "  result      sha256 %s\n", r.ResultSHA256)
	if r.Stopped != "" {
		fmt.Fprintf(w, "  partial     the run stopped early (%s): the figures cover the cycles simulated\n", r.Stopped)
	}
	fmt.Fprintln(w)
	total := float64(r.Cycles) * float64(len(r.PerPE))
	st := r.Stalls
	fmt.Fprintf(w, "  PE cycles: busy %.1f%%, apply %.1f%%, hazard %.1f%%, scatter %.1f%%, memory %.1f%%, crossbar %.1f%%, network %.1f%%, barrier %.1f%%, done %.1f%%\n\n",
		100*float64(st.Busy)/total, 100*float64(st.Apply)/total, 100*float64(st.Hazard)/total, 100*float64(st.Scatter)/total,
		100*float64(st.Memory)/total, 100*float64(st.Crossbar)/total, 100*float64(st.Network)/total, 100*float64(st.Barrier)/total, 100*float64(st.Done)/total)
	fmt.Fprintf(w, "  %9s %10s %10s %12s %12s\n", "superstep", "cycles", "active", "messages", "MTEPS")
	n := len(r.PerSuperstep)
	for i, sp := range r.PerSuperstep {
		if n > 40 && i >= 20 && i < n-20 {
			if i == 20 {
				fmt.Fprintf(w, "  %9s\n", "...")
			}
			continue
		}
		mt := 0.0
		if sp.Cycles > 0 {
			mt = float64(sp.Messages) / float64(sp.Cycles) * s.Board.ClockHz() / 1e6
		}
		fmt.Fprintf(w, "  %9d %10d %10d %12d %12.1f\n", sp.Index, sp.Cycles, sp.Active, sp.Messages, mt)
	}
	if len(r.Links) > 0 {
		fmt.Fprintf(w, "\n  links:")
		for _, l := range r.Links {
			fmt.Fprintf(w, " %d->%d %.0f%%", l.From, l.To, 100*l.Utilisation)
		}
		fmt.Fprintln(w)
	}
}
