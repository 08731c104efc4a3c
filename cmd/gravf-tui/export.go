package main

import (
	"errors"
	"fmt"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/escape"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/vitis"
	"github.com/spf13/cobra"
)

func newExportCmd() *cobra.Command {
	var pf pointFlags
	var kf kernelFlags
	var gf graphFlags
	var out, target string
	part := graph.Greedy
	var force, estimateOnly, forceUnbuildable bool
	cmd := &cobra.Command{
		Use:   "export --board B --kernel K --graph G --fpgas N --pes N [--mem bram|offchip] [--set KEY=VALUE] [--target plain|vitis] --out DIR [--force]",
		Short: "Write a synthesizable multi-FPGA Verilog project with its testbench",
		Long: `export writes a complete project: the RTL of every FPGA, memory images, a
system testbench that checks every final vertex state against the BSP
reference, a Makefile (sim, sim-verilator, lint, synth, bit), yosys and Vivado
scripts, clock constraints, a FuseSoC core, manifest.json and a README.

The folder is written under a temporary name beside --out and renamed into
place. A previous export (a folder with its manifest.json) is replaced only
with --force; a file or any other folder is never replaced. With --mem bram (the
default) the edge lists are in block RAM; with --mem offchip they are in the
board's off-chip edge memory: every FPGA top gets one read port per PE, the
project holds an image of each FPGA's memory, and the testbench models the
memory's latency and bandwidth as the simulator does. The design flags and
--set are those of "gravf-tui model".

With --target vitis (Alveo boards: u250, u280, u55c) every FPGA becomes a
Vitis RTL kernel instead: an AXI4-Lite control slave in the Vitis register
map, AXI4 masters that load the PEs' tables from host buffers, read the edge
lists (--mem offchip) and write the final states back, and credit-based
AXI4-Stream link ports; with kernel.xml, package_xo and v++ link scripts,
an Aurora link kernel for the cards' QSFP28 cages, the XRT host program and
a testbench of the kernels with AXI memory models and protocol checkers
(make sim, make sim-verilator, make xo, make xclbin, make host, make run).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := pf.options()
			if err != nil {
				return err
			}
			if err := requireBuildable(o); err != nil {
				return err
			}
			if target != "plain" && target != "vitis" {
				return usagef("--target %s: valid targets are plain and vitis", target)
			}
			if out == "" && !estimateOnly {
				return usagef("--out is required")
			}
			p, err := resolvePoint(&pf, &kf, &gf, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			cfg := p.Config()
			if target == "vitis" {
				if err := vitis.CheckTarget(p.Board.Name, p.Kernel.Spec.Ident(), cfg.FPGAs); err != nil {
					return usageError{err}
				}
			}
			if estimateOnly {
				return estimate(cmd.Context(), cmd.OutOrStdout(), p.Board, p.Kernel, p.Graph, cfg.FPGAs, cfg.PEs, part, cfg.Filter, cfg.Mem)
			}
			if err := checkBuildable(p.Platform, p.Kernel, p.Graph, cfg, forceUnbuildable); err != nil {
				return err
			}
			// The export's garbage on top of the graph set its peak at the
			// default pacing (see tightCollector).
			defer tightCollector()()
			opts := gen.ExportOptions{Board: p.Board, Kernel: p.Kernel, Graph: p.Graph, FPGAs: cfg.FPGAs, PEs: cfg.PEs,
				Partitioner: part, Filter: cfg.Filter, Mem: cfg.Mem, Dir: out, Force: force, Version: explorer.Version()}
			var m *gen.Manifest
			if target == "vitis" {
				var vm *vitis.Manifest
				if vm, err = vitis.Export(cmd.Context(), opts); err == nil {
					m = &vm.Manifest
				}
			} else {
				m, err = gen.Export(cmd.Context(), opts)
			}
			var oe *gen.OutputError
			if errors.As(err, &oe) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s: %d files; %d FPGAs x %d PEs of %s on %s, edges in %s; expect %d messages in %d supersteps\n",
				out, len(m.Files), m.FPGAs, m.PEs, m.Kernel, m.Board, edgeStorage(cfg.Mem), m.Expected.Messages, m.Expected.Supersteps)
			fmt.Fprintf(cmd.OutOrStdout(), "next: cd %s && make sim\n", escape.Shell(out))
			return nil
		},
	}
	pf.register(cmd.Flags())
	kf.register(cmd.Flags())
	gf.register(cmd)
	cmd.Flags().Var(typed(&part), "partition", "partitioner: robin, greedy, greedy-sorted or metis")
	cmd.Flags().StringVar(&out, "out", "", "project folder to write")
	cmd.Flags().StringVar(&target, "target", "plain", "project kind: plain (simulation and Vivado) or vitis (Alveo RTL kernels, XRT host)")
	cmd.Flags().BoolVar(&force, "force", false, "replace a previous export (a folder holding its manifest.json)")
	cmd.Flags().BoolVar(&forceUnbuildable, "force-unbuildable", false, "write a design the board cannot hold (for RTL simulation only)")
	cmd.Flags().BoolVar(&estimateOnly, "estimate-only", false, "synthesise FPGA 0 with yosys, print the resources per PE and per FPGA, and cache the per-PE cost for the model")
	// The generator's own default: edges in block RAM.
	pf.opts.Mem = model.BRAM
	cmd.Flags().Lookup("mem").DefValue = string(model.BRAM)
	return cmd
}
