package graph

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// Seeds shared by the fuzz targets: small valid files of every format and a
// few broken ones.
var readFuzzSeeds = []string{
	"0 1\n1 2\n2 0\n",
	"# c\r\n10\t20\r\n20\t30 7\r\n\r\n30 30\r\n",
	"% c\n1 2 1.5\n2 3 -1\n",
	"%%MatrixMarket matrix coordinate pattern symmetric\n% c\n4 4 3\n2 1\n3 1\n3 3\n",
	"%%MatrixMarket matrix coordinate integer general\n3 3 2\n1 2 9\n3 1 0\n",
	"%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n2 1 0.2\n3 2 2.5e1\n",
	"%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 1 1 -1\n",
	"%%MatrixMarket matrix coordinate pattern general\n3 3 5\n1 2\n",
	"% c\n4 2\n2 3\n1\n1\n\n",
	"3 2 1\n2 5 3 7\n1 5\n1 7\n",
	"3 2 011 2\n4 4 2 5 3 7\n1 1 1 5\n9 9 1 7\n",
	"3 2 100\n4 2 3\n1 1\n9 1\n",
	"4 4\n2 4\n1 3\n2 4\n1 3\n",
	"3 2\n2\n1 3\n4\n",
	"c road\n\np sp 4 3\nc arcs\na 1 2 10\na 2 1 11\na 3 2 0\n",
	"p sp 3 2\na 1 2 5\na 1 4 5\n",
	"p sp 4000000000 0\n",
	"2 1\n1113 1\n3 2\n",
	"1 3 5\n2 4 5 10\n3 1 5 8 10\n4\n5 3 4 8\n",
	"# adjacency\n7\n8 7\n9 7 8\n",
	"1 2 0.5\n1 3 5.0\n2 1 1e30\n3 2 -0.0\n",
	"",
}

// fuzzReadCheck reads data in format (auto when "") and checks that Read
// either fails with an error naming the file, or returns a well-formed graph.
func fuzzReadCheck(t *testing.T, data []byte, format Format, flags uint8) *Graph {
	t.Helper()
	opt := fuzzOptions(format, flags)
	var g *Graph
	var err error
	testenv.WithinBudget(t, len(data), func() { g, err = Read(bytes.NewReader(data), "fuzz.in", opt) })
	if err != nil {
		if !strings.HasPrefix(err.Error(), "fuzz.in") {
			t.Fatalf("error does not name the file: %v", err)
		}
		return nil
	}
	readWellFormed(t, g)
	if g.Name != "fuzz.in" || g.Directed != opt.Directed || (g.Weights != nil) != opt.Weighted {
		t.Fatalf("Name %q Directed %v weights %v for %+v", g.Name, g.Directed, g.Weights != nil, opt)
	}
	n := g.NumVertices()
	if f := format; (f == FormatMTX || f == FormatMETIS || f == FormatDIMACS) && n > 0 {
		// Labels are strictly increasing (readWellFormed), so these two
		// make them exactly 1..n.
		if g.Label(0) != 1 || g.Label(uint32(n-1)) != uint64(n) {
			t.Fatalf("labels run %d..%d, want 1..%d", g.Label(0), g.Label(uint32(n-1)), n)
		}
	}
	// A header may declare millions of isolated vertices; sample those.
	step := max(1, n/4096)
	for v := 0; v < n; v += step {
		if u, ok := g.Lookup(g.Label(uint32(v))); !ok || u != uint32(v) {
			t.Fatalf("Lookup(Label(%d)) = %d, %v", v, u, ok)
		}
	}
	if n+len(g.Adj) > 1<<16 {
		return g
	}
	// Reading is deterministic, random weights included.
	again, err := Read(bytes.NewReader(data), "fuzz.in", opt)
	if err != nil || !slices.Equal(again.Adj, g.Adj) || !slices.Equal(again.Weights, g.Weights) {
		t.Fatalf("second read differs: %v", err)
	}
	return g
}

// fuzzOptions derives read options from the fuzzer's flag byte.
func fuzzOptions(format Format, flags uint8) ReadOptions {
	opt := ReadOptions{Format: format, Directed: flags&1 != 0, Weighted: flags&2 != 0, FloatWeights: flags&8 != 0, Seed: uint64(flags)}
	if flags&4 != 0 {
		opt.RandomWeights = uint32(flags>>4) + 1
	}
	return opt
}

