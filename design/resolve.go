package design

import (
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

// LoadBoard loads the options' board (a file relative to dir), applies
// the overrides of Set and checks the board can hold the design's FPGAs.
func (o *Options) LoadBoard(dir string) (*boards.Board, error) {
	name := o.Board
	if IsPath(name) {
		name = resolve(dir, name)
	}
	b, err := boards.Load(name)
	if err != nil {
		return nil, err
	}
	if b, err = boards.Override(b, o.Set); err != nil {
		return nil, fmt.Errorf("set: %w", err)
	}
	if o.FPGAs > b.MaxFPGAs {
		return nil, fmt.Errorf("fpgas %d: %s has at most %d FPGAs", o.FPGAs, b.Name, b.MaxFPGAs)
	}
	return b, nil
}

// Load loads the kernel spec (a folder relative to dir) with the width
// edits applied; edited names the fields whose width changed.
func (k *Kernel) Load(dir string) (spec *kernel.Spec, edited map[string]bool, err error) {
	name := k.Kernel
	if IsPath(name) {
		name = resolve(dir, name)
	}
	if spec, err = samples.LoadKernel(name); err != nil {
		return nil, nil, err
	}
	return EditWidths(spec, k.Widths)
}

// Bind binds a spec to a graph with the kernel's parameter values, mapping
// vertex parameters through the graph's labels. A parameter the kernel
// does not have is an error.
func (k *Kernel) Bind(spec *kernel.Spec, g *graph.Graph) (*kernel.Kernel, error) {
	return spec.Bind(kernel.Env{Vertices: g.NumVertices(), Params: k.Params, Lookup: g.Lookup})
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
			return nil, nil, fmt.Errorf("widths: kernel %s has no field %s", spec.Name, key)
		}
	}
	// Check the edit now, so that a width the programs cannot use is
	// reported with the widths.
	if _, err := c.Sizes(32); err != nil {
		return nil, nil, fmt.Errorf("widths: %w", err)
	}
	if _, err := c.Bind(kernel.Env{Vertices: 2}); err != nil {
		return nil, nil, fmt.Errorf("widths: %w", err)
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

// Load reads or generates the graph. Weighted keeps (or draws) edge
// weights, for kernels with edge data. It returns the file read ("" for a
// generator).
func (d *Dataset) Load(dir string, weighted bool) (*graph.Graph, string, error) {
	spec := d.Graph
	file := d.Path(dir)
	if file != "" {
		if !exists(file) {
			hint := ""
			if os.Getenv(DatasetsEnv) == "" {
				hint = " (relative names are looked up beside the notebook, then in $" + DatasetsEnv + ")"
			}
			return nil, file, fmt.Errorf("graph %s: %w%s", d.Graph, fs.ErrNotExist, hint)
		}
		spec = file
	}
	// A form may have set the format's text; read it as a file would.
	format, err := graph.ParseFormat(string(d.Format))
	if err != nil {
		return nil, file, err
	}
	g, err := graph.Load(spec, graph.ReadOptions{Format: format, Directed: d.Directed, Weighted: weighted,
		RandomWeights: d.RandomWeights, Seed: d.WeightSeed})
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

// Resolve loads everything a design point needs, in the order a notebook's
// cells do: the board, the kernel, the graph (with weights when the
// kernel has edge data), the binding. Paths are relative to dir.
func Resolve(dir string, o Options, k Kernel, d Dataset) (*Point, error) {
	for _, c := range []interface{ Check() (string, error) }{&o, &k, &d} {
		if _, err := c.Check(); err != nil {
			return nil, err
		}
	}
	b, err := o.LoadBoard(dir)
	if err != nil {
		return nil, err
	}
	spec, _, err := k.Load(dir)
	if err != nil {
		return nil, err
	}
	g, _, err := d.Load(dir, len(spec.Edge) > 0)
	if err != nil {
		return nil, err
	}
	bound, err := k.Bind(spec, g)
	if err != nil {
		return nil, err
	}
	return NewPoint(b, bound, g, o)
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
