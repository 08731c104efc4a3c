package graph

import (
	"bytes"
	"fmt"
	"math"
)

// readEdgeList reads a SNAP-style edge list: "u v" or "u v w" per line,
// separated by spaces or tabs, with '#' and '%' comment lines and blank lines.
// Vertex ids are arbitrary uint64 labels; the graph's ids are their ranks.
// A third column is the weight when opt.Weighted, and must be a number in
// any case; a line with more columns is an error, because reading only the
// first two of "3 1 5 8" (a vertex and its neighbours, the adjacency
// format) would silently give a wrong graph.
func readEdgeList(lr *lineReader, opt ReadOptions) (*Graph, error) {
	var (
		pairs []uint64 // u0 v0 u1 v1 ...: labels, resolved at the end
		wts   []uint32 // with opt.Weighted, one per pair
		// The first edge's line, when it has just two fields: it may be a
		// "vertices edges" header that does not belong in an edge list.
		firstLine int
		firstTwo  []byte
	)
	ws := newWeightReader(opt)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		f, _ := nextField(line, 0)
		if len(f) == 0 {
			continue
		}
		if f[0] == '#' || f[0] == '%' {
			if lr.n == 1 && hasPrefixFold(f, "%%MatrixMarket") {
				return nil, lr.errorf("this is a Matrix Market file (it starts with the %%%%MatrixMarket banner); read it with --format mtx")
			}
			continue
		}
		u, v, w, third, err := parseEdgeLine(lr, line, ws, opt)
		if err != nil {
			return nil, err
		}
		if len(pairs) == 0 {
			firstLine = lr.n
			if third == nil {
				firstTwo = append(firstTwo[:0], line...)
			}
		}
		pairs = append(pairs, u, v)
		if opt.Weighted {
			wts = append(wts, w)
		}
	}
	if err := lr.readErr(); err != nil {
		return nil, err
	}
	if firstTwo != nil && looksLikeHeader(pairs) {
		return nil, lr.errorAt(firstLine, "the line %s looks like a header \"vertices edges\": exactly %d edges follow, all between ids up to %d; an edge list has no header: delete the line or make it a '#' comment",
			quoteField(firstTwo), pairs[1], pairs[0])
	}
	g, err := buildLabelled(lr.name, pairs, wts, nil, opt)
	if err != nil {
		return nil, err
	}
	return ws.finish(g, opt), nil
}

// parseEdgeLine parses the edge of a non-comment line "u v [w]" of an edge
// list or a Graphalytics .e file; third is the third column (nil if none).
func parseEdgeLine(lr *lineReader, line []byte, ws *weightReader, opt ReadOptions) (u, v uint64, w uint32, third []byte, err error) {
	f, i := nextField(line, 0)
	u, msg := parseID(f)
	if msg != "" {
		return 0, 0, 0, nil, lr.errorf("%s", msg)
	}
	if f, i = nextField(line, i); len(f) == 0 {
		return 0, 0, 0, nil, lr.errorf("only one field; an edge needs two vertex ids")
	}
	if v, msg = parseID(f); msg != "" {
		return 0, 0, 0, nil, lr.errorf("%s", msg)
	}
	third, j := nextField(line, i)
	if extra, _ := nextField(line, j); len(extra) != 0 {
		return 0, 0, 0, nil, tooManyColumns(lr, line)
	}
	switch {
	case opt.Weighted && len(third) == 0:
		w = ws.missing()
	case opt.Weighted:
		w, err = ws.parse(lr, third)
	case len(third) != 0 && !isNumber(third):
		err = lr.errorf("third column %s is not a number: an edge list line is \"u v\" or \"u v weight\"", quoteField(third))
	}
	if len(third) == 0 {
		third = nil
	}
	return u, v, w, third, err
}

// tooManyColumns is the error for an edge-list line of more than three
// columns, pointing to the adjacency format when that is what it looks
// like (every column a vertex id).
func tooManyColumns(lr *lineReader, line []byte) error {
	n := countLineFields(line)
	hint := ""
	ids := true
	for i := 0; ; {
		var f []byte
		if f, i = nextField(line, i); len(f) == 0 {
			break
		}
		ids = ids && isDigits(f)
	}
	if ids {
		hint = "; if every line is a vertex followed by its neighbours (the LDBC Graphalytics adjacency format), read the file with --format adj"
	}
	return lr.errorf("the line has %d columns: an edge list line is \"u v\" or \"u v weight\"%s", n, hint)
}

