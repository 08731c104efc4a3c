package graph

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"slices"
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
		head      headerCheck
		dd        = dedup{at: dedupFirst}
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
		if head.edges == 0 {
			firstLine = lr.n
			if third == nil {
				firstTwo = append(firstTwo[:0], line...)
			}
		}
		head.add(u, v)
		pairs = append(pairs, u, v)
		if opt.Weighted {
			wts = append(wts, w)
		}
		if len(pairs) >= dd.at {
			pairs, wts = dd.compact(pairs, wts, opt.Directed)
		}
	}
	if err := lr.readErr(); err != nil {
		return nil, err
	}
	if firstTwo != nil && head.looksLikeHeader() {
		return nil, lr.errorAt(firstLine, "the line %s looks like a header \"vertices edges\": exactly %d edges follow, all between ids up to %d; an edge list has no header: delete the line or make it a '#' comment",
			quoteField(firstTwo), head.m, head.n)
	}
	dd.es = nil
	g, err := buildLabelled(lr.name, pairs, wts, nil, opt)
	if err != nil {
		return nil, err
	}
	g.Duplicates += dd.duplicates
	g.SelfLoops += dd.selfLoops
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

// headerCheck follows the edges as they are read for looksLikeHeader.
type headerCheck struct {
	n, m    uint64 // the first pair
	edges   uint64
	maxRest uint64 // the largest label after the first pair
}

func (h *headerCheck) add(u, v uint64) {
	if h.edges == 0 {
		h.n, h.m = u, v
	} else {
		h.maxRest = max(h.maxRest, u, v)
	}
	h.edges++
}

// looksLikeHeader reports whether the first pair "n m" of an edge list is
// rather a count header: m edges follow and no id exceeds n. Some tools
// write such a line before the edges; read as an edge, it would silently add
// an edge between two vertices that do not exist. Below 5 edges a real edge
// list matches by chance too easily, and such a file is a toy anyway.
func (h *headerCheck) looksLikeHeader() bool {
	return h.m >= 5 && h.m == h.edges-1 && h.maxRest <= h.n
}

// dedup drops repeated edges while an edge list is read, so that memory
// follows the distinct edges rather than the lines of the file (a file of
// one line repeated a million times holds one edge). It sorts the pairs
// read so far and keeps one of each (the lightest, as Build does), counting
// what it drops as Build would: repeated self-loops as self-loops, other
// repeats as duplicates. The next compaction waits until the pairs have
// grown enough for the sorting to stay a small share of the reading.
type dedup struct {
	at                    int // compact when the pairs slice reaches this length
	duplicates, selfLoops int
	es                    []labelEdge // reused from one compaction to the next
}

// dedupFirst is the first compaction's size in labels (two per edge): 16 MB
// (a variable for the tests).
var dedupFirst = 1 << 21

type labelEdge struct {
	u, v uint64
	w    uint32
}

func (d *dedup) compact(pairs []uint64, wts []uint32, directed bool) ([]uint64, []uint32) {
	before := len(pairs)
	if p, ok := d.packed(pairs, wts, directed); ok {
		pairs = p
	} else {
		pairs, wts = d.compactStructs(pairs, wts, directed)
	}
	// The fewer repeats the last compaction found, the longer the next one
	// waits: a file without repeats pays for one small sort.
	switch {
	case len(pairs) <= before/2:
		d.at = 2 * len(pairs)
	case len(pairs) <= before-before/8:
		d.at = 4 * len(pairs)
	default:
		d.at = 8 * len(pairs)
	}
	d.at = max(d.at, dedupFirst)
	return pairs, wts
}

// packed compacts unweighted pairs of 32-bit labels in place: each edge
// becomes one word u<<32|v in the first half of pairs, sorted, deduplicated
// and unpacked again from the back. It reports false, changing nothing,
// for weighted pairs or when a label needs more than 32 bits.
func (d *dedup) packed(pairs []uint64, wts []uint32, directed bool) ([]uint64, bool) {
	if wts != nil {
		return nil, false
	}
	for _, l := range pairs {
		if l > math.MaxUint32 {
			return nil, false
		}
	}
	n := len(pairs) / 2
	for i := range n {
		u, v := pairs[2*i], pairs[2*i+1]
		if !directed && v < u {
			u, v = v, u // an undirected edge is the same either way round
		}
		pairs[i] = u<<32 | v
	}
	keys := pairs[:n]
	slices.Sort(keys)
	k := 0
	for i, x := range keys {
		if i > 0 && x == keys[k-1] {
			if x>>32 == x&math.MaxUint32 {
				d.selfLoops++
			} else {
				d.duplicates++
			}
			continue
		}
		keys[k] = x
		k++
	}
	for i := k - 1; i >= 0; i-- {
		x := pairs[i]
		pairs[2*i], pairs[2*i+1] = x>>32, x&math.MaxUint32
	}
	return pairs[:2*k], true
}

// compactStructs compacts weighted pairs, or labels beyond 32 bits,
// through a slice of edges.
func (d *dedup) compactStructs(pairs []uint64, wts []uint32, directed bool) ([]uint64, []uint32) {
	es := slices.Grow(d.es[:0], len(pairs)/2)[:len(pairs)/2]
	d.es = es
	for i := range es {
		u, v := pairs[2*i], pairs[2*i+1]
		if !directed && v < u {
			u, v = v, u
		}
		es[i] = labelEdge{u: u, v: v}
		if wts != nil {
			es[i].w = wts[i]
		}
	}
	slices.SortFunc(es, func(a, b labelEdge) int {
		return cmp.Or(cmp.Compare(a.u, b.u), cmp.Compare(a.v, b.v), cmp.Compare(a.w, b.w))
	})
	pairs, wts = pairs[:0], wts[:0]
	for i, e := range es {
		if i > 0 && e.u == es[i-1].u && e.v == es[i-1].v {
			if e.u == e.v {
				d.selfLoops++
			} else {
				d.duplicates++
			}
			continue
		}
		pairs = append(pairs, e.u, e.v)
		if wts != nil {
			wts = append(wts, e.w)
		}
	}
	return pairs, wts
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
