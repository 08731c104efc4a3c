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
	// hint is shown faint after the value (a unit, what 0 means).
	hint string
	// placeholder is shown faint when the value is empty.
	placeholder string
	get         func(explorer.Input) string
	set         func(explorer.Input, string) error
}

// pending is text the user typed that the notebook did not accept: it
// stays shown in place, with the error, until it is fixed, replaced or
// cancelled, and the cells that depend on the cell wait for it.
type pending struct {
	text string
	err  error
}

// formHost is what a form edits through: the cell's notebook.
type formHost interface {
	// commit writes a field's text into the notebook and returns its
	// verdict.
	commit(fl field, text string) error
	// begin opens one undo step for the edit of a field; end closes it,
	// keeping the edits (keep) or taking them back.
	begin(fl field)
	end(keep bool)
}

// form is the input part of a cell: fields, the field cursor, and the
// text input of the field being edited. While a field is edited every
// keystroke is committed, so that the cells below follow the typing;
// Enter keeps the edit (one undo step) and Esc takes it back. Text the
// notebook does not accept stays pending.
type form struct {
	fields  []field
	cursor  int
	editing bool
	// selected says that the whole value is selected, as it is when the
	// edit starts: typing replaces it, an arrow key keeps it.
	selected bool
	input    textinput.Model
	area     textarea.Model
	pending  map[string]pending
	// errs are evaluation errors the notebook blamed on fields of this
	// cell (a board that has fewer FPGAs than asked), by field key.
	errs map[string]string
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
	if noColor() {
		// The inputs' own styles are coloured; without colour the
		// placeholder is faint and the text area plain.
		ti.PlaceholderStyle = lipgloss.NewStyle().Faint(true)
		plain := textarea.Style{Base: lipgloss.NewStyle(), CursorLine: lipgloss.NewStyle(), Placeholder: lipgloss.NewStyle().Faint(true),
			Prompt: lipgloss.NewStyle(), Text: lipgloss.NewStyle(), EndOfBuffer: lipgloss.NewStyle(), LineNumber: lipgloss.NewStyle(), CursorLineNumber: lipgloss.NewStyle()}
		ta.FocusedStyle, ta.BlurredStyle = plain, plain
	}
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

// moveTo puts the cursor on the field with key k (false when there is
// none).
func (f *form) moveTo(k string) bool {
	for i, fl := range f.fields {
		if fl.key == k {
			f.cursor = i
			return true
		}
	}
	return false
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

// problem is the error shown next to a field: its pending text's, or an
// evaluation error blamed on it; "" for none.
func (f *form) problem(fl field) string {
	if p, ok := f.pending[fl.key]; ok {
		return fieldMessage(fl, p.err)
	}
	return f.errs[fl.key]
}

// firstProblem returns the first field with a problem, in form order.
func (f *form) firstProblem() (field, string, bool) {
	for _, fl := range f.fields {
		if p := f.problem(fl); p != "" {
			return fl, p, true
		}
	}
	return field{}, "", false
}

func (f *form) commit(fl field, text string, h formHost) {
	if err := h.commit(fl, text); err != nil {
		f.pending[fl.key] = pending{text: text, err: err}
		return
	}
	delete(f.pending, fl.key)
}

// startEdit opens the text input on the focused field with its value
// selected.
func (f *form) startEdit(in explorer.Input, width int, h formHost) tea.Cmd {
	fl, ok := f.current()
	if !ok || fl.kind == fBool {
		return nil
	}
	f.editing = true
	h.begin(fl)
	if fl.kind == fMultiline {
		f.selected = false
		f.area.SetValue(f.text(fl, in))
		f.area.SetWidth(max(20, width-4))
		return f.area.Focus()
	}
	f.selected = true
	f.input.SetValue(f.text(fl, in))
	f.input.Placeholder = fl.placeholder
	f.input.CursorEnd()
	f.input.Width = max(10, min(60, width-f.labelWidth()-8))
	return f.input.Focus()
}

// stopEdit closes the text input (the edit was kept or taken back by
// then).
func (f *form) stopEdit() {
	f.editing, f.selected = false, false
	f.input.Blur()
	f.area.Blur()
}

// finish ends an edit: keep commits what was typed (text the notebook
// refused stays pending, and the notebook keeps the value it had), and
// !keep restores the value from before the edit.
func (f *form) finish(keep bool, h formHost) {
	if !f.editing {
		return
	}
	fl, ok := f.current()
	if ok && !keep {
		delete(f.pending, fl.key)
	}
	_, bad := f.pending[fl.key]
	h.end(keep && !bad)
	f.stopEdit()
}

// update handles a key while the cell is entered. It reports whether the
// key was the form's.
func (f *form) update(msg tea.KeyMsg, km *keyMap, in explorer.Input, width int, h formHost) (bool, tea.Cmd) {
	if f.editing {
		return true, f.editKey(msg, km, h)
	}
	fl, ok := f.current()
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
		h.begin(fl)
		f.commit(fl, v, h)
		h.end(true)
		return true, nil
	case fl.kind == fChoice && (key.Matches(msg, km.Prev) || key.Matches(msg, km.Next)):
		d := 1
		if key.Matches(msg, km.Prev) {
			d = -1
		}
		h.begin(fl)
		f.commit(fl, cycle(fl.choices, f.text(fl, in), d), h)
		h.end(true)
		return true, nil
	case key.Matches(msg, km.Edit):
		return true, f.startEdit(in, width, h)
	}
	return false, nil
}

// editKey handles a key of the field being edited.
func (f *form) editKey(msg tea.KeyMsg, km *keyMap, h formHost) tea.Cmd {
	fl, ok := f.current()
	if !ok {
		f.stopEdit()
		return nil
	}
	if fl.kind == fMultiline {
		// Enter is a new line in a text area; Esc ends the edit, keeping
		// it (u takes it back).
		if msg.Type == tea.KeyEsc {
			f.finish(true, h)
			return nil
		}
		before := f.area.Value()
		var cmd tea.Cmd
		f.area, cmd = f.area.Update(msg)
		if v := f.area.Value(); v != before {
			f.commit(fl, v, h)
		}
		return cmd
	}
	switch {
	case key.Matches(msg, km.Commit):
		f.finish(true, h)
		return nil
	case key.Matches(msg, km.Abort):
		f.finish(false, h)
		return nil
	}
	if f.selected {
		f.selected = false
		switch {
		case msg.Type == tea.KeyRunes || msg.Type == tea.KeySpace:
			// Typing replaces the selected value.
			f.input.SetValue("")
		case msg.Type == tea.KeyBackspace || msg.Type == tea.KeyDelete || msg.Type == tea.KeyCtrlU || msg.Type == tea.KeyCtrlK:
			f.input.SetValue("")
			f.commit(fl, "", h)
			return nil
		}
	}
	before := f.input.Value()
	var cmd tea.Cmd
	f.input, cmd = f.input.Update(msg)
	if v := f.input.Value(); v != before {
		f.commit(fl, v, h)
	}
	return cmd
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
	indent := strings.Repeat(" ", lw+4)
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
		if sel && f.editing && fl.kind == fMultiline {
			lines = append(lines, mark+label)
			for _, l := range strings.Split(f.area.View(), "\n") {
				lines = append(lines, "    "+l)
			}
			continue
		}
		line := mark + label + "  " + f.valueView(fl, in, sel, th)
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
			lines = append(lines, indent+th.dim.Render(l))
		}
		if p := f.problem(fl); p != "" {
			for _, l := range wrap("✗ "+p, width-lw-4) {
				lines = append(lines, indent+th.err.Render(l))
			}
		}
	}
	return lines, cursorLine
}

