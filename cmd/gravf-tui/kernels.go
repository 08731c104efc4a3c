package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/spf13/cobra"
)

func newKernelsCmd() *cobra.Command {
	var asJSON bool
	var vertices int
	cmd := &cobra.Command{
		Use:   "kernels",
		Short: "List the built-in kernels",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			type row struct {
				Name  string       `json:"name"`
				Doc   string       `json:"doc"`
				Sizes kernel.Sizes `json:"sizes"`
			}
			var rows []row
			for _, n := range samples.KernelNames() {
				s, err := samples.Kernel(n)
				if err != nil {
					return err
				}
				sz, err := s.Sizes(kernel.VertexIDBits(vertices))
				if err != nil {
					return err
				}
				rows = append(rows, row{n, firstSentence(s.Doc), sz})
			}
			if asJSON {
				return writeJSON(out, rows)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintf(tw, "KERNEL\tm_vertex\tm_update\tm_message\tm_edge\tDESCRIPTION\n")
			for _, r := range rows {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\n", r.Name, r.Sizes.Vertex, r.Sizes.Update, r.Sizes.Message, r.Sizes.Edge, r.Doc)
			}
			fmt.Fprintf(tw, "\nSizes in bits for V = %d (vertexidsize = %d); update and message sizes are payloads.\n", vertices, kernel.VertexIDBits(vertices))
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().IntVar(&vertices, "vertices", 1<<20, "graph size that fixes vertexidsize")
	show := &cobra.Command{
		Use:   "show KERNEL",
		Short: "Print a kernel's layouts, sizes, parameters and behaviour",
		Long:  "KERNEL is the name of a built-in kernel or a folder holding kernel.toml.",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := samples.LoadKernel(args[0])
			if err != nil {
				return usageError{err} // as every command that loads a kernel
			}
			return showKernel(cmd.OutOrStdout(), s, vertices)
		},
	}
	show.Flags().IntVar(&vertices, "vertices", 1<<20, "graph size that fixes vertexidsize")
	cmd.AddCommand(show)
	return cmd
}

func firstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func showKernel(w io.Writer, s *kernel.Spec, vertices int) error {
	vid := kernel.VertexIDBits(vertices)
	sz, err := s.Sizes(vid)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %s\n\n", s.Name, strings.Join(strings.Fields(s.Doc), " "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	layout := func(name string, l kernel.Layout, note string) {
		if note != "" {
			fmt.Fprintf(tw, "%s\t%s\n", name, note)
			return
		}
		if len(l) == 0 {
			fmt.Fprintf(tw, "%s\t(empty)\n", name)
			return
		}
		var parts []string
		for _, f := range l {
			p := f.Name + ": " + f.Width
			if f.None {
				p += " (none = '-')"
			}
			if f.Reduce != "" {
				p += " (" + f.Reduce + " over every vertex, read in the next superstep)"
			}
			parts = append(parts, p)
		}
		fmt.Fprintf(tw, "%s\t%s\n", name, strings.Join(parts, ", "))
	}
	fmt.Fprintln(tw, "LAYOUT\tFIELDS")
	layout("vertex", s.Vertex, "")
	layout("edge", s.Edge, "")
	layout("update", s.Update, "")
	note := ""
	if s.MessageIsUpdate {
		note = "same as update"
	}
	layout("message", s.Message, note)
	if len(s.Global) > 0 {
		layout("global", s.Global, "")
	}
	tw.Flush()
	fmt.Fprintf(w, "\nSIZES (bits, V = %d, vertexidsize = %d)\n", vertices, vid)
	fmt.Fprintf(w, "  m_vertex %d   m_update payload %d   m_message payload %d   m_edge %d (neighbour id + %d bits of edge data)\n",
		sz.Vertex, sz.Update, sz.Message, sz.Edge, sz.EdgeData)
	if len(s.Params) > 0 {
		fmt.Fprintln(w, "\nPARAMETERS")
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, p := range s.Params {
			fmt.Fprintf(tw, "  %s\t%s\tdefault %s\t%s\n", p.Name, p.Kind, p.Default, p.Doc)
		}
		tw.Flush()
	}
	for _, p := range []*kernel.Program{s.Init, s.Gather, s.Apply, s.Scatter} {
		if p == nil {
			fmt.Fprintf(w, "\nSCATTER\n  message = update (copied)\n")
			continue
		}
		fmt.Fprintf(w, "\n%s\n", strings.ToUpper(p.Name))
		for _, line := range strings.Split(strings.TrimRight(p.Text, "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	if c := s.PECost; c != nil {
		fmt.Fprintf(w, "\nPE COST (estimate, overrides the board's): %d LUT, %d FF, %d BRAM36, %d DSP\n", c.LUT, c.FF, c.BRAM36, c.DSP)
	}
	if len(s.Verilog) > 0 {
		fmt.Fprintf(w, "\nHAND-WRITTEN VERILOG: %s\n", strings.Join(slices.Sorted(maps.Keys(s.Verilog)), ", "))
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
