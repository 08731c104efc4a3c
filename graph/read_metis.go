package graph

import (
	"fmt"
	"math"
	"slices"
)

// metisHeader is the first non-comment line of a METIS graph file:
// "n m [fmt [ncon]]".
type metisHeader struct {
	n, m        uint64
	sizes       bool // fmt digit 3 (hundreds): each line starts with the vertex size
	vwgts       bool // fmt digit 2 (tens): then ncon vertex weights
	ewgts       bool // fmt digit 1 (ones): neighbours come in pairs "v w"
	ncon        int  // number of vertex weights per line
	fieldsFixed int  // fields before the neighbours: sizes + ncon
}

// parseMETISHeader parses a header line, returning a description of the
// problem when the line is not a valid header.
func parseMETISHeader(line []byte) (metisHeader, string) {
	var h metisHeader
	var f [5][]byte
	i, k := 0, 0
	for ; k < len(f); k++ {
		if f[k], i = nextField(line, i); len(f[k]) == 0 {
			break
		}
	}
	if k < 2 || k > 4 {
		return h, fmt.Sprintf("header %s must be \"n m [fmt [ncon]]\"", quoteField(line))
	}
	var ok bool
	if h.n, ok = parseDecimal(f[0]); !ok {
		return h, fmt.Sprintf("header: vertex count %s is not a non-negative integer", quoteField(f[0]))
	}
	if h.m, ok = parseDecimal(f[1]); !ok {
		return h, fmt.Sprintf("header: edge count %s is not a non-negative integer", quoteField(f[1]))
	}
	if k >= 3 {
		d := f[2]
		if len(d) > 3 || !isDigits(d) || slices.ContainsFunc(d, func(c byte) bool { return c > '1' }) {
			return h, fmt.Sprintf("header: fmt %s must be up to 3 binary digits (sizes, vertex weights, edge weights), e.g. 0, 1, 10, 11, 100", quoteField(d))
		}
		d = append(make([]byte, 0, 3), d...)
		for len(d) < 3 {
			d = append([]byte{'0'}, d...)
		}
		h.sizes, h.vwgts, h.ewgts = d[0] == '1', d[1] == '1', d[2] == '1'
	}
	if h.vwgts {
		h.ncon = 1
	}
	if k == 4 {
		c, ok := parseDecimal(f[3])
		switch {
		case !ok || c < 1 || c > 1<<16:
			return h, fmt.Sprintf("header: ncon %s must be a positive integer", quoteField(f[3]))
		case !h.vwgts:
			return h, fmt.Sprintf("header: ncon %s given but fmt %s declares no vertex weights", quoteField(f[3]), quoteField(f[2]))
		}
		h.ncon = int(c)
	}
	h.fieldsFixed = h.ncon
	if h.sizes {
		h.fieldsFixed++
	}
	return h, ""
}

// readMETIS reads a METIS graph file: '%' comments, the header
// "n m [fmt [ncon]]", then exactly n vertex lines, blank for an isolated
// vertex. Vertex labels are 1..n.
//
// An undirected METIS file lists every edge on the lines of both ends; the
// second listing (the one on the line of the higher vertex) is the mirror of
// the first and not a duplicate, so it is skipped rather than counted, and
// the first listing's weight is kept. An edge listed from one end only is
// still an edge. With opt.Directed every listed neighbour is an arc.
func readMETIS(lr *lineReader, opt ReadOptions) (*Graph, error) {
	h, err := readMETISHeader(lr)
	if err != nil {
		return nil, err
	}
	headerLine := lr.n
	n := int(h.n)
	r := &metisReader{h: h, opt: opt, b: NewBuilder(n, opt.Directed, opt.Weighted), ws: newWeightReader(opt)}
	r.b.Grow(int(min(h.m, growCap)))
	if !opt.Directed {
		r.starts = make([]int, 1, min(n, growCap)+1)
	}
	u := uint64(0) // vertex lines read
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		c := firstNonSpace(line)
		if c == '%' {
			continue
		}
		if u == h.n {
			if c == 0 {
				continue // trailing blank lines
			}
			return nil, lr.errorf("more vertex lines than the %d declared on line %d", h.n, headerLine)
		}
		u++
		if err := r.vertexLine(lr, line, u); err != nil {
			return nil, err
		}
	}
	if err := lr.readErr(); err != nil {
		return nil, err
	}
	if u < h.n {
		return nil, lr.errorAt(lr.n, "file ends after %d of the %d vertex lines declared on line %d (truncated?)", u, h.n, headerLine)
	}
	if r.entries != h.m && (h.m > math.MaxUint64/2 || r.entries != 2*h.m) {
		return nil, lr.errorAt(headerLine, "the header declares %d edges, but the adjacency lines list %d neighbours (expected %d, each edge on the lines of both ends)", h.m, r.entries, 2*h.m)
	}
	g, err := r.b.Build(lr.name)
	if err != nil {
		return nil, err
	}
	g.Labels = oneBasedLabels(n)
	return r.ws.finish(g, opt), nil
}

