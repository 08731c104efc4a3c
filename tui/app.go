package tui

import (
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// MinWidth and MinHeight are the smallest terminal the full layout (title
// bar, headline, notebook, summary and help) is drawn for; below it the
// program degrades to the headline and the focused cell, and says that
// the terminal is too small only below TinyWidth x TinyHeight, where
// nothing useful fits.
const (
	MinWidth   = 80
	MinHeight  = 24
	TinyWidth  = 40
	TinyHeight = 8
	// WideWidth is the width from which the model's dashboard is a pane
	// beside the notebook.
	WideWidth = 140
)

// Options configure the program.
type Options struct {
	// Now is the clock for elapsed times; nil is time.Now. Tests fix it
	// so that screens do not depend on the machine's speed.
	Now func() time.Time
	// Mouse starts with mouse reporting on (it is off by default so that
	// the terminal can select text).
	Mouse bool
	// Debounce is how long typing must pause before an edit starts
	// background work (loading a graph, partitioning); 0 is 400 ms.
	Debounce time.Duration
}

type mode int

const (
	modeNotebook mode = iota
	modeCell
)

// App is the root model: it owns the notebook, the cell models, focus,
// mode, layout, prompts and jobs.
type App struct {
	sh    *shared
	keys  keyMap
	cells []cellModel
	focus int
	mode  mode

	prompt   *prompt
	help     help.Model
	showHelp bool

	width, height int
	// scrollOff is the top of the view relative to the focused cell's
	// first line, so that the view stays put when cells above change
	// height.
	scrollOff int
	starts    []int
	mouse     bool
	// follow asks the next layout to bring the focused cell (or the
	// form's cursor) into view; scrolling keys leave it unset.
	follow bool

	flash    string
	flashErr bool

	jobs      map[int]*jobState
	auto      *jobState
	autoAgain bool
	nextJob   int
	ticking   bool
	// debounce is how long typing pauses before jobs start; typed counts
	// keystrokes so that only the last one's timer starts them.
	debounce time.Duration
	typed    int
	// quitting is set once the program stops its jobs to quit.
	quitting bool

	dash dashCache
}

// New returns the program's root model for a notebook. Results kept
// beside the notebook by an earlier session are read back.
func New(nb *explorer.Notebook, opt Options) *App {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	a := &App{keys: newKeyMap(), help: help.New(), jobs: map[int]*jobState{}, mouse: opt.Mouse, debounce: opt.Debounce, follow: true}
	if a.debounce <= 0 {
		a.debounce = 400 * time.Millisecond
	}
	a.sh = &shared{nb: nb, th: newTheme(), keys: &a.keys, now: now, width: MinWidth - 2}
	a.help.ShowAll = true
	if th := a.sh.th; !th.color {
		st := &a.help.Styles
		st.ShortKey, st.FullKey = th.key, th.key
		st.ShortDesc, st.FullDesc, st.ShortSeparator, st.FullSeparator, st.Ellipsis = th.dim, th.dim, th.dim, th.dim, th.dim
	}
	nb.KeepResults(true)
	if _, err := nb.RestoreResults(); err != nil {
		a.setFlash("some kept results could not be read: "+err.Error(), true)
	}
	for i, c := range nb.Cells {
		a.cells = append(a.cells, newCell(a.sh, c.In.Kind(), i))
	}
	a.reindex()
	return a
}

// Init implements tea.Model: it evaluates the cheap cells.
func (a *App) Init() tea.Cmd {
	cmds := []tea.Cmd{a.evaluate()}
	if a.mouse {
		cmds = append(cmds, tea.EnableMouseCellMotion)
	}
	return tea.Batch(cmds...)
}

// Notebook returns the notebook the program edits.
func (a *App) Notebook() *explorer.Notebook { return a.sh.nb }

func (a *App) reindex() {
	for i, c := range a.cells {
		b := c.base()
		b.index = i
		b.focused = i == a.focus
		b.entered = b.focused && a.mode == modeCell
		b.touch()
	}
}

func (a *App) focused() cellModel {
	if a.focus < 0 || a.focus >= len(a.cells) {
		return nil
	}
	return a.cells[a.focus]
}

// Update implements tea.Model.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = m.Width, m.Height
		a.help.Width = m.Width
		a.sh.width = a.cellWidth()
		for _, c := range a.cells {
			c.base().touch()
		}
		a.follow = true
		a.layout()
		a.ensureVisible()
		return a, nil
	case progressMsg, stepDoneMsg, jobDoneMsg, tickMsg, debounceMsg, quitTimeoutMsg:
		return a, a.jobMsg(msg)
	case editorDoneMsg:
		return a, a.editorDone(m)
	case cellMsg:
		c := m.target()
		for _, x := range a.cells {
			if x == c {
				_, cmd := c.Update(msg)
				c.base().touch()
				return a, cmd
			}
		}
		return a, nil
	case tea.MouseMsg:
		return a, a.mouseMsg(m)
	case tea.KeyMsg:
		var cmds []tea.Cmd
		for _, k := range a.splitKeys(m) {
			cmds = append(cmds, a.key(k))
			if a.sh.edited {
				cmds = append(cmds, a.evaluate())
			}
		}
		a.layout()
		a.ensureVisible()
		return a, tea.Batch(cmds...)
	}
	return a, nil
}

