package explorer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/procgroup"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
	"github.com/gravf-tui/gravf-tui/teps"
)

// --- partition --------------------------------------------------------------

// PartitionOutput is the partition cell's result for the design point
// (the optimiser's when the platform leaves nF or nP open).
type PartitionOutput struct {
	Method graph.Partitioner `json:"method"`
	FPGAs  int               `json:"fpgas"`
	PEs    int               `json:"pes"`
	// EdgesPerPE are the arcs every PE stores in the GraVF-M layout.
	EdgesPerPE []int          `json:"edges_per_pe"`
	Cut        graph.CutStats `json:"cut"`
}

// Text implements Output.
func (o *PartitionOutput) Text() string {
	c := o.Cut
	var b strings.Builder
	fmt.Fprintf(&b, "%s over %d FPGAs x %d PEs: edges per PE %d..%d (mean %.0f, imbalance %.2f %%)\n",
		o.Method, o.FPGAs, o.PEs, c.EdgesPerPEMin, c.EdgesPerPEMax, c.EdgesPerPEMean, c.EdgeImbalance*100)
	fmt.Fprintf(&b, "  cut: %d of %d arcs cross FPGAs (%.1f %%), %d cross PEs; the filter saves %.1f %% of remote updates\n",
		c.CrossFPGAArcs, c.Arcs, pctOf(c.CrossFPGAArcs, c.Arcs), c.CrossPEArcs, c.FilterSaving*100)
	return b.String()
}

func pctOf(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// partitionOptions are the partition cell's choices (the default's when
// there is none), without the design's size.
func (e *evaluator) partitionOptions() graph.PartitionOptions {
	in := e.partitionInput()
	return graph.PartitionOptions{Method: in.Partitioner, UFactor: in.UFactor, Seed: in.Seed}
}

// partitionInput is the partition cell above, or the default.
func (e *evaluator) partitionInput() *Partition {
	if s, ok := e.st.deps[KindPartition]; ok {
		return e.job.steps[s].in.(*Partition)
	}
	if in, ok := e.st.reads[KindPartition]; ok {
		return in.(*Partition)
	}
	in, _ := NewInput(KindPartition)
	return in.(*Partition)
}

func (e *evaluator) partition(in *Partition) (Output, error) {
	d, err := e.point()
	if err != nil {
		return nil, err
	}
	cfg, err := e.resolveConfig(d)
	if err != nil {
		return nil, err
	}
	e.progress(Progress{Text: fmt.Sprintf("partitioning over %d FPGAs × %d PEs (%s)", cfg.FPGAs, cfg.PEs, in.Partitioner)})
	p, err := graph.NewPartition(e.ctx, d.Graph, graph.PartitionOptions{FPGAs: cfg.FPGAs, PEs: cfg.PEs, Method: in.Partitioner, UFactor: in.UFactor, Seed: in.Seed})
	if err != nil && !isCancel(err) {
		return nil, fieldErr(KindPartition, "partitioner", err)
	}
	if err != nil {
		return nil, err
	}
	return &PartitionOutput{Method: in.Partitioner, FPGAs: cfg.FPGAs, PEs: cfg.PEs,
		EdgesPerPE: graph.NewEdgeLayout(d.Graph, p).EdgesPerPE(), Cut: graph.ComputeCutStats(d.Graph, p)}, nil
}

// --- simulate ---------------------------------------------------------------

// SimulateOutput is the simulate cell's result.
type SimulateOutput struct {
	Config model.Config `json:"config"`
	// Result is what the simulator measured (its JSON is `gravf-tui sim
	// --json`), with the model's T_sys and the efficiency sim/model.
	Result *sim.Result `json:"result"`
	// Trace is the trace file written, if any.
	Trace string `json:"trace,omitempty"`
	// Prediction is the model's latency-aware prediction for the same
	// design point: what the simulation is compared with.
	Prediction *model.Prediction `json:"prediction,omitempty"`
}

// PredictedTEPS is the prediction's throughput, or 0 without one.
func (o *SimulateOutput) PredictedTEPS() float64 {
	if o.Prediction == nil {
		return o.Result.ModelPredictedTEPS
	}
	return o.Prediction.TEPS
}

// Text implements Output.
func (o *SimulateOutput) Text() string {
	r := o.Result
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d FPGAs x %d PEs, %s detail: %d cycles (%.3g s), %d messages in %d supersteps\n",
		r.Arch, r.FPGAs, r.PEs, r.Detail, r.Cycles, r.Seconds, r.Messages, r.Supersteps)
	fmt.Fprintf(&b, "  throughput %s; the model's T_sys %s; simulation/model %.2f (%s)\n", TEPS(r.TEPS), TEPS(r.ModelTSys), r.Efficiency, teps.GraVF.Label())
	if p := o.PredictedTEPS(); p > 0 {
		fmt.Fprintf(&b, "  predicted (latency-aware) %s; simulation/prediction %.2f\n", TEPS(p), r.TEPS/p)
	}
	s := r.Stalls
	total := float64(s.Busy + s.Apply + s.Hazard + s.Scatter + s.Memory + s.Crossbar + s.Network + s.Barrier + s.Done)
	if total > 0 {
		fmt.Fprintf(&b, "  PE cycles: busy %.1f %%, apply %.1f %%, hazard %.1f %%, scatter %.1f %%, memory %.1f %%, crossbar %.1f %%, network %.1f %%, barrier %.1f %%, done %.1f %%\n",
			100*float64(s.Busy)/total, 100*float64(s.Apply)/total, 100*float64(s.Hazard)/total, 100*float64(s.Scatter)/total,
			100*float64(s.Memory)/total, 100*float64(s.Crossbar)/total, 100*float64(s.Network)/total, 100*float64(s.Barrier)/total, 100*float64(s.Done)/total)
	}
	fmt.Fprintf(&b, "  result sha256 %s\n", r.ResultSHA256)
	if o.Trace != "" {
		fmt.Fprintf(&b, "  trace %s\n", o.Trace)
	}
	return b.String()
}

