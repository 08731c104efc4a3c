package graph

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// Writable lists the formats Write produces, in the order they are
// documented. The Graphalytics pair (FormatVE) is written by WriteVE.
var Writable = []Format{FormatEdgeList, FormatMTX, FormatMETIS, FormatDIMACS, FormatAdj, FormatVE}

// CheckWrite reports why g cannot be written in format f, or nil: METIS
// describes undirected graphs only, and METIS and DIMACS weights are
// integers.
func CheckWrite(g *Graph, f Format) error {
	switch f {
	case FormatEdgeList, FormatMTX, FormatAdj, FormatVE:
	case FormatMETIS:
		if g.Directed {
			return errors.New("METIS describes undirected graphs: read the input without --directed to write it symmetrised")
		}
		if g.FloatWeights {
			return errors.New("METIS edge weights are integers: read the input with integer weights")
		}
	case FormatDIMACS:
		if g.FloatWeights {
			return errors.New("DIMACS .gr weights are integers: read the input with integer weights")
		}
	default:
		return fmt.Errorf("cannot write format %q; formats: edgelist, mtx, metis, dimacs, adj, ve", string(f))
	}
	return nil
}

// WriteNotes says what writing g in format f changes, as sentences for the
// user: the formats that number vertices 1..N cannot keep other labels,
// an edge list cannot hold isolated vertices, the adjacency format has no
// weights, and DIMACS gives an unweighted graph weight 1.
func WriteNotes(g *Graph, f Format) []string {
	var notes []string
	n := g.NumVertices()
	switch f {
	case FormatMTX, FormatMETIS, FormatDIMACS:
		if !oneToN(g) && n > 0 {
			notes = append(notes, fmt.Sprintf("%s numbers vertices 1..%d: the labels %d..%d become their ranks 1..%d (edgelist, adj and ve keep labels)",
				f, n, g.Label(0), g.Label(uint32(n-1)), n))
		}
	}
	if f == FormatEdgeList {
		if iso := isolated(g); iso > 0 {
			notes = append(notes, fmt.Sprintf("an edge list cannot hold isolated vertices: %d are not written (adj, ve, mtx, metis and dimacs keep them)", iso))
		}
	}
	if f == FormatAdj && g.Weights != nil {
		notes = append(notes, "the adjacency format has no weights: they are not written (ve keeps them)")
	}
	if f == FormatDIMACS && g.Weights == nil {
		notes = append(notes, "DIMACS arcs carry a weight: every arc is written with weight 1")
	}
	return notes
}

// oneToN reports whether g's labels are 1..V, which the 1-based formats
// can keep.
func oneToN(g *Graph) bool {
	n := g.NumVertices()
	if g.Labels == nil {
		return n == 0
	}
	return g.Labels[0] == 1 && g.Labels[n-1] == uint64(n)
}

func isolated(g *Graph) int {
	in := make([]bool, g.NumVertices())
	for _, v := range g.Adj {
		in[v] = true
	}
	k := 0
	for v := range in {
		if !in[v] && g.OutDegree(uint32(v)) == 0 {
			k++
		}
	}
	return k
}

// Write writes g in format f (not FormatVE, see WriteVE) so that reading
// the result back gives the same graph: the same arcs and weights, and the
// same labels where the format can hold them (see WriteNotes). Undirected
// graphs list every edge once where the format allows it (edge list,
// Matrix Market's symmetric storage) and both ways where it asks for it
// (METIS and adjacency lines, DIMACS arcs). Float weights print in the
// shortest form that reads back to the same float32.
func Write(w io.Writer, g *Graph, f Format) error {
	if err := CheckWrite(g, f); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	gw := &graphWriter{g: g, w: bw}
	switch f {
	case FormatEdgeList:
		gw.edgeList()
	case FormatMTX:
		gw.mtx()
	case FormatMETIS:
		gw.metis()
	case FormatDIMACS:
		gw.dimacs()
	case FormatAdj:
		gw.adj()
	case FormatVE:
		return errors.New("the ve format is a pair of files: use WriteVE")
	}
	return bw.Flush()
}

// WriteVE writes g as the Graphalytics pair: every vertex label on its own
// line of v, and every edge (undirected) or arc (directed) "u v [w]" on e.
func WriteVE(v, e io.Writer, g *Graph) error {
	bv := bufio.NewWriterSize(v, 1<<16)
	gw := &graphWriter{g: g, w: bv}
	for u := 0; u < g.NumVertices(); u++ {
		gw.uint(g.Label(uint32(u)))
		gw.byte('\n')
	}
	if err := bv.Flush(); err != nil {
		return err
	}
	be := bufio.NewWriterSize(e, 1<<16)
	gw.w = be
	gw.pairs(false, func(u uint32) uint64 { return g.Label(u) }, ' ')
	return be.Flush()
}

// graphWriter appends a graph's lines to a buffered writer; bufio keeps
// the first write error, which Flush reports.
type graphWriter struct {
	g   *Graph
	w   *bufio.Writer
	buf []byte
}

