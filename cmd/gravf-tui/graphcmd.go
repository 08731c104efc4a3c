package main

import (
	"errors"
	"fmt"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/spf13/cobra"
)

func newGraphCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Load or generate graphs and report statistics and partitions",
	}
	var gf graphFlags
	var asJSON bool
	stats := &cobra.Command{
		Use:   "stats --graph G",
		Short: "Print V, E, degrees, the degree histogram and components",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			g, err := gf.load(false, false)
			if err != nil {
				return err
			}
			st := graph.ComputeStats(g)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), st)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "%s\n%s", g.Name, st.String())
			return nil
		},
	}
	gf.register(stats)
	stats.Flags().BoolVar(&asJSON, "json", false, "print JSON")

	var pgf graphFlags
	var partf partitionFlags
	var fpgas, pes int
	var pJSON bool
	part := &cobra.Command{
		Use:   "partition --graph G --fpgas N --pes N [--partition robin|greedy|greedy-sorted|metis]",
		Short: "Partition a graph over FPGAs and PEs and print the cut and balance",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pm, err := partf.partition()
			if err != nil {
				return err
			}
			g, err := pgf.load(false, false)
			if err != nil {
				return err
			}
			p, err := graph.NewPartition(cmd.Context(), g, graph.PartitionOptions{FPGAs: fpgas, PEs: pes, Method: pm.Partitioner, UFactor: pm.UFactor, Seed: pm.Seed})
			var oe *graph.OptionError
			if errors.As(err, &oe) {
				return usageError{err}
			}
			if err != nil {
				return err
			}
			cs := graph.ComputeCutStats(g, p)
			if pJSON {
				return writeJSON(cmd.OutOrStdout(), cs)
			}
			return writeJSONText(cmd, g, p, cs)
		},
	}
	pgf.register(part)
	partf.register(part.Flags())
	part.Flags().IntVar(&fpgas, "fpgas", 4, "number of FPGAs")
	part.Flags().IntVar(&pes, "pes", 9, "PEs per FPGA")
	part.Flags().Lookup("ufactor").DefValue = "1"
	partf.p.UFactor = 1
	part.Flags().Lookup("seed").DefValue = "0"
	partf.p.Seed = 0
	part.Flags().BoolVar(&pJSON, "json", false, "print JSON")
	cmd.AddCommand(stats, part, newConvertCmd())
	return cmd
}

func writeJSONText(cmd *cobra.Command, g *graph.Graph, p *graph.Partition, cs graph.CutStats) error {
	w := cmd.OutOrStdout()
	fmt.Fprintf(w, "%s: %d FPGAs x %d PEs, %s partitioning\n", g.Name, cs.FPGAs, cs.PEs, cs.Method)
	fmt.Fprintf(w, "  vertices per PE     %d .. %d\n", cs.VerticesPerPEMin, cs.VerticesPerPEMax)
	fmt.Fprintf(w, "  edges per PE        %d .. %d (mean %.1f, imbalance %.2f %%)\n", cs.EdgesPerPEMin, cs.EdgesPerPEMax, cs.EdgesPerPEMean, 100*cs.EdgeImbalance)
	fmt.Fprintf(w, "  arcs crossing PEs   %d of %d (%.1f %%)\n", cs.CrossPEArcs, cs.Arcs, pct(cs.CrossPEArcs, cs.Arcs))
	fmt.Fprintf(w, "  arcs crossing FPGAs %d (%.1f %%): GraVF's remote messages per full superstep\n", cs.CrossFPGAArcs, pct(cs.CrossFPGAArcs, cs.Arcs))
	fmt.Fprintf(w, "  remote update copies per full superstep: %d without the filter, %d with it (saves %.1f %%)\n",
		cs.RemoteUpdatesUnfiltered, cs.RemoteUpdatesFiltered, 100*cs.FilterSaving)
	_ = p
	return nil
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
