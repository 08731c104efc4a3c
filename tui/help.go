package tui

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// typing is a help-only binding for the text input of a field.
var typing = key.NewBinding(key.WithKeys("…"), key.WithHelp("type", "edit the value (checked on every key)"))

// liveKeys returns, in groups, the bindings that do something now: the
// help lists these and nothing else.
func (a *App) liveKeys() [][]key.Binding {
	km := &a.keys
	if a.prompt != nil {
		return a.promptKeys()
	}
	if a.tooSmall() {
		return [][]key.Binding{{km.Quit}}
	}
	c := a.focused()
	if c != nil && c.base().editing() {
		fl, _ := c.base().form.current()
		if fl.kind == fMultiline {
			done := km.Leave
			done.SetHelp("esc", "done editing")
			return [][]key.Binding{{typing, done}, {km.ForceQuit}}
		}
		return [][]key.Binding{{typing, km.Commit, km.Abort}, {km.ForceQuit}}
	}
	var own []key.Binding
	if c != nil {
		own = c.cellKeys()
	}
	groups := [][]key.Binding{a.motionKeys(own)}
	if a.mode == modeCell && c != nil {
		groups = [][]key.Binding{a.formKeys(), a.motionKeys(own)}
	}
	groups = append(groups, a.runKeys())
	if a.mode == modeNotebook {
		groups = append(groups, a.editKeys())
	}
	if len(own) > 0 {
		groups = append(groups, own)
	}
	return append(groups, a.fileKeys())
}

func (a *App) promptKeys() [][]key.Binding {
	km := &a.keys
	switch a.prompt.kind {
	case promptQuit:
		y, n := km.Yes, km.No
		y.SetHelp("y", "save, then quit")
		n.SetHelp("n", "quit without saving")
		return [][]key.Binding{{y, n, km.Dismiss}}
	case promptJobs, promptOverwrite, promptReplace:
		return [][]key.Binding{{km.Yes, km.No, km.Dismiss}}
	case promptAdd:
		return [][]key.Binding{{km.Up, km.Down, km.Confirm, km.Dismiss}}
	}
	return [][]key.Binding{{typing, km.Confirm, km.Dismiss}}
}

// formKeys are the keys of an entered cell's form.
func (a *App) formKeys() []key.Binding {
	km := &a.keys
	var form []key.Binding
	f := &a.focused().base().form
	if len(f.fields) > 1 {
		form = append(form, km.FieldUp, km.FieldDown)
	}
	if fl, ok := f.current(); ok {
		switch fl.kind {
		case fBool:
			form = append(form, km.Toggle)
		case fChoice:
			form = append(form, km.Prev, km.Next, km.Edit)
		default:
			form = append(form, km.Edit)
		}
	}
	return append(form, km.Leave)
}

// motionKeys are the keys that move between and inside cells; own are
// the focused cell's keys, which win over space.
func (a *App) motionKeys(own []key.Binding) []key.Binding {
	km := &a.keys
	var move []key.Binding
	if a.mode == modeNotebook {
		if a.focus > 0 {
			move = append(move, km.Up)
		}
		if a.focus < len(a.cells)-1 {
			move = append(move, km.Down)
		}
		move = append(move, km.Top, km.Bottom)
	}
	down, up := a.canScroll()
	if down {
		move = append(move, km.PageDown, km.HalfDown)
		spaceTaken := a.mode == modeCell && a.focusedFieldKind() == fBool
		for _, b := range own {
			if key.Matches(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}, b) {
				spaceTaken = true
			}
		}
		if !spaceTaken {
			move = append(move, km.Space)
		}
	}
	if up {
		move = append(move, km.PageUp, km.HalfUp)
	}
	if len(a.cells) > 1 {
		move = append(move, km.Jump)
	}
	move = append(move, km.Find)
	if a.mode == modeNotebook && a.focused() != nil {
		move = append(move, km.Enter)
	}
	return move
}