// splitKeys splits runes that arrived together (a fast typist, a script,
// tmux send-keys) into one key each, unless they go to a text input,
// which takes them at once.
func (a *App) splitKeys(m tea.KeyMsg) []tea.KeyMsg {
	if m.Type != tea.KeyRunes || len(m.Runes) < 2 || m.Paste || a.textInput() {
		return []tea.KeyMsg{m}
	}
	out := make([]tea.KeyMsg, 0, len(m.Runes))
	for _, r := range m.Runes {
		out = append(out, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: m.Alt})
	}
	return out
}

// textInput reports whether keys go to a text input now.
func (a *App) textInput() bool {
	if a.prompt != nil {
		return a.prompt.input != nil
	}
	c := a.focused()
	return c != nil && c.base().editing()
}

// cellMsg is a message addressed to one cell model (trace frames).
type cellMsg interface {
	target() cellModel
}

// tooSmall reports a terminal where nothing useful fits.
func (a *App) tooSmall() bool { return a.width < TinyWidth || a.height < TinyHeight }

// compact reports a terminal below the full layout: the title bar, the
// summary and the long help give way to the notebook.
func (a *App) compact() bool { return a.width < MinWidth || a.height < MinHeight }

func (a *App) key(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	if a.flash != "" {
		a.flash, a.flashErr = "", false
	}
	if key.Matches(msg, km.ForceQuit) {
		if a.prompt != nil && (a.prompt.kind == promptQuit || a.prompt.kind == promptJobs) {
			return a.forceQuit()
		}
		a.endEdit(true)
		a.prompt = nil
		return a.quit()
	}
	if a.quitting {
		return nil
	}
	if a.prompt != nil {
		return a.promptKey(msg)
	}
	if a.tooSmall() {
		if key.Matches(msg, km.Quit) {
			return a.quit()
		}
		return nil
	}
	c := a.focused()
	if c != nil && c.base().editing() {
		b := c.base()
		_, cmd := c.Update(msg)
		b.touch()
		if !b.editing() {
			a.follow = true
		}
		return cmd
	}
	if a.showHelp && key.Matches(msg, km.Leave) {
		// Esc closes the help first, as in lazygit and k9s; a second one
		// leaves the cell.
		a.showHelp = false
		return nil
	}
	if a.mode == modeCell && key.Matches(msg, km.Leave) {
		a.setMode(modeNotebook)
		return nil
	}
	if c != nil {
		b := c.base()
		b.consumed = false
		cur := b.form.cursor
		_, cmd := c.Update(msg)
		if b.consumed {
			b.touch()
			if b.form.cursor != cur || b.editing() {
				a.follow = true
			}
			return cmd
		}
	}
	if cmd, ok := a.moveKey(msg); ok {
		return cmd
	}
	return a.globalKey(msg)
}

func (a *App) setMode(m mode) {
	a.endEdit(true)
	a.mode = m
	if m == modeCell {
		if c := a.focused(); c != nil {
			c.base().form.cursor = 0
		}
	}
	a.follow = true
	a.reindex()
}

