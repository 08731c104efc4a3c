package graph

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Limits that keep a corrupt or hostile header from costing memory or time
// out of proportion to the file.
const (
	// readBufferSize is the bufio buffer of the readers: lines shorter than
	// this are parsed in place, without copying.
	readBufferSize = 1 << 20
	// growCap caps the edges preallocated from a header's edge count; the
	// rest grows with the data actually read.
	growCap = 1 << 22
	// maxHeaderVertices is the largest vertex count a header may declare:
	// vertex ids are uint32 and Offsets needs V+1 entries.
	maxHeaderVertices = math.MaxUint32 - 1
	// maxIsolated caps the vertices that a Matrix Market or DIMACS header may
	// declare beyond those its entries can touch (two per entry). Real files
	// have a few isolated vertices; a header that declares millions more than
	// its entries can reach is corrupt, and honouring it would allocate
	// gigabytes for a file of a few bytes.
	maxIsolated = 1 << 24
)

// ReadFile reads the graph in the file at path, detecting its format from the
// content unless opt.Format forces one. The graph's Name is the file's base
// name, which is also how errors name the file (power.graph:7: ...), so that
// messages stay short and do not depend on where the file lives.
//
// The Graphalytics pair (FormatVE) is two files: path names the .e file
// (or the .v file) and the other one lies beside it. With FormatAuto, a
// path ending in .e with a .v beside it is read as the pair.
func ReadFile(path string, opt ReadOptions) (*Graph, error) {
	return readFile(path, opt, nil)
}

func readFile(path string, opt ReadOptions, w *watch) (*Graph, error) {
	if opt.Format == FormatVE || (opt.Format == FormatAuto && isVEPair(path)) {
		return readVEFiles(path, opt, w)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(f, filepath.Base(path), opt, w, fileSize(path))
}

// Read reads a graph from r. name is the graph's Name and stands for the file
// in error messages; Read exists beside ReadFile for data that is not in a
// file (tests, archives, standard input).
//
// With opt.Format == FormatAuto the format is detected from the first 64 KiB
// (see DetectFormat); an error in a detected format says which format was
// assumed and how to force another, because a wrong guess must never pass
// silently. Edge weights are kept only with opt.Weighted: then edges without
// a weight in the file weigh 1, or a seeded random weight when
// opt.RandomWeights > 0 (RandomWeights alone, without Weighted, adds none).
//
// gzip-compressed input (SNAP ships its graphs as .txt.gz) is decompressed
// on the fly; the format is detected from the decompressed content and the
// name without its .gz, and errors give the decompressed line numbers.
func Read(r io.Reader, name string, opt ReadOptions) (*Graph, error) {
	return read(r, name, opt, nil, 0)
}

// read is Read with progress reports against size bytes (0: unknown).
func read(r io.Reader, name string, opt ReadOptions, w *watch, size int64) (*Graph, error) {
	br := bufio.NewReaderSize(r, readBufferSize)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(&gzipErrors{zr, name}, readBufferSize)
		size = 0 // the file's size is compressed: progress has no total
	}
	format := opt.Format
	detected := false
	if format == FormatAuto {
		head, err := br.Peek(detectHeadSize)
		complete := false
		switch {
		case err == nil:
		case errors.Is(err, io.EOF):
			complete = true
		default:
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		f, err := detectFormat(strings.TrimSuffix(name, ".gz"), head, complete)
		if err != nil {
			return nil, err
		}
		format, detected = f, true
	}
	lr := &lineReader{r: br, name: name, watch: w, size: size}
	var (
		g   *Graph
		err error
	)
	switch format {
	case FormatEdgeList:
		g, err = readEdgeList(lr, opt)
	case FormatMTX:
		g, err = readMTX(lr, opt)
	case FormatMETIS:
		g, err = readMETIS(lr, opt)
	case FormatDIMACS:
		g, err = readDIMACS(lr, opt)
	case FormatAdj:
		g, err = readAdj(lr, opt)
	case FormatVE:
		return nil, fmt.Errorf("%s: the ve format is a pair of files (NAME.v and NAME.e): give the path of the .e file", name)
	default:
		return nil, fmt.Errorf("%s: unknown format %q; valid formats are %s", name, string(format), formatList)
	}
	if err := w.failed(); err != nil {
		return nil, err
	}
	if err != nil {
		if detected {
			err = &detectedError{err: err, format: format}
		}
		return nil, err
	}
	g.Name = name
	return g, nil
}

// gzipErrors names the file in the errors of a gzip stream (a corrupt or
// truncated archive), which the readers report as read errors.
type gzipErrors struct {
	r    io.Reader
	name string
}

func (g *gzipErrors) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = fmt.Errorf("gzip-compressed data: %w", err)
	}
	return n, err
}

