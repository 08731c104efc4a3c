package main

import (
	"context"
	"fmt"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/spf13/cobra"
)

func newExportCmd() *cobra.Command {
	var pf pointFlags
	var kf kernelFlags
	var gf graphFlags
	var out string
	part := graph.Greedy
	var force, estimateOnly bool
	cmd := &cobra.Command{
		Use:   "export --board B --kernel K --graph G --fpgas N --pes N [--mem bram|offchip] [--set KEY=VALUE] --out DIR [--force]",
		Short: "Write a synthesizable multi-FPGA Verilog project with its testbench",
		Long: `export writes a complete project: the RTL of every FPGA, memory images, a
system testbench that checks every final vertex state against the BSP
reference, a Makefile (sim, sim-verilator, lint, synth, bit), yosys and Vivado
scripts, clock constraints, a FuseSoC core, manifest.json and a README.

The folder is written under a temporary name and renamed into place; an
existing folder is replaced only with --force. With --mem bram (the
default) the edge lists are in block RAM; with --mem offchip they are in the
board's off-chip edge memory: every FPGA top gets one read port per PE, the
project holds an image of each FPGA's memory, and the testbench models the
memory's latency and bandwidth as the simulator does. The design flags and
--set are those of "gravf-tui model".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := pf.options()
			if err != nil {
				return err
			}
			if err := requireBuildable(o); err != nil {
				return err
			}
			if out == "" && !estimateOnly {
				return usagef("--out is required")
			}
			p, err := resolvePoint(&pf, &kf, &gf)
			if err != nil {
				return err
			}
			cfg := p.Config()
			if estimateOnly {
				return estimate(cmd.OutOrStdout(), p.Board, p.Kernel, p.Graph, cfg.FPGAs, cfg.PEs, part, cfg.Filter, cfg.Mem)
			}
			m, err := gen.Export(context.Background(), gen.ExportOptions{Board: p.Board, Kernel: p.Kernel, Graph: p.Graph, FPGAs: cfg.FPGAs, PEs: cfg.PEs,
				Partitioner: part, Filter: cfg.Filter, Mem: cfg.Mem, Dir: out, Force: force, Version: explorer.Version()})
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %d files; %d FPGAs x %d PEs of %s on %s, edges in %s; expect %d messages in %d supersteps\n",
				out, len(m.Files), m.FPGAs, m.PEs, m.Kernel, m.Board, edgeStorage(cfg.Mem), m.Expected.Messages, m.Expected.Supersteps)
			fmt.Fprintf(cmd.OutOrStdout(), "next: cd %s && make sim\n", out)
			return nil
		},
	}
	pf.register(cmd.Flags())
	kf.register(cmd.Flags())
	gf.register(cmd.Flags())
	cmd.Flags().Var(typed(&part), "partition", "partitioner: robin, greedy, greedy-sorted or metis")
	cmd.Flags().StringVar(&out, "out", "", "project folder to write")
	cmd.Flags().BoolVar(&force, "force", false, "replace an existing folder")
	cmd.Flags().BoolVar(&estimateOnly, "estimate-only", false, "synthesise FPGA 0 with yosys, print the resources per PE and per FPGA, and cache the per-PE cost for the model")
	// The generator's own default: edges in block RAM.
	pf.opts.Mem = model.BRAM
	cmd.Flags().Lookup("mem").DefValue = string(model.BRAM)
	return cmd
}
