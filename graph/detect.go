package graph

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
)

// detectHeadSize is how much of a file Read looks at to detect its format.
const detectHeadSize = 64 << 10

// DetectFormat tells the format of a file from its first bytes. The content
// decides; the name's extension only breaks a tie, because extensions lie:
// ".graph" is METIS in some repositories and a plain edge list in others, and
// some ".mtx" files have no Matrix Market banner at all.
//
// head is the beginning of the file; a head shorter than 64 KiB is taken to
// be the whole file, which lets DetectFormat check a METIS header's counts
// exactly. The rules, in order:
//   - a %%MatrixMarket banner means Matrix Market;
//   - a first line "c ...", "p ..." or "a ..." means DIMACS .gr;
//   - a '#' comment rules out METIS (whose comments start with '%');
//   - a first line "n m [fmt [ncon]]" followed by lines that no edge list
//     has (a line of one field, or lines of three or more different
//     lengths) means METIS;
//   - a first line "n m [fmt [ncon]]" followed by lines of edge-list shape
//     means METIS only if they are consistent with it: neighbour ids within
//     1..n, at most n lines (n exactly when head is the whole file), at most
//     2m neighbours (m or 2m when whole), and adjacency lists that list each
//     other; when nothing tells the two apart, an extension .graph, .metis
//     or .chaco chooses METIS;
//   - lines of vertex ids only, of which some have more than three
//     columns or whose lengths take three or more values (a vertex
//     alone, with one neighbour, with two), are the vertex-based
//     adjacency format of LDBC Graphalytics;
//   - anything else that starts with a number is an edge list.
//
// It fails for empty, compressed or unrecognisable content.
func DetectFormat(name string, head []byte) (Format, error) {
	return detectFormat(name, head, len(head) < detectHeadSize)
}

// detectFormat is DetectFormat for a head that is the whole file when
// complete is true.
func detectFormat(name string, head []byte, complete bool) (Format, error) {
	head = bytes.TrimPrefix(head, utf8BOM)
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		return FormatAuto, fmt.Errorf("%s: the content is gzip-compressed; detect the format of the decompressed data (Read does)", name)
	}
	if i := bytes.IndexByte(head, 0); i >= 0 {
		return FormatAuto, fmt.Errorf("%s: binary data (a NUL byte at offset %d): not a graph in a text format", name, i)
	}
	if !complete {
		// Drop the last line, which the head may cut short. A head without
		// any line end is one long first line: keep it for its prefix.
		if k := bytes.LastIndexByte(head, '\n'); k >= 0 {
			head = head[:k+1]
		}
	}
	lines := splitHeadLines(head)

	first := -1
	for k, l := range lines {
		if firstNonSpace(l) != 0 {
			first = k
			break
		}
	}
	if first < 0 {
		return FormatAuto, fmt.Errorf("%s: the file is empty; nothing to detect a format from", name)
	}
	f, _ := nextField(lines[first], 0)
	if hasPrefixFold(f, "%%MatrixMarket") {
		return FormatMTX, nil
	}
	if isDIMACSWord(f) {
		return FormatDIMACS, nil
	}

	// The significant lines: '#' rules out METIS (whose comments start
	// with '%'), '%' comments are skipped (both edge lists and METIS use
	// them).
	var sig [][]byte
	hash := false
	for _, l := range lines[first:] {
		switch firstNonSpace(l) {
		case '#':
			hash = true
			continue
		case '%':
			continue
		}
		sig = append(sig, l)
	}
	// Blank lines before the first significant line do not count; after
	// it they may be METIS lines of isolated vertices.
	for len(sig) > 0 && firstNonSpace(sig[0]) == 0 {
		sig = sig[1:]
	}
	if len(sig) == 0 {
		// Only comments: an empty edge list, or a METIS file cut before
		// its header; the extension decides.
		if !hash && hasMETISExt(name) {
			return FormatMETIS, nil
		}
		return FormatEdgeList, nil
	}
	if c := firstNonSpace(sig[0]); c < '0' || c > '9' {
		return FormatAuto, fmt.Errorf("%s: cannot detect the format: the first line %s is neither a Matrix Market banner, a DIMACS line, a METIS header nor an edge; force the format with --format", name, quoteField(sig[0]))
	}
	if !hash {
		switch v := metisEvidence(sig, complete); {
		case v == metisYes, v == metisMaybe && hasMETISExt(name):
			return FormatMETIS, nil
		}
	}
	if adjacencyShaped(sig) {
		return FormatAdj, nil
	}
	return FormatEdgeList, nil
}