// formatList is how errors list the values ParseFormat accepts.
const formatList = "auto, edgelist (or snap), mtx, metis, dimacs (or gr), adj, ve"

// ParseFormat turns a --format value into a Format, so that the command line
// and configuration files accept the same spellings, including the aliases
// people know the formats by (snap for edge lists, gr for DIMACS).
func ParseFormat(s string) (Format, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "auto":
		return FormatAuto, nil
	case "edgelist", "snap":
		return FormatEdgeList, nil
	case "mtx":
		return FormatMTX, nil
	case "metis":
		return FormatMETIS, nil
	case "dimacs", "gr":
		return FormatDIMACS, nil
	case "adj", "adjacency":
		return FormatAdj, nil
	case "ve":
		return FormatVE, nil
	}
	return FormatAuto, fmt.Errorf("unknown format %q; valid formats are %s", s, formatList)
}

// UnmarshalText reads a notebook, JSON or flag value with ParseFormat.
func (f *Format) UnmarshalText(b []byte) error {
	v, err := ParseFormat(string(b))
	if err == nil {
		*f = v
	}
	return err
}

// MarshalText writes the format as files and flags spell it: "auto" for
// FormatAuto.
func (f Format) MarshalText() ([]byte, error) {
	if f == FormatAuto {
		return []byte("auto"), nil
	}
	return []byte(f), nil
}

// parseError is a problem at one line of one file. Line 0 means the problem
// concerns the file as a whole.
type parseError struct {
	file string
	line int
	msg  string
}

func (e *parseError) Error() string {
	if e.line <= 0 {
		return e.file + ": " + e.msg
	}
	return e.file + ":" + strconv.Itoa(e.line) + ": " + e.msg
}

// detectedError marks an error in a format that was detected rather than
// asked for, and tells the user how to override the guess.
type detectedError struct {
	err    error
	format Format
}

func (e *detectedError) Error() string {
	var others []string
	for _, f := range Formats {
		if f != e.format && f != FormatVE { // a pair of files is never detected from one
			others = append(others, string(f))
		}
	}
	return fmt.Sprintf("%v (read as %s, detected from the content; if the file is in another format, force it with --format %s)",
		e.err, e.format, strings.Join(others, "|"))
}

func (e *detectedError) Unwrap() error { return e.err }

// lineReader hands out the lines of a file without their line ends, counting
// them for error messages. Lines that fit the bufio buffer are not copied.
type lineReader struct {
	r    *bufio.Reader
	name string
	n    int    // number of the line last returned, 1-based
	long []byte // assembles lines longer than the buffer
	err  error  // a read error other than io.EOF
	bad  error  // a line that no format accepts
	// watch reports the bytes read of size and stops at cancellation.
	watch      *watch
	read, size int64
}

// next returns the next line, or false at the end of the input, on a read
// error, or on a line with a carriage return inside (then readErr tells).
// The slice is valid until the next call.
func (lr *lineReader) next() ([]byte, bool) {
	line, err := lr.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		lr.long = append(lr.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			if bytes.IndexByte(line, 0) >= 0 {
				break // binary data (a device such as /dev/zero): no line end may ever come
			}
			line, err = lr.r.ReadSlice('\n')
			lr.long = append(lr.long, line...)
		}
		line = lr.long
	}
	if bytes.IndexByte(line, 0) >= 0 {
		lr.bad = lr.errorAt(lr.n+1, "binary data (a NUL byte): not a graph in a text format")
		return nil, false
	}
	if err != nil && !errors.Is(err, io.EOF) {
		lr.err = err
		return nil, false
	}
	if len(line) == 0 {
		return nil, false
	}
	lr.read += int64(len(line))
	if lr.watch != nil && lr.n%tick == 0 && !lr.watch.at("reading "+lr.name, lr.read, lr.size) {
		lr.err = lr.watch.err
		return nil, false
	}
	lr.n++
	if line[len(line)-1] == '\n' {
		line = line[:len(line)-1]
	}
	for len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1] // CR LF, and CR CR LF of twice-converted files
	}
	if lr.n == 1 {
		line = bytes.TrimPrefix(line, utf8BOM)
	}
	if bytes.IndexByte(line, '\r') >= 0 {
		// Old Mac line ends (CR alone) would make the file one long line,
		// of which only the first fields would count: refuse it.
		lr.bad = lr.errorf("carriage return inside the line: the file seems to end its lines with CR alone; convert them to LF")
		return nil, false
	}
	return line, true
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// errorf returns a parse error at the line last read.
func (lr *lineReader) errorf(format string, args ...any) error {
	return lr.errorAt(lr.n, format, args...)
}

