package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
	"github.com/gravf-tui/gravf-tui/teps"
	"github.com/spf13/cobra"
)

// tepsFlags choose how sim and model count throughput.
type tepsFlags struct {
	def   string
	roots int
	seed  uint64
}

func (f *tepsFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.def, "teps", "gravf", "how TEPS count: gravf (messages per second, as the paper) or graph500 (input edges of the traversed component per second; for kernels with a root, the harmonic mean over --roots roots)")
	cmd.Flags().IntVar(&f.roots, "roots", teps.Graph500Roots, "--teps graph500: the number of roots (search keys) for kernels with a root parameter")
	cmd.Flags().Uint64Var(&f.seed, "roots-seed", 1, "--teps graph500: the seed that draws the roots")
}

func (f *tepsFlags) definition() (teps.Definition, error) {
	d, err := teps.Parse(f.def)
	if err != nil {
		return "", usageError{err}
	}
	if f.roots < 1 {
		return "", usagef("--roots %d: want at least 1", f.roots)
	}
	return d, nil
}

// Graph500 is the graph500 count of a simulation or a model evaluation.
type Graph500 struct {
	// TEPS is the harmonic mean of the roots' figures (the one run's
	// figure for a kernel without a root).
	TEPS  float64      `json:"teps"`
	Runs  []RootResult `json:"runs"`
	Roots string       `json:"roots"` // how the roots were chosen
}

// RootResult is one run of a graph500 count.
type RootResult struct {
	Root     *uint64 `json:"root,omitempty"` // the root's label, for kernels with a root
	Edges    int64   `json:"edges"`          // input edges of the traversed component
	Messages int64   `json:"messages"`
	Seconds  float64 `json:"seconds"`
	TEPS     float64 `json:"teps"`
}

// rootRuns returns the kernels to run for a graph500 count: one per root
// when the kernel has a vertex parameter root that the user left open,
// else the kernel as bound.
func rootRuns(k *kernel.Kernel, g *graph.Graph, params []string, f tepsFlags) ([]*kernel.Kernel, []*uint64, string, error) {
	pm, err := parseParams(params)
	if err != nil {
		return nil, nil, "", err
	}
	hasRoot := false
	for _, p := range k.Spec.Params {
		hasRoot = hasRoot || (p.Name == "root" && p.Kind == kernel.ParamVertex)
	}
	if _, set := pm["root"]; set || !hasRoot {
		how := "one run: the kernel has no root parameter"
		if set {
			how = "one run from the root given with --param root"
		}
		var root *uint64
		if set {
			if v, err := strconv.ParseUint(pm["root"], 10, 64); err == nil {
				root = &v
			}
		}
		return []*kernel.Kernel{k}, []*uint64{root}, how, nil
	}
	var ks []*kernel.Kernel
	var labels []*uint64
	for _, r := range teps.Roots(g, f.roots, f.seed) {
		l := g.Label(r)
		pm["root"] = strconv.FormatUint(l, 10)
		kr, err := k.Spec.Bind(kernel.Env{Vertices: g.NumVertices(), Params: pm, Lookup: g.Lookup})
		if err != nil {
			return nil, nil, "", err
		}
		ks, labels = append(ks, kr), append(labels, &l)
	}
	return ks, labels, fmt.Sprintf("%d roots with at least one edge, drawn with seed %d as Graph500 does", len(ks), f.seed), nil
}

// graph500Sim counts the graph500 TEPS of a simulation: for each root, the
// simulated time and the reference run's traversed edges. first is the
// run already made with the kernel as bound, reused when there is one run.
func graph500Sim(ctx context.Context, setup *sim.Setup, first *sim.Result, params []string, f tepsFlags) (*Graph500, error) {
	ks, roots, how, err := rootRuns(setup.Kernel, setup.Graph, params, f)
	if err != nil {
		return nil, err
	}
	out := &Graph500{Roots: how}
	var rates []float64
	for i, k := range ks {
		res := first
		if len(ks) > 1 {
			s := *setup
			s.Kernel, s.Progress, s.Listener = k, nil, nil
			if res, err = sim.Run(ctx, &s); err != nil {
				return nil, err
			}
		}
		sent, _, err := teps.Sent(ctx, k, setup.Graph)
		if err != nil {
			return nil, err
		}
		r := RootResult{Root: roots[i], Edges: teps.TraversedEdges(setup.Graph, sent), Messages: res.Messages, Seconds: res.Seconds}
		if res.Seconds > 0 {
			r.TEPS = float64(r.Edges) / res.Seconds
		}
		out.Runs = append(out.Runs, r)
		rates = append(rates, r.TEPS)
	}
	out.TEPS = teps.HarmonicMean(rates)
	return out, nil
}

// printGraph500 writes the graph500 line of a text output.
func printGraph500(w io.Writer, g *Graph500) {
	edges := int64(0)
	for _, r := range g.Runs {
		edges += r.Edges
	}
	fmt.Fprintf(w, "  graph500    %s (%s; %s; %d input edges traversed per run on average)\n",
		explorer.TEPS(g.TEPS), teps.Graph500.Label(), g.Roots, edges/int64(max(len(g.Runs), 1)))
}

// graph500Model counts the graph500 TEPS the model predicts at the design
// it chose: per root, the input edges the reference run traverses over the
// latency-aware predicted time (over messages / T_sys without a
// prediction). Each root's reference run and profile go through the
// prediction's cache, store (nil: computed and not kept), as the model
// command's own do.
func graph500Model(ctx context.Context, out *explorer.ModelOutput, p *model.Platform, k *kernel.Kernel, g *graph.Graph, pe model.PEDesign, cpe float64,
	cfg model.Config, latency bool, params []string, f tepsFlags, store *diskcache.Store) (*Graph500, error) {
	ks, roots, how, err := rootRuns(k, g, params, f)
	if err != nil {
		return nil, err
	}
	res := &Graph500{Roots: how}
	cfg.FPGAs, cfg.PEs = out.FPGAs, out.PEs
	var rates []float64
	for i, kr := range ks {
		sent, ref, err := teps.Sent(ctx, kr, g)
		if err != nil {
			return nil, err
		}
		r := RootResult{Root: roots[i], Edges: teps.TraversedEdges(g, sent), Messages: ref.Messages}
		if out.TSys > 0 {
			r.Seconds = float64(ref.Messages) / out.TSys
		}
		if latency {
			act, err := model.ReferenceActivity(ctx, kr, g, kernel.RunOptions{}, store)
			if err != nil {
				return nil, err
			}
			o, err := explorer.EvaluateModel(ctx, p, kr, g, cfg, pe, cpe, model.NewProfiles(g, act, graph.PartitionOptions{}))
			if err != nil {
				return nil, asUsage(err)
			}
			if o.PredictedSeconds != nil {
				r.Seconds = *o.PredictedSeconds
			}
		}
		if r.Seconds > 0 {
			r.TEPS = float64(r.Edges) / r.Seconds
		}
		res.Runs = append(res.Runs, r)
		rates = append(rates, r.TEPS)
	}
	res.TEPS = teps.HarmonicMean(rates)
	return res, nil
}