func (e *evaluator) simulate(in *Simulate) (Output, error) {
	d, err := e.point()
	if err != nil {
		return nil, err
	}
	cfg, err := e.resolveConfig(d)
	if err != nil {
		return nil, err
	}
	if err := CheckBuildable(d.Platform, d.Kernel, d.Graph, cfg); err != nil {
		return nil, err
	}
	steps, err := e.supersteps(d)
	if err != nil {
		return nil, err
	}
	ps, err := e.profiles(d)
	if err != nil {
		return nil, err
	}
	pin := e.partitionInput()
	total := int64(len(steps))
	setup := &sim.Setup{Board: d.Board, Kernel: d.Kernel, Graph: d.Graph, FPGAs: cfg.FPGAs, PEs: cfg.PEs, Arch: cfg.Arch, Mem: cfg.Mem, PE: d.Options.PE,
		Partitioner: pin.Partitioner, UFactor: pin.UFactor, Packing: cfg.Packing, Filter: cfg.Filter, Seed: in.Seed, Detail: in.Detail, MaxCycles: in.MaxCycles,
		Progress: func(p sim.Progress) {
			e.progress(Progress{Done: int64(p.Superstep), Total: total, Text: fmt.Sprintf("superstep %d of %d, cycle %s", p.Superstep+1, total, groupDigits(p.Cycle))})
		}}
	setup.ModelTSys = model.TSysFor(d.Board, d.Kernel, d.Graph, cfg, d.Options.PE)
	// The model's prediction for the simulated design, on the partition
	// the simulation makes (the same partitioner and options).
	var pred *model.Prediction
	w := newWorkload(d.Platform, d.Kernel, d.Graph, d.Options.PE, d.Options.CPE, e.degrees(d))
	w.Attach(ps.With(pin.Partitioner))
	if r, err := model.Evaluate(d.Platform, w, cfg); err == nil || errors.Is(err, model.ErrCapacity) {
		pr, err := model.PredictContext(e.predictionContext(), d.Platform, w, r)
		if isCancel(err) {
			return nil, err
		}
		if err == nil {
			pred, setup.ModelPredictedTEPS = &pr, pr.TEPS
		}
	}
	finish := func(*sim.Result, error) error { return nil }
	tracePath := ""
	if in.Trace != "" {
		tracePath = e.resolve(in.Trace)
		if finish, err = sim.RecordFile(setup, tracePath, 0); err != nil {
			return nil, fieldErr(KindSimulate, "trace", err)
		}
	}
	res, err := sim.Run(e.ctx, setup)
	if err2 := finish(res, err); err == nil {
		err = err2
	}
	var stop *sim.StopError
	if errors.As(err, &stop) && tracePath != "" && res != nil {
		err = fmt.Errorf("%w; the trace so far is in %s (marked partial)", err, tracePath)
	}
	if err != nil {
		return nil, err
	}
	return &SimulateOutput{Config: cfg, Result: res, Trace: tracePath, Prediction: pred}, nil
}

