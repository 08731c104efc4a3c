package tomldoc

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// rules are the parsed check tag of a field.
type rules struct {
	required, bits, id, nonempty bool
	hasRange                     bool
	lo, hi                       float64
	loOpen, hiOpen               bool
	hasDefault                   bool
	def                          string
}

// parseRules reads a check tag (see the package doc).
func parseRules(tag string, t reflect.Type) (rules, error) {
	var r rules
	if tag == "" {
		return r, nil
	}
	for _, a := range splitRules(tag) {
		switch {
		case a == "required":
			r.required = true
		case a == "bits":
			r.bits = true
		case a == "id":
			r.id = true
		case a == "nonempty":
			r.nonempty = true
		case strings.HasPrefix(a, "default="):
			r.hasDefault, r.def = true, strings.TrimPrefix(a, "default=")
			if err := checkDefault(r.def, t); err != nil {
				return r, err
			}
		case len(a) > 2 && (a[0] == '[' || a[0] == '('):
			lo, hi, ok := strings.Cut(a[1:len(a)-1], ",")
			var err1, err2 error
			r.lo, err1 = strconv.ParseFloat(strings.TrimSpace(lo), 64)
			r.hi, err2 = strconv.ParseFloat(strings.TrimSpace(hi), 64)
			end := a[len(a)-1]
			if !ok || err1 != nil || err2 != nil || end != ']' && end != ')' || r.lo > r.hi {
				return r, fmt.Errorf("bad range %q", a)
			}
			r.hasRange, r.loOpen, r.hiOpen = true, a[0] == '(', end == ')'
		default:
			return r, fmt.Errorf("unknown check %q", a)
		}
	}
	switch k := t.Kind(); {
	case (r.bits || r.hasRange) && !isNumber(k):
		return r, fmt.Errorf("a range or bits on a %s", t)
	case (r.id || r.nonempty) && k != reflect.String:
		return r, fmt.Errorf("id or nonempty on a %s", t)
	}
	return r, nil
}

