package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/graph"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/teps"
	"github.com/spf13/cobra"
)

// modelFlags are the design-point flags shared by model, sim and export.
type modelFlags struct {
	board, mem, arch, pe string
	fpgas, pes           int
	packing, filter      bool
	cpe                  float64
}

func (f *modelFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.board, "board", "ac510", "board: a built-in name (see gravf-tui boards) or a board .toml file")
	cmd.Flags().IntVar(&f.fpgas, "fpgas", 0, "number of FPGAs (0: let the optimiser choose)")
	cmd.Flags().IntVar(&f.pes, "pes", 0, "PEs per FPGA (0: let the optimiser choose)")
	cmd.Flags().StringVar(&f.arch, "arch", "gravf-m", "architecture: gravf-m or gravf (the unicast baseline)")
	cmd.Flags().StringVar(&f.mem, "mem", "offchip", "edge storage: offchip or bram")
	cmd.Flags().StringVar(&f.pe, "pe", "generated", "PE design: generated (what export builds: one edge per cycle) or paper (the published PE, the board's measured cycles per edge)")
	cmd.Flags().BoolVar(&f.packing, "packing", false, "pack several updates into one link word")
	cmd.Flags().BoolVar(&f.filter, "filter", true, "send updates only to FPGAs that hold neighbours (GraVF-M)")
	cmd.Flags().Float64Var(&f.cpe, "cpe", 0, "PE cycles per edge (0: the board's measured figure for the kernel, else an estimate)")
}

// config turns the flags into a model configuration.
func (f *modelFlags) config() (model.Config, error) {
	arch, err := model.ParseArch(f.arch)
	if err != nil {
		return model.Config{}, usageError{err}
	}
	mem, err := model.ParseMemKind(f.mem)
	if err != nil {
		return model.Config{}, usageError{err}
	}
	if f.fpgas < 0 || f.pes < 0 {
		return model.Config{}, usagef("--fpgas and --pes must not be negative")
	}
	return model.Config{FPGAs: f.fpgas, PEs: f.pes, Arch: arch, Mem: mem, Packing: f.packing, Filter: f.filter}, nil
}

// peDesign is the --pe flag.
func (f *modelFlags) peDesign() (model.PEDesign, error) {
	d, err := model.ParsePEDesign(f.pe)
	if err != nil {
		return "", usageError{err}
	}
	return d, nil
}

// platformFor loads the board and builds the model's platform with the
// PE cost the notebooks use too (explorer.PECost: synthesised by export
// --estimate-only when cached, else the kernel's estimate). What makes
// the board's figures doubtful (boards.Warnings) goes to warn.
func (f *modelFlags) platformFor(k *kernel.Kernel, g *graph.Graph, warn io.Writer) (*boards.Board, *model.Platform, error) {
	b, err := boards.Load(f.board)
	if err != nil {
		return nil, nil, usageError{err}
	}
	for _, w := range b.Warnings() {
		fmt.Fprintf(warn, "gravf-tui: warning: %s\n", w)
	}
	p, err := model.FromBoardKernel(b, "", explorer.PECost(b, k.Spec, g))
	if err != nil {
		return nil, nil, usageError{err}
	}
	return b, p, nil
}

func newModelCmd() *cobra.Command {
	var mf modelFlags
	var gf graphFlags
	var kname string
	var params []string
	var asJSON, noLatency bool
	var tf tepsFlags
	cmd := &cobra.Command{
		Use:   "model --board B --kernel K --graph G [--fpgas N] [--pes N] [--arch gravf-m|gravf] [--json]",
		Short: "Evaluate the analytical performance model and choose nF and nP",
		Long: `model evaluates the four throughput limits of GraVF-M (or GraVF): the PEs,
the off-chip memory, the network interface and the network; T_sys is their
minimum. With --fpgas 0 or --pes 0 it chooses the design with the highest
T_sys over every nF and nP that fit, fewer FPGAs and then fewer PEs winning
ties (the paper's rule where T_sys only grows with nP; when memory binds,
fewer PEs can be faster). The curves over nF and nP are always printed, with
recommendations in plain words.

` + explorer.LatencyNote,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := mf.config()
			if err != nil {
				return err
			}
			def, err := tf.definition()
			if err != nil {
				return err
			}
			k, g, err := loadKernelGraph(kname, &gf, params)
			if err != nil {
				return err
			}
			_, p, err := mf.platformFor(k, g, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			var steps []kernel.Superstep
			if !noLatency {
				prog := newProgress(cmd.ErrOrStderr())
				res, err := kernel.Run(cmd.Context(), k, g, kernel.RunOptions{Progress: func(s kernel.Superstep) {
					prog.line(fmt.Sprintf("reference run for the latency-aware prediction: superstep %d", s.Index+1))
				}})
				prog.done()
				var le *kernel.LimitError
				if errors.As(err, &le) {
					return limitError{fmt.Errorf("the reference run for the latency-aware prediction: %w (--no-latency skips it)", err)}
				}
				if err != nil {
					return err
				}
				steps = res.Supersteps
			}
			pe, err := mf.peDesign()
			if err != nil {
				return err
			}
			out, err := explorer.EvaluateModel(p, k, g, cfg, pe, mf.cpe, steps)
			if err != nil {
				return asUsage(err)
			}
			doc := modelDoc{ModelOutput: out, TEPSDefinition: teps.GraVF}
			if def == teps.Graph500 {
				if doc.Graph500, err = graph500Model(cmd.Context(), out, p, k, g, pe, mf.cpe, cfg, !noLatency, params, tf); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSONDoc(cmd.OutOrStdout(), schemaModel, doc)
			}
			out.WriteText(cmd.OutOrStdout())
			if doc.Graph500 != nil {
				printGraph500(cmd.OutOrStdout(), doc.Graph500)
			}
			return nil
		},
	}
	mf.register(cmd)
	gf.register(cmd)
	cmd.Flags().StringVar(&kname, "kernel", "", "kernel: a built-in name or a folder with kernel.toml")
	cmd.Flags().StringArrayVar(&params, "param", nil, "kernel parameter name=value; repeatable")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&noLatency, "no-latency", false, "skip the reference run that feeds the latency-aware prediction")
	tf.register(cmd)
	return cmd
}

// modelDoc is the model command's JSON document: the model's output, which
// definition its throughputs count by (gravf: messages per second), and
// the graph500 count when asked for.
type modelDoc struct {
	*explorer.ModelOutput
	TEPSDefinition teps.Definition `json:"teps_definition"`
	Graph500       *Graph500       `json:"graph500,omitempty"`
}

// asUsage turns the explorer's usage errors into the CLI's (exit 2).
func asUsage(err error) error {
	var ue explorer.UsageError
	if errors.As(err, &ue) {
		return usageError{ue.Err}
	}
	return err
}
