package explorer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/design"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
)

// Output is a cell's result. Every output marshals to JSON (the `output`
// of `gravf-tui run --json`) and prints as text.
type Output interface {
	Text() string
}

// evaluator runs one step of a job.
type evaluator struct {
	ctx      context.Context
	job      *Job
	st       step
	outs     []Output
	progress func(Progress)
	// cachedOnly makes the prediction use only profiles computed before
	// (see Notebook.Ready).
	cachedOnly bool
	// boundOnly leaves the prediction out of a model cell (see
	// Notebook.Bound).
	boundOnly bool
}

func (e *evaluator) run() (Output, error) {
	switch in := e.st.in.(type) {
	case *Platform:
		return e.platform(in)
	case *Kernel:
		return e.kernel(in)
	case *Dataset:
		return e.dataset(in)
	case *Partition:
		return e.partition(in)
	case *Model:
		return e.model(in)
	case *Sweep:
		return e.sweep(in)
	case *Simulate:
		return e.simulate(in)
	case *Trace:
		return e.trace(in)
	case *Export:
		return e.export(in)
	case *Notes:
		return &NotesOutput{Notes: in.Text}, nil
	}
	return nil, fmt.Errorf("no evaluator for %T", e.st.in)
}

// dep returns the output of the dependency of kind k (nil when there is
// no such cell above).
func (e *evaluator) dep(k Kind) Output {
	s, ok := e.st.deps[k]
	if !ok {
		return nil
	}
	return e.outs[s]
}

func (e *evaluator) depHash(k Kind) string {
	s, ok := e.st.deps[k]
	if !ok {
		return "none"
	}
	return e.job.steps[s].hash
}

func (e *evaluator) resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(e.job.dir, p)
}

// --- platform ---------------------------------------------------------------

// PlatformOutput is the platform cell's result: the board with the cell's
// overrides and the figures derived from it.
type PlatformOutput struct {
	Board    string  `json:"board"`
	Title    string  `json:"title"`
	Part     string  `json:"part"`
	ClockMHz float64 `json:"clock_mhz"`
	MaxFPGAs int     `json:"max_fpgas"`
	// MaxPEs is nP max for the default kernel cost; the model cell
	// refines it for the kernel.
	MaxPEs   int     `json:"max_pes"`
	PriceUSD float64 `json:"price_usd"`
	// PE is the PE design whose cycles per edge the model uses.
	PE     model.PEDesign `json:"pe"`
	Params []ParamValue   `json:"params"`
	Config model.Config   `json:"config"`
	// Warnings say what makes the figures doubtful: a clock above what
	// published designs closed at, a retired platform (boards.Warnings).
	Warnings []string `json:"warnings,omitempty"`
	board    *boards.Board
}

// ParamValue is one board parameter's value in the platform cell.
type ParamValue struct {
	Name       string  `json:"name"`
	Value      float64 `json:"value"`
	Unit       string  `json:"unit"`
	Overridden bool    `json:"overridden"`
}

// BoardValue is the board as the cell configures it.
func (o *PlatformOutput) BoardValue() *boards.Board { return o.board }

// Text implements Output.
func (o *PlatformOutput) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s (%s, %.0f MHz), up to %d FPGAs, %d PEs per FPGA\n", o.Board, o.Title, o.Part, o.ClockMHz, o.MaxFPGAs, o.MaxPEs)
	fmt.Fprintf(&b, "design: %s, %s, %s, edges %s, %s PE, packing %v, filter %v\n", count(o.Config.FPGAs, "FPGAs"), count(o.Config.PEs, "PEs"),
		o.Config.Arch, o.Config.Mem, o.PE, o.Config.Packing, o.Config.Filter)
	for _, p := range o.Params {
		mark := " "
		if p.Overridden {
			mark = "*"
		}
		fmt.Fprintf(&b, "  %s %-24s %10g %s\n", mark, p.Name, p.Value, p.Unit)
	}
	for _, w := range o.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	return b.String()
}

func count(n int, what string) string {
	if n == 0 {
		return "auto " + what
	}
	return fmt.Sprintf("%d %s", n, what)
}

func (e *evaluator) platform(in *Platform) (Output, error) {
	o := in.Options()
	b, err := o.LoadBoard(e.job.dir)
	if err != nil {
		return nil, blame(KindPlatform, "board", err)
	}
	out := &PlatformOutput{PE: o.PE, Board: b.Name, Title: b.Title, Part: b.FPGA.Part, ClockMHz: b.ClockMHz, MaxFPGAs: b.MaxFPGAs, MaxPEs: b.MaxPEs(),
		PriceUSD: b.PriceUSD, Warnings: b.Warnings(), board: b, Config: o.Config()}
	for _, p := range BoardParams {
		_, set := in.Set[p.Name]
		out.Params = append(out.Params, ParamValue{Name: p.Name, Value: p.Get(b), Unit: p.Unit, Overridden: set})
	}
	return out, nil
}

