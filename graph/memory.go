package graph

import (
	"fmt"
	"math"
	"os"

	"github.com/gravf-tui/gravf-tui/internal/membudget"
)

// Peak memory of loading a graph, measured with graph stats (maximum
// resident set) on uniform, R-MAT, line and grid graphs and on edge-list
// files: the Builder holds every drawn edge as two uint32 (and a weight)
// while Build files every edge under its smaller end when undirected (half
// an arc array; the final lists are then written over the edge pairs, two
// arcs per edge: about 13 bytes per draw at the peak of R-MAT scale 20),
// every arc under its target when directed (the final lists then take an
// array of their own). Each build goroutine keeps a position per vertex.
const (
	bytesPerDrawUndirected = 16
	bytesPerDrawDirected   = 16
	// An unweighted R-MAT graph is built in its draws' array (rmatBuild):
	// two words per draw, the arcs'.
	bytesPerDrawInPlace  = 8
	bytesPerWeightedDraw = 16 // extra, undirected or directed
	bytesPerVertex       = 16 // offsets, the scramble permutation, slack
	// A text file costs about five times its size: the labels of every
	// line as uint64 pairs, the label map, then the arrays.
	bytesPerFileByte = 5
)

// memoryEstimate is about the peak bytes of generating g.
func (g GenSpec) memoryEstimate() uint64 {
	var draws float64
	switch g.Kind {
	case KindUniform:
		draws = uniformDraws(g)
	case KindRMAT:
		draws = float64(g.EdgeFactor) * float64(uint64(1)<<g.Scale)
	case KindLayered:
		draws = layeredDraws(g)
	case KindLine:
		draws = float64(g.N - 1)
	case KindGrid:
		r, c := float64(g.Rows), float64(g.Cols)
		draws = r*(c-1) + c*(r-1) + (r-1)*(c-1)
	}
	per := float64(bytesPerDrawUndirected)
	switch {
	case g.Kind == KindRMAT && g.MaxWeight == 0:
		per = bytesPerDrawInPlace
	case g.Directed:
		per = bytesPerDrawDirected
	}
	if g.MaxWeight > 0 {
		per += bytesPerWeightedDraw
	}
	perVertex := float64(bytesPerVertex + 4*csrParts(math.MaxInt))
	return uint64(draws*per + float64(g.numVertices())*perVertex)
}

// checkMemory refuses a generator spec whose graph would not fit the
// memory the process may use (internal/membudget), before generating it.
func checkGenMemory(g GenSpec) error {
	if err := g.Validate(); err != nil {
		return nil // Generate reports it
	}
	return membudget.Check(fmt.Sprintf("generating %s", g.String()), g.memoryEstimate())
}

// checkFileMemory refuses a regular file too large for the memory the
// process may use; devices and pipes have no size to judge by.
func checkFileMemory(path string) error {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	return membudget.Check(fmt.Sprintf("reading %s (%s)", path, membudget.FormatSize(uint64(fi.Size()))), uint64(fi.Size())*bytesPerFileByte)
}
