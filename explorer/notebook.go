package explorer

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/internal/outfile"
	"github.com/gravf-tui/gravf-tui/internal/tomldoc"
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
	// redo holds the states Undo left, newest last; an edit clears it.
	redo  []snapshot
	group *editGroup
	cache *cache
	// keep saves expensive results beside the notebook (KeepResults);
	// restored holds when the results RestoreResults read were kept.
	keep     bool
	restored map[string]time.Time
	// noDiskCache keeps the prediction's reference run and profiles out
	// of the persistent cache (WithoutDiskCache).
	noDiskCache bool
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
	// dirty is whether the notebook had unsaved changes in this state.
	dirty bool
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

// Error implements error as "file:line:col: cell N: message", the form
// of every file error (see internal/tomldoc).
func (e *ParseError) Error() string {
	te := tomldoc.Error{File: e.File, Line: e.Line, Col: e.Col, Msg: e.Msg}
	if e.Cell > 0 {
		te.Key = fmt.Sprintf("cell %d", e.Cell)
	}
	return te.Error()
}

// New returns an empty notebook with a title.
func New(title string) *Notebook {
	return &Notebook{Title: title, cache: newCache()}
}

// WithoutDiskCache makes the notebook compute the prediction's reference
// run and profiles instead of reading and storing them in the persistent
// cache (internal/diskcache), as the --no-cache of the commands that run
// notebooks asks. The in-memory results of earlier evaluations are kept.
func (nb *Notebook) WithoutDiskCache() { nb.noDiskCache = true }

// diskCache is the persistent cache the notebook's jobs read and fill:
// nil when it is off (WithoutDiskCache, or GRAVF_CACHE=off).
func (nb *Notebook) diskCache() *diskcache.Store {
	if nb.noDiskCache {
		return nil
	}
	return diskcache.Open()
}

