package tui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// fieldKind says how a field is edited.
type fieldKind int

const (
	// fText is typed in a one-line input.
	fText fieldKind = iota
	// fChoice cycles through choices with ←/→ and may also be typed
	// (a board or kernel given as a file).
	fChoice
	// fBool toggles.
	fBool
	// fMultiline is typed in a text area (notes).
	fMultiline
)

// field is one editable value of a cell's input. get and set translate
// between the input and the text the form shows; set returns an error for
// text that does not parse, and the notebook's Check catches the rest.
type field struct {
	key, label string
	kind       fieldKind
	choices    []string
	// hint is shown faint after the value (a unit, the board's figure).
	hint string
	// placeholder is shown faint when the value is empty.
	placeholder string
	get         func(explorer.Input) string
	set         func(explorer.Input, string) error
}

// pending is text the user typed that the notebook did not accept: it
// stays shown in place, with the error, until it is fixed or replaced.
type pending struct {
	text string
	err  error
}

// form is the input part of a cell: fields, the field cursor, and the
// text input of the field being edited. Every keystroke in a field is
// committed through commit (Notebook.Edit), so that the cells below
// update live; text that fails stays pending.
type form struct {
	fields  []field
	cursor  int
	editing bool
	input   textinput.Model
	area    textarea.Model
	pending map[string]pending
}

func newForm() form {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Cursor.SetMode(cursor.CursorStatic)
	ta := textarea.New()
	ta.ShowLineNumbers = false
	ta.Prompt = "│ "
	ta.Cursor.SetMode(cursor.CursorStatic)
	ta.SetHeight(6)
	return form{input: ti, area: ta, pending: map[string]pending{}}
}

// setFields replaces the fields (they depend on the cell's result, such
// as a kernel's layout fields), keeping the cursor on the same key.
func (f *form) setFields(fs []field) {
	cur := ""
	if f.cursor < len(f.fields) {
		cur = f.fields[f.cursor].key
	}
	f.fields = fs
	f.cursor = 0
	for i, fl := range fs {
		if fl.key == cur {
			f.cursor = i
		}
	}
	// Pending text of a field that went away is dropped.
	for k := range f.pending {
		if !slices.ContainsFunc(fs, func(fl field) bool { return fl.key == k }) {
			delete(f.pending, k)
		}
	}
}

func (f *form) current() (field, bool) {
	if f.cursor < 0 || f.cursor >= len(f.fields) {
		return field{}, false
	}
	return f.fields[f.cursor], true
}

// text is what the form shows for a field: pending text, or the input's.
func (f *form) text(fl field, in explorer.Input) string {
	if p, ok := f.pending[fl.key]; ok {
		return p.text
	}
	return fl.get(in)
}

// commitFunc writes a field's text into the cell (through Notebook.Edit)
// and returns the notebook's verdict.
type commitFunc func(fl field, text string) error

func (f *form) commit(fl field, text string, c commitFunc) {
	if err := c(fl, text); err != nil {
		f.pending[fl.key] = pending{text: text, err: err}
		return
	}
	delete(f.pending, fl.key)
}

// startEdit opens the text input on the focused field.
func (f *form) startEdit(in explorer.Input, width int) tea.Cmd {
	fl, ok := f.current()
	if !ok || fl.kind == fBool {
		return nil
	}
	f.editing = true
	if fl.kind == fMultiline {
		f.area.SetValue(f.text(fl, in))
		f.area.SetWidth(max(20, width-4))
		return f.area.Focus()
	}
	f.input.SetValue(f.text(fl, in))
	f.input.Placeholder = fl.placeholder
	f.input.CursorEnd()
	f.input.Width = max(10, min(60, width-f.labelWidth()-8))
	return f.input.Focus()
}

func (f *form) stopEdit() {
	f.editing = false
	f.input.Blur()
	f.area.Blur()
}

// update handles a key while the cell is entered. It reports whether the
// key was the form's.
func (f *form) update(msg tea.KeyMsg, km *keyMap, in explorer.Input, width int, c commitFunc) (bool, tea.Cmd) {
	fl, ok := f.current()
	if f.editing {
		if !ok {
			f.stopEdit()
			return true, nil
		}
		if fl.kind == fMultiline {
			if msg.Type == tea.KeyEsc {
				f.stopEdit()
				return true, nil
			}
			before := f.area.Value()
			var cmd tea.Cmd
			f.area, cmd = f.area.Update(msg)
			if v := f.area.Value(); v != before {
				f.commit(fl, v, c)
			}
			return true, cmd
		}
		if key.Matches(msg, km.Done) {
			f.stopEdit()
			return true, nil
		}
		before := f.input.Value()
		var cmd tea.Cmd
		f.input, cmd = f.input.Update(msg)
		if v := f.input.Value(); v != before {
			f.commit(fl, v, c)
		}
		return true, cmd
	}
	switch {
	case key.Matches(msg, km.FieldUp):
		if f.cursor > 0 {
			f.cursor--
		}
		return true, nil
	case key.Matches(msg, km.FieldDown):
		if f.cursor < len(f.fields)-1 {
			f.cursor++
		}
		return true, nil
	case key.Matches(msg, km.Top):
		f.cursor = 0
		return true, nil
	case key.Matches(msg, km.Bottom):
		f.cursor = max(0, len(f.fields)-1)
		return true, nil
	}
	if !ok {
		return false, nil
	}
	switch {
	case fl.kind == fBool && (key.Matches(msg, km.Toggle) || key.Matches(msg, km.Edit) || key.Matches(msg, km.Prev) || key.Matches(msg, km.Next)):
		v := "true"
		if f.text(fl, in) == "true" {
			v = "false"
		}
		f.commit(fl, v, c)
		return true, nil
	case fl.kind == fChoice && (key.Matches(msg, km.Prev) || key.Matches(msg, km.Next)):
		d := 1
		if key.Matches(msg, km.Prev) {
			d = -1
		}
		f.commit(fl, cycle(fl.choices, f.text(fl, in), d), c)
		return true, nil
	case key.Matches(msg, km.Edit):
		return true, f.startEdit(in, width)
	}
	return false, nil
}

