package explorer

import (
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// encodeCell writes a cell in the canonical form: the `[[cell]]` line, the
// kind, then every field of the input in declaration order (maps as inline
// tables with sorted keys, omitted when empty), and a blank line.
func encodeCell(in Input) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[[cell]]\nkind = %s\n", quote(string(in.Kind())))
	v := reflect.ValueOf(in).Elem()
	t := v.Type()
	for i := range t.NumField() {
		key := t.Field(i).Tag.Get("toml")
		if key == "" {
			continue
		}
		f := v.Field(i)
		if text, ok := canonicalText(f); ok {
			fmt.Fprintf(&b, "%s = %s\n", key, quote(text))
			continue
		}
		switch f.Kind() {
		case reflect.Map:
			if f.Len() == 0 {
				continue
			}
			fmt.Fprintf(&b, "%s = %s\n", key, inlineTable(f))
		case reflect.String:
			s := f.String()
			if strings.Contains(s, "\n") {
				fmt.Fprintf(&b, "%s = %s\n", key, multiline(s))
			} else {
				fmt.Fprintf(&b, "%s = %s\n", key, quote(s))
			}
		default:
			fmt.Fprintf(&b, "%s = %s\n", key, scalar(f))
		}
	}
	b.WriteString("\n")
	return b.String()
}

// canonicalText writes a typed value (an architecture, a graph format) as
// reading the file back will hold it: a value set in code ("" for the
// default PE) goes through its own parser first, so that a cell and its
// encoding always read back equal.
func canonicalText(f reflect.Value) (string, bool) {
	if f.Kind() != reflect.String {
		return "", false
	}
	p := reflect.New(f.Type())
	u, ok := p.Interface().(encoding.TextUnmarshaler)
	if !ok {
		return "", false
	}
	p.Elem().Set(f)
	if err := u.UnmarshalText([]byte(f.String())); err != nil {
		return f.String(), true // Check reports it
	}
	if m, ok := p.Elem().Interface().(encoding.TextMarshaler); ok {
		if text, err := m.MarshalText(); err == nil {
			return string(text), true
		}
	}
	return p.Elem().String(), true
}

func inlineTable(m reflect.Value) string {
	keys := make([]string, 0, m.Len())
	for _, k := range m.MapKeys() {
		keys = append(keys, k.String())
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		val := m.MapIndex(reflect.ValueOf(k))
		var vs string
		if val.Kind() == reflect.String {
			vs = quote(val.String())
		} else {
			vs = scalar(val)
		}
		parts[i] = bareKey(k) + " = " + vs
	}
	return "{ " + strings.Join(parts, ", ") + " }"
}

func scalar(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int64, reflect.Int32:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint64, reflect.Uint32:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Float64, reflect.Float32:
		return formatFloat(v.Float())
	}
	panic(fmt.Sprintf("explorer: no TOML encoding for %s", v.Kind()))
}

// formatFloat writes the shortest float that reads back exactly, always
// with a fraction or exponent so that TOML keeps it a float.
func formatFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") { // n: NaN, Inf are rejected by Check
		s += ".0"
	}
	if strings.Contains(s, "e") && !strings.Contains(s, ".") {
		m, e, _ := strings.Cut(s, "e")
		s = m + ".0e" + e
	}
	return s
}

func bareKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, c := range k {
		if !(c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z') {
			return quote(k)
		}
	}
	return k
}

// quote writes a TOML basic string.
func quote(s string) string { return `"` + escape(s, false) + `"` }

// multiline writes a TOML multi-line basic string; the newline after the
// opening quotes is trimmed by TOML, so the text reads back exactly.
func multiline(s string) string { return "\"\"\"\n" + escape(s, true) + `"""` }

// escape writes s for a basic string; a multi-line string keeps newlines
// and tabs as they are.
func escape(s string, multi bool) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case multi && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
