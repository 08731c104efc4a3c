package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/gravf-tui/gravf-tui/sim"
	"github.com/spf13/cobra"
)

func newTraceCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "trace",
		Short: "Summarise simulation traces and export them to Perfetto / chrome://tracing",
		Long: `A trace file (written by a cycle-level simulation with --trace, see
docs/TRACE.md) holds the run's description, per-PE and per-link utilisation
every few hundred cycles, every superstep and the run's totals.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown trace subcommand %q (try \"trace show %s\")", args[0], args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}

	var asJSON bool
	show := &cobra.Command{
		Use:   "show FILE",
		Short: "Print a trace's run, totals, supersteps, per-PE breakdown and link utilisation",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("trace show takes one trace file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			tr, err := sim.ReadTraceFile(args[0])
			if err != nil {
				return usageError{err}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), newTraceReport(args[0], tr))
			}
			return showTrace(cmd.OutOrStdout(), args[0], tr)
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print JSON")

	var chrome bool
	export := &cobra.Command{
		Use:   "export --chrome FILE OUT.json",
		Short: "Convert a trace to Trace Event JSON for ui.perfetto.dev or chrome://tracing",
		Long: `export --chrome writes the JSON object form of the Trace Event Format: a
process per FPGA with a thread per PE (one slice per sample, named after the
cause that dominated it), counters for PE busy share and link utilisation,
and a "supersteps" track. OUT.json is written atomically.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("trace export takes a trace file and an output file, got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !chrome {
				return usagef("choose an export format: --chrome")
			}
			tr, err := sim.ReadTraceFile(args[0])
			if err != nil {
				return usageError{err}
			}
			if err := writeOutput(cmd, args[1], map[string]string{"trace": args[0]}, tr.WriteChrome); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s (open it in ui.perfetto.dev or chrome://tracing)\n", args[1])
			return nil
		},
	}
	export.Flags().BoolVar(&chrome, "chrome", false, "write Trace Event Format JSON (Perfetto, chrome://tracing)")
	cmd.AddCommand(show, export)
	return cmd
}

// traceLinkRow is one link of `trace show`: the run's mean utilisation
// and the busiest sample's.
type traceLinkRow struct {
	From     int     `json:"from"`
	To       int     `json:"to"`
	Words    float64 `json:"words"`
	MeanUtil float64 `json:"mean_util"`
	PeakUtil float64 `json:"peak_util"`
	// PeakFrom and PeakTo bound the busiest sample: cycles [from, to).
	PeakFrom int64 `json:"peak_from_cycle"`
	PeakTo   int64 `json:"peak_to_cycle"`
}

// traceReport is `trace show --json`: everything the text shows, with
// every superstep (the text elides the middle of long runs).
type traceReport struct {
	File       string               `json:"file"`
	Format     string               `json:"format"`
	Version    int                  `json:"version"`
	Meta       sim.TraceMeta        `json:"meta"`
	Samples    int                  `json:"samples"`
	Summary    sim.TraceSummary     `json:"summary"`
	Supersteps []sim.TraceSuperstep `json:"supersteps"`
	Links      []traceLinkRow       `json:"links"`
}

func newTraceReport(file string, tr *sim.Trace) traceReport {
	r := traceReport{File: file, Format: sim.TraceFormat, Version: sim.TraceVersion, Meta: tr.Meta(),
		Samples: len(tr.Samples()), Summary: tr.Summary(), Supersteps: tr.Supersteps(), Links: []traceLinkRow{}}
	for j, l := range tr.Summary().Links {
		row := traceLinkRow{From: l.From, To: l.To, Words: l.Words, MeanUtil: l.Utilisation}
		for _, s := range tr.Samples() {
			if u := s.LinkUtil[j]; u > row.PeakUtil {
				row.PeakUtil, row.PeakFrom, row.PeakTo = u, s.Cycle, s.End()
			}
		}
		r.Links = append(r.Links, row)
	}
	if r.Supersteps == nil {
		r.Supersteps = []sim.TraceSuperstep{}
	}
	return r
}

