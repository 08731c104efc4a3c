package design

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
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

// DatasetsEnv names the environment variable of the folder that dataset
// file names are also looked up in, after the folder they are relative to.
const DatasetsEnv = "GRAVF_DATASETS"

// IsPath says whether a board or kernel name is a file or folder rather
// than a built-in: it ends in .toml or holds a path separator.
func IsPath(s string) bool { return boards.IsPath(s) }

// resolve turns a path relative to dir into one relative to the working
// folder.
func resolve(dir, p string) string {
	if p == "" || filepath.IsAbs(p) || dir == "" {
		return p
	}
	return filepath.Join(dir, p)
}

// Error is a problem that one option caused, so that a form can show it
// at that option and a command name its flag: Key is the option as a
// notebook cell and --set spell it (board, fpgas, set.clock_mhz, kernel,
// widths.vertex.label, params.root, graph).
type Error struct {
	Key string
	// Msg is the problem in the option's own terms ("must be positive, got
	// 0"); empty when Err says it well enough.
	Msg string
	Err error
}

// Error implements error.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// keyErr wraps err as caused by option key, unless it names one already.
func keyErr(key string, err error) error {
	var de *Error
	if err == nil || errors.As(err, &de) {
		return err
	}
	return &Error{Key: key, Err: err}
}

// LoadBoard loads the options' board (a file relative to dir), applies
// the overrides of Set and checks the board can hold the design's FPGAs.
// An override that breaks the board is blamed on its key (set.NAME).
func (o *Options) LoadBoard(dir string) (*boards.Board, error) {
	name := o.Board
	if IsPath(name) {
		name = resolve(dir, name)
	}
	b, err := boards.Load(name)
	if err != nil {
		return nil, &Error{Key: "board", Err: err}
	}
	c, err := boards.Override(b, o.Set)
	if err != nil {
		key, msg := culprit(b, o.Set)
		return nil, &Error{Key: key, Msg: msg, Err: fmt.Errorf("set: %w", err)}
	}
	if o.FPGAs > c.MaxFPGAs {
		return nil, &Error{Key: "fpgas", Msg: fmt.Sprintf("%s has at most %d FPGAs", c.Name, c.MaxFPGAs),
			Err: fmt.Errorf("fpgas %d: %s has at most %d FPGAs", o.FPGAs, c.Name, c.MaxFPGAs)}
	}
	return c, nil
}

// culprit names the override that breaks the board, and the problem in
// that option's terms: the first that fails on its own, else the last one
// ("set" when none is known).
func culprit(b *boards.Board, set map[string]float64) (key, msg string) {
	names := sortedKeys(set)
	for _, name := range names {
		if _, err := boards.Override(b, map[string]float64{name: set[name]}); err != nil {
			if _, ok := boards.ParamNamed(name); !ok {
				return "set", err.Error()
			}
			return "set." + name, boardProblem(err)
		}
	}
	if len(names) == 0 {
		return "set", ""
	}
	return "set." + names[len(names)-1], ""
}

// boardProblem is a board validation error without the file and key it
// names, for display next to the option that set the value.
func boardProblem(err error) string {
	var l boards.ErrorList
	if errors.As(err, &l) && len(l) == 1 {
		return l[0].Msg
	}
	return err.Error()
}

// Load loads the kernel spec (a folder relative to dir) with the width
// edits applied; edited names the fields whose width changed.
func (k *Kernel) Load(dir string) (spec *kernel.Spec, edited map[string]bool, err error) {
	name, load := k.Kernel, samples.LoadKernel
	if IsPath(name) {
		// A folder of the user's, even when resolving "./wcc" leaves a
		// name that is also a built-in kernel's.
		name, load = resolve(dir, name), kernel.Load
	}
	if spec, err = load(name); err != nil {
		return nil, nil, &Error{Key: "kernel", Err: err}
	}
	return EditWidths(spec, k.Widths)
}

// Bind binds a spec to a graph with the kernel's parameter values, mapping
// vertex parameters through the graph's labels. A parameter the kernel
// does not have, or a value it cannot take, is blamed on params.NAME.
func (k *Kernel) Bind(spec *kernel.Spec, g *graph.Graph) (*kernel.Kernel, error) {
	if err := k.CheckParams(spec); err != nil {
		return nil, err
	}
	bound, err := spec.Bind(kernel.Env{Vertices: g.NumVertices(), Params: k.Params, Lookup: g.Lookup})
	if err != nil && len(k.Params) > 0 {
		return nil, keyErr("params."+sortedKeys(k.Params)[len(k.Params)-1], err)
	}
	return bound, err
}

// CheckParams says whether every parameter value names a parameter of
// the spec.
func (k *Kernel) CheckParams(spec *kernel.Spec) error {
	for _, name := range sortedKeys(k.Params) {
		found := false
		for _, p := range spec.Params {
			found = found || p.Name == name
		}
		if !found {
			return &Error{Key: "params." + name, Err: fmt.Errorf("params: kernel %s has no parameter %q", spec.Name, name)}
		}
	}
	return nil
}

