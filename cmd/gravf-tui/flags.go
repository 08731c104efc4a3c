package main

import (
	"context"
	"encoding"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/design"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// This file registers the flags that several commands share, once, under
// one name each, bound to the design options the notebook's cells hold
// (package design): the design point (--board, --fpgas, --pes, --arch,
// --mem, --pe, --packing, --filter, --cpe, --set), the kernel (--kernel,
// --param, --width), the graph (--graph, --format, --directed,
// --random-weights, --weight-seed) and the partition (--partition,
// --ufactor, --seed). Typed values parse themselves when the flag is read,
// with the parser the notebook's decoder uses.

// textValue is a flag of a typed value that reads itself from text.
type textValue[T ~string, P interface {
	*T
	encoding.TextUnmarshaler
}] struct{ p P }

func (v textValue[T, P]) String() string {
	if v.p == nil {
		return ""
	}
	if m, ok := any(*v.p).(encoding.TextMarshaler); ok {
		if b, err := m.MarshalText(); err == nil {
			return string(b)
		}
	}
	return string(*v.p)
}

func (v textValue[T, P]) Set(s string) error { return v.p.UnmarshalText([]byte(s)) }

func (v textValue[T, P]) Type() string { return "string" }

func typed[T ~string, P interface {
	*T
	encoding.TextUnmarshaler
}](p P) pflag.Value {
	return textValue[T, P]{p}
}

// pointFlags are the design-point flags of model, sim, explore and export:
// the keys of a platform cell, with the cell's defaults.
type pointFlags struct {
	opts design.Options
	sets []string
}

func (f *pointFlags) register(fs *pflag.FlagSet) {
	f.opts = design.DefaultOptions()
	o := &f.opts
	fs.StringVar(&o.Board, "board", o.Board, "board: a built-in name (see gravf-tui boards) or a board .toml file")
	fs.IntVar(&o.FPGAs, "fpgas", o.FPGAs, "number of FPGAs (0: let the optimiser choose)")
	fs.IntVar(&o.PEs, "pes", o.PEs, "PEs per FPGA (0: let the optimiser choose)")
	fs.Var(typed(&o.Arch), "arch", "architecture: gravf-m or gravf (the unicast baseline)")
	fs.Var(typed(&o.Mem), "mem", "edge storage: offchip or bram")
	fs.Var(typed(&o.PE), "pe", "PE design: generated (what export builds: one edge per cycle) or paper (the published PE, the board's measured cycles per edge)")
	fs.BoolVar(&o.Packing, "packing", o.Packing, "pack several updates into one link word")
	fs.BoolVar(&o.Filter, "filter", o.Filter, "send updates only to FPGAs that hold neighbours (GraVF-M)")
	fs.Float64Var(&o.CPE, "cpe", o.CPE, "PE cycles per edge (0: the board's measured figure for the kernel, else an estimate)")
	fs.StringArrayVar(&f.sets, "set", nil, "KEY=VALUE, repeatable, applied after the other flags, with the keys and checks of a notebook's platform cell: "+
		strings.Join(design.Keys, ", ")+", or a board figure to override: "+boards.ParamNames())
}

// options returns the design options: the flags, then every --set in
// order, checked as a platform cell is.
func (f *pointFlags) options() (design.Options, error) {
	o := f.opts
	o.Set = nil
	for k, v := range f.opts.Set {
		if o.Set == nil {
			o.Set = map[string]float64{}
		}
		o.Set[k] = v
	}
	for _, kv := range f.sets {
		key, value, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(key) == "" {
			return o, usagef("--set %q: want KEY=VALUE", kv)
		}
		if err := o.SetKey(strings.TrimSpace(key), value); err != nil {
			return o, usagef("--set %s: %v", kv, err)
		}
	}
	if key, err := o.Check(); err != nil {
		return o, usagef("%s: %v", flagFor(key), err)
	}
	return o, nil
}

// flagFor names the flag that sets a key of the design options.
func flagFor(key string) string {
	switch {
	case key == "":
		return "flags"
	case strings.HasPrefix(key, "set.") || strings.HasPrefix(key, "widths."):
		return "--set " + strings.TrimPrefix(key, "set.")
	case key == "grid":
		return "--sweep"
	case key == "widths":
		return "--width"
	case key == "params":
		return "--param"
	case key == "partitioner":
		return "--partition"
	}
	return "--" + strings.ReplaceAll(key, "_", "-")
}

// kernelFlags choose the kernel: --kernel, --param name=value and --width
// layout.field=W, the keys of a notebook's kernel cell.
type kernelFlags struct {
	name           string
	params, widths []string
}

func (f *kernelFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.name, "kernel", "", "kernel: a built-in name (see gravf-tui kernels) or a folder with kernel.toml")
	fs.StringArrayVar(&f.params, "param", nil, "kernel parameter name=value (vertex parameters take the input's labels); repeatable")
	fs.StringArrayVar(&f.widths, "width", nil, "field width layout.field=W (vertex.label=16), as a kernel cell's widths; repeatable")
}

