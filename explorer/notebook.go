package explorer

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
	"github.com/pelletier/go-toml/v2"
)

// FormatVersion is the notebook file format version this package writes.
const FormatVersion = 1

// Notebook is an ordered list of cells: the document the TUI edits and
// `gravf-tui run` evaluates. Cells depend on the cells above them (see
// Cell.Deps); results are cached by a hash of their inputs, so a cell is
// stale exactly when no result for its current inputs is cached.
//
// A Notebook is not safe for concurrent use: the TUI mutates it on its
// update goroutine and runs Jobs, which hold no reference to it, in the
// background.
type Notebook struct {
	// Title is the notebook's heading.
	Title string
	// Path is the file the notebook was loaded from or last saved to ("" for
	// a new one). Relative paths in cells resolve against its folder.
	Path  string
	Cells []*Cell

	header      string // the header text as read, kept while Title is unchanged
	headerTitle string
	dirty       bool
	undo        []snapshot
	cache       *cache
}

// Cell is one cell of a notebook.
type Cell struct {
	In Input
	// Line is the line of the cell's `[[cell]]` header in the file it was
	// read from (0 for a new cell), for error messages.
	Line int

	raw string // source text while the cell is unedited; "" once edited
}

// snapshot is one undo step: the notebook's cells as text (their source
// text while unedited, so that undo restores comments too).
type snapshot struct {
	title string
	cells []cellText
	what  string
}

type cellText struct {
	text string
	raw  bool
	line int
}

// ParseError locates a problem in a notebook file.
type ParseError struct {
	File      string
	Line, Col int
	// Cell is the 1-based cell number (0 for the header).
	Cell int
	Msg  string
}

// Error implements error as "file:line:col: cell N: message".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Cell > 0 {
		fmt.Fprintf(&b, "cell %d: ", e.Cell)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// New returns an empty notebook with a title.
func New(title string) *Notebook {
	return &Notebook{Title: title, cache: newCache()}
}

// Load reads a notebook file.
func Load(path string) (*Notebook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	nb, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	nb.Path = path
	return nb, nil
}

// header is the notebook's top-level table.
type header struct {
	Version int    `toml:"version"`
	Title   string `toml:"title"`
}

// Parse reads a notebook from data; file names it in errors. The file is a
// TOML document with `version`, `title` and an array of `[[cell]]` tables,
// each with a `kind` and that kind's keys. Every error names the file, the
// line and the cell.
func Parse(file string, data []byte) (*Notebook, error) {
	text := string(data)
	if strings.ContainsRune(text, '\r') {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	// The whole document must be valid TOML first, so that splitting at the
	// `[[cell]]` lines below cannot cut a multi-line string in two.
	var whole struct {
		Version int              `toml:"version"`
		Title   string           `toml:"title"`
		Cell    []map[string]any `toml:"cell"`
	}
	if err := toml.Unmarshal([]byte(text), &whole); err != nil {
		return nil, tomlError(file, 0, 0, err)
	}
	segs := splitCells(text)
	if len(segs)-1 != len(whole.Cell) {
		return nil, &ParseError{File: file, Msg: fmt.Sprintf("found %d [[cell]] lines but %d cells: write each cell header as a line of its own, outside strings", len(segs)-1, len(whole.Cell))}
	}
	nb := New("")
	nb.header = segs[0].text
	var h header
	dec := toml.NewDecoder(strings.NewReader(segs[0].text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, tomlError(file, 0, 0, err)
	}
	if h.Version != FormatVersion {
		return nil, &ParseError{File: file, Line: keyLine(segs[0].text, "version", 1), Msg: fmt.Sprintf("version = %d: this gravf-tui reads notebook version %d", h.Version, FormatVersion)}
	}
	nb.Title, nb.headerTitle = h.Title, h.Title
	for i, seg := range segs[1:] {
		in, err := parseCell(file, i+1, seg)
		if err != nil {
			return nil, err
		}
		nb.Cells = append(nb.Cells, &Cell{In: in, Line: seg.line, raw: seg.text})
	}
	return nb, nil
}

// segment is a piece of the file: the header, or one cell from its
// `[[cell]]` line up to the next one.
type segment struct {
	text string
	line int // 1-based line of the first line
}

// splitCells cuts the text before every `[[cell]]` line; comment lines
// right above a cell header belong to that cell.
func splitCells(text string) []segment {
	lines := strings.SplitAfter(text, "\n")
	segs := []segment{{line: 1}}
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "[[cell]]" {
			continue
		}
		first := i
		for first > 0 && strings.HasPrefix(strings.TrimSpace(lines[first-1]), "#") && !isSegmentStart(segs, first-1) {
			first--
		}
		segs[len(segs)-1].text = joinLines(&b, lines, segs[len(segs)-1].line-1, first)
		segs = append(segs, segment{line: first + 1})
	}
	segs[len(segs)-1].text = joinLines(&b, lines, segs[len(segs)-1].line-1, len(lines))
	return segs
}

// isSegmentStart reports whether line i starts the last segment, so that
// a cell's leading comments are never taken from the previous header.
func isSegmentStart(segs []segment, i int) bool {
	return len(segs) > 1 && segs[len(segs)-1].line-1 == i
}

func joinLines(b *strings.Builder, lines []string, from, to int) string {
	b.Reset()
	for _, l := range lines[from:to] {
		b.WriteString(l)
	}
	return b.String()
}

func parseCell(file string, n int, seg segment) (Input, error) {
	var probe struct {
		Cell []struct {
			Kind string `toml:"kind"`
		} `toml:"cell"`
	}
	if err := toml.Unmarshal([]byte(seg.text), &probe); err != nil {
		return nil, tomlError(file, n, seg.line-1, err)
	}
	if len(probe.Cell) != 1 || probe.Cell[0].Kind == "" {
		return nil, &ParseError{File: file, Line: seg.line, Cell: n, Msg: "the cell has no kind (want kind = one of " + kindList() + ")"}
	}
	in, err := NewInput(Kind(probe.Cell[0].Kind))
	if err != nil {
		return nil, &ParseError{File: file, Line: keyLine(seg.text, "kind", seg.line), Cell: n, Msg: err.Error()}
	}
	// Decode into the defaults, strictly: a key of another kind is an error.
	body, err := stripKind(unwrapCell(seg.text))
	if err != nil {
		return nil, &ParseError{File: file, Line: seg.line, Cell: n, Msg: err.Error()}
	}
	dec := toml.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(in); err != nil {
		return nil, tomlError(file, n, seg.line-1, err)
	}
	if key, err := in.Check(); err != nil {
		return nil, &ParseError{File: file, Line: keyLine(seg.text, key, seg.line), Cell: n, Msg: fmt.Sprintf("%s: %v", in.Kind(), err)}
	}
	return in, nil
}

// unwrapCell turns a cell's text into a document of the cell's own keys:
// the `[[cell]]` line goes (blank, so that line numbers stay) and
// `[cell.x]` sub-table headers become `[x]`.
func unwrapCell(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "[[cell]]":
			lines[i] = ""
		case strings.HasPrefix(t, "[cell."):
			lines[i] = "[" + strings.TrimPrefix(t, "[cell.")
		}
	}
	return strings.Join(lines, "\n")
}

