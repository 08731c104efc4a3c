package graph

import (
	"fmt"
	"strings"
)

// mtxHeader is what the banner of a Matrix Market file says.
type mtxHeader struct {
	field     string // pattern, integer, real (double); complex is refused
	symmetric bool   // symmetric, skew-symmetric or hermitian: only the lower triangle is stored
}

// shape describes the entries of the matrix for error messages.
func (h mtxHeader) shape(valueFields int) string {
	return fmt.Sprintf("%s entries have %d (%s)", h.field, 2+valueFields,
		[]string{"row column", "row column value"}[valueFields])
}

// values is the number of value fields an entry has: none for a pattern.
func (h mtxHeader) values() int {
	if h.field == "pattern" {
		return 0
	}
	return 1
}

// readMTX reads a Matrix Market coordinate file: the %%MatrixMarket banner,
// '%' comments, the size line "rows cols nnz", then nnz entries "i j [v]"
// with 1-based indices. Entry (i,j) is the arc i->j; a symmetric matrix
// stores one triangle, so each entry is an edge both ways. Vertex labels are
// 1..rows, so that isolated vertices exist.
func readMTX(lr *lineReader, opt ReadOptions) (*Graph, error) {
	h, err := readMTXBanner(lr)
	if err != nil {
		return nil, err
	}
	rows, nnz, err := readMTXSize(lr)
	if err != nil {
		return nil, err
	}
	sizeLine := lr.n
	n := int(rows)
	b := NewBuilder(n, opt.Directed, opt.Weighted)
	grow := min(nnz, growCap)
	if h.symmetric && opt.Directed {
		grow *= 2
	}
	b.Grow(int(grow))
	ws := newWeightReader(opt)

	count := uint64(0)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if c := firstNonSpace(line); c == 0 || c == '%' {
			continue
		}
		count++
		if count > nnz {
			return nil, lr.errorf("more entries than the %d declared on line %d", nnz, sizeLine)
		}
		idx, w, err := h.entry(lr, line, rows, ws, opt)
		if err != nil {
			return nil, err
		}
		b.AddEdge(idx[0], idx[1], w)
		if h.symmetric && opt.Directed && idx[0] != idx[1] {
			b.AddEdge(idx[1], idx[0], w)
		}
	}
	if err := lr.readErr(); err != nil {
		return nil, err
	}
	if count < nnz {
		return nil, lr.errorAt(lr.n, "file ends after %d of the %d entries declared on line %d (truncated?)", count, nnz, sizeLine)
	}
	g, err := b.Build(lr.name)
	if err != nil {
		return nil, err
	}
	g.Labels = oneBasedLabels(n)
	return ws.finish(g, opt), nil
}

// readMTXBanner reads the first line, "%%MatrixMarket matrix coordinate
// <field> <symmetry>", and refuses what is not a sparse matrix of
// pattern, integer or real entries.
func readMTXBanner(lr *lineReader) (mtxHeader, error) {
	var h mtxHeader
	line, ok := lr.next()
	if !ok {
		if err := lr.readErr(); err != nil {
			return h, err
		}
		return h, lr.errorAt(0, "empty file: missing the %%%%MatrixMarket banner")
	}
	f, i := nextField(line, 0)
	if !hasPrefixFold(f, "%%MatrixMarket") {
		return h, lr.errorf("missing the %%%%MatrixMarket banner (the line is %s): not a Matrix Market file; if it is a plain edge list, read it with --format edgelist", quoteField(line))
	}
	if len(f) > len("%%MatrixMarket") {
		// "%%MatrixMarketmatrix": no space after the banner word.
		return h, lr.errorf("malformed banner %s", quoteField(line))
	}
	var words [4]string
	for k := range words {
		if f, i = nextField(line, i); len(f) == 0 {
			return h, lr.errorf("banner has %d of the 4 words after %%%%MatrixMarket (object format field symmetry)", k)
		}
		words[k] = strings.ToLower(string(f))
	}
	if f, _ = nextField(line, i); len(f) != 0 {
		return h, lr.errorf("banner has more than 4 words after %%%%MatrixMarket: %s", quoteField(f))
	}
	if words[0] != "matrix" {
		return h, lr.errorf("Matrix Market object %q is not supported: a graph needs a matrix", words[0])
	}
	switch words[1] {
	case "coordinate":
	case "array":
		return h, lr.errorf("Matrix Market array (dense) format is not supported: a graph needs the coordinate format")
	default:
		return h, lr.errorf("Matrix Market format %q is unknown (expected coordinate)", words[1])
	}
	return h, h.setKind(lr, words[2], words[3])
}