// Load reads a notebook file.
func Load(path string) (*Notebook, error) {
	data, err := tomldoc.ReadFile(path, notebookLimits)
	if err != nil {
		if _, tooLarge := err.(tomldoc.ErrorList); tooLarge {
			return nil, parseError(err, 0, 0)
		}
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

// notebookLimits bound a notebook file: notes may be long, but not
// megabytes long.
var notebookLimits = tomldoc.Limits{MaxBytes: 8 << 20, MaxDepth: 16}

// Parse reads a notebook from data; file names it in errors. The file is a
// TOML document with `version`, `title` and an array of `[[cell]]` tables,
// each with a `kind` and that kind's keys. Every error names the file, the
// line of the key at fault and the cell. The work is linear in the size of
// the file.
func Parse(file string, data []byte) (*Notebook, error) {
	text := string(data)
	if strings.ContainsRune(text, '\r') {
		text = strings.ReplaceAll(text, "\r\n", "\n")
	}
	doc, err := tomldoc.Parse(file, []byte(text), notebookLimits)
	if err != nil {
		return nil, parseError(err, 0, 0)
	}
	var h header
	if _, errs := doc.Decode(doc.Root, &h, tomldoc.DecodeOptions{Ignore: []string{"cell"}, Where: "a notebook's top level"}); len(errs) > 0 {
		return nil, parseError(errs, 0, 0)
	}
	if err := checkVersion(file, doc, h.Version); err != nil {
		return nil, err
	}
	cells := doc.Root.Get("cell")
	if cells != nil && (cells.Kind != tomldoc.Array || !cells.Tables) {
		return nil, &ParseError{File: file, Line: cells.Pos.Line, Col: cells.Pos.Col, Msg: "cell: write every cell as a [[cell]] table"}
	}
	var elems []*tomldoc.Node
	if cells != nil {
		elems = cells.Elems
	}
	starts := cellStarts(doc, elems)
	nb := New("")
	nb.Title, nb.headerTitle = h.Title, h.Title
	nb.header = text[:starts[0]]
	for i, el := range elems {
		in, err := decodeCell(doc, el, i+1, 0)
		if err != nil {
			return nil, err
		}
		nb.Cells = append(nb.Cells, &Cell{In: in, Line: el.Pos.Line, raw: text[starts[i]:starts[i+1]]})
	}
	return nb, nil
}

// checkVersion says what to do with a notebook of another format.
func checkVersion(file string, doc *tomldoc.Document, v int) error {
	n := doc.Root.Get("version")
	switch {
	case n == nil:
		return &ParseError{File: file, Line: 1, Msg: fmt.Sprintf("missing version = %d at the top (the notebook format version)", FormatVersion)}
	case v > FormatVersion:
		return &ParseError{File: file, Line: n.Pos.Line, Col: n.Pos.Col, Msg: fmt.Sprintf(
			"version = %d: the notebook is in format %d, written by a newer gravf-tui; this one reads format %d: open it with a newer gravf-tui", v, v, FormatVersion)}
	case v < 1:
		return &ParseError{File: file, Line: n.Pos.Line, Col: n.Pos.Col, Msg: fmt.Sprintf("version = %d: notebook formats start at 1; this gravf-tui reads format %d", v, FormatVersion)}
	case v != FormatVersion:
		return &ParseError{File: file, Line: n.Pos.Line, Col: n.Pos.Col, Msg: fmt.Sprintf("version = %d: this gravf-tui reads notebook format %d only", v, FormatVersion)}
	}
	return nil
}

// cellStarts returns where each cell's text starts (its [[cell]] line, or
// the comment lines right above it), and the length of the text last: the
// cells' texts and the header's cover the file exactly, so that saving an
// unedited notebook writes the same bytes.
func cellStarts(doc *tomldoc.Document, cells []*tomldoc.Node) []int {
	var starts []int
	prev := 0 // the header line of the cell before
	for _, el := range cells {
		l := el.Pos.Line
		for l-1 > prev && doc.CommentLine(l-1) {
			l--
		}
		starts = append(starts, doc.LineStart(l))
		prev = el.Pos.Line
	}
	return append(starts, doc.Len())
}

// decodeCell reads cell n (1-based) of a document; offset is added to its
// lines (a cell parsed from its own text).
func decodeCell(doc *tomldoc.Document, el *tomldoc.Node, n, offset int) (Input, error) {
	kind := el.Get("kind")
	if kind == nil || kind.Kind != tomldoc.String || kind.Str == "" {
		return nil, &ParseError{File: doc.File, Line: el.Pos.Line + offset, Cell: n, Msg: "the cell has no kind (want kind = one of " + kindList() + ")"}
	}
	in, err := NewInput(Kind(kind.Str))
	if err != nil {
		return nil, &ParseError{File: doc.File, Line: kind.Pos.Line + offset, Col: kind.Pos.Col, Cell: n, Msg: err.Error()}
	}
	if _, errs := doc.Decode(el, in, tomldoc.DecodeOptions{Ignore: []string{"kind"}, Where: "a " + kind.Str + " cell"}); len(errs) > 0 {
		return nil, parseError(errs, n, offset)
	}
	if key, err := in.Check(); err != nil {
		e := &ParseError{File: doc.File, Line: el.Pos.Line + offset, Cell: n, Msg: fmt.Sprintf("%s: %v", in.Kind(), err)}
		// The key is a field ("fpgas") or an entry of a table field
		// ("set.memory.peak_gib_s"): point at the entry where the file has it.
		first, rest, _ := strings.Cut(key, ".")
		k := el.Get(first)
		if sub := k.Get(rest); sub != nil {
			k = sub
		}
		if key != "" && k != nil {
			e.Line, e.Col = k.Pos.Line+offset, k.Pos.Col
		}
		return nil, e
	}
	return in, nil
}

// parseCell reads one cell from its own text (undo, copies); n numbers it
// in errors, and its lines count from seg.line.
func parseCell(file string, n int, seg segment) (Input, error) {
	doc, err := tomldoc.Parse(file, []byte(seg.text), notebookLimits)
	if err != nil {
		return nil, parseError(err, n, seg.line-1)
	}
	cells := doc.Root.Get("cell")
	if len(doc.Root.Entries()) != 1 || cells == nil || !cells.Tables || len(cells.Elems) != 1 {
		return nil, &ParseError{File: file, Line: seg.line, Cell: n, Msg: "want one [[cell]] table"}
	}
	return decodeCell(doc, cells.Elems[0], n, seg.line-1)
}

// segment is the text of one cell and the line it starts at.
type segment struct {
	text string
	line int
}

// parseError turns the first error of the TOML layer into a ParseError of
// cell n, with keys relative to the cell.
func parseError(err error, n, offset int) error {
	l, ok := err.(tomldoc.ErrorList)
	if !ok || len(l) == 0 {
		return &ParseError{Cell: n, Msg: err.Error()}
	}
	e := l[0]
	key := e.Key
	if n > 0 {
		key = strings.TrimPrefix(strings.TrimPrefix(key, fmt.Sprintf("cell[%d]", n-1)), ".")
	}
	msg := e.Msg
	if key != "" {
		msg = key + ": " + msg
	}
	line := e.Line
	if line > 0 {
		line += offset
	}
	return &ParseError{File: e.File, Line: line, Col: e.Col, Cell: n, Msg: msg}
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
	nb.undo = append(nb.undo, nb.snapshot(what))
	if len(nb.undo) > maxUndo {
		nb.undo = nb.undo[1:]
		if nb.group != nil && nb.group.depth > 0 {
			nb.group.depth--
		}
	}
	nb.redo = nil
	nb.dirty = true
}

// snapshot records the notebook's cells as text.
func (nb *Notebook) snapshot(what string) snapshot {
	s := snapshot{title: nb.Title, what: what, dirty: nb.dirty}
	for _, c := range nb.Cells {
		if c.raw != "" {
			s.cells = append(s.cells, cellText{c.raw, true, c.Line})
		} else {
			s.cells = append(s.cells, cellText{text: encodeCell(c.In)})
		}
	}
	return s
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

// Undo restores the notebook to before the last change; Redo brings the
// change back. Cached results stay: an undone edit finds its old result by
// the input hash again.
func (nb *Notebook) Undo() error {
	nb.EndGroup()
	if len(nb.undo) == 0 {
		return errors.New("nothing to undo")
	}
	s := nb.undo[len(nb.undo)-1]
	cur := nb.snapshot(s.what)
	if err := nb.restore(s); err != nil {
		return err
	}
	nb.undo = nb.undo[:len(nb.undo)-1]
	nb.redo = append(nb.redo, cur)
	nb.dirty = true
	return nil
}

// restore replaces the title and cells with a snapshot's.
func (nb *Notebook) restore(s snapshot) error {
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
	nb.Title, nb.Cells = s.title, cells
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