func (gw *graphWriter) byte(c byte)         { gw.w.WriteByte(c) }
func (gw *graphWriter) str(s string)        { gw.w.WriteString(s) }
func (gw *graphWriter) uint(x uint64)       { gw.w.Write(strconv.AppendUint(gw.buf[:0], x, 10)) }
func (gw *graphWriter) pos(v uint32) uint64 { return uint64(v) + 1 }

// weight writes the weight of arc i.
func (gw *graphWriter) weight(i uint32) {
	if gw.g.FloatWeights {
		gw.w.Write(strconv.AppendFloat(gw.buf[:0], float64(math.Float32frombits(gw.g.Weights[i])), 'g', -1, 32))
		return
	}
	gw.uint(uint64(gw.g.Weights[i]))
}

// pairs writes one line "a b [w]" per edge (each undirected edge once,
// from its lower end) or per arc (directed, or both when allArcs), with
// the vertices named by name.
func (gw *graphWriter) pairs(allArcs bool, name func(uint32) uint64, sep byte) {
	g := gw.g
	for u := 0; u < g.NumVertices(); u++ {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			v := g.Adj[i]
			if !g.Directed && !allArcs && v < uint32(u) {
				continue
			}
			gw.uint(name(uint32(u)))
			gw.byte(sep)
			gw.uint(name(v))
			if g.Weights != nil {
				gw.byte(sep)
				gw.weight(i)
			}
			gw.byte('\n')
		}
	}
}

func (gw *graphWriter) kind() string {
	if gw.g.Directed {
		return "directed"
	}
	return "undirected"
}

func (gw *graphWriter) edgeList() {
	g := gw.g
	fmt.Fprintf(gw.w, "# %s: %d vertices, %d edges, %s\n", g.Name, g.NumVertices(), g.NumEdges(), gw.kind())
	gw.pairs(false, g.Label, '\t')
}

func (gw *graphWriter) mtx() {
	g := gw.g
	field := "pattern"
	switch {
	case g.FloatWeights:
		field = "real"
	case g.Weights != nil:
		field = "integer"
	}
	sym := "symmetric"
	if g.Directed {
		sym = "general"
	}
	fmt.Fprintf(gw.w, "%%%%MatrixMarket matrix coordinate %s %s\n%% %s: %s\n%d %d %d\n", field, sym, g.Name, gw.kind(), g.NumVertices(), g.NumVertices(), g.NumEdges())
	// Symmetric storage keeps the lower triangle: row >= column.
	for u := 0; u < g.NumVertices(); u++ {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			v := g.Adj[i]
			row, col := uint32(u), v
			if !g.Directed {
				if v < uint32(u) {
					continue
				}
				row, col = v, uint32(u)
			}
			gw.uint(gw.pos(row))
			gw.byte(' ')
			gw.uint(gw.pos(col))
			if g.Weights != nil {
				gw.byte(' ')
				gw.weight(i)
			}
			gw.byte('\n')
		}
	}
}

func (gw *graphWriter) metis() {
	g := gw.g
	fmt.Fprintf(gw.w, "%% %s: %d vertices, %d edges\n%d %d", g.Name, g.NumVertices(), g.NumEdges(), g.NumVertices(), g.NumEdges())
	if g.Weights != nil {
		gw.str(" 001")
	}
	gw.byte('\n')
	for u := 0; u < g.NumVertices(); u++ {
		for k, i := 0, g.Offsets[u]; i < g.Offsets[u+1]; k, i = k+1, i+1 {
			if k > 0 {
				gw.byte(' ')
			}
			gw.uint(gw.pos(g.Adj[i]))
			if g.Weights != nil {
				gw.byte(' ')
				gw.weight(i)
			}
		}
		gw.byte('\n')
	}
}

func (gw *graphWriter) dimacs() {
	g := gw.g
	fmt.Fprintf(gw.w, "c %s: %d vertices, %s\np sp %d %d\n", g.Name, g.NumVertices(), gw.kind(), g.NumVertices(), g.NumArcs())
	for u := 0; u < g.NumVertices(); u++ {
		for i := g.Offsets[u]; i < g.Offsets[u+1]; i++ {
			gw.str("a ")
			gw.uint(gw.pos(uint32(u)))
			gw.byte(' ')
			gw.uint(gw.pos(g.Adj[i]))
			gw.byte(' ')
			if g.Weights != nil {
				gw.weight(i)
			} else {
				gw.byte('1')
			}
			gw.byte('\n')
		}
	}
}

// adj writes the vertex-based adjacency format without comments, as the
// benchmark's files are: every vertex on a line of its own, followed by
// its out-neighbours (both directions of an undirected edge appear).
func (gw *graphWriter) adj() {
	g := gw.g
	for u := 0; u < g.NumVertices(); u++ {
		gw.uint(g.Label(uint32(u)))
		for _, v := range g.Neighbors(uint32(u)) {
			gw.byte(' ')
			gw.uint(g.Label(v))
		}
		gw.byte('\n')
	}
}
