package graph

// readDIMACS reads a DIMACS 9th Implementation Challenge shortest-path graph
// (.gr): 'c' comment lines, one problem line "p sp N M", then M arc lines
// "a u v w" with 1-based vertex ids and integer weights. Vertex labels are
// 1..N.
func readDIMACS(lr *lineReader, opt ReadOptions) (*Graph, error) {
	var (
		b        *Builder
		n, m     uint64
		pLine    int
		count    uint64
		seenLine bool
	)
	ws := newWeightReader(opt)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		f, i := nextField(line, 0)
		if len(f) == 0 {
			continue
		}
		seenLine = true
		switch {
		case f[0] == 'c':
			// "c text", and also "c----" as some files have it.
			continue
		case len(f) == 1 && f[0] == 'p':
			if pLine != 0 {
				return nil, lr.errorf("second problem line (the first is on line %d)", pLine)
			}
			var err error
			if n, m, err = dimacsProblem(lr, line, i); err != nil {
				return nil, err
			}
			pLine = lr.n
			b = NewBuilder(int(n), opt.Directed, opt.Weighted)
			b.Grow(int(min(m, growCap)))
		case len(f) == 1 && f[0] == 'a':
			if pLine == 0 {
				return nil, lr.errorf("arc before the problem line \"p sp N M\"")
			}
			count++
			if count > m {
				return nil, lr.errorf("more arcs than the %d declared on line %d", m, pLine)
			}
			u, v, w, err := dimacsArc(lr, line, i, n, ws)
			if err != nil {
				return nil, err
			}
			b.AddEdge(u, v, w)
		default:
			return nil, lr.errorf("line starts with %s: a DIMACS .gr line is \"c ...\", \"p sp N M\" or \"a u v w\"", quoteField(f))
		}
	}
	if err := lr.readErr(); err != nil {
		return nil, err
	}
	if pLine == 0 {
		if !seenLine {
			return nil, lr.errorAt(0, "no problem line \"p sp N M\": the file has no content")
		}
		return nil, lr.errorAt(0, "no problem line \"p sp N M\"")
	}
	if count < m {
		return nil, lr.errorAt(lr.n, "file ends after %d of the %d arcs declared on line %d (truncated?)", count, m, pLine)
	}
	g, err := b.Build(lr.name)
	if err != nil {
		return nil, err
	}
	g.Labels = oneBasedLabels(int(n))
	return ws.finish(g, opt), nil
}

// dimacsProblem reads the rest of a problem line "p sp N M" from field
// offset i: the vertex and arc counts, checked to be believable.
func dimacsProblem(lr *lineReader, line []byte, i int) (n, m uint64, err error) {
	var f []byte
	if f, i = nextField(line, i); string(f) != "sp" {
		if len(f) == 0 {
			return 0, 0, lr.errorf("problem line %s must be \"p sp N M\"", quoteField(line))
		}
		return 0, 0, lr.errorf("problem type %s is not supported: only shortest-path graphs (\"p sp N M\")", quoteField(f))
	}
	var nm [2]uint64
	for k := range nm {
		if f, i = nextField(line, i); len(f) == 0 {
			return 0, 0, lr.errorf("problem line %s must be \"p sp N M\"", quoteField(line))
		}
		x, ok := parseDecimal(f)
		if !ok {
			return 0, 0, lr.errorf("problem line: %s is not a non-negative integer", quoteField(f))
		}
		nm[k] = x
	}
	if f, _ = nextField(line, i); len(f) != 0 {
		return 0, 0, lr.errorf("problem line %s has more than \"p sp N M\"", quoteField(line))
	}
	if err := checkDeclaredVertices(lr, nm[0], nm[1]); err != nil {
		return 0, 0, err
	}
	return nm[0], nm[1], nil
}

// dimacsArc reads the rest of an arc line "a u v w" from field offset i:
// the arc's 0-based ends (in 1..n in the file) and its weight.
func dimacsArc(lr *lineReader, line []byte, i int, n uint64, ws *weightReader) (u, v, w uint32, err error) {
	var uv [2]uint32
	var f []byte
	for k := range uv {
		if f, i = nextField(line, i); len(f) == 0 {
			return 0, 0, 0, lr.errorf("arc line %s must be \"a u v w\"", quoteField(line))
		}
		x, ok := parseDecimal(f)
		if !ok {
			return 0, 0, 0, lr.errorf("vertex %s is not a positive integer", quoteField(f))
		}
		if x < 1 || x > n {
			return 0, 0, 0, lr.errorf("vertex %d out of range 1..%d", x, n)
		}
		uv[k] = uint32(x - 1)
	}
	if f, i = nextField(line, i); len(f) == 0 {
		return 0, 0, 0, lr.errorf("arc line %s has no weight; it must be \"a u v w\"", quoteField(line))
	}
	if w, err = ws.parseInt(lr, f); err != nil {
		return 0, 0, 0, err
	}
	if f, _ = nextField(line, i); len(f) != 0 {
		return 0, 0, 0, lr.errorf("arc line %s has more than \"a u v w\"", quoteField(line))
	}
	return uv[0], uv[1], w, nil
}
