package graph

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// isVEPair reports whether path is the .e (or .v) file of a Graphalytics
// pair whose other file lies beside it.
func isVEPair(path string) bool {
	e, v, ok := vePaths(path)
	return ok && fileExists(e) && fileExists(v)
}

// vePaths returns the .e and .v paths of the pair that path belongs to.
func vePaths(path string) (e, v string, ok bool) {
	switch filepath.Ext(path) {
	case ".e":
		return path, strings.TrimSuffix(path, ".e") + ".v", true
	case ".v":
		stem := strings.TrimSuffix(path, ".v")
		return stem + ".e", path, true
	}
	return "", "", false
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// readVEFiles opens the two files of a Graphalytics pair.
func readVEFiles(path string, opt ReadOptions, w *watch) (*Graph, error) {
	e, v, ok := vePaths(path)
	if !ok {
		return nil, fmt.Errorf("%s: the ve format reads a pair NAME.v and NAME.e: give the path of the .e file", filepath.Base(path))
	}
	vf, err := os.Open(v)
	if err != nil {
		return nil, fmt.Errorf("%w (the ve format reads the vertices from the .v file beside the .e file)", err)
	}
	defer vf.Close()
	ef, err := os.Open(e)
	if err != nil {
		return nil, err
	}
	defer ef.Close()
	return readVE(vf, ef, filepath.Base(v), filepath.Base(e), opt, w, fileSize(e))
}

// ReadVE reads the vertex and edge files of the LDBC Graphalytics format:
// the .v file lists one vertex id a line (isolated vertices included), the
// .e file one edge "u v" or "u v weight" a line, with real-valued weights
// (float64 in the benchmark: see ReadOptions for how they are stored).
// Every edge's ends must be vertices of the .v file; a vertex listed twice,
// or a line with more columns, is an error at its line. The graph is named
// after the .e file. '#' and '%' start comment lines, as in edge lists.
func ReadVE(v, e io.Reader, vname, ename string, opt ReadOptions) (*Graph, error) {
	return readVE(v, e, vname, ename, opt, nil, 0)
}

// readVE is ReadVE with progress reports against the .e file's size.
func readVE(v, e io.Reader, vname, ename string, opt ReadOptions, w *watch, size int64) (*Graph, error) {
	vr := &lineReader{r: bufio.NewReaderSize(v, readBufferSize), name: vname, watch: w}
	var (
		verts []uint64
		lines []int
	)
	for {
		line, ok := vr.next()
		if !ok {
			break
		}
		f, i := nextField(line, 0)
		if len(f) == 0 || f[0] == '#' || f[0] == '%' {
			continue
		}
		id, msg := parseID(f)
		if msg != "" {
			return nil, vr.errorf("%s", msg)
		}
		if extra, _ := nextField(line, i); len(extra) != 0 {
			return nil, vr.errorf("the line has %d columns: a line of a .v file is one vertex id", countLineFields(line))
		}
		verts, lines = append(verts, id), append(lines, vr.n)
	}
	if err := vr.readErr(); err != nil {
		return nil, err
	}
	if err := duplicateHeads(vr, verts, lines, "line"); err != nil {
		return nil, err
	}
	known := slices.Clone(verts)
	slices.Sort(known)

	er := &lineReader{r: bufio.NewReaderSize(e, readBufferSize), name: ename, watch: w, size: size}
	ws := newWeightReader(opt)
	var (
		pairs []uint64
		wts   []uint32
	)
	for {
		line, ok := er.next()
		if !ok {
			break
		}
		if c := firstNonSpace(line); c == 0 || c == '#' || c == '%' {
			continue
		}
		a, b, w, _, err := parseEdgeLine(er, line, ws, opt)
		if err != nil {
			return nil, err
		}
		for _, x := range [2]uint64{a, b} {
			if _, found := slices.BinarySearch(known, x); !found {
				return nil, er.errorf("vertex %d is not in %s", x, vname)
			}
		}
		pairs = append(pairs, a, b)
		if opt.Weighted {
			wts = append(wts, w)
		}
	}
	if err := er.readErr(); err != nil {
		return nil, err
	}
	if err := w.failed(); err != nil {
		return nil, err
	}
	g, err := buildLabelled(ename, pairs, wts, verts, opt)
	if err != nil {
		return nil, err
	}
	return ws.finish(g, opt), nil
}
