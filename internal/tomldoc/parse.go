package tomldoc

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Limits bound what Parse reads, so that a hostile file fails with a
// located error instead of taking the memory or the time of the machine.
type Limits struct {
	// MaxBytes is the largest file read.
	MaxBytes int
	// MaxDepth is the deepest nesting of tables, arrays and dotted key
	// segments.
	MaxDepth int
}

// DefaultLimits suit hand-written configuration files: 1 MiB and 32
// levels, many times what any board, kernel or notebook needs.
var DefaultLimits = Limits{MaxBytes: 1 << 20, MaxDepth: 32}

// Parse reads a TOML document. A syntax error or a broken key rule (a key
// defined twice, a table header repeated, an inline table extended) stops
// it, with a located Error in an ErrorList of one.
func Parse(file string, data []byte, lim Limits) (*Document, error) {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultLimits.MaxBytes
	}
	if lim.MaxDepth <= 0 {
		lim.MaxDepth = DefaultLimits.MaxDepth
	}
	d := &Document{File: file, lines: []int{0}}
	if len(data) > lim.MaxBytes {
		return nil, ErrorList{{File: file, Msg: fmt.Sprintf("the file has %d bytes; at most %d are read", len(data), lim.MaxBytes)}}
	}
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
		return nil, ErrorList{{File: file, Line: 1, Col: 1, Msg: "the file starts with a byte-order mark, which TOML does not allow: save it as UTF-8 without one"}}
	}
	for i, c := range data {
		if c == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
	b := &builder{doc: d, lim: lim}
	d.Root = &Node{Kind: Table, Index: -1, Pos: Pos{Line: 1}, byKey: map[string]*Node{}, origin: header}
	b.p.Reset(data)
	d.data = data
	cur := d.Root
	for b.p.NextExpression() {
		e := b.p.Expression()
		var err *Error
		switch e.Kind {
		case unstable.KeyValue:
			err = b.keyValue(cur, e)
		case unstable.Table:
			cur, err = b.table(e)
		case unstable.ArrayTable:
			cur, err = b.arrayTable(e)
		}
		if err != nil {
			return nil, ErrorList{err}
		}
	}
	if err := b.p.Error(); err != nil {
		return nil, ErrorList{b.syntaxError(err)}
	}
	return d, nil
}

// builder turns the parser's expressions into the document's tree.
type builder struct {
	doc *Document
	lim Limits
	p   unstable.Parser
}

// part is one segment of a key with where it was written.
type part struct {
	name string
	pos  Pos
}

func (b *builder) parts(it unstable.Iterator) []part {
	var ps []part
	for it.Next() {
		n := it.Node()
		ps = append(ps, part{name: string(n.Data), pos: b.doc.position(int(n.Raw.Offset))})
	}
	return ps
}

func (b *builder) errorf(pos Pos, key string, format string, args ...any) *Error {
	return &Error{File: b.doc.File, Line: pos.Line, Col: pos.Col, Key: key, Msg: sprintf(format, args...)}
}

// child creates entry key of table t.
func (b *builder) child(t *Node, p part, kind Kind, o origin) (*Node, *Error) {
	n := &Node{Kind: kind, Key: p.name, Index: -1, Pos: p.pos, ValuePos: p.pos, parent: t, origin: o, depth: t.depth + 1}
	if n.depth > b.lim.MaxDepth {
		return nil, b.errorf(p.pos, "", "keys and values nested more than %d levels deep", b.lim.MaxDepth)
	}
	if kind == Table {
		n.byKey = map[string]*Node{}
	}
	t.byKey[p.name] = n
	t.entries = append(t.entries, n)
	return n, nil
}

// where says how an existing node was defined, for the message that
// refuses to define it again.
func where(n *Node) string {
	switch {
	case n.origin == inline && n.Kind == Table:
		return fmt.Sprintf("is an inline table (line %d) and cannot be extended", n.Pos.Line)
	case n.origin == dotted:
		return fmt.Sprintf("is a table made by dotted keys (line %d)", n.Pos.Line)
	case n.Kind == Table:
		return fmt.Sprintf("is a table defined at line %d", n.Pos.Line)
	case n.Kind == Array && n.Tables:
		return fmt.Sprintf("is an array of tables (line %d)", n.Pos.Line)
	}
	return fmt.Sprintf("already has a value (line %d)", n.Pos.Line)
}

// keyValue adds `a.b.c = value` to table t. Intermediate segments create
// or extend tables made by dotted keys, and nothing else.
func (b *builder) keyValue(t *Node, e *unstable.Node) *Error {
	ps := b.parts(e.Key())
	for _, p := range ps[:len(ps)-1] {
		c := t.byKey[p.name]
		if c == nil {
			var err *Error
			if c, err = b.child(t, p, Table, dotted); err != nil {
				return err
			}
		} else if c.Kind != Table || c.origin != dotted {
			return b.errorf(p.pos, c.Path(), "%s", where(c))
		}
		t = c
	}
	last := ps[len(ps)-1]
	if c := t.byKey[last.name]; c != nil {
		return b.errorf(last.pos, c.Path(), "is defined twice (first at line %d)", c.Pos.Line)
	}
	n, err := b.child(t, last, 0, scalar)
	if err != nil {
		return err
	}
	return b.value(n, e.Value())
}