// EditWidths returns a copy of spec with field widths replaced. An edited
// kernel no longer matches any hand-written Verilog, so the copy drops it
// and the export generates every kernel module from the spec.
func EditWidths(spec *kernel.Spec, widths map[string]string) (*kernel.Spec, map[string]bool, error) {
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
			return nil, nil, &Error{Key: "widths." + key, Err: fmt.Errorf("widths: kernel %s has no field %s", spec.Name, key)}
		}
	}
	// Check the edit now, so that a width the programs cannot use is
	// reported with the widths, at the last one edited.
	last := "widths." + sortedKeys(widths)[len(widths)-1]
	if _, err := c.Sizes(32); err != nil {
		return nil, nil, &Error{Key: last, Msg: err.Error(), Err: fmt.Errorf("widths: %w", err)}
	}
	if _, err := c.Bind(kernel.Env{Vertices: 2}); err != nil {
		return nil, nil, &Error{Key: last, Msg: err.Error(), Err: fmt.Errorf("widths: %w", err)}
	}
	return &c, edited, nil
}

// Path returns the file a dataset names, resolved: relative to dir, or
// else in $GRAVF_DATASETS; "" for a generator.
func (d *Dataset) Path(dir string) string {
	s, err := graph.ParseSpec(d.Graph)
	if err != nil || !s.IsFile() {
		return ""
	}
	p := s.File
	if filepath.IsAbs(p) {
		return p
	}
	local := resolve(dir, p)
	if _, err := os.Stat(local); err == nil {
		return local
	}
	if ds := os.Getenv(DatasetsEnv); ds != "" {
		if alt := filepath.Join(ds, p); exists(alt) {
			return alt
		}
	}
	return local
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// BuiltinPrefix marks, in the file Load returns, a graph read from the
// data embedded for the sample notebooks.
const BuiltinPrefix = "built-in:"

// Load reads or generates the graph. Weighted keeps (or draws) edge
// weights, for kernels with edge data, as float32 when float. A file name
// resolves beside dir, then in $GRAVF_DATASETS, then among the graphs
// embedded for the sample notebooks, so that those run from any folder.
// It returns the file read ("" for a generator). Cancelling ctx stops it;
// progress, when not nil, hears how far it got.
func (d *Dataset) Load(ctx context.Context, dir string, weighted, float bool, progress func(graph.LoadProgress)) (*graph.Graph, string, error) {
	// A form may have set the format's text; read it as a file would.
	format, err := graph.ParseFormat(string(d.Format))
	if err != nil {
		return nil, "", &Error{Key: "format", Err: err}
	}
	if progress == nil {
		progress = func(graph.LoadProgress) {}
	}
	opt := graph.ReadOptions{Format: format, Directed: d.Directed, Weighted: weighted, FloatWeights: float,
		RandomWeights: d.RandomWeights, Seed: d.WeightSeed}
	spec, file := d.Graph, d.Path(dir)
	if file != "" && !exists(file) {
		if s, _ := graph.ParseSpec(d.Graph); !filepath.IsAbs(s.File) && slices.Contains(samples.DatasetNames(), s.File) {
			r, err := samples.OpenDataset(s.File)
			if err != nil {
				return nil, "", keyErr("graph", err)
			}
			defer r.Close()
			g, err := graph.Read(r, s.File, opt)
			if err != nil {
				return nil, "", keyErr("graph", err)
			}
			return g, BuiltinPrefix + s.File, nil
		}
		hint := ""
		if os.Getenv(DatasetsEnv) == "" {
			hint = " (relative names are looked up beside the notebook, then in $" + DatasetsEnv + ")"
		}
		return nil, file, &Error{Key: "graph", Msg: "no such file" + hint, Err: fmt.Errorf("graph %s: %w%s", d.Graph, fs.ErrNotExist, hint)}
	}
	if file != "" {
		spec = file
	}
	g, err := graph.LoadContext(ctx, spec, opt, progress)
	if err != nil && ctx.Err() == nil {
		return nil, file, keyErr("graph", err)
	}
	return g, file, err
}

// Point is a design point resolved: the board with its overrides, the
// kernel bound to the graph, the model's platform for them, and the
// options. It is what the model, the simulator and the generator are
// given.
type Point struct {
	Board    *boards.Board
	Kernel   *kernel.Kernel
	Graph    *graph.Graph
	Platform *model.Platform
	Options  Options
}

// NewPoint builds the model's platform for a board and a bound kernel: the
// PE cost that bounds nP is the one `export --estimate-only` synthesised
// for this board, kernel and graph size when there is one (see
// gen.CachedPECost), else the kernel's own estimate, else the board's.
func NewPoint(b *boards.Board, k *kernel.Kernel, g *graph.Graph, o Options) (*Point, error) {
	p, err := model.FromBoardKernel(b, "", PECost(b, k.Spec, g))
	if err != nil {
		return nil, err
	}
	return &Point{Board: b, Kernel: k, Graph: g, Platform: p, Options: o}, nil
}

// PECost is the cost of one PE of the kernel on the board for a graph of
// g's size: synthesised by export --estimate-only when cached, else the
// kernel's estimate (nil: the board's).
func PECost(b *boards.Board, s *kernel.Spec, g *graph.Graph) *kernel.PECost {
	if c, ok := gen.CachedPECost(b.Name, s.Name, g.NumVertices()); ok {
		return c
	}
	return s.PECost
}

// Config is the model's configuration of the point.
func (p *Point) Config() model.Config { return p.Options.Config() }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
