package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap is the program's one keymap. Which bindings are live depends on
// the mode and the focused cell; App.liveKeys picks them for the help.
type keyMap struct {
	// Notebook motion and scrolling.
	Up, Down, Top, Bottom, PageUp, PageDown, HalfUp, HalfDown, Space, Jump, Find key.Binding
	// Cells.
	Enter, Leave, Run, RunAll, Cancel, Add, Delete, MoveUp, MoveDown, Undo, Redo, Fold, FoldAll, EditKernel key.Binding
	// Inside a cell.
	FieldUp, FieldDown, Prev, Next, Edit, Toggle key.Binding
	// Editing a field.
	Commit, Abort key.Binding
	// Trace replay.
	Play, StepNext, StepPrev, ScrubFwd, ScrubBack, Faster, Slower key.Binding
	// File and program.
	Save, SaveAs, Title, Mouse, Help, Quit, ForceQuit key.Binding
	// Prompts.
	Yes, No, Confirm, Dismiss key.Binding
}

func newKeyMap() keyMap {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return keyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "previous cell"),
		Down:     b([]string{"down", "j"}, "↓/j", "next cell"),
		Top:      b([]string{"home", "g"}, "g/home", "first cell"),
		Bottom:   b([]string{"end", "G"}, "G/end", "last cell"),
		PageUp:   b([]string{"pgup"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown"}, "pgdn", "page down"),
		HalfUp:   b([]string{"ctrl+u"}, "ctrl+u", "half a page up"),
		HalfDown: b([]string{"ctrl+d"}, "ctrl+d", "half a page down"),
		Space:    b([]string{" "}, "space", "page down"),
		Jump:     b([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9", "go to cell 1 to 9"),
		Find:     b([]string{"/"}, "/", "find a cell or field"),

		Enter:      b([]string{"enter", "i", "l", "right"}, "enter/l", "into the cell"),
		Leave:      b([]string{"esc"}, "esc", "back to the notebook"),
		Run:        b([]string{"r"}, "r", "run the cell"),
		RunAll:     b([]string{"R"}, "R", "run every cell"),
		Cancel:     b([]string{"c"}, "c", "cancel the job"),
		Add:        b([]string{"a"}, "a", "add a cell below"),
		Delete:     b([]string{"d"}, "d", "delete the cell"),
		MoveUp:     b([]string{"K", "shift+up"}, "K", "move the cell up"),
		MoveDown:   b([]string{"J", "shift+down"}, "J", "move the cell down"),
		Undo:       b([]string{"u", "ctrl+z"}, "u", "undo"),
		Redo:       b([]string{"U", "ctrl+r"}, "U/ctrl+r", "redo"),
		Fold:       b([]string{"z"}, "z", "fold the output"),
		FoldAll:    b([]string{"Z"}, "Z", "fold every other cell"),
		EditKernel: b([]string{"e"}, "e", "edit the kernel in $EDITOR"),

		FieldUp:   b([]string{"up", "k", "shift+tab"}, "↑/k", "previous field"),
		FieldDown: b([]string{"down", "j", "tab"}, "↓/j", "next field"),
		Prev:      b([]string{"left", "h"}, "←/h", "previous choice"),
		Next:      b([]string{"right", "l"}, "→/l", "next choice"),
		Edit:      b([]string{"enter", "i"}, "enter/i", "edit the field"),
		Toggle:    b([]string{" "}, "space", "toggle"),

		Commit: b([]string{"enter"}, "enter", "keep the value"),
		Abort:  b([]string{"esc"}, "esc", "cancel the edit"),

		Play:      b([]string{" ", "p"}, "space/p", "play/pause"),
		StepNext:  b([]string{".", "n"}, "./n", "next superstep"),
		StepPrev:  b([]string{",", "N"}, ",/N", "previous superstep"),
		ScrubFwd:  b([]string{">", "]"}, ">", "scrub forward"),
		ScrubBack: b([]string{"<", "["}, "<", "scrub back"),
		Faster:    b([]string{"+", "="}, "+", "faster"),
		Slower:    b([]string{"-"}, "-", "slower"),

		Save:      b([]string{"s", "ctrl+s"}, "s", "save"),
		SaveAs:    b([]string{"S"}, "S", "save as"),
		Title:     b([]string{"t"}, "t", "edit the title"),
		Mouse:     b([]string{"m"}, "m", "mouse on/off"),
		Help:      b([]string{"?"}, "?", "help"),
		Quit:      b([]string{"q"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),

		Yes:     b([]string{"y", "Y"}, "y", "yes"),
		No:      b([]string{"n", "N"}, "n", "no"),
		Confirm: b([]string{"enter"}, "enter", "confirm"),
		Dismiss: b([]string{"esc"}, "esc", "cancel"),
	}
}