// valueView is a field's value as the form shows it.
func (f *form) valueView(fl field, in explorer.Input, sel bool, th *theme) string {
	val := f.text(fl, in)
	var shown string
	switch {
	case sel && f.editing && f.selected && val != "":
		shown = th.selected.Render(val)
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
	return shown
}

// summary renders the form of a cell that is not entered: its values on
// as few lines as fit, and every field's problem under them.
func (f *form) summary(in explorer.Input, width int, th *theme) []string {
	var parts []string
	var errs []string
	for _, fl := range f.fields {
		if fl.kind == fMultiline {
			continue
		}
		val := f.text(fl, in)
		prob := f.problem(fl)
		if val == "" && prob == "" && (strings.HasPrefix(fl.key, "set.") || strings.HasPrefix(fl.key, "widths.") || strings.HasPrefix(fl.key, "params.")) {
			continue
		}
		if fl.kind == fBool {
			val = onOff(val == "true")
		}
		s := th.dim.Render(fl.label+" ") + val
		if val == "" {
			s = th.dim.Render(fl.label + " " + fl.placeholder)
			if fl.placeholder == "" {
				s = th.dim.Render(fl.label+" ") + `""`
			}
		}
		if prob != "" {
			s += th.err.Render(" ✗")
			errs = append(errs, fl.label+": "+prob)
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