// blame turns an error that an option of the cell of kind k caused into a
// FieldError naming the option (design.Error says which); other errors are
// blamed on field def.
func blame(k Kind, def string, err error) error {
	var de *design.Error
	if errors.As(err, &de) {
		return &FieldError{Kind: k, Key: de.Key, Msg: de.Msg, Err: de.Err}
	}
	return fieldErr(k, def, err)
}

// --- kernel -----------------------------------------------------------------

// KernelOutput is the kernel cell's result: the layouts with the cell's
// width edits, the behaviour and the parameters.
type KernelOutput struct {
	Name    string         `json:"name"`
	Doc     string         `json:"doc"`
	Layouts []LayoutOutput `json:"layouts"`
	// Sizes are at 32-bit vertex ids; the model cell reports them for the
	// dataset's V.
	Sizes    kernel.Sizes      `json:"sizes_at_32bit_ids"`
	Params   map[string]string `json:"params"`
	Programs map[string]string `json:"programs"`
	// HandWritten lists the hand-written Verilog files the export uses.
	HandWritten []string `json:"hand_written_verilog"`
	spec        *kernel.Spec
}

// LayoutOutput is one layout of the kernel.
type LayoutOutput struct {
	Name   string        `json:"name"`
	Fields []FieldOutput `json:"fields"`
}

// FieldOutput is one field of a layout.
type FieldOutput struct {
	Name   string `json:"name"`
	Width  string `json:"width"`
	Edited bool   `json:"edited"`
}

// Spec is the kernel spec with the cell's edits.
func (o *KernelOutput) Spec() *kernel.Spec { return o.spec }

// SizesAt returns the sizes for vertex ids of vid bits.
func (o *KernelOutput) SizesAt(vid int) (kernel.Sizes, error) { return o.spec.Sizes(vid) }

// Text implements Output.
func (o *KernelOutput) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", o.Name, firstSentence(o.Doc))
	for _, l := range o.Layouts {
		var fs []string
		for _, f := range l.Fields {
			s := f.Name + ":" + f.Width
			if f.Edited {
				s += "*"
			}
			fs = append(fs, s)
		}
		fmt.Fprintf(&b, "  %-8s %s\n", l.Name, strings.Join(fs, " "))
	}
	fmt.Fprintf(&b, "  sizes at 32-bit ids: m_vertex %d, update %d, message %d, m_edge %d bits\n", o.Sizes.Vertex, o.Sizes.Update, o.Sizes.Message, o.Sizes.Edge)
	for _, k := range sortedKeys(o.Params) {
		fmt.Fprintf(&b, "  param %s = %s\n", k, o.Params[k])
	}
	return b.String()
}

// firstSentence returns a doc string's first sentence on one line.
func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func (e *evaluator) kernel(in *Kernel) (Output, error) {
	spec, edited, err := in.Choice().Load(e.job.dir)
	if err != nil {
		return nil, blame(KindKernel, "kernel", err)
	}
	if err := in.Choice().CheckParams(spec); err != nil {
		return nil, blame(KindKernel, "params", err)
	}
	sz, err := spec.Sizes(32)
	if err != nil {
		return nil, err
	}
	o := &KernelOutput{Name: spec.Name, Doc: spec.Doc, Sizes: sz, Params: map[string]string{}, Programs: map[string]string{}, spec: spec}
	for _, l := range []struct {
		name string
		l    kernel.Layout
	}{{"vertex", spec.Vertex}, {"edge", spec.Edge}, {"update", spec.Update}, {"message", spec.Message}} {
		if len(l.l) == 0 {
			continue
		}
		lo := LayoutOutput{Name: l.name}
		for _, f := range l.l {
			lo.Fields = append(lo.Fields, FieldOutput{Name: f.Name, Width: f.Width, Edited: edited[l.name+"."+f.Name]})
		}
		o.Layouts = append(o.Layouts, lo)
	}
	for _, p := range spec.Params {
		o.Params[p.Name] = p.Default
		if v, ok := in.Params[p.Name]; ok {
			o.Params[p.Name] = v
		}
	}
	for k := range in.Params {
		if _, ok := o.Params[k]; !ok {
			return nil, &FieldError{Kind: KindKernel, Key: "params." + k, Err: fmt.Errorf("params: kernel %s has no parameter %q", spec.Name, k)}
		}
	}
	for _, p := range []*kernel.Program{spec.Init, spec.Gather, spec.Apply, spec.Scatter} {
		if p != nil {
			o.Programs[p.Name] = p.Text
		}
	}
	o.HandWritten = append(o.HandWritten, sortedKeys(spec.Verilog)...)
	return o, nil
}