// endEdit ends the edit of a field, if one is open (keep or take back).
func (a *App) endEdit(keep bool) {
	c := a.focused()
	if c == nil || !c.base().form.editing {
		return
	}
	c.base().form.finish(keep, c.base())
	c.base().touch()
}

func (a *App) setFocus(i int) {
	if len(a.cells) == 0 {
		a.focus = 0
		return
	}
	i = max(0, min(i, len(a.cells)-1))
	if i != a.focus {
		a.endEdit(true)
		a.mode = modeNotebook
	}
	a.focus = i
	a.reindex()
	a.layout()
	a.scrollOff = 0
	a.follow = true
	a.setViewTop(a.viewTop())
}

// moveKey handles motion: between cells in the notebook, and scrolling,
// jumping and finding in both modes.
func (a *App) moveKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	km := &a.keys
	page := max(1, a.bodyHeight()-2)
	switch {
	case key.Matches(msg, km.PageDown), key.Matches(msg, km.Space):
		a.scrollCell(page)
	case key.Matches(msg, km.PageUp):
		a.scrollCell(-page)
	case key.Matches(msg, km.HalfDown):
		a.scrollCell(max(1, a.bodyHeight()/2))
	case key.Matches(msg, km.HalfUp):
		a.scrollCell(-max(1, a.bodyHeight()/2))
	case key.Matches(msg, km.Jump):
		if i := int(msg.Runes[0] - '1'); i < len(a.cells) {
			a.setFocus(i)
		} else {
			a.setFlash("the notebook has "+countCells(len(a.cells)), false)
		}
	case key.Matches(msg, km.Find):
		a.prompt = newFindPrompt()
	case a.mode != modeNotebook:
		return nil, false
	case key.Matches(msg, km.Up):
		a.setFocus(a.focus - 1)
	case key.Matches(msg, km.Down):
		a.setFocus(a.focus + 1)
	case key.Matches(msg, km.Top):
		a.setFocus(0)
	case key.Matches(msg, km.Bottom):
		a.setFocus(len(a.cells) - 1)
	case key.Matches(msg, km.Enter):
		if a.focused() != nil {
			a.setMode(modeCell)
		}
	default:
		return nil, false
	}
	return nil, true
}

func countCells(n int) string {
	if n == 1 {
		return "1 cell"
	}
	return itoa(n) + " cells"
}

// globalKey handles the keys that work in the notebook and in a cell.
func (a *App) globalKey(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	nb := a.sh.nb
	c := a.focused()
	switch {
	case key.Matches(msg, km.Run):
		if c != nil {
			return a.runAsk(c)
		}
	case key.Matches(msg, km.RunAll):
		return a.run(a.cells)
	case key.Matches(msg, km.Cancel):
		a.cancelFocused()
	case key.Matches(msg, km.Add):
		a.prompt = newAddPrompt()
	case key.Matches(msg, km.Delete):
		return a.deleteCell()
	case key.Matches(msg, km.MoveUp), key.Matches(msg, km.MoveDown):
		d := 1
		if key.Matches(msg, km.MoveUp) {
			d = -1
		}
		if err := nb.Move(a.focus, d); err != nil {
			return nil
		}
		a.cells[a.focus], a.cells[a.focus+d] = a.cells[a.focus+d], a.cells[a.focus]
		a.setFocus(a.focus + d)
		return a.evaluate()
	case key.Matches(msg, km.Undo):
		return a.undo(false)
	case key.Matches(msg, km.Redo):
		return a.undo(true)
	case key.Matches(msg, km.Fold):
		if c != nil {
			c.base().folded = !c.base().folded
			c.base().touch()
		}
	case key.Matches(msg, km.FoldAll):
		a.foldOthers()
	case key.Matches(msg, km.EditKernel):
		if k, ok := c.(*kernelCell); ok {
			return a.editKernel(k)
		}
	case key.Matches(msg, km.Save):
		if nb.Path == "" {
			a.prompt = newSavePrompt(nb, false)
			return nil
		}
		return a.save(nb.Path)
	case key.Matches(msg, km.SaveAs):
		a.prompt = newSavePrompt(nb, false)
	case key.Matches(msg, km.Title):
		a.prompt = newTitlePrompt(nb)
	case key.Matches(msg, km.Mouse):
		a.mouse = !a.mouse
		if a.mouse {
			a.setFlash("mouse on: wheel scrolls, click focuses (m turns it off to select text)", false)
			return tea.EnableMouseCellMotion
		}
		a.setFlash("mouse off", false)
		return tea.DisableMouse
	case key.Matches(msg, km.Help):
		a.showHelp = !a.showHelp
	case key.Matches(msg, km.Quit):
		return a.quit()
	}
	return nil
}

