package tui

import (
	"encoding"
	"fmt"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/explorer"
)

// The field constructors take an accessor that returns a pointer into an
// input of the cell's type, so that get and set stay one line each.

func strField(key, label string, p func(explorer.Input) *string) field {
	return field{key: key, label: label, kind: fText,
		get: func(in explorer.Input) string { return *p(in) },
		set: func(in explorer.Input, s string) error { *p(in) = s; return nil }}
}

func choiceField(key, label string, choices []string, p func(explorer.Input) *string) field {
	f := strField(key, label, p)
	f.kind, f.choices = fChoice, choices
	return f
}

// enum is a typed choice (an architecture, a graph format) that reads
// itself from text, as the notebook's decoder reads it.
type enum[T ~string] interface {
	*T
	encoding.TextUnmarshaler
}

// enumField edits a typed choice through its own parser, so that what the
// form stores is what a notebook file would decode to ("auto" is
// graph.FormatAuto).
func enumField[T ~string, P enum[T]](key, label string, choices []string, p func(explorer.Input) P) field {
	return field{key: key, label: label, kind: fChoice, choices: choices,
		get: func(in explorer.Input) string {
			v := p(in)
			if m, ok := any(*v).(encoding.TextMarshaler); ok {
				if b, err := m.MarshalText(); err == nil {
					return string(b)
				}
			}
			return string(*v)
		},
		set: func(in explorer.Input, s string) error { return p(in).UnmarshalText([]byte(s)) }}
}

func boolField(key, label string, p func(explorer.Input) *bool) field {
	return field{key: key, label: label, kind: fBool,
		get: func(in explorer.Input) string { return strconv.FormatBool(*p(in)) },
		set: func(in explorer.Input, s string) error {
			v, err := strconv.ParseBool(s)
			if err != nil {
				return fmt.Errorf("%q: want true or false", s)
			}
			*p(in) = v
			return nil
		}}
}

// number is what numField edits.
type number interface {
	~int | ~int64 | ~uint32 | ~uint64 | ~float64
}

// numField edits a number. zero, when not empty, is the word shown for 0
// ("auto"), which the hint spells out ("0 = auto"); an empty text and the
// word itself also mean 0.
func numField[T number](key, label, zero string, p func(explorer.Input) *T) field {
	hint := ""
	if zero != "" {
		hint = "0 = " + zero
	}
	return field{key: key, label: label, kind: fText, placeholder: zero, hint: hint,
		get: func(in explorer.Input) string {
			v := *p(in)
			if v == 0 && zero != "" {
				return ""
			}
			return formatNum(v)
		},
		set: func(in explorer.Input, s string) error {
			s = strings.TrimSpace(s)
			if s == "" || (zero != "" && strings.EqualFold(s, zero)) {
				*p(in) = 0
				return nil
			}
			v, err := parseNum[T](s)
			if err != nil {
				return err
			}
			*p(in) = v
			return nil
		}}
}

func formatNum[T number](v T) string {
	switch x := any(v).(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

func parseNum[T number](s string) (T, error) {
	var zero T
	switch any(zero).(type) {
	case float64:
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return zero, fmt.Errorf("%q is not a number", s)
		}
		return T(v), nil
	case int, int64:
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return zero, fmt.Errorf("%q is not a whole number", s)
		}
		return T(v), nil
	case uint32:
		v, err := strconv.ParseUint(s, 10, 32)
		if err != nil {
			return zero, fmt.Errorf("%q is not a whole number from 0 to %d", s, uint32(1<<32-1))
		}
		return T(v), nil
	default:
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return zero, fmt.Errorf("%q is not a non-negative whole number", s)
		}
		return T(v), nil
	}
}

// mapField edits one key of a string map (kernel parameters and widths):
// empty text removes the key, so the kernel's own value applies.
func mapField(key, label, name, placeholder string, p func(explorer.Input) *map[string]string) field {
	return field{key: key, label: label, kind: fText, placeholder: placeholder,
		get: func(in explorer.Input) string { return (*p(in))[name] },
		set: func(in explorer.Input, s string) error {
			m := *p(in)
			if strings.TrimSpace(s) == "" {
				delete(m, name)
				return nil
			}
			if m == nil {
				m = map[string]string{}
				*p(in) = m
			}
			m[name] = strings.TrimSpace(s)
			return nil
		}}
}

// fieldMessage is an error as shown next to its field: without the
// field's name in front (the form shows it already) and in the TUI's own
// words.
func fieldMessage(fl field, err error) string {
	s := err.Error()
	for _, p := range []string{fl.label + ": ", fl.key + ": ", "set: ", "widths: ", "params: "} {
		s = strings.TrimPrefix(s, p)
	}
	return tuiWords(s)
}

// cliWords are phrases of messages written for the command line, with
// what they mean in the TUI.
var cliWords = []struct{ cli, tui string }{
	{"; use --force to replace it", ": r asks before replacing it"},
	{"use --force", "turn on \"replace an existing folder\""},
	{"force the format with --format", "set the dataset cell's format"},
	{"force it with --format ", "set the dataset cell's format to "},
	{"read it with --format ", "set the dataset cell's format to "},
	{"--format", "the dataset cell's format"},
	{"--set ", "the platform cell's "},
	{"--param ", "the kernel cell's param "},
}

// tuiWords rewrites the command-line advice in a message (flags to pass)
// as what to do in the TUI.
func tuiWords(s string) string {
	for _, w := range cliWords {
		s = strings.ReplaceAll(s, w.cli, w.tui)
	}
	return s
}