// groupDigits writes n with thousands separators, as the TUI shows counts.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// --- trace ------------------------------------------------------------------

// TraceOutput is the trace cell's result: the trace's header and summary,
// and the selected superstep.
type TraceOutput struct {
	File       string               `json:"file"`
	Meta       sim.TraceMeta        `json:"meta"`
	Summary    sim.TraceSummary     `json:"summary"`
	Samples    int                  `json:"samples"`
	Supersteps []sim.TraceSuperstep `json:"supersteps"`
	Superstep  int                  `json:"superstep"`
	trace      *sim.Trace
}

// Trace is the loaded trace, for replay.
func (o *TraceOutput) Trace() *sim.Trace { return o.trace }

// Text implements Output.
func (o *TraceOutput) Text() string {
	m, s := o.Meta, o.Summary
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s on %s, %s, %d FPGAs x %d PEs, %s detail; %d samples of %d cycles\n",
		filepath.Base(o.File), m.Kernel, m.Board, m.Graph, m.FPGAs, m.PEs, m.Detail, o.Samples, m.Interval)
	fmt.Fprintf(&b, "  %d cycles, %d messages in %d supersteps, %s\n", s.Cycles, s.Messages, s.Supersteps, TEPS(s.TEPS))
	if s.Stopped != "" {
		fmt.Fprintf(&b, "  partial: the run stopped early (%s)\n", s.Stopped)
	}
	if o.Superstep < len(o.Supersteps) {
		st := o.Supersteps[o.Superstep]
		fmt.Fprintf(&b, "  superstep %d: cycles %d..%d, %d active, %d messages\n", st.Index, st.Start, st.End(), st.Active, st.Messages)
	}
	return b.String()
}

func (e *evaluator) trace(in *Trace) (Output, error) {
	file := e.resolve(in.File)
	if file == "" {
		so, ok := e.dep(KindSimulate).(*SimulateOutput)
		if !ok || so.Trace == "" {
			return nil, &FieldError{Kind: KindTrace, Key: "file", Err: errors.New("no trace file: set file, or record one with a simulate cell's trace above")}
		}
		file = so.Trace
	}
	tr, err := sim.ReadTraceFile(file)
	if err != nil {
		return nil, fieldErr(KindTrace, "file", err)
	}
	steps := tr.Supersteps()
	if in.Superstep >= len(steps) && len(steps) > 0 {
		return nil, fmt.Errorf("superstep %d: the trace has %d supersteps", in.Superstep, len(steps))
	}
	return &TraceOutput{File: file, Meta: tr.Meta(), Summary: tr.Summary(), Samples: len(tr.Samples()), Supersteps: steps, Superstep: in.Superstep, trace: tr}, nil
}

// --- export -----------------------------------------------------------------

// ExportOutput is the export cell's result.
type ExportOutput struct {
	Dir      string        `json:"dir"`
	Manifest *gen.Manifest `json:"manifest"`
	// Sim is the `RESULT ...` line of `make sim` when the cell ran it.
	Sim string `json:"sim,omitempty"`
}

// Text implements Output.
func (o *ExportOutput) Text() string {
	m := o.Manifest
	var b strings.Builder
	fmt.Fprintf(&b, "wrote %s: %d files; %d FPGAs x %d PEs of %s on %s; expect %d messages in %d supersteps\n",
		o.Dir, len(m.Files), m.FPGAs, m.PEs, m.Kernel, m.Board, m.Expected.Messages, m.Expected.Supersteps)
	b.WriteString(FileSummary(m.Files))
	if o.Sim != "" {
		fmt.Fprintf(&b, "make sim: %s\n", o.Sim)
	}
	return b.String()
}

// FileSummary sums a list of slash-separated paths up in one line: the
// files at the top and the number of files in every top-level folder, in
// the order they first appear (an export has hundreds of memory images).
func FileSummary(files []string) string {
	var parts []string
	count := map[string]int{}
	for _, f := range files {
		dir, _, nested := strings.Cut(f, "/")
		if !nested {
			parts = append(parts, f)
			continue
		}
		if count[dir] == 0 {
			parts = append(parts, dir+"/")
		}
		count[dir]++
	}
	for i, p := range parts {
		if dir, ok := strings.CutSuffix(p, "/"); ok {
			parts[i] = fmt.Sprintf("%s/ (%d)", dir, count[dir])
		}
	}
	return "  " + strings.Join(parts, ", ") + "\n"
}