// adjacencyShaped reports whether lines that are not METIS read as the
// vertex-based adjacency format rather than as an edge list: every field
// is a vertex id, and some line has more than the three columns of a
// weighted edge, or the lines have three or more different lengths (a
// vertex alone, with one neighbour, with two).
func adjacencyShaped(sig [][]byte) bool {
	widths := map[int]bool{}
	for _, l := range sig {
		n := 0
		for i := 0; ; n++ {
			var f []byte
			if f, i = nextField(l, i); len(f) == 0 {
				break
			}
			if !isDigits(f) {
				return false
			}
		}
		if n > 0 {
			widths[n] = true
		}
	}
	for w := range widths {
		if w > 3 {
			return true
		}
	}
	return len(widths) >= 3
}

// splitHeadLines splits b at line ends, dropping '\r' before them; a final line
// end does not start another line.
func splitHeadLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		k := bytes.IndexByte(b, '\n')
		var l []byte
		if k < 0 {
			l, b = b, nil
		} else {
			l, b = b[:k], b[k+1:]
		}
		lines = append(lines, bytes.TrimRight(l, "\r"))
	}
	return lines
}

// isDIMACSWord reports whether the first field of a file's first line is
// a DIMACS line type: "c", "p" or "a", or a comment glued to its c as in
// "c----".
func isDIMACSWord(f []byte) bool {
	switch {
	case len(f) == 1:
		return f[0] == 'c' || f[0] == 'p' || f[0] == 'a'
	case len(f) > 1 && f[0] == 'c':
		c := f[1]
		return !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9')
	}
	return false
}

// hasMETISExt reports whether name has an extension that METIS files use.
func hasMETISExt(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".graph", ".metis", ".chaco":
		return true
	}
	return false
}

type metisVerdict int

const (
	metisNo    metisVerdict = iota // inconsistent with METIS
	metisYes                       // unlike an edge list, or consistent and mirrored
	metisMaybe                     // consistent, but shaped like an edge list too
)

// metisEvidence checks whether sig (the non-comment lines, the first being
// the candidate header) reads as a METIS file.
func metisEvidence(sig [][]byte, complete bool) metisVerdict {
	h, msg := parseMETISHeader(sig[0])
	if msg != "" || h.n > maxHeaderVertices {
		return metisNo
	}
	// A line of one field, or lines of many different lengths, no edge
	// list has: then METIS it is, and a METIS error, if any, is the one
	// to report.
	widths := make(map[int]bool)
	for _, l := range sig[1:] {
		switch nf := countLineFields(l); nf {
		case 0:
		case 1:
			return metisYes
		default:
			widths[nf] = true
		}
	}
	if len(widths) >= 3 {
		return metisYes
	}
	maxEntries := h.m
	if h.m <= math.MaxUint64/2 {
		maxEntries = 2 * h.m
	}
	var (
		lists     [][]uint64 // sorted neighbour lists of the vertex lines
		entries   uint64
		vertLines uint64
	)
	for _, l := range sig[1:] {
		if vertLines == h.n {
			if firstNonSpace(l) == 0 {
				continue
			}
			return metisNo
		}
		vertLines++
		nb, ok := metisLine(l, h)
		if !ok {
			return metisNo
		}
		entries += uint64(len(nb))
		if entries > maxEntries {
			return metisNo
		}
		slices.Sort(nb)
		lists = append(lists, nb)
	}
	if complete && (vertLines != h.n || (entries != h.m && entries != maxEntries)) {
		return metisNo
	}
	// Shaped like an edge list: only adjacency lists that list each other
	// tell METIS apart.
	mirrored := 0
	for u, nb := range lists {
		for _, v := range nb {
			if v > uint64(len(lists)) || v == uint64(u+1) {
				continue
			}
			if _, found := slices.BinarySearch(lists[v-1], uint64(u+1)); !found {
				return metisNo
			}
			mirrored++
		}
	}
	if mirrored > 0 {
		return metisYes
	}
	return metisMaybe
}

// metisLine parses one vertex line under header h, returning its neighbours,
// or false when the line does not fit the header.
func metisLine(l []byte, h metisHeader) ([]uint64, bool) {
	i := 0
	var f []byte
	for k := 0; k < h.fieldsFixed; k++ {
		if f, i = nextField(l, i); len(f) == 0 {
			return nil, false
		}
		if _, ok := parseDecimal(f); !ok {
			return nil, false
		}
	}
	var nb []uint64
	for {
		if f, i = nextField(l, i); len(f) == 0 {
			return nb, true
		}
		v, ok := parseDecimal(f)
		if !ok || v < 1 || v > h.n {
			return nil, false
		}
		if h.ewgts {
			if f, i = nextField(l, i); len(f) == 0 || !isSignedInteger(f) {
				return nil, false
			}
		}
		nb = append(nb, v)
	}
}