// canScroll reports whether PgDn and PgUp do something.
func (a *App) canScroll() (down, up bool) {
	if len(a.cells) == 0 || a.height == 0 {
		return false, false
	}
	start, end := a.cellSpan(a.focus)
	// The body's height with the one-line help: the help's own height
	// depends on these keys.
	h := max(1, a.height-a.topRows()-len(a.summaryBox())-1)
	top := a.scrollOff
	if a.focus < len(a.starts) {
		top += a.starts[a.focus]
	}
	top = max(0, min(top, max(a.total()-h, start)))
	nb := a.mode == modeNotebook
	return top+h < end || (nb && a.focus < len(a.cells)-1), top > start || (nb && a.focus > 0)
}

func (a *App) focusedFieldKind() fieldKind {
	if c := a.focused(); c != nil {
		if fl, ok := c.base().form.current(); ok {
			return fl.kind
		}
	}
	return fText
}

func (a *App) runKeys() []key.Binding {
	km := &a.keys
	var run []key.Binding
	if c := a.focused(); c != nil {
		b := c.base()
		if b.kind != explorer.KindNotes {
			run = append(run, km.Run)
		}
		if b.job != nil {
			run = append(run, km.Cancel)
		}
		run = append(run, km.Fold)
	}
	if len(a.cells) > 1 {
		run = append(run, km.FoldAll)
	}
	return append(run, km.RunAll)
}

func (a *App) editKeys() []key.Binding {
	km := &a.keys
	edit := []key.Binding{km.Add}
	if a.focused() != nil {
		edit = append(edit, km.Delete)
		if a.focus > 0 {
			edit = append(edit, km.MoveUp)
		}
		if a.focus < len(a.cells)-1 {
			edit = append(edit, km.MoveDown)
		}
	}
	return edit
}

func (a *App) fileKeys() []key.Binding {
	km := &a.keys
	nb := a.sh.nb
	var file []key.Binding
	if _, ok := nb.CanUndo(); ok {
		file = append(file, km.Undo)
	}
	if _, ok := nb.CanRedo(); ok {
		file = append(file, km.Redo)
	}
	return append(file, km.Save, km.SaveAs, km.Title, km.Mouse, km.Help, km.Quit)
}

// fullHelp lays every live key out in as many columns as fit.
func (a *App) fullHelp() []string {
	th := a.sh.th
	var items []string
	kw := 0
	for _, g := range a.liveKeys() {
		for _, b := range g {
			kw = max(kw, lipgloss.Width(b.Help().Key))
		}
	}
	iw := 0
	for _, g := range a.liveKeys() {
		for _, b := range g {
			s := th.key.Render(padRight(b.Help().Key, kw)) + " " + th.dim.Render(b.Help().Desc)
			items = append(items, s)
			iw = max(iw, lipgloss.Width(s))
		}
	}
	cols := max(1, (a.width+2)/(iw+2))
	rows := (len(items) + cols - 1) / cols
	out := make([]string, rows)
	for i, it := range items {
		r, c := i%rows, i/rows
		if c > 0 {
			out[r] = padRight(out[r], c*(iw+2))
		}
		out[r] += it
	}
	for i := range out {
		out[i] = truncate(out[i], a.width)
	}
	return append([]string{rule("keys (? or esc closes)", a.width, th)}, out...)
}

// shortKeys is the one-line help: the most used of the live keys.
func (a *App) shortKeys() []key.Binding {
	km := &a.keys
	live := map[key.Help]bool{}
	for _, g := range a.liveKeys() {
		for _, b := range g {
			live[b.Help()] = true
		}
	}
	var out []key.Binding
	// The keys of what is in front of the user (a running job, a trace)
	// come first, so that a narrow line still shows them.
	for _, b := range []key.Binding{km.Help, km.Cancel, km.Play, km.StepNext, km.Up, km.Down, km.FieldUp, km.FieldDown, km.Enter, km.Edit, km.Toggle, km.Next, km.Leave, km.Commit, km.Abort, km.PageDown,
		typing, km.EditKernel, km.Run, km.Add, km.Undo, km.Save, km.Quit, km.ForceQuit, km.Yes, km.No, km.Confirm, km.Dismiss} {
		if live[b.Help()] || (b.Help() == km.Help.Help() && a.prompt == nil && !a.tooSmall()) {
			out = append(out, b)
			delete(live, b.Help())
		}
	}
	return out
}
