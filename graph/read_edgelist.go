package graph

import (
	"bytes"
	"fmt"
	"math"
)

// readEdgeList reads a SNAP-style edge list: "u v" or "u v w" per line,
// separated by spaces or tabs, with '#' and '%' comment lines and blank lines.
// Vertex ids are arbitrary uint64 labels; the graph's ids are their ranks.
// A third column is the weight when opt.Weighted; further columns (SNAP
// timestamps and the like) are ignored.
func readEdgeList(lr *lineReader, opt ReadOptions) (*Graph, error) {
	var (
		pairs []uint64 // u0 v0 u1 v1 ...: labels, resolved at the end
		wts   []uint32 // with opt.Weighted, one per pair
		// The first edge's line, when it has just two fields: it may be a
		// "vertices edges" header that does not belong in an edge list.
		firstLine int
		firstTwo  []byte
	)
	ws := newWeightSource(opt)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		f, i := nextField(line, 0)
		if len(f) == 0 {
			continue
		}
		if f[0] == '#' || f[0] == '%' {
			if lr.n == 1 && hasPrefixFold(f, "%%MatrixMarket") {
				return nil, lr.errorf("this is a Matrix Market file (it starts with the %%%%MatrixMarket banner); read it with --format mtx")
			}
			continue
		}
		u, msg := parseID(f)
		if msg != "" {
			return nil, lr.errorf("%s", msg)
		}
		f, i = nextField(line, i)
		if len(f) == 0 {
			return nil, lr.errorf("only one field; an edge needs two vertex ids")
		}
		v, msg := parseID(f)
		if msg != "" {
			return nil, lr.errorf("%s", msg)
		}
		var w uint32
		if opt.Weighted {
			if f, _ = nextField(line, i); len(f) == 0 {
				w = ws.next()
			} else if w, msg = parseWeight(f); msg != "" {
				return nil, lr.errorf("%s", msg)
			}
		}
		if len(pairs) == 0 {
			firstLine = lr.n
			if f, _ = nextField(line, i); len(f) == 0 {
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
	return buildLabelled(lr.name, pairs, wts, opt)
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
func buildLabelled(name string, pairs []uint64, wts []uint32, opt ReadOptions) (*Graph, error) {
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
	if maxLabel >= maxHeaderVertices || maxLabel > 4*uint64(len(pairs))+1<<16 {
		b := NewBuilder(0, opt.Directed, opt.Weighted)
		for i := 0; i < len(pairs); i += 2 {
			b.AddLabelEdge(pairs[i], pairs[i+1], weight(i))
		}
		return b.Build(name)
	}
	var rank []uint32
	if len(pairs) > 0 {
		rank = make([]uint32, maxLabel+1)
	}
	for _, l := range pairs {
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