// looksLikeHeader reports whether the first pair "n m" of an edge list is
// rather a count header: m edges follow and no id exceeds n. Some tools
// write such a line before the edges; read as an edge, it would silently add
// an edge between two vertices that do not exist. Below 5 edges a real edge
// list matches by chance too easily, and such a file is a toy anyway.
func looksLikeHeader(pairs []uint64) bool {
	n, m := pairs[0], pairs[1]
	if m < 5 || m != uint64(len(pairs)/2-1) {
		return false
	}
	for _, l := range pairs[2:] {
		if l > n {
			return false
		}
	}
	return true
}

// buildLabelled builds the graph of edges between labels, whose ids are the
// ranks of the labels. Builder.AddLabelEdge does that by sorting all 2m
// labels; when the labels are small numbers, as in most edge lists, a table
// indexed by label finds the ranks in linear time, which halves the time to
// read a file.
//
// extra lists labels of vertices that exist without edges (isolated
// vertices of a Graphalytics file).
func buildLabelled(name string, pairs []uint64, wts []uint32, extra []uint64, opt ReadOptions) (*Graph, error) {
	weight := func(i int) uint32 {
		if wts == nil {
			return 0
		}
		return wts[i/2]
	}
	maxLabel := uint64(0)
	for _, l := range pairs {
		maxLabel = max(maxLabel, l)
	}
	for _, l := range extra {
		maxLabel = max(maxLabel, l)
	}
	all := uint64(len(pairs) + len(extra))
	if maxLabel >= maxHeaderVertices || maxLabel > 4*all+1<<16 {
		b := NewBuilder(0, opt.Directed, opt.Weighted)
		for i := 0; i < len(pairs); i += 2 {
			b.AddLabelEdge(pairs[i], pairs[i+1], weight(i))
		}
		for _, l := range extra {
			b.AddLabel(l)
		}
		return b.Build(name)
	}
	var rank []uint32
	if all > 0 {
		rank = make([]uint32, maxLabel+1)
	}
	for _, l := range pairs {
		rank[l] = 1
	}
	for _, l := range extra {
		rank[l] = 1
	}
	n := 0
	for _, present := range rank {
		n += int(present)
	}
	var labels []uint64 // nil: the labels are 0..n-1
	if n != len(rank) {
		labels = make([]uint64, 0, n)
	}
	n = 0
	for l, present := range rank {
		if present != 0 {
			rank[l] = uint32(n)
			n++
			if labels != nil {
				labels = append(labels, uint64(l))
			}
		}
	}
	b := NewBuilder(n, opt.Directed, opt.Weighted)
	b.Grow(len(pairs) / 2)
	for i := 0; i < len(pairs); i += 2 {
		b.AddEdge(rank[pairs[i]], rank[pairs[i+1]], weight(i))
	}
	g, err := b.Build(name)
	if err != nil {
		return nil, err
	}
	g.Labels = labels
	return g, nil
}

// parseID parses a vertex label, explaining what is wrong with a bad one.
func parseID(f []byte) (uint64, string) {
	if x, ok := parseDecimal(f); ok {
		return x, ""
	}
	switch {
	case isDigits(f):
		return 0, fmt.Sprintf("vertex id %s exceeds %d", quoteField(f), uint64(math.MaxUint64))
	case f[0] == '-' && isDigits(f[1:]):
		return 0, fmt.Sprintf("vertex id %s is negative", quoteField(f))
	}
	return 0, fmt.Sprintf("vertex id %s is not an integer", quoteField(f))
}

// isDigits reports whether f is a non-empty run of decimal digits.
func isDigits(f []byte) bool {
	for _, c := range f {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(f) > 0
}

// hasPrefixFold reports whether b starts with prefix, ignoring ASCII case.
func hasPrefixFold(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && bytes.EqualFold(b[:len(prefix)], []byte(prefix))
}