// stripKind blanks the `kind = ...` line of a cell body (keeping the line
// count, so that decoder positions stay true), because the kind is not a
// field of the input types.
func stripKind(body string) (string, error) {
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if k, _, ok := strings.Cut(t, "="); ok && strings.TrimSpace(k) == "kind" {
			lines[i] = ""
			return strings.Join(lines, "\n"), nil
		}
	}
	return "", errors.New("kind must be a key of its own line")
}

// keyLine finds the line of `key = ...` in a segment that starts at line
// first; it returns first when the key is not there.
func keyLine(text, key string, first int) int {
	if key == "" {
		return first
	}
	for i, l := range strings.Split(text, "\n") {
		k, _, ok := strings.Cut(strings.TrimSpace(l), "=")
		if ok && strings.TrimSpace(k) == key {
			return first + i
		}
	}
	return first
}

// tomlError turns a go-toml error into a ParseError with the file's line
// (the decoder counts from the segment's start, offset lines before it).
func tomlError(file string, cell, offset int, err error) error {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) && len(sm.Errors) > 0 {
		row, col := sm.Errors[0].Position()
		key := strings.Join(sm.Errors[0].Key(), ".")
		where := "for this cell kind"
		if cell == 0 {
			where = "in the notebook header (want version, title and [[cell]] tables)"
		}
		return &ParseError{File: file, Line: row + offset, Col: col, Cell: cell, Msg: fmt.Sprintf("unknown key %q %s", key, where)}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		return &ParseError{File: file, Line: row + offset, Col: col, Cell: cell, Msg: de.Error()}
	}
	return &ParseError{File: file, Cell: cell, Msg: err.Error()}
}

// Bytes renders the notebook file. Unedited cells and an unedited header
// keep their text byte for byte, so that loading and saving a file changes
// nothing; edited ones are written in the canonical form.
func (nb *Notebook) Bytes() []byte {
	var b bytes.Buffer
	if nb.header != "" && nb.Title == nb.headerTitle {
		b.WriteString(nb.header)
	} else {
		fmt.Fprintf(&b, "# gravf-tui notebook: open with `gravf-tui FILE`, evaluate with `gravf-tui run FILE`.\nversion = %d\ntitle = %s\n\n", FormatVersion, quote(nb.Title))
	}
	for _, c := range nb.Cells {
		if c.raw != "" {
			b.WriteString(c.raw)
			continue
		}
		b.WriteString(encodeCell(c.In))
	}
	return b.Bytes()
}

// Save writes the notebook to path through outfile (atomically, beside
// the file a symbolic link names, keeping the file's mode) and remembers
// path.
func (nb *Notebook) Save(path string) error {
	if path == "" {
		return errors.New("save: no file name")
	}
	data := nb.Bytes()
	if err := outfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("save: %w", err)
	}
	nb.Path = path
	nb.dirty = false
	// The file now holds exactly these bytes: keep them as the cells' text.
	if fresh, err := Parse(path, data); err == nil {
		nb.header, nb.headerTitle = fresh.header, fresh.headerTitle
		for i, c := range fresh.Cells {
			nb.Cells[i].raw = c.raw
			nb.Cells[i].Line = c.Line
		}
	}
	return nil
}

