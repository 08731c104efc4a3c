package tomldoc

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Datetime is a TOML date or time decoded into an interface value: its
// text as written. No file format of gravf-tui has dates, so a kernel
// parameter default written as one is reported as not a number.
type Datetime string

// DecodeOptions adjust Decode for one table.
type DecodeOptions struct {
	// Ignore lists keys of the decoded table that are not fields of the
	// value (a notebook cell's kind, read before the cell is decoded);
	// hints after an unknown key list them with the fields.
	Ignore []string
	// Where names the decoded table in the hint after an unknown key
	// ("a platform cell"); by default its path, or "the top level".
	Where string
}

// Decode fills v, a pointer, from node n (a table) of the document. Keys
// without a field and values of the wrong kind are errors, all of them
// collected in file order; what decodes is set even when something else
// does not, so that the Checker returned can check it too. Fields whose
// key is absent keep their value, or take the default of their check tag.
func (d *Document) Decode(n *Node, v any, opt DecodeOptions) (*Checker, ErrorList) {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		panic("tomldoc: Decode needs a non-nil pointer")
	}
	dec := &decoder{doc: d, bad: map[*Node]bool{}, opt: opt, top: n}
	dec.decode(n, rv.Elem())
	c := newChecker(d.File, true, dec.bad)
	c.walk(rv.Elem(), n, nil, true)
	return c, dec.errs
}

type decoder struct {
	doc  *Document
	errs ErrorList
	bad  map[*Node]bool
	opt  DecodeOptions
	top  *Node
}

func (d *decoder) fail(n *Node, format string, args ...any) {
	d.bad[n] = true
	d.errs.add(d.doc.Errorf(n, format, args...))
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

func (d *decoder) decode(n *Node, v reflect.Value) {
	t := v.Type()
	if v.CanAddr() && t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(textUnmarshaler) {
		// A typed value (an architecture, a graph format) reads itself
		// from a string and says what it accepts.
		if n.Kind != String {
			d.fail(n, "must be a string, got %s", n.KindName())
		} else if err := v.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(n.Str)); err != nil {
			d.fail(n, "%v", err)
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		d.decode(n, v.Elem())
	case reflect.Interface:
		if t.NumMethod() != 0 {
			panic("tomldoc: cannot decode into " + t.String())
		}
		v.Set(reflect.ValueOf(Generic(n)))
	case reflect.Struct:
		if n.Kind != Table {
			d.fail(n, "must be a table, got %s", n.KindName())
			return
		}
		d.decodeStruct(n, v)
	case reflect.Map:
		d.decodeMap(n, v)
	case reflect.Slice:
		d.decodeSlice(n, v)
	default:
		d.decodeScalar(n, v)
	}
}

func (d *decoder) decodeStruct(n *Node, v reflect.Value) {
	info := structOf(v.Type())
	for _, c := range n.entries {
		i, ok := info.byKey[c.Key]
		if !ok {
			if n == d.top && slices.Contains(d.opt.Ignore, c.Key) {
				continue
			}
			known := info.known
			if n == d.top && len(d.opt.Ignore) > 0 {
				known = strings.Join(slices.Sorted(slices.Values(append(strings.Split(info.known, ", "), d.opt.Ignore...))), ", ")
			}
			d.fail(c, "unknown key (known keys %s: %s)", d.where(n), known)
			continue
		}
		d.decode(c, v.Field(info.fields[i].index))
	}
	for _, f := range info.fields {
		if f.rules.hasDefault && n.Get(f.key) == nil {
			setDefault(v.Field(f.index), f.rules.def)
		}
	}
}

// where names table n in a hint.
func (d *decoder) where(n *Node) string {
	if n == d.top && d.opt.Where != "" {
		return "of " + d.opt.Where
	}
	for n != nil && n.Index >= 0 && n.parent != nil {
		n = n.parent // memory[1] is one of the memory tables
	}
	if n == nil || n.parent == nil {
		return "at the top level"
	}
	return "in " + n.Path()
}

func (d *decoder) decodeMap(n *Node, v reflect.Value) {
	t := v.Type()
	if t.Key().Kind() != reflect.String {
		panic("tomldoc: map keys must be strings in " + t.String())
	}
	if n.Kind != Table {
		d.fail(n, "must be a table, got %s", n.KindName())
		return
	}
	if v.IsNil() {
		v.Set(reflect.MakeMapWithSize(t, len(n.entries)))
	}
	for _, c := range n.entries {
		e := reflect.New(t.Elem()).Elem()
		d.decode(c, e)
		v.SetMapIndex(reflect.ValueOf(c.Key).Convert(t.Key()), e)
	}
}

func (d *decoder) decodeSlice(n *Node, v reflect.Value) {
	t := v.Type()
	if n.Kind != Array {
		et := t.Elem()
		if et.Kind() == reflect.Pointer {
			et = et.Elem()
		}
		if et.Kind() == reflect.Struct && n.Kind == Table {
			d.fail(n, "must be an array of tables, got a table (write [[%s]] tables)", n.Path())
			return
		}
		d.fail(n, "must be an array, got %s", n.KindName())
		return
	}
	s := reflect.MakeSlice(t, len(n.Elems), len(n.Elems))
	for i, e := range n.Elems {
		d.decode(e, s.Index(i))
	}
	v.Set(s)
}

func (d *decoder) decodeScalar(n *Node, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if n.Kind != String {
			d.fail(n, "must be a string, got %s", n.KindName())
			return
		}
		v.SetString(n.Str)
	case reflect.Bool:
		if n.Kind != Bool {
			d.fail(n, "must be true or false, got %s", n.KindName())
			return
		}
		v.SetBool(n.Bool)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n.Kind != Integer {
			d.fail(n, "must be an integer, got %s", n.KindName())
			return
		}
		if v.OverflowInt(n.Int) {
			lo, hi := intRange(v.Type())
			d.fail(n, "must be between %d and %d, got %d", lo, hi, n.Int)
			return
		}
		v.SetInt(n.Int)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		switch {
		case n.Kind != Integer:
			d.fail(n, "must be an integer, got %s", n.KindName())
		case n.Int < 0:
			d.fail(n, "must not be negative, got %d", n.Int)
		case v.OverflowUint(uint64(n.Int)):
			d.fail(n, "must be at most %d, got %d", uint64(1)<<v.Type().Bits()-1, n.Int)
		default:
			v.SetUint(uint64(n.Int))
		}
	case reflect.Float32, reflect.Float64:
		switch n.Kind {
		case Integer:
			v.SetFloat(float64(n.Int))
		case Float:
			v.SetFloat(n.Float)
		default:
			d.fail(n, "must be a number, got %s", n.KindName())
		}
	default:
		panic("tomldoc: cannot decode into " + v.Type().String())
	}
}

