package graph

import (
	"slices"
)

// readAdj reads the vertex-based adjacency format of LDBC Graphalytics:
// each line is a vertex followed by its out-neighbours, "3 1 5 8 10", all
// separated by spaces or tabs; a line with the vertex alone declares a
// vertex without out-neighbours, and a vertex may also appear only as a
// neighbour. Ids are arbitrary uint64 labels, '#' and '%' start comment
// lines. Read undirected (the default), every arc is symmetrised, so an
// undirected file that lists both directions gives each edge once. A vertex
// with two lines is an error. With opt.Weighted every edge gets the
// weight of an edge without one (the format has none).
func readAdj(lr *lineReader, opt ReadOptions) (*Graph, error) {
	var (
		pairs []uint64
		wts   []uint32
		heads []uint64 // the vertex of every line
		lines []int    // its line number
	)
	ws := newWeightReader(opt)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		f, i := nextField(line, 0)
		if len(f) == 0 || f[0] == '#' || f[0] == '%' {
			continue
		}
		u, msg := parseID(f)
		if msg != "" {
			return nil, lr.errorf("%s", msg)
		}
		heads, lines = append(heads, u), append(lines, lr.n)
		for {
			if f, i = nextField(line, i); len(f) == 0 {
				break
			}
			v, msg := parseID(f)
			if msg != "" {
				return nil, lr.errorf("neighbour: %s (an adjacency line is a vertex followed by its neighbours' ids)", msg)
			}
			pairs = append(pairs, u, v)
			if opt.Weighted {
				wts = append(wts, ws.missing())
			}
		}
	}
	if err := lr.readErr(); err != nil {
		return nil, err
	}
	if err := duplicateHeads(lr, heads, lines, "line"); err != nil {
		return nil, err
	}
	g, err := buildLabelled(lr.name, pairs, wts, heads, opt)
	if err != nil {
		return nil, err
	}
	return ws.finish(g, opt), nil
}

// duplicateHeads reports a vertex that two lines declare (an adjacency
// line, or a line of a .v file): the file is corrupt or two files were
// concatenated.
func duplicateHeads(lr *lineReader, heads []uint64, lines []int, what string) error {
	order := make([]int, len(heads))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case heads[a] < heads[b]:
			return -1
		case heads[a] > heads[b]:
			return 1
		}
		return a - b
	})
	for k := 1; k < len(order); k++ {
		a, b := order[k-1], order[k]
		if heads[a] == heads[b] {
			return lr.errorAt(lines[b], "vertex %d has a second %s (the first is line %d)", heads[b], what, lines[a])
		}
	}
	return nil
}
