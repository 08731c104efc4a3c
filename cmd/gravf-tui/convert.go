package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/spf13/cobra"
)

// newConvertCmd is `graph convert`: any graph the readers or generators
// give, written in one of the formats other tools read.
func newConvertCmd() *cobra.Command {
	var gf graphFlags
	var to, out string
	var weighted, float bool
	cmd := &cobra.Command{
		Use:   "convert --graph G --out FILE [--to edgelist|mtx|metis|dimacs|adj|ve]",
		Short: "Write a graph file or a generated graph in another format",
		Long: `convert reads or generates a graph and writes it as an edge list, Matrix
Market, METIS, DIMACS .gr, the LDBC Graphalytics vertex-based adjacency
format, or the Graphalytics .v/.e pair (--out NAME.e also writes NAME.v).
The format comes from --to, or else from the extension of --out.

Edge lists, adjacency and .v/.e files keep the input's vertex labels; Matrix
Market, METIS and DIMACS number vertices 1..N, so other labels become their
ranks (said on stderr). Weights are written with --weighted (as read:
integers, or float32 values with --float-weights).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f, err := convertFormat(to, out)
			if err != nil {
				return usageError{err}
			}
			inputs := map[string]string{"--graph": gf.d.Graph}
			if stem, ok := strings.CutSuffix(gf.d.Graph, ".e"); ok {
				inputs["the .v beside --graph"] = stem + ".v"
			}
			for _, o := range outputsOf(f, out) {
				if err := checkNotInput(o, inputs); err != nil {
					return err
				}
			}
			g, err := gf.load(weighted || float, float)
			if err != nil {
				return err
			}
			if err := graph.CheckWrite(g, f); err != nil {
				return fmt.Errorf("%s: %w", g.Name, err)
			}
			for _, n := range graph.WriteNotes(g, f) {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", n)
			}
			written, err := writeGraph(cmd, g, f, out, inputs)
			if err != nil {
				return err
			}
			if len(written) > 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s: %d vertices, %d edges (%s)\n", strings.Join(written, " and "), g.NumVertices(), g.NumEdges(), f)
			}
			return nil
		},
	}
	gf.register(cmd)
	cmd.Flags().StringVar(&to, "to", "", "output format: edgelist, mtx, metis, dimacs, adj, ve (default: from the --out extension)")
	cmd.Flags().StringVar(&out, "out", "", "output file ('-' for stdout); for ve the .e file, with the .v file beside it")
	cmd.Flags().BoolVar(&weighted, "weighted", false, "read and write edge weights (integers)")
	cmd.Flags().BoolVar(&float, "float-weights", false, "read and write edge weights as float32 (real weights keep their values)")
	return cmd
}

// convertFormat picks the output format: --to, or the extension of --out.
func convertFormat(to, out string) (graph.Format, error) {
	if out == "" {
		return "", fmt.Errorf("--out is required")
	}
	if to != "" {
		f, err := graph.ParseFormat(to)
		if err == nil && f == graph.FormatAuto {
			err = fmt.Errorf("--to needs a format")
		}
		return f, err
	}
	switch strings.ToLower(filepath.Ext(out)) {
	case ".txt", ".el", ".edges", ".edgelist", ".tsv":
		return graph.FormatEdgeList, nil
	case ".mtx":
		return graph.FormatMTX, nil
	case ".graph", ".metis":
		return graph.FormatMETIS, nil
	case ".gr":
		return graph.FormatDIMACS, nil
	case ".adj":
		return graph.FormatAdj, nil
	case ".e", ".v":
		return graph.FormatVE, nil
	}
	return "", fmt.Errorf("cannot tell the format from %q: give --to edgelist|mtx|metis|dimacs|adj|ve", out)
}

// outputsOf lists the files a conversion to f writes for --out out (the
// .v and .e pair for ve).
func outputsOf(f graph.Format, out string) []string {
	if f != graph.FormatVE || out == "-" {
		return []string{out}
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(out, ".e"), ".v")
	return []string{stem + ".v", stem + ".e"}
}

// writeGraph writes g to out (stdout for '-') through the safe output of
// writeOutput, and returns the files it wrote.
func writeGraph(cmd *cobra.Command, g *graph.Graph, f graph.Format, out string, inputs map[string]string) ([]string, error) {
	if f != graph.FormatVE {
		err := writeOutput(cmd, out, inputs, func(w io.Writer) error { return graph.Write(w, g, f) })
		if out == "-" {
			return nil, err
		}
		return []string{out}, err
	}
	if out == "-" {
		return nil, fmt.Errorf("the ve format is two files: give --out NAME.e")
	}
	vf := outputsOf(f, out)
	v, e := vf[0], vf[1]
	// The vertices and edges are written one file after the other, each
	// atomically; the edges are written once the vertices are in place.
	var ebuf strings.Builder
	if err := graph.WriteVE(io.Discard, &ebuf, g); err != nil {
		return nil, err
	}
	if err := writeOutput(cmd, v, inputs, func(w io.Writer) error { return graph.WriteVE(w, io.Discard, g) }); err != nil {
		return nil, err
	}
	if err := writeOutput(cmd, e, inputs, func(w io.Writer) error { _, err := io.WriteString(w, ebuf.String()); return err }); err != nil {
		return nil, err
	}
	return []string{v, e}, nil
}