// Dirty reports unsaved changes.
func (nb *Notebook) Dirty() bool { return nb.dirty }

// Dir is the folder relative paths in cells resolve against.
func (nb *Notebook) Dir() string {
	if nb.Path == "" {
		return "."
	}
	return filepath.Dir(nb.Path)
}

// Resolve turns a path of a cell into one relative to the working
// directory.
func (nb *Notebook) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(nb.Dir(), p)
}

func (nb *Notebook) remember(what string) {
	s := snapshot{title: nb.Title, what: what}
	for _, c := range nb.Cells {
		if c.raw != "" {
			s.cells = append(s.cells, cellText{c.raw, true, c.Line})
		} else {
			s.cells = append(s.cells, cellText{text: encodeCell(c.In)})
		}
	}
	nb.undo = append(nb.undo, s)
	if len(nb.undo) > 100 {
		nb.undo = nb.undo[1:]
	}
	nb.dirty = true
}

// Edit changes cell i's input through f. The input is validated by Check
// after f; on error the cell is left as it was. The previous state is kept
// for Undo.
func (nb *Notebook) Edit(i int, f func(Input) error) error {
	if i < 0 || i >= len(nb.Cells) {
		return fmt.Errorf("no cell %d", i+1)
	}
	c := nb.Cells[i]
	before := encodeCell(c.In)
	in := cloneInput(c.In)
	if err := f(in); err != nil {
		return err
	}
	if _, err := in.Check(); err != nil {
		return err
	}
	if encodeCell(in) == before {
		return nil
	}
	nb.remember("edit cell " + fmt.Sprint(i+1))
	c.In, c.raw = in, ""
	return nil
}

// Insert adds a new cell of kind k with default inputs at position i.
func (nb *Notebook) Insert(i int, k Kind) error {
	in, err := NewInput(k)
	if err != nil {
		return err
	}
	i = max(0, min(i, len(nb.Cells)))
	nb.remember("add cell")
	nb.Cells = append(nb.Cells[:i], append([]*Cell{{In: in}}, nb.Cells[i:]...)...)
	return nil
}

// Delete removes cell i.
func (nb *Notebook) Delete(i int) error {
	if i < 0 || i >= len(nb.Cells) {
		return fmt.Errorf("no cell %d", i+1)
	}
	nb.remember("delete cell")
	nb.Cells = append(nb.Cells[:i], nb.Cells[i+1:]...)
	return nil
}

// Move swaps cell i with its neighbour by delta (-1 up, +1 down).
func (nb *Notebook) Move(i, delta int) error {
	j := i + delta
	if i < 0 || i >= len(nb.Cells) || j < 0 || j >= len(nb.Cells) {
		return fmt.Errorf("cannot move cell %d by %d", i+1, delta)
	}
	nb.remember("move cell")
	nb.Cells[i], nb.Cells[j] = nb.Cells[j], nb.Cells[i]
	return nil
}

// SetTitle changes the title.
func (nb *Notebook) SetTitle(t string) {
	if t != nb.Title {
		nb.remember("title")
		nb.Title = t
	}
}

// CanUndo reports whether Undo has something to undo, and what.
func (nb *Notebook) CanUndo() (string, bool) {
	if len(nb.undo) == 0 {
		return "", false
	}
	return nb.undo[len(nb.undo)-1].what, true
}

// Undo restores the notebook to before the last change. Cached results
// stay: an undone edit finds its old result by the input hash again.
func (nb *Notebook) Undo() error {
	if len(nb.undo) == 0 {
		return errors.New("nothing to undo")
	}
	s := nb.undo[len(nb.undo)-1]
	nb.undo = nb.undo[:len(nb.undo)-1]
	cells := make([]*Cell, len(s.cells))
	for i, ct := range s.cells {
		in, err := parseCell("undo", i+1, segment{text: ct.text, line: 1})
		if err != nil {
			return err
		}
		cells[i] = &Cell{In: in}
		if ct.raw {
			cells[i].raw, cells[i].Line = ct.text, ct.line
		}
	}
	nb.Title, nb.Cells, nb.dirty = s.title, cells, true
	return nil
}

func cloneInput(in Input) Input {
	c, err := parseCell("clone", 1, segment{text: encodeCell(in), line: 1})
	if err != nil {
		// encodeCell writes only what parseCell reads; a failure here is
		// an invalid input, which cannot be in a cell. Copy it shallowly.
		v := reflect.New(reflect.TypeOf(in).Elem())
		v.Elem().Set(reflect.ValueOf(in).Elem())
		return v.Interface().(Input)
	}
	return c
}

// Append adds a cell with the given input at the end, as a program that
// builds a notebook does (the CLI's explore). It is not an undoable edit.
func (nb *Notebook) Append(in Input) {
	nb.Cells = append(nb.Cells, &Cell{In: in})
	nb.dirty = true
}