// --- dataset ----------------------------------------------------------------

// DatasetOutput is the dataset cell's result.
type DatasetOutput struct {
	Spec  string      `json:"spec"`
	File  string      `json:"file,omitempty"`
	Stats graph.Stats `json:"stats"`
	// Notes says what the reader changed without failing (real weights
	// rounded to integers).
	Notes []string `json:"notes,omitempty"`
	graph *graph.Graph
}

// Graph is the loaded graph.
func (o *DatasetOutput) Graph() *graph.Graph { return o.graph }

// Text implements Output.
func (o *DatasetOutput) Text() string {
	s := o.Stats
	var b strings.Builder
	fmt.Fprintf(&b, "%s: V=%d, E=%d (%d arcs), degree %.2f (min %d, max %d), %d isolated\n", s.Name, s.V, s.E, s.Arcs, s.AvgDeg, s.MinDeg, s.MaxDeg, s.Isolated)
	fmt.Fprintf(&b, "  degree histogram (log2 buckets): ")
	var parts []string
	for _, h := range s.DegreeHist {
		parts = append(parts, fmt.Sprint(h.Count))
	}
	b.WriteString(strings.Join(parts, " "))
	b.WriteString("\n")
	for _, n := range o.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	return b.String()
}

// DatasetsEnv names the environment variable of the folder that dataset
// file names are also looked up in, after the notebook's folder.
const DatasetsEnv = design.DatasetsEnv

// datasetPath returns the file a dataset spec names, resolved ("" for a
// generator spec).
func (nb *Notebook) datasetPath(spec string) string {
	d := design.Dataset{Graph: spec}
	return d.Path(nb.Dir())
}

func (e *evaluator) kernelSpec() *kernel.Spec {
	if k, ok := e.dep(KindKernel).(*KernelOutput); ok {
		return k.spec
	}
	return nil
}

func (e *evaluator) dataset(in *Dataset) (Output, error) {
	weighted, float := false, false
	if s := e.kernelSpec(); s != nil {
		weighted, float = s.Weights()
	}
	what := "generating " + in.Graph
	if in.Source().Path(e.job.dir) != "" {
		what = "loading " + in.Graph
	}
	e.progress(Progress{Text: what})
	g, file, err := in.Source().Load(e.ctx, e.job.dir, weighted, float, func(p graph.LoadProgress) {
		e.progress(Progress{Text: what + ": " + p.Stage, Done: p.Done, Total: p.Total})
	})
	if err != nil {
		if isCancel(err) {
			return nil, err
		}
		return nil, blame(KindDataset, "graph", err)
	}
	e.progress(Progress{Text: "degree statistics of " + in.Graph})
	return &DatasetOutput{Spec: in.Graph, File: file, Stats: graph.ComputeStats(g), Notes: g.Notes(), graph: g}, nil
}

// builtinPrefix marks, in DatasetOutput.File, a graph read from the data
// embedded for the sample notebooks.
const builtinPrefix = design.BuiltinPrefix

// --- shared helpers for the cells that need a design --------------------------

// point is the design point that model, partition, sweep, simulate and
// export cells share, with the hash of the cells it came from.
type point struct {
	*design.Point
	key string // hash of platform, kernel and dataset
}

// point resolves the design point of the cells above, from their cached
// outputs: the board with its overrides, the kernel bound to the graph
// (once per kernel and dataset), the model's platform.
func (e *evaluator) point() (*point, error) {
	po, ok1 := e.dep(KindPlatform).(*PlatformOutput)
	ko, ok2 := e.dep(KindKernel).(*KernelOutput)
	do, ok3 := e.dep(KindDataset).(*DatasetOutput)
	if !ok1 || !ok2 || !ok3 {
		return nil, errors.New("needs platform, kernel and dataset cells above it")
	}
	pin := e.job.steps[e.st.deps[KindPlatform]].in.(*Platform)
	kin := e.job.steps[e.st.deps[KindKernel]].in.(*Kernel)
	kd := e.depHash(KindKernel) + "/" + e.depHash(KindDataset)
	k, err := memo(e.job.cache, "bind:"+kd, func() (*kernel.Kernel, error) {
		return kin.Choice().Bind(ko.spec, do.graph)
	})
	if err != nil {
		return nil, blame(KindKernel, "params", err)
	}
	p, err := design.NewPoint(po.board, k, do.graph, *pin.Options())
	if err != nil {
		return nil, err
	}
	return &point{Point: p, key: e.depHash(KindPlatform) + "/" + kd}, nil
}