// cycle returns the choice d steps from cur (the first when cur is not
// one of them).
func cycle(choices []string, cur string, d int) string {
	if len(choices) == 0 {
		return cur
	}
	i := slices.Index(choices, cur)
	if i < 0 {
		return choices[0]
	}
	return choices[(i+d+len(choices))%len(choices)]
}

func (f *form) labelWidth() int {
	w := 0
	for _, fl := range f.fields {
		w = max(w, lipgloss.Width(fl.label))
	}
	return min(w, 26)
}

// view renders the form of an entered cell, one field a line. It returns
// the lines and the line of the cursor.
func (f *form) view(in explorer.Input, width int, th *theme) ([]string, int) {
	var lines []string
	cursorLine := 0
	lw := f.labelWidth()
	for i, fl := range f.fields {
		sel := i == f.cursor
		mark := "  "
		if sel {
			mark = th.accent.Render("▸ ")
			cursorLine = len(lines)
		}
		label := padRight(truncate(fl.label, lw), lw)
		if sel {
			label = th.bold.Render(label)
		}
		val := f.text(fl, in)
		var shown string
		switch {
		case sel && f.editing && fl.kind == fMultiline:
			lines = append(lines, mark+label)
			for _, l := range strings.Split(f.area.View(), "\n") {
				lines = append(lines, "    "+l)
			}
			continue
		case sel && f.editing:
			shown = f.input.View()
		case fl.kind == fBool:
			shown = "[ ]"
			if val == "true" {
				shown = "[x]"
			}
		case fl.kind == fMultiline:
			first, _, more := strings.Cut(val, "\n")
			shown = first
			if more {
				shown += th.dim.Render(" …")
			}
		case val == "" && fl.placeholder != "":
			shown = th.dim.Render(fl.placeholder)
		default:
			shown = val
		}
		if fl.kind == fChoice && sel && !f.editing {
			shown = th.accent.Render("◂ ") + shown + th.accent.Render(" ▸")
		}
		line := mark + label + "  " + shown
		// The hint follows the value; the focused field's goes on lines
		// of its own when it is being edited or would be cut off.
		var below []string
		if fl.hint != "" {
			full := line + "  " + th.dim.Render(fl.hint)
			if sel && (f.editing || lipgloss.Width(full) > width) {
				below = wrap(fl.hint, width-lw-4)
			} else {
				line = full
			}
		}
		lines = append(lines, truncate(line, width))
		for _, l := range below {
			lines = append(lines, strings.Repeat(" ", lw+4)+th.dim.Render(l))
		}
		if p, ok := f.pending[fl.key]; ok {
			for _, l := range wrap("✗ "+p.err.Error(), width-lw-4) {
				lines = append(lines, strings.Repeat(" ", lw+4)+th.err.Render(l))
			}
		}
	}
	return lines, cursorLine
}

// summary renders the form of a cell that is not entered: its values on
// as few lines as fit, and any pending error.
func (f *form) summary(in explorer.Input, width int, th *theme) []string {
	var parts []string
	var errs []string
	for _, fl := range f.fields {
		if fl.kind == fMultiline {
			continue
		}
		val := f.text(fl, in)
		_, isPending := f.pending[fl.key]
		if val == "" && !isPending && (strings.HasPrefix(fl.key, "set.") || strings.HasPrefix(fl.key, "widths.") || strings.HasPrefix(fl.key, "params.")) {
			continue
		}
		if fl.kind == fBool {
			if val == "true" {
				val = "on"
			} else {
				val = "off"
			}
		}
		s := th.dim.Render(fl.label+" ") + val
		if val == "" {
			s = th.dim.Render(fl.label + " " + fl.placeholder)
			if fl.placeholder == "" {
				s = th.dim.Render(fl.label+" ") + `""`
			}
		}
		if p, ok := f.pending[fl.key]; ok {
			s += th.err.Render(" ✗")
			errs = append(errs, fl.label+": "+p.err.Error())
		}
		parts = append(parts, s)
	}
	lines := joinWrapped(parts, "  ", width)
	for _, e := range errs {
		for _, l := range wrap("✗ "+e, width) {
			lines = append(lines, th.err.Render(l))
		}
	}
	return lines
}