// setKind reads the banner's field and symmetry words.
func (h *mtxHeader) setKind(lr *lineReader, field, symmetry string) error {
	switch field {
	case "pattern", "integer", "real":
		h.field = field
	case "double":
		h.field = "real"
	case "complex":
		// A complex matrix is not a graph: its values cannot be weights, and
		// reading only its structure would pass it off as one silently.
		return lr.errorf("Matrix Market field complex is not supported: complex values are not edge weights (convert the file to pattern, integer or real)")
	default:
		return lr.errorf("Matrix Market field %q is unknown (expected pattern, integer or real)", field)
	}
	switch symmetry {
	case "general":
	case "symmetric", "skew-symmetric", "hermitian":
		h.symmetric = true
	default:
		return lr.errorf("Matrix Market symmetry %q is unknown (expected general, symmetric, skew-symmetric or hermitian)", symmetry)
	}
	return nil
}

// readMTXSize reads the size line "rows cols entries", the first line after
// the banner that is neither a comment nor blank, and checks that the
// matrix is square and its size believable.
func readMTXSize(lr *lineReader) (rows, nnz uint64, err error) {
	var line []byte
	for {
		var ok bool
		if line, ok = lr.next(); !ok {
			if err := lr.readErr(); err != nil {
				return 0, 0, err
			}
			return 0, 0, lr.errorAt(lr.n, "file ends before the size line \"rows cols entries\"")
		}
		if c := firstNonSpace(line); c != 0 && c != '%' {
			break
		}
	}
	var size [3]uint64
	var f []byte
	i := 0
	for k := range size {
		if f, i = nextField(line, i); len(f) == 0 {
			return 0, 0, lr.errorf("size line %s needs 3 numbers: rows cols entries", quoteField(line))
		}
		x, ok := parseDecimal(f)
		if !ok {
			return 0, 0, lr.errorf("size line %s: %s is not a non-negative integer", quoteField(line), quoteField(f))
		}
		size[k] = x
	}
	if f, _ = nextField(line, i); len(f) != 0 {
		return 0, 0, lr.errorf("size line %s has more than 3 numbers (rows cols entries)", quoteField(line))
	}
	rows, cols, nnz := size[0], size[1], size[2]
	if rows != cols {
		return 0, 0, lr.errorf("the matrix is %d x %d: an adjacency matrix must be square", rows, cols)
	}
	if err := checkDeclaredVertices(lr, rows, nnz); err != nil {
		return 0, 0, err
	}
	return rows, nnz, nil
}

// entry reads one entry line "row column [value]": the arc's 0-based ends
// and its weight (ws's default for a pattern when weights are read).
func (h mtxHeader) entry(lr *lineReader, line []byte, rows uint64, ws *weightReader, opt ReadOptions) ([2]uint32, uint32, error) {
	var idx [2]uint32
	valueFields := h.values()
	var f []byte
	i := 0
	for k, what := range [2]string{"row", "column"} {
		if f, i = nextField(line, i); len(f) == 0 {
			return idx, 0, lr.errorf("entry %s has %d fields: %s", quoteField(line), k, h.shape(valueFields))
		}
		x, ok := parseDecimal(f)
		if !ok {
			return idx, 0, lr.errorf("%s index %s is not a positive integer", what, quoteField(f))
		}
		if x < 1 || x > rows {
			return idx, 0, lr.errorf("%s index %d out of range 1..%d", what, x, rows)
		}
		idx[k] = uint32(x - 1)
	}
	w := uint32(0)
	for k := 0; k < valueFields; k++ {
		if f, i = nextField(line, i); len(f) == 0 {
			return idx, 0, lr.errorf("entry %s has %d fields: %s", quoteField(line), 2+k, h.shape(valueFields))
		}
		var err error
		switch {
		case h.field == "integer" && !isSignedInteger(f):
			err = lr.errorf("value %s is not an integer", quoteField(f))
		case !opt.Weighted && !isNumber(f):
			err = lr.errorf("value %s is not a number", quoteField(f))
		case !opt.Weighted:
		case h.field == "integer":
			w, err = ws.parseInt(lr, f)
		default:
			w, err = ws.parseReal(lr, f)
		}
		if err != nil {
			return idx, 0, err
		}
	}
	if f, _ = nextField(line, i); len(f) != 0 {
		return idx, 0, lr.errorf("entry %s has %d fields: %s", quoteField(line), countLineFields(line), h.shape(valueFields))
	}
	if opt.Weighted && valueFields == 0 {
		w = ws.missing()
	}
	return idx, w, nil
}