// splitRules splits a tag at the commas outside ranges.
func splitRules(tag string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(tag); i++ {
		switch tag[i] {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(tag[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(tag[start:]))
}

func isNumber(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Uint64 || k == reflect.Float32 || k == reflect.Float64
}

func isFloat(k reflect.Kind) bool { return k == reflect.Float32 || k == reflect.Float64 }

// Checker checks the rules of a decoded value's tags and locates the
// errors of the format's own checks. Fields are named by pointers into
// the value, so that code never spells a key.
type Checker struct {
	file    string
	hasDoc  bool
	bad     map[*Node]bool
	slots   map[ref]*slot
	entries map[entryRef]*slot
	errs    ErrorList
}

type ref struct {
	p uintptr
	t reflect.Type
}

type entryRef struct {
	m   uintptr
	key string
}

// slot is one field of the checked value.
type slot struct {
	path string
	key  string
	node *Node // nil when the file does not have the key
	// anchor is the nearest node the file has: the field's, or its
	// table's; missing keys are reported on its line.
	anchor *Node
	// live says that every table above the field is in the file (or
	// that there is no file); fields under an absent table are not
	// checked.
	live bool
	info *fieldInfo
	v    reflect.Value
	// failed says that the field has an error already: checks that
	// combine it with others skip it.
	failed bool
}

// NewChecker checks a value built or changed in code (a board with a
// cell's overrides): every field counts as present, and errors name file
// and key but no line.
func NewChecker(file string, v any) *Checker {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic("tomldoc: NewChecker needs a non-nil pointer")
	}
	c := newChecker(file, false, nil)
	c.walk(rv.Elem(), nil, nil, true)
	return c
}

func newChecker(file string, hasDoc bool, bad map[*Node]bool) *Checker {
	if bad == nil {
		bad = map[*Node]bool{}
	}
	return &Checker{file: file, hasDoc: hasDoc, bad: bad, slots: map[ref]*slot{}, entries: map[entryRef]*slot{}}
}

// walk records the slots of v (whose node is n, holding table parent)
// and checks the rules of their tags.
func (c *Checker) walk(v reflect.Value, n *Node, s *slot, live bool) {
	if s == nil {
		s = &slot{node: n, anchor: n, live: live, v: v}
	}
	if v.CanAddr() {
		c.slots[ref{v.Addr().Pointer(), v.Type()}] = s
	}
	if s.info != nil && s.live {
		c.rules(s)
	}
	childLive := live && (n != nil || !c.hasDoc)
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			c.walk(v.Elem(), n, &slot{path: s.path, key: s.key, node: n, anchor: s.anchor, live: live, v: v.Elem()}, live)
		}
	case reflect.Struct:
		info := structOf(v.Type())
		for i := range info.fields {
			f := &info.fields[i]
			cn := n.Get(f.key)
			cs := &slot{path: join(s.path, f.key), key: f.key, node: cn, anchor: cn, live: childLive, info: f, v: v.Field(f.index)}
			if cn == nil {
				cs.anchor = s.anchor
			}
			c.walk(cs.v, cn, cs, childLive)
		}
	case reflect.Slice:
		for i := range v.Len() {
			en := n.Elem(i)
			es := &slot{path: s.path + "[" + strconv.Itoa(i) + "]", node: en, anchor: en, live: childLive, v: v.Index(i)}
			if en == nil {
				es.anchor = s.anchor
			}
			c.walk(es.v, en, es, childLive)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String || v.IsNil() {
			return
		}
		it := v.MapRange()
		for it.Next() {
			k := it.Key().String()
			en := n.Get(k)
			es := &slot{path: join(s.path, QuoteKey(k)), key: k, node: en, anchor: en, live: childLive, v: it.Value()}
			if en == nil {
				es.anchor = s.anchor
			}
			c.entries[entryRef{v.Pointer(), k}] = es
		}
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// rules checks the tag rules of one field.
func (c *Checker) rules(s *slot) {
	r := &s.info.rules
	if c.hasDoc && s.node == nil {
		if r.required {
			c.missing(s)
		}
		return
	}
	if c.quiet(s) || !c.hasDoc && !r.required && s.v.IsZero() {
		return
	}
	what := ""
	if s.info.doc != "" {
		what = " (" + s.info.doc + ")"
	}
	v := s.v
	switch {
	case r.nonempty && strings.TrimSpace(v.String()) == "":
		c.report(s, "must not be empty%s", what)
	case r.id && !validID(v.String()):
		c.report(s, "must be a lower-case id of letters, digits, '-' and '_' starting with a letter, got %q", v.String())
	case r.bits && (!v.CanInt() || v.Int() <= 0 || v.Int()%8 != 0):
		c.report(s, "must be a positive multiple of 8, got %s", number(v))
	case r.hasRange:
		c.checkRange(s, r, what)
	}
}

func (c *Checker) checkRange(s *slot, r *rules, what string) {
	x := asFloat(s.v)
	bound := strconv.FormatFloat(r.lo, 'f', -1, 64)
	low := x < r.lo || r.loOpen && x == r.lo || math.IsNaN(x)
	switch {
	case low && r.lo == 0 && r.loOpen:
		c.report(s, "must be positive%s, got %s", what, number(s.v))
	case low && r.lo == 0:
		c.report(s, "must be zero or positive%s, got %s", what, number(s.v))
	case low && r.lo == 1 && !isFloat(s.v.Kind()):
		c.report(s, "must be a positive count%s, got %s", what, number(s.v))
	case low && r.loOpen:
		c.report(s, "must be more than %s%s, got %s", bound, what, number(s.v))
	case low:
		c.report(s, "must be at least %s%s, got %s", bound, what, number(s.v))
	case x > r.hi || r.hiOpen && x == r.hi:
		word := "at most"
		if r.hiOpen {
			word = "less than"
		}
		c.report(s, "must be %s %s%s, got %s", word, strconv.FormatFloat(r.hi, 'f', -1, 64), what, number(s.v))
	}
}

func asFloat(v reflect.Value) float64 {
	switch {
	case v.CanInt():
		return float64(v.Int())
	case v.CanUint():
		return float64(v.Uint())
	case v.CanFloat():
		return v.Float()
	}
	return math.NaN()
}

// number formats a numeric field as a file would write it.
func number(v reflect.Value) string {
	switch {
	case v.CanInt():
		return strconv.FormatInt(v.Int(), 10)
	case v.CanUint():
		return strconv.FormatUint(v.Uint(), 10)
	case v.CanFloat():
		return strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	return fmt.Sprint(v.Interface())
}

func validID(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// quiet says that errors about s would repeat another: s is under a
// table the file does not have, or it or a table above it already has an
// error of its kind or key.
func (c *Checker) quiet(s *slot) bool {
	if !s.live {
		return true
	}
	for n := s.anchor; n != nil; n = n.parent {
		if c.bad[n] {
			return true
		}
	}
	return false
}

func (c *Checker) report(s *slot, format string, args ...any) {
	s.failed = true
	e := &Error{File: c.file, Key: s.path, Msg: sprintf(format, args...)}
	if c.hasDoc {
		if s.node != nil {
			e.Line, e.Col = s.node.Pos.Line, s.node.Pos.Col
		} else {
			e.Line = 1
			if s.anchor != nil {
				e.Line = s.anchor.Pos.Line
			}
		}
	}
	c.errs.add(e)
}

func (c *Checker) missing(s *slot) {
	if c.quiet(s) {
		return
	}
	what := ""
	if s.info != nil && s.info.doc != "" {
		what = " (" + s.info.doc + ")"
	}
	c.report(s, "missing%s", what)
}

func (c *Checker) slot(field any) *slot {
	rv := reflect.ValueOf(field)
	if rv.Kind() != reflect.Pointer {
		panic("tomldoc: a field is named by a pointer to it")
	}
	s := c.slots[ref{rv.Pointer(), rv.Type().Elem()}]
	if s == nil {
		panic(fmt.Sprintf("tomldoc: %s at %#x is not a field of the checked value", rv.Type().Elem(), rv.Pointer()))
	}
	return s
}

// Errorf reports a problem with a field, given by a pointer to it, at the
// field's key (or, when the file lacks the key, its table's line).
func (c *Checker) Errorf(field any, format string, args ...any) {
	if s := c.slot(field); !c.quiet(s) {
		c.report(s, format, args...)
	}
}

// EntryErrorf reports a problem with entry key of a map field.
func (c *Checker) EntryErrorf(mapField any, key string, format string, args ...any) {
	m := reflect.ValueOf(mapField)
	if m.Kind() != reflect.Pointer || m.Elem().Kind() != reflect.Map {
		panic("tomldoc: EntryErrorf needs a pointer to a map")
	}
	s := c.entries[entryRef{m.Elem().Pointer(), key}]
	if s == nil {
		panic(fmt.Sprintf("tomldoc: the map has no entry %q", key))
	}
	if !c.quiet(s) {
		c.report(s, format, args...)
	}
}

// Has says whether the file has the field's key; without a file, whether
// the field is set (non-zero).
func (c *Checker) Has(field any) bool {
	s := c.slot(field)
	if !c.hasDoc {
		return !s.v.IsZero()
	}
	return s.node != nil
}

// OK says whether the field can be trusted by checks that combine it
// with others: it is present (or there is no file) and neither it nor a
// table above it has an error of kind or key.
func (c *Checker) OK(field any) bool {
	s := c.slot(field)
	return !c.quiet(s) && !s.failed && (s.node != nil || !c.hasDoc)
}

// Valid says whether the field's value can be trusted by checks that
// combine it with others, whether the file has the key or it took its
// zero value or default: neither it nor a table above it has an error.
func (c *Checker) Valid(field any) bool {
	s := c.slot(field)
	return !c.quiet(s) && !s.failed
}

// Require reports a key the file must have in this case (a link rate of
// a platform with several FPGAs) and says whether it is there.
func (c *Checker) Require(field any) bool {
	s := c.slot(field)
	if !c.hasDoc || s.node != nil {
		return true
	}
	c.missing(s)
	return false
}

// Key returns the field's key, for messages that name another field.
func (c *Checker) Key(field any) string { return c.slot(field).key }

// Doc returns what the field's doc tag says it is.
func (c *Checker) Doc(field any) string {
	if s := c.slot(field); s.info != nil {
		return s.info.doc
	}
	return ""
}

// Errors returns every problem found, in file order: at most a hundred,
// and a count of the rest.
func (c *Checker) Errors() ErrorList {
	l := append(ErrorList(nil), c.errs...)
	l.Sort()
	return l.truncate()
}

// Merge sorts decode errors and the checker's into one list in file
// order, at most a hundred with a count of the rest; nil when there are
// none.
func Merge(decode ErrorList, c *Checker) error {
	l := append(ErrorList(nil), decode...)
	if c != nil {
		l = append(l, c.errs...)
	}
	l.Sort()
	return l.truncate().Err()
}