// value fills n from a value of the parser.
func (b *builder) value(n *Node, v *unstable.Node) *Error {
	if v.Raw.Length > 0 || v.Kind != unstable.Array && v.Kind != unstable.InlineTable {
		n.ValuePos = b.doc.position(int(v.Raw.Offset))
	}
	switch v.Kind {
	case unstable.String:
		n.Kind, n.Str = String, string(v.Data)
		n.Raw = string(b.p.Raw(v.Raw))
		n.ContentPos = b.doc.position(int(v.Raw.Offset) + contentSkip(n.Raw))
		if strings.Contains(n.Raw, "\n") {
			b.doc.multiline = append(b.doc.multiline, [2]int{int(v.Raw.Offset), int(v.Raw.Offset) + len(n.Raw)})
		}
	case unstable.Bool:
		n.Kind, n.Bool, n.Raw = Bool, string(v.Data) == "true", string(v.Data)
	case unstable.Integer:
		n.Kind, n.Raw = Integer, string(v.Data)
		i, err := parseInt(n.Raw)
		if err != nil {
			return b.errorf(n.ValuePos, n.Path(), "%v", err)
		}
		n.Int = i
	case unstable.Float:
		n.Kind, n.Raw = Float, string(v.Data)
		f, err := parseFloat(n.Raw)
		if err != nil {
			return b.errorf(n.ValuePos, n.Path(), "%v", err)
		}
		n.Float = f
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		n.Kind, n.Raw = DateTime, string(v.Data)
		if !validDatetime(v.Kind, n.Raw) {
			return b.errorf(n.ValuePos, n.Path(), "%q is not a valid date or time", n.Raw)
		}
	case unstable.Array:
		return b.array(n, v)
	case unstable.InlineTable:
		n.Kind, n.byKey = Table, map[string]*Node{}
		it := v.Children()
		for it.Next() {
			if err := b.keyValue(n, it.Node()); err != nil {
				return err
			}
		}
		n.origin = inline
		if len(n.entries) > 0 && v.Raw.Length == 0 {
			n.ValuePos = n.entries[0].Pos // the parser gives no position for the braces
		}
	default:
		return b.errorf(n.ValuePos, n.Path(), "unexpected %s", v.Kind)
	}
	return nil
}

func (b *builder) array(n *Node, v *unstable.Node) *Error {
	n.Kind, n.origin = Array, inline
	it := v.Children()
	for it.Next() {
		e := &Node{Index: len(n.Elems), parent: n, origin: scalar, depth: n.depth + 1}
		if e.depth > b.lim.MaxDepth {
			return b.errorf(n.ValuePos, n.Path(), "keys and values nested more than %d levels deep", b.lim.MaxDepth)
		}
		n.Elems = append(n.Elems, e)
		if err := b.value(e, it.Node()); err != nil {
			return err
		}
		e.Pos = e.ValuePos
	}
	if len(n.Elems) > 0 && v.Raw.Length == 0 {
		n.ValuePos = n.Elems[0].ValuePos // the parser gives no position for the brackets
	}
	return nil
}

// descend resolves the intermediate segments of a table header: missing
// tables are created implicitly; an array of tables stands for its last
// element.
func (b *builder) descend(ps []part) (*Node, *Error) {
	t := b.doc.Root
	for _, p := range ps {
		c := t.byKey[p.name]
		switch {
		case c == nil:
			var err *Error
			if c, err = b.child(t, p, Table, implicit); err != nil {
				return nil, err
			}
		case c.Kind == Array && c.Tables:
			c = c.Elems[len(c.Elems)-1]
		case c.Kind != Table || c.origin == inline:
			return nil, b.errorf(p.pos, c.Path(), "%s", where(c))
		}
		t = c
	}
	return t, nil
}

// table opens a [header] table and returns it.
func (b *builder) table(e *unstable.Node) (*Node, *Error) {
	ps := b.parts(e.Key())
	t, err := b.descend(ps[:len(ps)-1])
	if err != nil {
		return nil, err
	}
	last := ps[len(ps)-1]
	c := t.byKey[last.name]
	switch {
	case c == nil:
		return b.child(t, last, Table, header)
	case c.Kind == Table && c.origin == implicit:
		c.origin, c.Pos, c.ValuePos = header, last.pos, last.pos
		return c, nil
	case c.Kind == Table && (c.origin == header || c.origin == element):
		return nil, b.errorf(last.pos, c.Path(), "table [%s] is defined twice (first at line %d)", c.Path(), c.Pos.Line)
	case c.Kind == Array && c.Tables:
		return nil, b.errorf(last.pos, c.Path(), "is an array of tables (line %d): write [[%s]]", c.Pos.Line, c.Path())
	}
	return nil, b.errorf(last.pos, c.Path(), "%s", where(c))
}