func fuzzReadFormat(f *testing.F, format Format) {
	for _, s := range readFuzzSeeds {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(7))
	}
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		fuzzReadCheck(t, data, format, flags)
	})
}

func FuzzReadEdgeList(f *testing.F) { fuzzReadFormat(f, FormatEdgeList) }
func FuzzReadMTX(f *testing.F)      { fuzzReadFormat(f, FormatMTX) }
func FuzzReadMETIS(f *testing.F)    { fuzzReadFormat(f, FormatMETIS) }
func FuzzReadDIMACS(f *testing.F)   { fuzzReadFormat(f, FormatDIMACS) }
func FuzzReadAdj(f *testing.F)      { fuzzReadFormat(f, FormatAdj) }

// FuzzReadVE reads the two files of a Graphalytics pair, split from one
// input at its first NUL byte, and checks that every .v vertex exists and
// that errors name one of the two files.
func FuzzReadVE(f *testing.F) {
	f.Add([]byte("1\n2\n3\n\x001 2 0.5\n2 3 1\n"), uint8(2))
	f.Add([]byte("1\n2\n3\n4\n\x001 2\n"), uint8(9))
	f.Add([]byte("5\n5\n\x005 5 1\n"), uint8(0))
	f.Add([]byte("1\n\x001 2 3 4\n"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, flags uint8) {
		v, e, _ := bytes.Cut(data, []byte{0})
		opt := fuzzOptions(FormatVE, flags)
		var g *Graph
		var err error
		testenv.WithinBudget(t, len(data), func() {
			g, err = ReadVE(bytes.NewReader(v), bytes.NewReader(e), "fuzz.v", "fuzz.e", opt)
		})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.v") && !strings.HasPrefix(err.Error(), "fuzz.e") {
				t.Fatalf("error does not name a file: %v", err)
			}
			return
		}
		readWellFormed(t, g)
		if lines := bytes.Count(v, []byte("\n")) + 1; g.NumVertices() > lines {
			t.Fatalf("%d vertices from a .v file of %d lines", g.NumVertices(), lines)
		}
	})
}

// FuzzDetect checks that detection never panics, that Read with FormatAuto
// reads what DetectFormat names, and that the result is well-formed.
func FuzzDetect(f *testing.F) {
	names := []string{"in.txt", "in.graph", "in.mtx", "in.gr", "in-input"}
	for _, s := range readFuzzSeeds {
		for k := range names {
			f.Add([]byte(s), uint8(k))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, k uint8) {
		name := names[int(k)%len(names)]
		var format Format
		var err error
		testenv.WithinBudget(t, len(data), func() { format, err = DetectFormat(name, data) })
		if err != nil {
			if format != FormatAuto || !strings.HasPrefix(err.Error(), name) {
				t.Fatalf("DetectFormat = %q, %v", format, err)
			}
		} else if !slices.Contains(Formats, format) {
			t.Fatalf("DetectFormat = %q", format)
		}
		var g *Graph
		var rerr error
		testenv.WithinBudget(t, len(data), func() { g, rerr = Read(bytes.NewReader(data), name, ReadOptions{}) })
		if rerr == nil {
			readWellFormed(t, g)
		}
		if len(data) >= detectHeadSize {
			return
		}
		// The whole input is the head: Read must agree with DetectFormat.
		if err != nil {
			if rerr == nil || rerr.Error() != err.Error() {
				t.Fatalf("DetectFormat fails with %v but Read gives %v", err, rerr)
			}
			return
		}
		forced, ferr := Read(bytes.NewReader(data), name, ReadOptions{Format: format})
		if (ferr == nil) != (rerr == nil) {
			t.Fatalf("auto read: %v; read as detected %s: %v", rerr, format, ferr)
		}
		if ferr == nil && (!slices.Equal(forced.Adj, g.Adj) || !slices.Equal(forced.Offsets, g.Offsets)) {
			t.Fatalf("auto read differs from read as detected %s", format)
		}
		if ferr != nil && !strings.Contains(rerr.Error(), "read as "+string(format)+", detected") {
			t.Fatalf("error in a detected format does not say so: %v", rerr)
		}
	})
}
