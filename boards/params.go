package boards

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// Param is one board figure that a design point may override without a
// board file of its own (a platform cell's `set` table, `--set KEY=VALUE`
// on the command line): the figures that move a limit of the model, so
// that a user can ask "what if the links were twice as fast". A field is
// one when its tag says board:"set".
type Param struct {
	// Name is the key from the top of the file, without array indices:
	// memory.peak_gib_s sets the default edge memory (the first).
	Name string
	// Unit is the unit of the key's name (MHz for clock_mhz).
	Unit string
	// Doc says what the figure is, in a few words.
	Doc string
	// Integer figures accept whole numbers only.
	Integer bool
	path    []int // field indices from Board; a slice stands for its first element
}

// Params lists the overridable figures in the order of the board file.
var Params = paramsOf(reflect.TypeFor[Board](), "", "", nil)

// paramsOf lists the overridable fields of struct type t; the fields of
// the memories stand for the edge memory, and their doc says so.
func paramsOf(t reflect.Type, prefix, docPrefix string, path []int) []Param {
	var out []Param
	for i := range t.NumField() {
		f := t.Field(i)
		key, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if key == "" || key == "-" {
			continue
		}
		name, p := prefix+key, append(append([]int(nil), path...), i)
		ft, sub := f.Type, docPrefix
		if ft.Kind() == reflect.Slice {
			ft, sub = ft.Elem(), "edge "+key+" "
		}
		switch {
		case ft.Kind() == reflect.Struct:
			out = append(out, paramsOf(ft, name+".", sub, p)...)
		case f.Tag.Get("board") == "set":
			out = append(out, Param{Name: name, Unit: UnitOf(key), Doc: docPrefix + f.Tag.Get("doc"), Integer: ft.Kind() == reflect.Int, path: p})
		}
	}
	return out
}

// ParamNamed finds an overridable figure by name.
func ParamNamed(name string) (Param, bool) {
	for _, p := range Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// ParamNames lists the names of the overridable figures, for messages.
func ParamNames() string {
	names := make([]string, len(Params))
	for i, p := range Params {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// field returns the parameter's field in b, or an invalid value when b
// has no such element (a board without memories).
func (p Param) field(b *Board) reflect.Value {
	v := reflect.ValueOf(b).Elem()
	for _, i := range p.path {
		if v.Kind() == reflect.Slice {
			if v.Len() == 0 {
				return reflect.Value{}
			}
			v = v.Index(0)
		}
		v = v.Field(i)
	}
	return v
}

// Get reads the figure from a board (0 when the board lacks it).
func (p Param) Get(b *Board) float64 {
	v := p.field(b)
	switch {
	case !v.IsValid():
		return 0
	case v.CanInt():
		return float64(v.Int())
	}
	return v.Float()
}

// Check says whether v can be the figure: a finite number, not negative,
// whole for counts. The board's own ranges are checked by Validate on the
// board with the override.
func (p Param) Check(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("%s must be a non-negative number, not %g", p.Name, v)
	}
	if p.Integer && (v != math.Trunc(v) || v > math.MaxInt32) {
		return fmt.Errorf("%s must be a whole number, not %g", p.Name, v)
	}
	return nil
}

// Set writes the figure into a board.
func (p Param) Set(b *Board, v float64) {
	f := p.field(b)
	switch {
	case !f.IsValid():
	case f.CanInt():
		f.SetInt(int64(v))
	default:
		f.SetFloat(v)
	}
}

// Override returns a copy of b with the figures of set applied and the
// result validated, so that an override that breaks the board (a clock of
// 0) is reported as the board's own error. The copy shares nothing that
// an override changes with b.
func Override(b *Board, set map[string]float64) (*Board, error) {
	if len(set) == 0 {
		return b, nil
	}
	c := *b
	c.Memory = append([]Memory(nil), b.Memory...)
	names := make([]string, 0, len(set))
	for name := range set {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p, ok := ParamNamed(name)
		if !ok {
			return nil, fmt.Errorf("unknown board parameter %q (want one of %s)", name, ParamNames())
		}
		if err := p.Check(set[name]); err != nil {
			return nil, err
		}
		p.Set(&c, set[name])
	}
	if _, ok := set[sustainedKey]; ok && len(c.Memory) > 0 && c.Memory[0].ModelBandwidth == "peak" {
		return nil, fmt.Errorf("%s has no effect on %s: its edge memory's model_bandwidth is \"peak\", so the model uses memory.peak_gib_s (set that instead)", sustainedKey, b.Name)
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("board %s with the overrides: %w", b.Name, err)
	}
	return &c, nil
}

// sustainedKey is the override of the edge memory's measured bandwidth.
// The model reads it only when the board lets it (Memory.BitsPerSecond),
// so Override refuses it on a board whose model uses the peak: a what-if
// that changes nothing would show unchanged figures as its answer.
const sustainedKey = "memory.sustained_gib_s"

// UnitOf returns the unit a board key's name carries: clock_mhz is in
// MHz, peak_gib_s in GiB/s; "" for a plain count.
func UnitOf(key string) string {
	for _, u := range units {
		if strings.HasSuffix(key, u.suffix) {
			return u.unit
		}
	}
	return ""
}

var units = []struct{ suffix, unit string }{
	{"_gib_s", "GiB/s"}, {"_gbit_s", "Gbit/s"}, {"_gib", "GiB"}, {"_mhz", "MHz"},
	{"_ns", "ns"}, {"_bits", "bit"}, {"_usd", "USD"},
}
