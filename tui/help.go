package tui

import (
	"github.com/charmbracelet/bubbles/key"
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

func (a *App) helpGroups() [][]key.Binding { return a.liveKeys() }

// shortKeys is the one-line help: the first keys of each group, and ?.
func (a *App) shortKeys() []key.Binding {
	var out []key.Binding
	for _, g := range a.liveKeys() {
		for i, b := range g {
			if i >= 3 {
				break
			}
			if key.Matches(keyOf(b), a.keys.Help) {
				continue
			}
			out = append(out, b)
		}
	}
	if a.prompt == nil && !a.tooSmall() {
		out = append([]key.Binding{a.keys.Help}, out...)
	}
	return out
}

// keyOf is a key message for a binding's first key, to compare bindings.
type keyOf key.Binding

func (k keyOf) String() string {
	keys := key.Binding(k).Keys()
	if len(keys) == 0 {
		return ""
	}
	return keys[0]
}