// FileTree draws a list of slash-separated paths as an indented tree,
// folders first as they appear.
func FileTree(files []string) string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, f := range files {
		parts := strings.Split(f, "/")
		for i := range parts {
			key := strings.Join(parts[:i+1], "/")
			if seen[key] {
				continue
			}
			seen[key] = true
			name := parts[i]
			if i < len(parts)-1 {
				name += "/"
			}
			fmt.Fprintf(&b, "  %s%s\n", strings.Repeat("  ", i), name)
		}
	}
	return b.String()
}

// Version is the module version recorded in exported manifests.
func Version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func (e *evaluator) export(in *Export) (Output, error) {
	d, err := e.point()
	if err != nil {
		return nil, err
	}
	cfg, err := e.resolveConfig(d)
	if err != nil {
		return nil, err
	}
	if cfg.Arch != model.GraVFM {
		return nil, &FieldError{Kind: KindPlatform, Key: "arch", Msg: "the generator builds GraVF-M only", Err: fmt.Errorf("arch %s: the generator builds GraVF-M only", cfg.Arch)}
	}
	if d.Options.PE != model.PEGenerated {
		return nil, &FieldError{Kind: KindPlatform, Key: "pe", Msg: "the generator builds the generated PE",
			Err: fmt.Errorf("pe %s: the generator builds the generated PE; set pe = \"generated\" in the platform cell", d.Options.PE)}
	}
	if err := CheckBuildable(d.Platform, d.Kernel, d.Graph, cfg); err != nil {
		return nil, err
	}
	pin := e.partitionInput()
	dir := e.resolve(in.Out)
	e.progress(Progress{Text: "writing " + dir})
	opts := gen.ExportOptions{Board: d.Board, Kernel: d.Kernel, Graph: d.Graph, FPGAs: cfg.FPGAs, PEs: cfg.PEs,
		Partitioner: pin.Partitioner, Filter: cfg.Filter, Mem: cfg.Mem, Dir: dir, Force: in.Force, Version: Version()}
	m, err := gen.Export(e.ctx, opts)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return nil, fieldErr(KindExport, "out", err)
	}
	if err != nil {
		return nil, err
	}
	o := &ExportOutput{Dir: dir, Manifest: m}
	if in.RunSim {
		e.progress(Progress{Text: "make sim in " + dir})
		line, err := e.makeSim(dir, m.Expected.Supersteps)
		if err != nil {
			return nil, err
		}
		o.Sim = line
	}
	return o, nil
}

// makeSim runs `make sim` in dir and returns its RESULT line. The
// output is reported line by line as it comes (Progress.Log), with the
// superstep the testbench reached against the expected count; make runs in
// its own process group, so that cancelling ends the simulator and the
// shell it started too.
func (e *evaluator) makeSim(dir string, supersteps int) (string, error) {
	cmd := procgroup.Command(e.ctx, "make", "-s", "sim")
	cmd.Dir = dir
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("make sim: %w", err)
	}
	waited := make(chan error, 1)
	go func() {
		err := cmd.Wait()
		pw.Close()
		waited <- err
	}()
	var tail []string
	line, step := "", 0
	sc := bufio.NewScanner(pr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			continue
		}
		tail = append(tail, t)
		if len(tail) > 30 {
			tail = tail[1:]
		}
		if strings.HasPrefix(t, "RESULT ") {
			line = t
		}
		if f := strings.Fields(t); len(f) > 1 && f[0] == "SUPERSTEP" {
			if n, err := strconv.Atoi(f[1]); err == nil {
				step = n
			}
		}
		text := "make sim in " + dir
		if step > 0 {
			text = fmt.Sprintf("make sim in %s: superstep %d of %d", dir, step, supersteps)
		}
		e.progress(Progress{Text: text, Done: int64(step), Total: int64(supersteps), Log: t})
	}
	io.Copy(io.Discard, pr) // a line longer than the buffer
	err := <-waited
	if err != nil {
		if e.ctx.Err() != nil {
			return "", e.ctx.Err()
		}
		if line != "" {
			return "", fmt.Errorf("make sim: %s", line)
		}
		return "", fmt.Errorf("make sim: %v\n%s", err, strings.Join(tail, "\n"))
	}
	if line == "" {
		return "", errors.New("make sim printed no RESULT line")
	}
	return line, nil
}
