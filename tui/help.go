package tui

import (
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// typing is a help-only binding for the text input of a field.
var typing = key.NewBinding(key.WithKeys("…"), key.WithHelp("type", "edit the value (checked on every key)"))

// liveKeys returns, in groups, the bindings that do something now: the
// help lists these and nothing else.
func (a *App) liveKeys() [][]key.Binding {
	km := &a.keys
	nb := a.sh.nb
	if a.prompt != nil {
		switch a.prompt.kind {
		case promptQuit:
			return [][]key.Binding{{km.Yes, km.No, km.Dismiss}}
		case promptAdd:
			return [][]key.Binding{{km.Up, km.Down, km.Confirm, km.Dismiss}}
		}
		return [][]key.Binding{{typing, km.Confirm, km.Dismiss}}
	}
	if a.tooSmall() {
		return [][]key.Binding{{km.Quit}}
	}
	c := a.focused()
	var file []key.Binding
	if _, ok := nb.CanUndo(); ok {
		file = append(file, km.Undo)
	}
	file = append(file, km.Save, km.SaveAs, km.Title, km.Mouse, km.Help, km.Quit)
	var run []key.Binding
	if c != nil {
		b := c.base()
		if b.kind != explorer.KindNotes {
			run = append(run, km.Run)
		}
		if b.job != nil && !b.job.auto {
			run = append(run, km.Cancel)
		}
		run = append(run, km.Fold)
	}
	run = append(run, km.RunAll)
	var own []key.Binding
	if c != nil {
		own = c.cellKeys()
	}
	if c != nil && c.base().editing() {
		fl, _ := c.base().form.current()
		done := km.Done
		if fl.kind == fMultiline {
			done = km.Leave
			done.SetHelp("esc", "done editing")
		}
		return [][]key.Binding{{typing, done}, {km.ForceQuit}}
	}
	if a.mode == modeCell && c != nil {
		var form []key.Binding
		f := &c.base().form
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
		form = append(form, km.Leave)
		groups := [][]key.Binding{form, run}
		if len(own) > 0 {
			groups = append(groups, own)
		}
		return append(groups, file)
	}
	var move []key.Binding
	if a.focus > 0 {
		move = append(move, km.Up)
	}
	if a.focus < len(a.cells)-1 {
		move = append(move, km.Down)
	}
	move = append(move, km.Top, km.Bottom, km.PageUp, km.PageDown)
	if c != nil {
		move = append(move, km.Enter)
	}
	edit := []key.Binding{km.Add}
	if c != nil {
		edit = append(edit, km.Delete)
		if a.focus > 0 {
			edit = append(edit, km.MoveUp)
		}
		if a.focus < len(a.cells)-1 {
			edit = append(edit, km.MoveDown)
		}
	}
	groups := [][]key.Binding{move, run, edit}
	if len(own) > 0 {
		groups = append(groups, own)
	}
	return append(groups, file)
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
	return append([]string{rule("keys (? closes)", a.width, th)}, out...)
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
	for _, b := range []key.Binding{km.Help, km.Cancel, km.Play, km.StepNext, km.Up, km.Down, km.FieldUp, km.FieldDown, km.Enter, km.Edit, km.Toggle, km.Next, km.Leave, km.Done,
		typing, km.Run, km.Add, km.Undo, km.Save, km.Quit, km.ForceQuit, km.Yes, km.No, km.Confirm, km.Dismiss} {
		if live[b.Help()] || (b.Help() == km.Help.Help() && a.prompt == nil && !a.tooSmall()) {
			out = append(out, b)
			delete(live, b.Help())
		}
	}
	return out
}
