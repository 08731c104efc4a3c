package graph

import (
	"bufio"
	"bytes"
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
func ReadFile(path string, opt ReadOptions) (*Graph, error) {
	return readFile(path, opt, nil)
}

func readFile(path string, opt ReadOptions, w *watch) (*Graph, error) {
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
func Read(r io.Reader, name string, opt ReadOptions) (*Graph, error) {
	return read(r, name, opt, nil, 0)
}

// read is Read with progress reports against size bytes (0: unknown).
func read(r io.Reader, name string, opt ReadOptions, w *watch, size int64) (*Graph, error) {
	br := bufio.NewReaderSize(r, readBufferSize)
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
		f, err := detectFormat(name, head, complete)
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

// formatList is how errors list the values ParseFormat accepts.
const formatList = "auto, edgelist (or snap), mtx, metis, dimacs (or gr)"

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
		if f != e.format {
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

// parseRealWeight parses a real value and turns it into a weight: rounded,
// at least 1 (a zero or negative real has no meaning as a distance, and a
// weight 0 would let fractional weights such as 0.3 vanish), at most
// MaxUint32.
func parseRealWeight(f []byte) (uint32, string) {
	x, err := strconv.ParseFloat(string(f), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Sprintf("value %s is not a number", quoteField(f))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Sprintf("value %s is not a finite number", quoteField(f))
	}
	x = math.Round(x)
	switch {
	case x < 1:
		return 1, ""
	case x > math.MaxUint32:
		return math.MaxUint32, ""
	}
	return uint32(x), ""
}

// parseWeight parses an edge-list weight: an integer as is, a real number
// rounded as parseRealWeight does.
func parseWeight(f []byte) (uint32, string) {
	if isSignedInteger(f) {
		return parseIntWeight(f)
	}
	return parseRealWeight(f)
}

// weightSource gives the weights of edges whose file has none: 1, or a
// seeded uniform draw from [1, max].
type weightSource struct {
	rng *rand.Rand
	max uint32
}

func newWeightSource(opt ReadOptions) *weightSource {
	if opt.RandomWeights == 0 {
		return &weightSource{}
	}
	return &weightSource{rng: rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15)), max: opt.RandomWeights}
}

func (ws *weightSource) next() uint32 {
	if ws.rng == nil {
		return 1
	}
	return 1 + ws.rng.Uint32N(ws.max)
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