// arrayTable adds an element to a [[header]] array of tables and returns
// it.
func (b *builder) arrayTable(e *unstable.Node) (*Node, *Error) {
	ps := b.parts(e.Key())
	t, err := b.descend(ps[:len(ps)-1])
	if err != nil {
		return nil, err
	}
	last := ps[len(ps)-1]
	a := t.byKey[last.name]
	switch {
	case a == nil:
		if a, err = b.child(t, last, Array, element); err != nil {
			return nil, err
		}
		a.Tables = true
	case a.Kind == Array && a.Tables:
	case a.Kind == Table && a.origin != inline && a.origin != dotted:
		return nil, b.errorf(last.pos, a.Path(), "is a table defined at line %d: write [%s], or make every element [[%s]]", a.Pos.Line, a.Path(), a.Path())
	default:
		return nil, b.errorf(last.pos, a.Path(), "%s, not an array of tables", where(a))
	}
	el := &Node{Kind: Table, Index: len(a.Elems), Pos: last.pos, ValuePos: last.pos, parent: a, origin: element,
		byKey: map[string]*Node{}, depth: a.depth + 1}
	if el.depth > b.lim.MaxDepth {
		return nil, b.errorf(last.pos, "", "keys and values nested more than %d levels deep", b.lim.MaxDepth)
	}
	a.Elems = append(a.Elems, el)
	return el, nil
}

// syntaxError locates an error of the parser.
func (b *builder) syntaxError(err error) *Error {
	e := &Error{File: b.doc.File, Msg: "invalid TOML: " + err.Error()}
	var pe *unstable.ParserError
	if errors.As(err, &pe) && pe.Highlight != nil {
		if off, ok := b.offsetOf(pe.Highlight); ok {
			p := b.doc.position(off)
			e.Line, e.Col = p.Line, p.Col
		}
		if len(pe.Key) > 0 {
			e.Key = strings.Join(pe.Key, ".")
		}
	}
	return e
}

// offsetOf finds a highlight of the parser in the input; the parser
// promises it is a slice of the input, and a broken promise must not
// crash a reader.
func (b *builder) offsetOf(hl []byte) (off int, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return int(b.p.Range(hl).Offset), true
}

// contentSkip is the number of bytes before a string's first character:
// the quotes, and for a multi-line string the newline right after them,
// which TOML trims.
func contentSkip(raw string) int {
	if !strings.HasPrefix(raw, `"""`) && !strings.HasPrefix(raw, `'''`) {
		return 1
	}
	switch {
	case strings.HasPrefix(raw[3:], "\n"):
		return 4
	case strings.HasPrefix(raw[3:], "\r\n"):
		return 5
	}
	return 3
}

// parseInt reads a TOML integer whose syntax the parser has checked:
// decimal with a sign, or 0x, 0o, 0b, with underscores between digits.
func parseInt(s string) (int64, error) {
	clean := strings.ReplaceAll(s, "_", "")
	base := 10
	if len(clean) > 2 && clean[0] == '0' {
		switch clean[1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 10 {
			clean = clean[2:]
		}
	}
	v, err := strconv.ParseInt(clean, base, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, fmt.Errorf("integer %s does not fit in 64 bits", s)
		}
		return 0, fmt.Errorf("invalid integer %s", s)
	}
	return v, nil
}

// parseFloat reads a TOML float whose syntax the parser has checked.
func parseFloat(s string) (float64, error) {
	clean := strings.ReplaceAll(s, "_", "")
	switch strings.TrimLeft(clean, "+-") {
	case "inf":
		if strings.HasPrefix(clean, "-") {
			return math.Inf(-1), nil
		}
		return math.Inf(1), nil
	case "nan":
		return math.NaN(), nil
	}
	f, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, fmt.Errorf("float %s is out of range", s)
		}
		return 0, fmt.Errorf("invalid float %s", s)
	}
	return f, nil
}

// validDatetime checks a date or time value that the parser has scanned:
// the parser checks its shape, not that the month has that day.
func validDatetime(k unstable.Kind, s string) bool {
	s = strings.Map(func(r rune) rune {
		switch r {
		case 't', ' ':
			return 'T'
		case 'z':
			return 'Z'
		}
		return r
	}, s)
	date, clock := s, ""
	if i := strings.IndexByte(s, 'T'); i >= 0 {
		date, clock = s[:i], s[i+1:]
	}
	if k == unstable.LocalTime {
		date, clock = "", s
	}
	if date != "" {
		if _, err := time.Parse("2006-01-02", date); err != nil {
			return false
		}
	}
	if clock == "" {
		return k == unstable.LocalDate
	}
	if k == unstable.DateTime {
		i := strings.LastIndexAny(clock, "Z+-")
		if i < 0 {
			return false
		}
		zone := clock[i:]
		clock = clock[:i]
		if zone != "Z" {
			if _, err := time.Parse("-07:00", zone); err != nil {
				return false
			}
		}
	}
	// Go's layout reads an hour of one digit; TOML's hour has two.
	if len(clock) < 5 || clock[2] != ':' {
		return false
	}
	if len(clock) == 5 {
		clock += ":00"
	}
	_, err := time.Parse("15:04:05.999999999", clock)
	return err == nil
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
