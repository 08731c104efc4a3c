package tomldoc

import (
	"slices"
	"strconv"
	"strings"
)

// Kind is the TOML type of a node.
type Kind int

// The kinds of values and tables.
const (
	String Kind = iota + 1
	Integer
	Float
	Bool
	// DateTime is any of TOML's date and time types; Raw holds its text.
	DateTime
	Array
	Table
)

// Name is the kind with its article, as messages say it: "an integer".
func (k Kind) Name() string {
	switch k {
	case String:
		return "a string"
	case Integer:
		return "an integer"
	case Float:
		return "a float"
	case Bool:
		return "a boolean"
	case DateTime:
		return "a date or time"
	case Array:
		return "an array"
	case Table:
		return "a table"
	}
	return "nothing"
}

// origin says how a table came to be, which decides what may extend it.
type origin uint8

const (
	// implicit: named only as a prefix of a [header] key; a later header
	// may define it.
	implicit origin = iota
	// header: defined by its own [header] (or the root).
	header
	// dotted: made by a dotted key; only dotted keys of the same table and
	// sub-table headers extend it.
	dotted
	// inline: an inline table or an array written out; closed.
	inline
	// element: one [[header]] element of an array of tables.
	element
	// scalar: a plain value.
	scalar
)

// Pos is a place in the file: 1-based line and byte column, and the byte
// offset.
type Pos struct {
	Line, Col int
	Offset    int
}

// Node is a table, an array or a value of a document.
type Node struct {
	Kind Kind
	// Key is the node's key in its table; "" for the root and for array
	// elements, which have an Index instead (-1 otherwise).
	Key   string
	Index int
	// Pos is where the node is named: its key, or the key of the header
	// that opened it; for an array element, where the element starts.
	Pos Pos
	// ValuePos is where the value starts (after "key = ").
	ValuePos Pos
	// ContentPos is, for a string, where its first character is: after the
	// opening quotes, and after the newline a multi-line string trims.
	ContentPos Pos

	// The value of a scalar.
	Str   string
	Int   int64
	Float float64
	Bool  bool
	// Raw is a scalar's text as written.
	Raw string

	// Elems are an array's elements.
	Elems []*Node
	// Tables lists, for an array of tables, that it was written with
	// [[header]] lines.
	Tables bool

	entries []*Node
	byKey   map[string]*Node
	parent  *Node
	origin  origin
	depth   int
}

// Entries returns a table's keys in file order (none for nil).
func (n *Node) Entries() []*Node {
	if n == nil {
		return nil
	}
	return n.entries
}

// Get returns the entry of a table with the given key, or nil. It may be
// called on nil (and returns nil), so that lookups chain.
func (n *Node) Get(key string) *Node {
	if n == nil || n.byKey == nil {
		return nil
	}
	return n.byKey[key]
}

// Lookup follows a path of keys from n; nil when one is missing.
func (n *Node) Lookup(keys ...string) *Node {
	for _, k := range keys {
		n = n.Get(k)
	}
	return n
}

// Elem returns element i of an array, or nil.
func (n *Node) Elem(i int) *Node {
	if n == nil || i < 0 || i >= len(n.Elems) {
		return nil
	}
	return n.Elems[i]
}

// Parent returns the table or array that holds n (nil for the root).
func (n *Node) Parent() *Node { return n.parent }

// KindName is the node's kind as messages say it; an array of tables
// written with [[header]] lines is "an array of tables".
func (n *Node) KindName() string {
	if n.Kind == Array && n.Tables {
		return "an array of tables"
	}
	return n.Kind.Name()
}

// Path is the node's key from the root, with array indices and quotes
// where TOML needs them: memory[1].kind, pe.cpe."my kernel".
func (n *Node) Path() string {
	var segs []*Node
	for m := n; m != nil && m.parent != nil; m = m.parent {
		segs = append(segs, m)
	}
	var b strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		m := segs[i]
		if m.Index >= 0 {
			b.WriteString("[" + strconv.Itoa(m.Index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(QuoteKey(m.Key))
	}
	return b.String()
}

// QuoteKey writes a key as TOML needs it: bare when it can be, else as a
// basic string.
func QuoteKey(k string) string {
	if k == "" {
		return `""`
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return strconv.Quote(k)
		}
	}
	return k
}

// Document is a parsed TOML file.
type Document struct {
	// File names the file in errors.
	File string
	// Root is the top-level table.
	Root  *Node
	data  []byte
	lines []int // offsets of line starts
	// multiline are the byte ranges of the multi-line strings, in file
	// order.
	multiline [][2]int
}

// CommentLine says whether line l (1-based) holds a comment and nothing
// else: not a line of a multi-line string that starts with '#'.
func (d *Document) CommentLine(l int) bool {
	if l < 1 || l > len(d.lines) {
		return false
	}
	start := d.lines[l-1]
	end := len(d.data)
	if l < len(d.lines) {
		end = d.lines[l]
	}
	if !strings.HasPrefix(strings.TrimLeft(string(d.data[start:end]), " \t"), "#") {
		return false
	}
	i, _ := slices.BinarySearchFunc(d.multiline, start, func(r [2]int, off int) int { return r[0] - off })
	return i == 0 || d.multiline[i-1][1] <= start
}

// Pos returns the position of a byte offset.
func (d *Document) position(off int) Pos {
	lo, hi := 0, len(d.lines)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if d.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return Pos{Line: lo + 1, Col: off - d.lines[lo] + 1, Offset: off}
}

// Len is the size of the file in bytes.
func (d *Document) Len() int { return len(d.data) }

// LineStart returns the offset of the start of line l (1-based), or the
// length of the file past its last line.
func (d *Document) LineStart(l int) int {
	if l < 1 {
		return 0
	}
	if l > len(d.lines) {
		return d.lines[len(d.lines)-1]
	}
	return d.lines[l-1]
}

// Errorf returns a located error at n's key.
func (d *Document) Errorf(n *Node, format string, args ...any) *Error {
	return &Error{File: d.File, Line: n.Pos.Line, Col: n.Pos.Col, Key: n.Path(), Msg: sprintf(format, args...)}
}