// activity runs the reference engine once per kernel and dataset and
// keeps what every superstep did, for the prediction and the simulate
// cell's progress.
func (e *evaluator) activity(d *point) (*model.Activity, error) {
	key := "ref:" + e.depHash(KindKernel) + "/" + e.depHash(KindDataset)
	return memo(e.job.cache, key, func() (*model.Activity, error) {
		var msgs int64
		e.progress(Progress{Text: "reference run (for the prediction)"})
		return model.ReferenceActivity(e.ctx, d.Kernel, d.Graph, kernel.RunOptions{Progress: func(s kernel.Superstep) {
			msgs += s.Messages
			e.progress(Progress{Text: fmt.Sprintf("reference run (for the prediction): superstep %d done, %s messages", s.Index, groupDigits(msgs))})
		}}, e.job.disk)
	})
}

// supersteps are the reference run's supersteps.
func (e *evaluator) supersteps(d *point) ([]kernel.Superstep, error) {
	act, err := e.activity(d)
	if err != nil {
		return nil, err
	}
	return act.Supersteps(), nil
}

// profiles are the prediction's profiles of the reference run under the
// partition cell's partitioner, kept once per kernel, dataset and
// partitioner so that every keystroke and every design point reuses them.
func (e *evaluator) profiles(d *point) (*model.Profiles, error) {
	act, err := e.activity(d)
	if err != nil {
		return nil, err
	}
	opt := e.partitionOptions()
	key := fmt.Sprintf("prof:%s/%s/%s/%d/%d", e.depHash(KindKernel), e.depHash(KindDataset), opt.Method, opt.UFactor, opt.Seed)
	return memo(e.job.cache, key, func() (*model.Profiles, error) {
		return model.NewProfiles(d.Graph, act, opt), nil
	})
}

// predictionContext is the evaluator's context with the profiles'
// progress reported as the cell's: computing them is the prediction's
// long step.
func (e *evaluator) predictionContext() context.Context {
	return model.WithProfileProgress(e.ctx, func(p model.ProfileProgress) {
		e.progress(Progress{Text: p.String(), Done: int64(p.Done), Total: int64(p.Total)})
	})
}

// degrees is the graph's degree histogram for the filter estimate, once
// per dataset.
func (e *evaluator) degrees(d *point) [][2]int64 {
	v, _ := memo(e.job.cache, "deg:"+e.depHash(KindDataset), func() ([][2]int64, error) {
		return model.DegreeCounts(d.Graph), nil
	})
	return v
}

// resolveConfig fills in the FPGAs and PEs the user left to the optimiser.
func (e *evaluator) resolveConfig(d *point) (model.Config, error) {
	cfg := d.Config()
	if cfg.FPGAs > 0 && cfg.PEs > 0 {
		return cfg, nil
	}
	// The histogram first: with it cached, a front end shows the bound
	// (Notebook.Bound) while the reference run behind the profiles runs.
	deg := e.degrees(d)
	ps, err := e.profiles(d)
	if err != nil {
		return cfg, err
	}
	mo, err := evaluateModel(e.predictionContext(), d.Platform, d.Kernel, d.Graph, cfg, d.Options.PE, d.Options.CPE, ps, deg)
	if err != nil {
		return cfg, err
	}
	cfg.FPGAs, cfg.PEs = mo.FPGAs, mo.PEs
	return cfg, nil
}

// --- model ------------------------------------------------------------------

func (e *evaluator) model(in *Model) (Output, error) {
	d, err := e.point()
	if err != nil {
		return nil, err
	}
	deg := e.degrees(d) // before the reference run, as in resolveConfig
	var ps *model.Profiles
	if in.Latency && !e.boundOnly {
		if ps, err = e.profiles(d); err != nil {
			return nil, err
		}
		if e.cachedOnly {
			ps = ps.CachedOnly()
		}
	}
	return evaluateModel(e.predictionContext(), d.Platform, d.Kernel, d.Graph, d.Config(), d.Options.PE, d.Options.CPE, ps, deg)
}

// --- notes ------------------------------------------------------------------

// NotesOutput is a notes cell's text.
type NotesOutput struct {
	Notes string `json:"text"`
}

// Text implements Output.
func (o *NotesOutput) Text() string { return o.Notes }