func intRange(t reflect.Type) (int64, int64) {
	b := t.Bits()
	return -1 << (b - 1), 1<<(b-1) - 1
}

// Generic returns a node as plain Go values: string, int64, float64, bool,
// Datetime, []any and map[string]any.
func Generic(n *Node) any {
	switch n.Kind {
	case String:
		return n.Str
	case Integer:
		return n.Int
	case Float:
		return n.Float
	case Bool:
		return n.Bool
	case DateTime:
		return Datetime(n.Raw)
	case Array:
		out := make([]any, len(n.Elems))
		for i, e := range n.Elems {
			out[i] = Generic(e)
		}
		return out
	}
	m := make(map[string]any, len(n.entries))
	for _, c := range n.entries {
		m[c.Key] = Generic(c)
	}
	return m
}

// fieldInfo is what the tags of one struct field say.
type fieldInfo struct {
	key   string
	index int
	doc   string
	rules rules
}

// structInfo is the schema of one struct type.
type structInfo struct {
	fields []fieldInfo
	byKey  map[string]int
	known  string // the keys, sorted, for hints
}

var infos sync.Map // reflect.Type -> *structInfo

// structOf returns the schema of a struct type. Fields without a toml tag
// (or with toml:"-") are not part of the file.
func structOf(t reflect.Type) *structInfo {
	if v, ok := infos.Load(t); ok {
		return v.(*structInfo)
	}
	info := &structInfo{byKey: map[string]int{}}
	var keys []string
	for i := range t.NumField() {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if key == "" || key == "-" {
			continue
		}
		if _, dup := info.byKey[key]; dup {
			panic(fmt.Sprintf("tomldoc: key %q twice in %s", key, t))
		}
		r, err := parseRules(f.Tag.Get("check"), f.Type)
		if err != nil {
			panic(fmt.Sprintf("tomldoc: %s.%s: %v", t, f.Name, err))
		}
		info.byKey[key] = len(info.fields)
		info.fields = append(info.fields, fieldInfo{key: key, index: i, doc: f.Tag.Get("doc"), rules: r})
		keys = append(keys, key)
	}
	slices.Sort(keys)
	info.known = strings.Join(keys, ", ")
	v, _ := infos.LoadOrStore(t, info)
	return v.(*structInfo)
}

func setDefault(v reflect.Value, s string) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(s)
	case reflect.Bool:
		v.SetBool(s == "true")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, _ := strconv.ParseInt(s, 10, 64)
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u, _ := strconv.ParseUint(s, 10, 64)
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		f, _ := strconv.ParseFloat(s, 64)
		v.SetFloat(f)
	}
}

// checkDefault says whether s is a valid default for a field of type t.
func checkDefault(s string, t reflect.Type) error {
	var err error
	switch t.Kind() {
	case reflect.String:
	case reflect.Bool:
		_, err = strconv.ParseBool(s)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err = strconv.ParseInt(s, 10, t.Bits())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		_, err = strconv.ParseUint(s, 10, t.Bits())
	case reflect.Float32, reflect.Float64:
		var f float64
		f, err = strconv.ParseFloat(s, 64)
		if err == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			err = fmt.Errorf("not finite")
		}
	default:
		err = fmt.Errorf("no default for a %s", t)
	}
	if err != nil {
		return fmt.Errorf("default %q: %v", s, err)
	}
	return nil
}