// choice returns the kernel choice the flags make.
func (f *kernelFlags) choice() (design.Kernel, error) {
	if f.name == "" {
		return design.Kernel{}, usagef("--kernel is required")
	}
	k := design.Kernel{Kernel: f.name}
	var err error
	if k.Params, err = pairs("--param", f.params); err != nil {
		return k, err
	}
	if k.Widths, err = pairs("--width", f.widths); err != nil {
		return k, err
	}
	if key, err := k.Check(); err != nil {
		return k, usagef("%s: %v", flagFor(key), err)
	}
	return k, nil
}

// parseParams turns repeated --param name=value flags into a map.
func parseParams(kv []string) (map[string]string, error) {
	m, err := pairs("--param", kv)
	if m == nil && err == nil {
		m = map[string]string{}
	}
	return m, err
}

// pairs turns repeated name=value flags into a map.
func pairs(flag string, kv []string) (map[string]string, error) {
	if len(kv) == 0 {
		return nil, nil
	}
	m := map[string]string{}
	for _, p := range kv {
		k, v, ok := strings.Cut(p, "=")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, usagef("%s %q: want name=value", flag, p)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// graphFlags are the flags every command that reads a graph shares: the
// keys of a notebook's dataset cell.
type graphFlags struct {
	d   design.Dataset
	cmd *cobra.Command // whose context and stderr loading uses
}

func (f *graphFlags) register(cmd *cobra.Command) {
	f.cmd = cmd
	fs := cmd.Flags()
	f.d = design.DefaultDataset()
	f.d.Graph = ""
	fs.StringVar(&f.d.Graph, "graph", "", "graph: a file, or a generator such as uniform:v=65536,d=32,seed=1, rmat:scale=16,ef=16, layered:w=64,d=256, line:n=1000, grid:rows=100,cols=100")
	fs.Var(typed(&f.d.Format), "format", "file format: auto, edgelist, mtx, metis, dimacs")
	fs.BoolVar(&f.d.Directed, "directed", false, "keep arcs as given (default: symmetrise every edge)")
	fs.Uint32Var(&f.d.RandomWeights, "random-weights", 0, "give unweighted edges seeded random weights in [1, N]")
	fs.Uint64Var(&f.d.WeightSeed, "weight-seed", f.d.WeightSeed, "seed of --random-weights")
}

// dataset returns the dataset the flags name.
func (f *graphFlags) dataset() (design.Dataset, error) {
	if f.d.Graph == "" {
		return f.d, usagef("--graph is required")
	}
	if key, err := f.d.Check(); err != nil {
		if key == "graph" {
			return f.d, usageError{err} // as a graph that fails to load
		}
		return f.d, usagef("%s: %v", flagFor(key), err)
	}
	return f.d, nil
}

// load reads or generates the graph, with weights when the kernel has
// edge data.
// load reads or generates the graph, with weights when weighted (as
// float32 when float), and prints what the reader changed (rounded
// weights) to stderr.
func (f *graphFlags) load(weighted, float bool) (*graph.Graph, error) {
	d, err := f.dataset()
	if err != nil {
		return nil, err
	}
	ctx, prog := context.Background(), newProgress(io.Discard)
	if f.cmd != nil {
		ctx, prog = f.cmd.Context(), newProgress(f.cmd.ErrOrStderr())
	}
	g, _, err := d.Load(ctx, "", weighted, float, func(p graph.LoadProgress) {
		text := "loading " + d.Graph + ": " + p.Stage
		if p.Total > 0 {
			text += fmt.Sprintf(" %.0f %%", 100*float64(p.Done)/float64(p.Total))
		}
		prog.line(text)
	})
	prog.done()
	switch {
	case errors.Is(err, context.Canceled):
		return nil, err
	case err != nil:
		return nil, usageError{err} // a missing or malformed graph file, a bad generator spec, too little memory
	}
	if f.cmd != nil {
		for _, n := range g.Notes() {
			fmt.Fprintf(f.cmd.ErrOrStderr(), "note: %s: %s\n", g.Name, n)
		}
	}
	return g, nil
}

// partitionFlags choose the partitioner: the keys of a notebook's
// partition cell.
type partitionFlags struct {
	p design.Partition
}

func (f *partitionFlags) register(fs *pflag.FlagSet) {
	f.p = design.DefaultPartition()
	fs.Var(typed(&f.p.Partitioner), "partition", "partitioner: robin, greedy, greedy-sorted or metis")
	fs.IntVar(&f.p.UFactor, "ufactor", f.p.UFactor, "METIS imbalance factor (gpmetis -ufactor; 0: METIS's default)")
	// The seed defaults to 1, as a simulate cell's does.
	f.p.Seed = 1
	fs.Uint64Var(&f.p.Seed, "seed", f.p.Seed, "seed of METIS partitioning")
}

func (f *partitionFlags) partition() (design.Partition, error) {
	if key, err := f.p.Check(); err != nil {
		return f.p, usagef("%s: %v", flagFor(key), err)
	}
	return f.p, nil
}

// loadKernelGraph loads a kernel and the graph it runs on, bound; the
// graph keeps its edge weights only when the kernel has edge data.
func loadKernelGraph(kf *kernelFlags, gf *graphFlags) (*kernel.Kernel, *graph.Graph, error) {
	k, err := kf.choice()
	if err != nil {
		return nil, nil, err
	}
	spec, _, err := k.Load("")
	if err != nil {
		return nil, nil, usageError{err}
	}
	g, err := gf.load(spec.Weights())
	if err != nil {
		return nil, nil, err
	}
	bound, err := k.Bind(spec, g)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return bound, g, nil
}

// resolvePoint resolves the design point of the flags, as a notebook's
// cells resolve theirs: the board with the overrides, the kernel bound to
// the graph, the model's platform. What makes the board's figures doubtful
// (boards.Warnings, which a platform cell shows) goes to warn.
func resolvePoint(pf *pointFlags, kf *kernelFlags, gf *graphFlags, warn io.Writer) (*design.Point, error) {
	o, err := pf.options()
	if err != nil {
		return nil, err
	}
	b, err := o.LoadBoard("")
	if err != nil {
		return nil, usageError{err}
	}
	for _, w := range b.Warnings() {
		fmt.Fprintf(warn, "gravf-tui: warning: %s\n", w)
	}
	k, g, err := loadKernelGraph(kf, gf)
	if err != nil {
		return nil, err
	}
	p, err := design.NewPoint(b, k, g, o)
	if err != nil {
		return nil, usageError{err}
	}
	return p, nil
}

// requireBuildable refuses what the generator cannot build.
func requireBuildable(o design.Options) error {
	switch {
	case o.PE != model.PEGenerated:
		return usagef("--pe %s: the generator builds the generated PE", o.PE)
	case o.Arch != model.GraVFM:
		return usagef("--arch %s: the generator builds GraVF-M only so far", o.Arch)
	case o.FPGAs < 1 || o.PEs < 1:
		return usagef("--fpgas and --pes are required")
	}
	return nil
}

// cacheFlags are the commands' switch of the prediction's cache
// (--no-cache): the reference run and the profiles of a dataset and
// kernel are kept under the user's cache folder, so that a second command
// on them reads them instead of computing them again.
type cacheFlags struct{ off bool }

// cacheHelp says where the cache is and how to turn it off, for --help.
const cacheHelp = `The latency-aware prediction's reference run and profiles are cached under
the user's cache folder ($XDG_CACHE_HOME/gravf-tui/derived, at most 1 GiB,
least recently used entries removed first), keyed by the graph's content,
the kernel, every option and the program build: a second run on the same
dataset and kernel reads them, with the same result. --no-cache or
GRAVF_CACHE=off computes everything and stores nothing.`

func (f *cacheFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.off, "no-cache", false, "compute the prediction's reference run and profiles instead of reading (and storing) them in the cache (also GRAVF_CACHE=off)")
}

// store is the cache to use; nil when it is off.
func (f *cacheFlags) store() *diskcache.Store {
	if f.off {
		return nil
	}
	return diskcache.Open()
}