// errorAt returns a parse error at the given line (0: the whole file).
func (lr *lineReader) errorAt(line int, format string, args ...any) error {
	return &parseError{file: lr.name, line: line, msg: fmt.Sprintf(format, args...)}
}

// readErr reports a read error after the line loop, if there was one.
func (lr *lineReader) readErr() error {
	if lr.bad != nil {
		return lr.bad
	}
	if lr.err == nil {
		return nil
	}
	return fmt.Errorf("%s:%d: read error: %w", lr.name, lr.n+1, lr.err)
}

// isFieldSpace reports the field separators of all formats: spaces and tabs
// (and their rare vertical cousins). A carriage return is not one: line ends
// are trimmed of it, and one inside a line is an error (see lineReader.next).
func isFieldSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f'
}

// nextField returns the whitespace-separated field of b starting at or after
// i, and the index after it; an empty field means the line is exhausted.
func nextField(b []byte, i int) ([]byte, int) {
	for i < len(b) && isFieldSpace(b[i]) {
		i++
	}
	s := i
	for i < len(b) && !isFieldSpace(b[i]) {
		i++
	}
	return b[s:i], i
}

// countLineFields returns the number of fields of b.
func countLineFields(b []byte) int {
	n := 0
	for i := 0; ; n++ {
		var f []byte
		if f, i = nextField(b, i); len(f) == 0 {
			return n
		}
	}
}

// firstNonSpace returns the first non-space byte of b, or 0 for a blank line.
func firstNonSpace(b []byte) byte {
	for _, c := range b {
		if !isFieldSpace(c) {
			return c
		}
	}
	return 0
}

// parseDecimal parses a non-empty string of decimal digits that fits in 64
// bits. It works on bytes so that the readers need not allocate strings.
func parseDecimal(f []byte) (uint64, bool) {
	if len(f) == 0 {
		return 0, false
	}
	var x uint64
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if x > (math.MaxUint64-d)/10 {
			return 0, false
		}
		x = x*10 + d
	}
	return x, true
}

// quoteField quotes a field for an error message, shortened so that binary
// garbage does not flood the terminal.
func quoteField(f []byte) string {
	const limit = 40
	if len(f) > limit {
		return strconv.Quote(string(f[:limit])) + "..."
	}
	return strconv.Quote(string(f))
}