// readMETISHeader reads the header, the first line that is neither a
// comment nor blank.
func readMETISHeader(lr *lineReader) (metisHeader, error) {
	var line []byte
	for {
		var ok bool
		if line, ok = lr.next(); !ok {
			if err := lr.readErr(); err != nil {
				return metisHeader{}, err
			}
			return metisHeader{}, lr.errorAt(0, "no METIS header \"n m [fmt [ncon]]\": the file has no content")
		}
		if c := firstNonSpace(line); c != 0 && c != '%' {
			break
		}
	}
	h, msg := parseMETISHeader(line)
	if msg != "" {
		return h, lr.errorf("%s", msg)
	}
	if h.n > maxHeaderVertices {
		return h, lr.errorf("%d vertices exceed the 32-bit id range (at most %d)", h.n, uint64(maxHeaderVertices))
	}
	return h, nil
}

// metisReader is the state of reading a METIS file's vertex lines.
type metisReader struct {
	h   metisHeader
	opt ReadOptions
	b   *Builder
	ws  *weightReader
	// For undirected reading, the sorted neighbour lists read so far
	// (vertex v's at lists[starts[v-1]:starts[v]]), to recognise mirrors.
	lists  []uint32
	starts []int
	// entries counts the neighbours listed.
	entries uint64
}

// vertexLine reads the line of vertex u (1-based): its fixed fields, then
// its neighbours (with their weights), adding the edges that are not
// mirrors of ones already read.
func (r *metisReader) vertexLine(lr *lineReader, line []byte, u uint64) error {
	h, opt := r.h, r.opt
	i := 0
	var f []byte
	for k := 0; k < h.fieldsFixed; k++ {
		if f, i = nextField(line, i); len(f) == 0 {
			return lr.errorf("vertex %d: the line has %d fields, fmt needs %d (size and vertex weights) before the neighbours", u, k, h.fieldsFixed)
		}
		if _, ok := parseDecimal(f); !ok {
			return lr.errorf("vertex %d: size or vertex weight %s is not a non-negative integer", u, quoteField(f))
		}
	}
	first := len(r.lists)
	for {
		if f, i = nextField(line, i); len(f) == 0 {
			break
		}
		v, ok := parseDecimal(f)
		if !ok {
			return lr.errorf("neighbour %s is not a positive integer", quoteField(f))
		}
		if v < 1 || v > h.n {
			return lr.errorf("neighbour %d out of range 1..%d", v, h.n)
		}
		var w uint32
		if h.ewgts {
			if f, i = nextField(line, i); len(f) == 0 {
				return lr.errorf("neighbour %d has no edge weight (fmt %s declares edge weights)", v, fmtDigits(h))
			}
			x, err := r.ws.parseInt(lr, f)
			if err != nil {
				return err
			}
			w = x
		}
		r.entries++
		if !opt.Directed {
			r.lists = append(r.lists, uint32(v))
			if v < u {
				s := r.lists[r.starts[v-1]:r.starts[v]]
				if _, found := slices.BinarySearch(s, uint32(u)); found {
					continue // the mirror of an edge on line v
				}
			}
		}
		if opt.Weighted && !h.ewgts {
			w = r.ws.missing()
		}
		r.b.AddEdge(uint32(u-1), uint32(v-1), w)
	}
	if !opt.Directed {
		slices.Sort(r.lists[first:])
		r.starts = append(r.starts, len(r.lists))
	}
	return nil
}

// fmtDigits spells the header's fmt for messages.
func fmtDigits(h metisHeader) string {
	d := []byte("000")
	for k, on := range []bool{h.sizes, h.vwgts, h.ewgts} {
		if on {
			d[k] = '1'
		}
	}
	return string(d)
}
