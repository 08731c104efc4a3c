package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/outfile"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/spf13/cobra"
)

// graphFlags are the flags every command that reads a graph shares.
type graphFlags struct {
	spec          string
	format        string
	directed      bool
	randomWeights uint32
	seed          uint64
	cmd           *cobra.Command // whose context and stderr loading uses
}

func (f *graphFlags) register(cmd *cobra.Command) {
	f.cmd = cmd
	cmd.Flags().StringVar(&f.spec, "graph", "", "graph: a file, or a generator such as uniform:v=65536,d=32,seed=1, rmat:scale=16,ef=16, layered:w=64,d=256, line:n=1000, grid:rows=100,cols=100")
	cmd.Flags().StringVar(&f.format, "format", "auto", "file format: auto, edgelist, mtx, metis, dimacs")
	cmd.Flags().BoolVar(&f.directed, "directed", false, "keep arcs as given (default: symmetrise every edge)")
	cmd.Flags().Uint32Var(&f.randomWeights, "random-weights", 0, "give unweighted edges seeded random weights in [1, N]")
	cmd.Flags().Uint64Var(&f.seed, "weight-seed", 1, "seed of --random-weights")
}

// load reads or generates the graph, with weights when weighted (as
// float32 when float), and prints what the reader changed (rounded
// weights) to stderr.
func (f *graphFlags) load(weighted, float bool) (*graph.Graph, error) {
	if f.spec == "" {
		return nil, usagef("--graph is required")
	}
	format, err := graph.ParseFormat(f.format)
	if err != nil {
		return nil, usageError{err}
	}
	opt := graph.ReadOptions{Format: format, Directed: f.directed, Weighted: weighted, FloatWeights: float, RandomWeights: f.randomWeights, Seed: f.seed}
	ctx, prog := context.Background(), newProgress(io.Discard)
	if f.cmd != nil {
		ctx, prog = f.cmd.Context(), newProgress(f.cmd.ErrOrStderr())
	}
	g, err := graph.LoadContext(ctx, f.spec, opt, func(p graph.LoadProgress) {
		text := "loading " + f.spec + ": " + p.Stage
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

// parseParams turns repeated --param k=v flags into a map.
func parseParams(kv []string) (map[string]string, error) {
	m := map[string]string{}
	for _, p := range kv {
		k, v, ok := strings.Cut(p, "=")
		if !ok || k == "" {
			return nil, usagef("--param %q: want name=value", p)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// loadKernelGraph loads a kernel and the graph it runs on; the graph keeps
// its edge weights only when the kernel has edge data.
func loadKernelGraph(name string, gf *graphFlags, params []string) (*kernel.Kernel, *graph.Graph, error) {
	if name == "" {
		return nil, nil, usagef("--kernel is required")
	}
	s, err := samples.LoadKernel(name)
	if err != nil {
		return nil, nil, usageError{err}
	}
	g, err := gf.load(s.Weights())
	if err != nil {
		return nil, nil, err
	}
	k, err := bindKernel(s, g, params)
	return k, g, err
}

// bindKernel binds a kernel spec to a graph.
func bindKernel(s *kernel.Spec, g *graph.Graph, params []string) (*kernel.Kernel, error) {
	pm, err := parseParams(params)
	if err != nil {
		return nil, err
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: pm, Lookup: g.Lookup})
	if err != nil {
		return nil, usageError{err}
	}
	return k, nil
}

func newRefCmd() *cobra.Command {
	var gf graphFlags
	var kname, out string
	var params []string
	var maxSteps int
	var quiet, partial bool
	var outFormat, outField string
	cmd := &cobra.Command{
		Use:   "ref --kernel K --graph G [--param k=v] --out FILE",
		Short: "Run the BSP reference engine and write the final vertex states as TSV",
		Long: `ref runs a kernel on a graph in supersteps, exactly as the programming model
defines them, and writes one row per vertex under the input's own labels.
It is the functional golden model for the simulator and the generated RTL.
Per-superstep counts go to stderr.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			inputs := map[string]string{"--graph": gf.spec}
			if err := checkNotInput(out, inputs); err != nil {
				return err // before the run, not after it
			}
			k, g, err := loadKernelGraph(kname, &gf, params)
			if err != nil {
				return err
			}
			write, err := refWriter(k, outFormat, outField)
			if err != nil {
				return err
			}
			if maxSteps < 0 {
				return usagef("--max-supersteps must not be negative")
			}
			res, err := kernel.Run(cmd.Context(), k, g, kernel.RunOptions{MaxSupersteps: maxSteps})
			var le *kernel.LimitError
			switch {
			case errors.As(err, &le) && partial:
				fmt.Fprintf(cmd.ErrOrStderr(), "partial result: %v\n", err)
			case le != nil:
				return limitError{fmt.Errorf("%w; raise --max-supersteps, or pass --partial to write the partial states", err)}
			case err != nil:
				return err
			}
			if !quiet {
				printSupersteps(cmd.ErrOrStderr(), res)
			}
			if res.Saturated > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %d satadd sums did not fit their width and stopped at all ones (none): widen the field\n", res.Saturated)
			}
			if out == "" {
				out = "-"
			}
			return writeOutput(cmd, out, inputs, func(w io.Writer) error { return write(res, w) })
		},
	}
	gf.register(cmd)
	cmd.Flags().StringVar(&kname, "kernel", "", "kernel: a built-in name (see gravf-tui kernels) or a folder with kernel.toml")
	cmd.Flags().StringArrayVar(&params, "param", nil, "kernel parameter name=value (vertex parameters take the input's labels); repeatable")
	cmd.Flags().StringVar(&out, "out", "-", "output file ('-' for stdout)")
	cmd.Flags().StringVar(&outFormat, "out-format", "tsv", "output format: tsv (every field, with a header) or graphalytics (\"vertex value\" lines as LDBC Graphalytics writes them: 9223372036854775807 for none, Infinity for f32 inf)")
	cmd.Flags().StringVar(&outField, "out-field", "", "the vertex field --out-format graphalytics writes (default: the first)")
	cmd.Flags().IntVar(&maxSteps, "max-supersteps", 0, "stop a kernel that has not converged after this many supersteps (0: max(1000, V+2)); reaching it is an error unless --partial")
	cmd.Flags().BoolVar(&partial, "partial", false, "accept a run stopped by --max-supersteps: write its partial states with exit status 0")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "do not print the per-superstep table")
	return cmd
}

// refWriter returns the writer of ref's output format.
func refWriter(k *kernel.Kernel, format, field string) (func(*kernel.Result, io.Writer) error, error) {
	switch format {
	case "tsv", "":
		if field != "" {
			return nil, usagef("--out-field needs --out-format graphalytics (the TSV has every field)")
		}
		return (*kernel.Result).WriteTSV, nil
	case "graphalytics":
		i := 0
		if field != "" {
			if i = k.Spec.Vertex.Index(field); i < 0 {
				return nil, usagef("--out-field %q: kernel %s has the vertex fields %s", field, k.Spec.Name, vertexFieldNames(k.Spec))
			}
		}
		return func(r *kernel.Result, w io.Writer) error { return r.WriteGraphalytics(w, i) }, nil
	}
	return nil, usagef("--out-format %q: want tsv or graphalytics", format)
}

func vertexFieldNames(s *kernel.Spec) string {
	var names []string
	for _, f := range s.Vertex {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

func printSupersteps(w io.Writer, res *kernel.Result) {
	fmt.Fprintf(w, "%s on %s: V=%d E=%d, %d supersteps, %d messages (traversed edges)%s\n",
		res.Kernel.Spec.Name, res.Graph.Name, res.Graph.NumVertices(), res.Graph.NumEdges(), len(res.Supersteps), res.Messages,
		map[bool]string{false: ", stopped at the superstep limit"}[res.Converged])
	if len(res.Supersteps) > 40 {
		fmt.Fprintf(w, "  (first 20 and last 20 supersteps)\n")
	}
	fmt.Fprintf(w, "  %9s %12s %14s\n", "superstep", "active", "messages")
	for i, s := range res.Supersteps {
		if len(res.Supersteps) > 40 && i >= 20 && i < len(res.Supersteps)-20 {
			continue
		}
		fmt.Fprintf(w, "  %9d %12d %14d\n", s.Index, s.Active, s.Messages)
	}
}

// writeOutput writes a command's output file through outfile (atomic for
// regular files, streamed to devices and FIFOs; "-" is standard output)
// after checking that it would not overwrite one of the command's inputs,
// named by flag.
func writeOutput(cmd *cobra.Command, path string, inputs map[string]string, write func(io.Writer) error) error {
	if err := checkNotInput(path, inputs); err != nil {
		return err
	}
	return outfile.Write(path, outfile.Options{Stdout: cmd.OutOrStdout()}, write)
}

// checkNotInput refuses an output path that names an input file; inputs
// maps what names the input ("--graph") to its path.
func checkNotInput(out string, inputs map[string]string) error {
	for _, what := range slices.Sorted(maps.Keys(inputs)) {
		if outfile.SameFile(out, inputs[what]) {
			return usagef("the output %s is the input %s %s; write elsewhere", out, what, inputs[what])
		}
	}
	return nil
}