// isSignedInteger reports whether f looks like a signed decimal integer.
func isSignedInteger(f []byte) bool {
	if len(f) > 0 && (f[0] == '-' || f[0] == '+') {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	for _, c := range f {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseIntWeight parses an integer edge weight, which must fit in uint32.
func parseIntWeight(f []byte) (uint32, string) {
	if len(f) > 0 && f[0] == '+' {
		f = f[1:]
	}
	if len(f) > 0 && f[0] == '-' {
		if x, ok := parseDecimal(f[1:]); ok && x == 0 {
			return 0, ""
		}
		if isSignedInteger(f) {
			return 0, fmt.Sprintf("weight %s is negative", quoteField(f))
		}
		return 0, fmt.Sprintf("weight %s is not an integer", quoteField(f))
	}
	x, ok := parseDecimal(f)
	if !ok {
		if isSignedInteger(f) {
			return 0, fmt.Sprintf("weight %s exceeds %d", quoteField(f), uint32(math.MaxUint32))
		}
		return 0, fmt.Sprintf("weight %s is not an integer", quoteField(f))
	}
	if x > math.MaxUint32 {
		return 0, fmt.Sprintf("weight %s exceeds %d", quoteField(f), uint32(math.MaxUint32))
	}
	return uint32(x), ""
}

// weightReader turns the weight fields of a file into stored weights under
// the rules of ReadOptions.Weighted, and counts the real weights it rounds.
type weightReader struct {
	float   bool
	rng     *rand.Rand
	max     uint32
	rounded Rounding
}

func newWeightReader(opt ReadOptions) *weightReader {
	w := &weightReader{float: opt.FloatWeights}
	if opt.RandomWeights > 0 {
		w.rng, w.max = rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15)), opt.RandomWeights
	}
	return w
}

// missing returns the weight of an edge without one in the file: 1, or a
// seeded draw from [1, RandomWeights].
func (w *weightReader) missing() uint32 {
	x := uint32(1)
	if w.rng != nil {
		x = 1 + w.rng.Uint32N(w.max)
	}
	return w.fromInt(x)
}

func (w *weightReader) fromInt(x uint32) uint32 {
	if w.float {
		return math.Float32bits(float32(x))
	}
	return x
}

// parse parses a weight written as an integer or a real number.
func (w *weightReader) parse(lr *lineReader, f []byte) (uint32, error) {
	if isSignedInteger(f) {
		return w.parseInt(lr, f)
	}
	return w.parseReal(lr, f)
}

// parseInt parses a weight that the format declares to be an integer.
func (w *weightReader) parseInt(lr *lineReader, f []byte) (uint32, error) {
	x, msg := parseIntWeight(f)
	if msg != "" {
		return 0, lr.errorf("%s", msg)
	}
	return w.fromInt(x), nil
}

// parseReal parses a weight written as a real number. Stored as an integer,
// it is rounded to the nearest one, and a positive weight to at least 1
// (a weight 0 would make an edge of 0.3 free); the first rounding is kept
// for Graph.Notes.
func (w *weightReader) parseReal(lr *lineReader, f []byte) (uint32, error) {
	x, err := strconv.ParseFloat(string(f), 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, lr.errorf("weight %s is not a number", quoteField(f))
	case math.IsNaN(x) || (math.IsInf(x, 0) && err == nil):
		return 0, lr.errorf("weight %s is not a finite number", quoteField(f))
	case x < 0 || (math.IsInf(x, -1)):
		return 0, lr.errorf("weight %s is negative", quoteField(f))
	}
	if w.float {
		if x > math.MaxFloat32 {
			return 0, lr.errorf("weight %s exceeds the f32 range (at most %g)", quoteField(f), math.MaxFloat32)
		}
		return math.Float32bits(float32(x)), nil
	}
	r := math.Round(x)
	if r == 0 && x > 0 {
		r = 1
	}
	if r > math.MaxUint32 {
		return 0, lr.errorf("weight %s exceeds %d, the largest integer weight (a kernel whose edge field is f32 reads real weights)", quoteField(f), uint32(math.MaxUint32))
	}
	if r != x {
		if w.rounded.Count == 0 {
			w.rounded = Rounding{File: lr.name, Line: lr.n, Text: string(f), To: uint32(r)}
		}
		w.rounded.Count++
	}
	return uint32(r), nil
}

// finish records what the reader did with the weights in g.
func (w *weightReader) finish(g *Graph, opt ReadOptions) *Graph {
	if g.Weights != nil {
		g.FloatWeights = opt.FloatWeights
		g.Rounded = w.rounded
	}
	return g
}

// isNumber reports whether f is an integer or a finite real number, as a
// value column that is not read as a weight must be.
func isNumber(f []byte) bool {
	if isSignedInteger(f) {
		return true
	}
	x, err := strconv.ParseFloat(string(f), 64)
	return (err == nil || errors.Is(err, strconv.ErrRange)) && !math.IsNaN(x) && !math.IsInf(x, 0)
}

// oneBasedLabels returns the labels 1..n of the formats that number vertices
// from 1, so that results are reported under the file's own ids.
func oneBasedLabels(n int) []uint64 {
	if n == 0 {
		return nil
	}
	l := make([]uint64, n)
	for i := range l {
		l[i] = uint64(i) + 1
	}
	return l
}

// checkDeclaredVertices validates a header's vertex count against the entries the
// file declares, before anything is allocated from it.
// The error is at the line last read, which is the header.
func checkDeclaredVertices(lr *lineReader, n, entries uint64) error {
	if n > maxHeaderVertices {
		return lr.errorf("%d vertices exceed the 32-bit id range (at most %d)", n, uint64(maxHeaderVertices))
	}
	if entries < (math.MaxUint64-maxIsolated)/2 && n > 2*entries+maxIsolated {
		return lr.errorf("%d vertices but only %d entries: more than %d vertices would be isolated, the header looks corrupt", n, entries, maxIsolated)
	}
	return nil
}