func (a *App) deleteCell() tea.Cmd {
	c := a.focused()
	if c == nil {
		return nil
	}
	if err := a.sh.nb.Delete(a.focus); err != nil {
		a.setFlash(err.Error(), true)
		return nil
	}
	if j := c.base().job; j != nil {
		j.cancel()
	}
	a.cells = append(a.cells[:a.focus], a.cells[a.focus+1:]...)
	a.mode = modeNotebook
	a.reindex()
	a.setFocus(a.focus)
	a.setFlash("deleted the cell (u undoes)", false)
	return a.evaluate()
}

// undo undoes (or redoes) the last change of the notebook.
func (a *App) undo(redo bool) tea.Cmd {
	nb := a.sh.nb
	a.endEdit(true)
	can, act, verb := nb.CanUndo, nb.Undo, "undid "
	if redo {
		can, act, verb = nb.CanRedo, nb.Redo, "redid "
	}
	what, ok := can()
	if !ok {
		a.setFlash("nothing to "+verb[:4], false)
		return nil
	}
	if err := act(); err != nil {
		a.setFlash(err.Error(), true)
		return nil
	}
	a.rebuild()
	a.setFlash(verb+what, false)
	return a.evaluate()
}

// foldOthers folds every cell but the focused one, or unfolds them all
// when they are folded already.
func (a *App) foldOthers() {
	all := true
	for i, c := range a.cells {
		if i != a.focus && !c.base().folded {
			all = false
		}
	}
	for i, c := range a.cells {
		c.base().folded = !all && i != a.focus
		c.base().touch()
	}
	if all {
		a.setFlash("every cell unfolded", false)
	} else {
		a.setFlash("every other cell folded (Z unfolds them)", false)
	}
}

// rebuild matches the cell models to the notebook after an undo: a model
// stays where the kind at its place did not change.
func (a *App) rebuild() {
	old := a.cells
	a.cells = nil
	for i, c := range a.sh.nb.Cells {
		if i < len(old) && old[i].base().kind == c.In.Kind() {
			b := old[i].base()
			b.form.pending = map[string]pending{}
			b.form.stopEdit()
			a.cells = append(a.cells, old[i])
			continue
		}
		a.cells = append(a.cells, newCell(a.sh, c.In.Kind(), i))
	}
	a.reindex()
	a.setFocus(a.focus)
}

func (a *App) setFlash(s string, isErr bool) { a.flash, a.flashErr = s, isErr }

func (a *App) mouseMsg(m tea.MouseMsg) tea.Cmd {
	if !a.mouse || a.tooSmall() || a.prompt != nil {
		return nil
	}
	switch {
	case m.Button == tea.MouseButtonWheelUp:
		a.scrollBy(-3)
	case m.Button == tea.MouseButtonWheelDown:
		a.scrollBy(3)
	case m.Button == tea.MouseButtonLeft && m.Action == tea.MouseActionPress:
		row := m.Y - a.bodyRow()
		if row < 0 || row >= a.bodyHeight() || m.X >= a.notebookWidth() {
			return nil
		}
		line := row + a.viewTop()
		for i := len(a.starts) - 1; i >= 0; i-- {
			if line >= a.starts[i] {
				if i != a.focus {
					top := a.viewTop()
					a.setMode(modeNotebook)
					a.focus = i
					a.reindex()
					a.setViewTop(top)
				}
				break
			}
		}
	}
	return nil
}