func showTrace(w io.Writer, file string, tr *sim.Trace) error {
	r := newTraceReport(file, tr)
	m, s := r.Meta, r.Summary
	onOff := map[bool]string{false: "off", true: "on"}
	fmt.Fprintf(w, "%s: %s v%d, %d samples every %d cycles, written by %s (%s)\n",
		file, r.Format, r.Version, r.Samples, m.Interval, m.Generator, m.GoVersion)
	fmt.Fprintf(w, "run      %s on %s (V=%d, E=%d)\n", m.Kernel, m.Graph, m.Vertices, m.Edges)
	fmt.Fprintf(w, "system   %s at %.1f MHz, %d FPGAs x %d PEs, %s, %s edges, %s partitioning, filter %s, packing %s, detail %s\n",
		m.Board, m.ClockHz/1e6, m.FPGAs, m.PEs, m.Arch, m.Mem, m.Partitioner, onOff[m.Filter], onOff[m.Packing], m.Detail)
	fmt.Fprintf(w, "total    %d cycles (%.2f us), %d supersteps, %d messages, %.1f MTEPS",
		s.Cycles, s.Seconds*1e6, s.Supersteps, s.Messages, s.TEPS/1e6)
	if s.ModelTSys > 0 {
		fmt.Fprintf(w, " (model %.1f MTEPS, efficiency %.2f)", s.ModelTSys/1e6, s.Efficiency)
	}
	fmt.Fprintf(w, "\nresult   sha256 %s\n", s.ResultSHA256)
	if s.Stopped != "" {
		fmt.Fprintf(w, "partial  the run stopped early (%s) at cycle %d: the trace covers what was simulated\n", s.Stopped, s.Cycles)
	}

	steps := r.Supersteps
	fmt.Fprintf(w, "\nSUPERSTEPS")
	if len(steps) > 40 {
		fmt.Fprintf(w, " (first 20 and last 20 of %d)", len(steps))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "superstep\tstart\tcycles\tactive\tmessages\t\n")
	for i, st := range steps {
		if len(steps) > 40 && i >= 20 && i < len(steps)-20 {
			if i == 20 {
				fmt.Fprintf(tw, "...\t\t\t\t\t\n")
			}
			continue
		}
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t\n", st.Index, st.Start, st.Cycles, st.Active, st.Messages)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nPE BREAKDOWN (%% of %d cycles)\n", s.Cycles)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "PE\tFPGA\t")
	for _, n := range sim.CauseNames {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprintf(tw, "messages\t\n")
	row := func(pe, fpga string, st sim.PEStats, cycles int64) {
		fmt.Fprintf(tw, "%s\t%s\t", pe, fpga)
		c := [...]int64{st.Busy, st.Apply, st.Hazard, st.Scatter, st.Memory, st.Crossbar, st.Network, st.Barrier, st.Done}
		for _, x := range c {
			if cycles > 0 {
				fmt.Fprintf(tw, "%.1f\t", 100*float64(x)/float64(cycles))
			} else {
				fmt.Fprintf(tw, "-\t")
			}
		}
		fmt.Fprintf(tw, "%d\t\n", st.Messages)
	}
	for g, st := range s.PerPE {
		row(fmt.Sprint(g), fmt.Sprint(g/max(m.PEs, 1)), st, s.Cycles)
	}
	row("all", "", s.Stalls, s.Cycles*int64(len(s.PerPE)))
	if err := tw.Flush(); err != nil {
		return err
	}

	if len(r.Links) == 0 {
		fmt.Fprintf(w, "\nLINKS: none (one FPGA)\n")
		return nil
	}
	fmt.Fprintf(w, "\nLINKS (utilisation: words / cycles / %.3g words per cycle)\n", m.PairWordsPerCycle)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "link\twords\tmean %%\tpeak %%\tpeak in cycles\t\n")
	for _, l := range r.Links {
		fmt.Fprintf(tw, "%d->%d\t%.0f\t%.1f\t%.1f\t%d-%d\t\n", l.From, l.To, l.Words, 100*l.MeanUtil, 100*l.PeakUtil, l.PeakFrom, l.PeakTo-1)
	}
	return tw.Flush()
}
