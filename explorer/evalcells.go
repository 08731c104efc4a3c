package explorer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
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

func looksLikePath(s string) bool {
	return strings.ContainsAny(s, `/\`) || strings.HasSuffix(s, ".toml")
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
	name := in.Board
	if looksLikePath(name) {
		name = e.resolve(name)
	}
	b, err := boards.Load(name)
	if err != nil {
		return nil, fieldErr(KindPlatform, "board", err)
	}
	b, err = applyBoardParams(b, in.Set)
	if err != nil {
		return nil, err
	}
	arch, _ := model.ParseArch(in.Arch)
	mem, _ := model.ParseMemKind(in.Mem)
	pe, _ := model.ParsePEDesign(in.PE)
	o := &PlatformOutput{PE: pe, Board: b.Name, Title: b.Title, Part: b.FPGA.Part, ClockMHz: b.ClockMHz, MaxFPGAs: b.MaxFPGAs, MaxPEs: b.MaxPEs(),
		PriceUSD: b.PriceUSD, Warnings: b.Warnings(), board: b,
		Config: model.Config{FPGAs: in.FPGAs, PEs: in.PEs, Arch: arch, Mem: mem, Packing: in.Packing, Filter: in.Filter}}
	for _, p := range BoardParams {
		_, set := in.Set[p.Name]
		o.Params = append(o.Params, ParamValue{Name: p.Name, Value: p.Get(b), Unit: p.Unit, Overridden: set})
	}
	if b.MaxFPGAs > 0 && in.FPGAs > b.MaxFPGAs {
		return nil, &FieldError{Kind: KindPlatform, Key: "fpgas", Msg: fmt.Sprintf("%s has at most %d FPGAs", b.Name, b.MaxFPGAs),
			Err: fmt.Errorf("fpgas %d: %s has at most %d FPGAs", in.FPGAs, b.Name, b.MaxFPGAs)}
	}
	return o, nil
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
	name := in.Kernel
	load := samples.LoadKernel
	if looksLikePath(name) {
		// A folder of the user's, even when resolving "./wcc" leaves a
		// name that is also a built-in kernel's.
		name, load = e.resolve(name), kernel.Load
	}
	spec, err := load(name)
	if err != nil {
		return nil, fieldErr(KindKernel, "kernel", err)
	}
	spec, edited, err := editWidths(spec, in.Widths)
	if err != nil {
		return nil, err
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

// editWidths returns a copy of spec with field widths replaced. An edited
// kernel no longer matches any hand-written Verilog, so the copy drops it
// and the export generates every kernel module from the spec.
func editWidths(spec *kernel.Spec, widths map[string]string) (*kernel.Spec, map[string]bool, error) {
	edited := map[string]bool{}
	if len(widths) == 0 {
		return spec, edited, nil
	}
	c := *spec
	c.Vertex = append(kernel.Layout(nil), spec.Vertex...)
	c.Edge = append(kernel.Layout(nil), spec.Edge...)
	c.Update = append(kernel.Layout(nil), spec.Update...)
	c.Message = append(kernel.Layout(nil), spec.Message...)
	c.Verilog = nil
	for _, key := range sortedKeys(widths) {
		lname, fname, _ := strings.Cut(key, ".")
		var targets []*kernel.Layout
		switch lname {
		case "vertex":
			targets = []*kernel.Layout{&c.Vertex}
		case "edge":
			targets = []*kernel.Layout{&c.Edge}
		case "update":
			targets = []*kernel.Layout{&c.Update}
			if c.MessageIsUpdate {
				targets = append(targets, &c.Message)
			}
		case "message":
			targets = []*kernel.Layout{&c.Message}
			if c.MessageIsUpdate {
				targets = append(targets, &c.Update)
			}
		}
		found := false
		for _, l := range targets {
			if i := l.Index(fname); i >= 0 {
				(*l)[i].Width = strings.TrimSpace(widths[key])
				found = true
				edited[lname+"."+fname] = true
			}
		}
		if !found {
			return nil, nil, &FieldError{Kind: KindKernel, Key: "widths." + key, Err: fmt.Errorf("widths: kernel %s has no field %s", spec.Name, key)}
		}
	}
	// Check the edit now, so that a width the programs cannot use is
	// reported by the kernel cell, at the last width edited.
	last := "widths." + sortedKeys(widths)[len(widths)-1]
	if _, err := c.Sizes(32); err != nil {
		return nil, nil, &FieldError{Kind: KindKernel, Key: last, Msg: err.Error(), Err: fmt.Errorf("widths: %w", err)}
	}
	if _, err := c.Bind(kernel.Env{Vertices: 2}); err != nil {
		return nil, nil, &FieldError{Kind: KindKernel, Key: last, Msg: err.Error(), Err: fmt.Errorf("widths: %w", err)}
	}
	return &c, edited, nil
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
const DatasetsEnv = "GRAVF_DATASETS"

// datasetPath returns the file a dataset spec names, resolved ("" for a
// generator spec).
func (nb *Notebook) datasetPath(spec string) string {
	return resolveDataset(nb.Dir(), spec)
}

func resolveDataset(dir, spec string) string {
	s, err := graph.ParseSpec(spec)
	if err != nil || !s.IsFile() {
		return ""
	}
	p := s.File
	if filepath.IsAbs(p) {
		return p
	}
	local := filepath.Join(dir, p)
	if _, err := os.Stat(local); err == nil {
		return local
	}
	if d := os.Getenv(DatasetsEnv); d != "" {
		if alt := filepath.Join(d, p); fileExists(alt) {
			return alt
		}
	}
	return local
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func (e *evaluator) kernelSpec() *kernel.Spec {
	if k, ok := e.dep(KindKernel).(*KernelOutput); ok {
		return k.spec
	}
	return nil
}

func (e *evaluator) dataset(in *Dataset) (Output, error) {
	format, _ := graph.ParseFormat(in.Format)
	weighted, float := false, false
	if s := e.kernelSpec(); s != nil {
		weighted, float = s.Weights()
	}
	what := "generating " + in.Graph
	if resolveDataset(e.job.dir, in.Graph) != "" {
		what = "loading " + in.Graph
	}
	e.progress(Progress{Text: what})
	g, file, err := loadDataset(e.ctx, e.job.dir, in.Graph, graph.ReadOptions{Format: format, Directed: in.Directed, Weighted: weighted, FloatWeights: float,
		RandomWeights: in.RandomWeights, Seed: in.WeightSeed},
		func(p graph.LoadProgress) {
			e.progress(Progress{Text: what + ": " + p.Stage, Done: p.Done, Total: p.Total})
		})
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) || isCancel(err) {
			return nil, err
		}
		return nil, fieldErr(KindDataset, "graph", err)
	}
	e.progress(Progress{Text: "degree statistics of " + in.Graph})
	return &DatasetOutput{Spec: in.Graph, File: file, Stats: graph.ComputeStats(g), Notes: g.Notes(), graph: g}, nil
}

// builtinPrefix marks, in DatasetOutput.File, a graph read from the data
// embedded for the sample notebooks.
const builtinPrefix = "built-in:"

// loadDataset reads or generates the graph a dataset spec names. A file
// name resolves beside the notebook (dir), then in $GRAVF_DATASETS, then
// among the graphs embedded for the sample notebooks, so that those run
// from any folder; the file it read is returned ("" for a generator). A
// file found nowhere is a FieldError on the dataset's graph.
func loadDataset(ctx context.Context, dir, spec string, opt graph.ReadOptions, progress func(graph.LoadProgress)) (*graph.Graph, string, error) {
	file := resolveDataset(dir, spec)
	if file == "" {
		g, err := graph.LoadContext(ctx, spec, opt, progress)
		return g, "", err
	}
	if fileExists(file) {
		g, err := graph.LoadContext(ctx, file, opt, progress)
		return g, file, err
	}
	if s, _ := graph.ParseSpec(spec); !filepath.IsAbs(s.File) && slices.Contains(samples.DatasetNames(), s.File) {
		r, err := samples.OpenDataset(s.File)
		if err != nil {
			return nil, "", err
		}
		defer r.Close()
		g, err := graph.Read(r, s.File, opt)
		return g, builtinPrefix + s.File, err
	}
	hint := ""
	if os.Getenv(DatasetsEnv) == "" {
		hint = " (relative names are looked up beside the notebook, then in $" + DatasetsEnv + ")"
	}
	return nil, "", &FieldError{Kind: KindDataset, Key: "graph", Msg: "no such file" + hint, Err: fmt.Errorf("graph %s: %w%s", spec, fs.ErrNotExist, hint)}
}

// --- shared helpers for the cells that need a design --------------------------

// design is what model, partition, sweep, simulate and export cells share:
// the board, the bound kernel, the graph and the model's platform.
type design struct {
	board    *boards.Board
	kernel   *kernel.Kernel
	graph    *graph.Graph
	platform *model.Platform
	cfg      model.Config
	pe       model.PEDesign
	cpe      float64
	key      string // hash of platform, kernel and dataset
}

func (e *evaluator) design() (*design, error) {
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
		return bindKernel(ko.spec, do.graph, kin.Params)
	})
	if err != nil {
		return nil, err
	}
	p, err := model.FromBoardKernel(po.board, "", PECost(po.board, ko.spec, do.graph))
	if err != nil {
		return nil, err
	}
	return &design{board: po.board, kernel: k, graph: do.graph, platform: p, cfg: po.Config, pe: po.PE, cpe: pin.CPE,
		key: e.depHash(KindPlatform) + "/" + kd}, nil
}

// PECost is the cost of one PE of the kernel: the one synthesised by
// `gravf-tui export --estimate-only` for this board and graph size when
// there is one (gen.CachedPECost), else the kernel's own estimate. The
// notebooks and the model, sim and export commands all take nP max from
// it.
func PECost(b *boards.Board, s *kernel.Spec, g *graph.Graph) *kernel.PECost {
	if c, ok := gen.CachedPECost(b.Name, s.Name, g.NumVertices()); ok {
		return c
	}
	return s.PECost
}

// bindKernel binds a spec to a graph with parameter values, mapping vertex
// parameters through the graph's labels.
func bindKernel(s *kernel.Spec, g *graph.Graph, params map[string]string) (*kernel.Kernel, error) {
	return s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
}

// supersteps runs the reference engine once per kernel and dataset.
func (e *evaluator) supersteps(d *design) ([]kernel.Superstep, error) {
	key := "ref:" + e.depHash(KindKernel) + "/" + e.depHash(KindDataset)
	return memo(e.job.cache, key, func() ([]kernel.Superstep, error) {
		var msgs int64
		e.progress(Progress{Text: "reference run (for the latency-aware prediction)"})
		res, err := kernel.Run(e.ctx, d.kernel, d.graph, kernel.RunOptions{Progress: func(s kernel.Superstep) {
			msgs += s.Messages
			e.progress(Progress{Text: fmt.Sprintf("reference run (for the latency-aware prediction): superstep %d done, %s messages", s.Index, groupDigits(msgs))})
		}})
		if err != nil {
			return nil, err
		}
		return res.Supersteps, nil
	})
}

// degrees is the graph's degree histogram for the filter estimate, once
// per dataset.
func (e *evaluator) degrees(d *design) [][2]int64 {
	v, _ := memo(e.job.cache, "deg:"+e.depHash(KindDataset), func() ([][2]int64, error) {
		return model.DegreeCounts(d.graph), nil
	})
	return v
}

// resolveConfig fills in the FPGAs and PEs the user left to the optimiser.
func (e *evaluator) resolveConfig(d *design) (model.Config, error) {
	cfg := d.cfg
	if cfg.FPGAs > 0 && cfg.PEs > 0 {
		return cfg, nil
	}
	mo, err := evaluateModel(d.platform, d.kernel, d.graph, cfg, d.pe, d.cpe, nil, e.degrees(d))
	if err != nil {
		return cfg, err
	}
	cfg.FPGAs, cfg.PEs = mo.FPGAs, mo.PEs
	return cfg, nil
}

// --- model ------------------------------------------------------------------

func (e *evaluator) model(in *Model) (Output, error) {
	d, err := e.design()
	if err != nil {
		return nil, err
	}
	var steps []kernel.Superstep
	if in.Latency {
		if steps, err = e.supersteps(d); err != nil {
			return nil, err
		}
	}
	return evaluateModel(d.platform, d.kernel, d.graph, d.cfg, d.pe, d.cpe, steps, e.degrees(d))
}

// --- notes ------------------------------------------------------------------

// NotesOutput is a notes cell's text.
type NotesOutput struct {
	Notes string `json:"text"`
}

// Text implements Output.
func (o *NotesOutput) Text() string { return o.Notes }
