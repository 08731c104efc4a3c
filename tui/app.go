package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// MinWidth and MinHeight are the smallest terminal the notebook lays out
// in; below it the program says so and only quits.
const (
	MinWidth  = 80
	MinHeight = 24
)

// Options configure the program.
type Options struct {
	// Now is the clock for elapsed times; nil is time.Now. Tests fix it
	// so that screens do not depend on the machine's speed.
	Now func() time.Time
	// Mouse starts with mouse reporting on (it is off by default so that
	// the terminal can select text).
	Mouse bool
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

	flash    string
	flashErr bool

	jobs      map[int]*jobState
	auto      *jobState
	autoAgain bool
	nextJob   int
	ticking   bool
}

// New returns the program's root model for a notebook.
func New(nb *explorer.Notebook, opt Options) *App {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	a := &App{keys: newKeyMap(), help: help.New(), jobs: map[int]*jobState{}, mouse: opt.Mouse}
	a.sh = &shared{nb: nb, th: newTheme(), keys: &a.keys, now: now, width: MinWidth - 2}
	a.help.ShowAll = true
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

// --- evaluation -------------------------------------------------------------

// evaluate brings the cheap cells up to date: the quick ones in place,
// the others in one background job. Expensive cells wait for r.
func (a *App) evaluate() tea.Cmd {
	nb := a.sh.nb
	a.sh.edited = false
	for i, c := range nb.Cells {
		k := c.In.Kind()
		if explorer.Expensive(k) || k == explorer.KindNotes || !nb.Stale(i) || !nb.Ready(i) || a.blockedBy(i) >= 0 {
			continue
		}
		if b := a.cells[i].base(); b.job != nil {
			continue
		}
		nb.Eval(context.Background(), i, nil) // the result, or its error, is cached
	}
	cmd := a.startAuto()
	for _, c := range a.cells {
		c.base().refresh()
	}
	return cmd
}

// blockedBy returns a stale expensive cell that cell i needs (directly or
// through other cells), or -1. Cheap cells never start expensive work.
func (a *App) blockedBy(i int) int {
	nb := a.sh.nb
	for _, d := range nb.Deps(i) {
		if explorer.Expensive(nb.Cells[d].In.Kind()) && nb.Stale(d) {
			return d
		}
		if b := a.blockedBy(d); b >= 0 {
			return b
		}
	}
	return -1
}

// startAuto starts the background job of the stale cheap cells, or notes
// that one should start when the running one ends.
func (a *App) startAuto() tea.Cmd {
	nb := a.sh.nb
	if a.auto != nil {
		a.autoAgain = true
		return nil
	}
	var targets []cellModel
	var plans []*explorer.Job
	for i, c := range a.cells {
		b := c.base()
		k := b.kind
		b.waiting = ""
		if explorer.Expensive(k) || k == explorer.KindNotes || !nb.Stale(i) {
			continue
		}
		if d := a.blockedBy(i); d >= 0 {
			b.waiting = fmt.Sprintf("waiting for cell %d (%s): r runs it", d+1, nb.Cells[d].In.Kind())
			b.touch()
			continue
		}
		if b.job != nil || b.failedHash == nb.Hash(i) {
			continue
		}
		j, err := nb.Plan(i)
		if err != nil {
			b.waiting = errText(err)
			b.touch()
			continue
		}
		targets = append(targets, c)
		plans = append(plans, j)
	}
	if len(plans) == 0 {
		return nil
	}
	js, cmd := a.launch(true, targets, plans)
	a.auto = js
	return cmd
}

// launch starts a job and marks its targets as running.
func (a *App) launch(auto bool, targets []cellModel, plans []*explorer.Job) (*jobState, tea.Cmd) {
	a.nextJob++
	js, cmd := startJob(a.nextJob, auto, targets, plans, a.sh.now())
	for _, t := range targets {
		js.hashes = append(js.hashes, a.sh.nb.Hash(t.base().index))
	}
	a.jobs[js.id] = js
	for _, t := range targets {
		b := t.base()
		b.job, b.note = js, ""
		b.touch()
	}
	return js, tea.Batch(cmd, a.startTicking())
}

// run evaluates cells on demand (r, R).
func (a *App) run(cells []cellModel) tea.Cmd {
	nb := a.sh.nb
	var targets []cellModel
	var plans []*explorer.Job
	for _, c := range cells {
		b := c.base()
		if b.kind == explorer.KindNotes || b.job != nil {
			continue
		}
		j, err := nb.Plan(b.index)
		if err != nil {
			b.note = "✗ " + errText(err)
			b.touch()
			continue
		}
		targets = append(targets, c)
		plans = append(plans, j)
	}
	if len(plans) == 0 {
		return nil
	}
	_, cmd := a.launch(false, targets, plans)
	return cmd
}

func (a *App) startTicking() tea.Cmd {
	if a.ticking {
		return nil
	}
	a.ticking = true
	return tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
}

func (a *App) jobMsg(msg tea.Msg) tea.Cmd {
	switch m := msg.(type) {
	case progressMsg:
		js := a.jobs[m.job]
		if js == nil {
			return nil
		}
		js.prog, js.cur = m.p, m.target
		if m.target < len(js.targets) {
			js.targets[m.target].base().touch()
		}
		return listen(js.ch)
	case stepDoneMsg:
		js := a.jobs[m.job]
		if js == nil {
			return nil
		}
		t := js.targets[m.target].base()
		if t.job == js {
			t.job = nil
		}
		switch {
		case errors.Is(m.err, context.Canceled):
			t.note = "cancelled after " + js.elapsed(a.sh.now())
			if a.flash == "cancelling…" {
				a.flash = ""
			}
			if m.out != nil && !isNil(m.out) {
				t.last, t.lastErr = m.out, nil
			}
		default:
			t.last, t.lastErr = m.out, m.err
			if m.err == nil && m.out != nil {
				t.good = m.out
			}
			if m.err != nil {
				t.failedHash = js.hashes[m.target]
			}
		}
		t.touch()
		return tea.Batch(listen(js.ch), a.evaluate())
	case jobDoneMsg:
		js := a.jobs[m.job]
		if js == nil {
			return nil
		}
		delete(a.jobs, m.job)
		for _, t := range js.targets {
			if b := t.base(); b.job == js {
				b.job = nil
				b.touch()
			}
		}
		if js == a.auto {
			a.auto, a.autoAgain = nil, false
		}
		return a.evaluate()
	case tickMsg:
		if len(a.jobs) == 0 {
			a.ticking = false
			return nil
		}
		for _, js := range a.jobs {
			for _, t := range js.targets {
				t.base().touch()
			}
		}
		return tea.Tick(200*time.Millisecond, func(time.Time) tea.Msg { return tickMsg{} })
	}
	return nil
}

// --- update -----------------------------------------------------------------

// Update implements tea.Model.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case tea.WindowSizeMsg:
		a.width, a.height = m.Width, m.Height
		a.sh.width = max(20, m.Width-2)
		a.help.Width = m.Width
		for _, c := range a.cells {
			c.base().touch()
		}
		a.layout()
		a.ensureVisible()
		return a, nil
	case progressMsg, stepDoneMsg, jobDoneMsg, tickMsg:
		return a, a.jobMsg(msg)
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
		return a.prompt.kind == promptSave || a.prompt.kind == promptTitle
	}
	c := a.focused()
	return c != nil && c.base().editing()
}

// cellMsg is a message addressed to one cell model (trace frames).
type cellMsg interface {
	target() cellModel
}

func (a *App) tooSmall() bool { return a.width < MinWidth || a.height < MinHeight }

func (a *App) key(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	if a.flash != "" {
		a.flash, a.flashErr = "", false
	}
	if key.Matches(msg, km.ForceQuit) {
		if a.prompt != nil && a.prompt.kind == promptQuit {
			return a.forceQuit()
		}
		a.prompt = nil
		return a.quit()
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
		_, cmd := c.Update(msg)
		c.base().touch()
		return cmd
	}
	if a.mode == modeCell && key.Matches(msg, km.Leave) {
		a.setMode(modeNotebook)
		return nil
	}
	if c != nil {
		b := c.base()
		b.consumed = false
		_, cmd := c.Update(msg)
		if b.consumed {
			b.touch()
			return cmd
		}
	}
	if a.mode == modeNotebook {
		if cmd, ok := a.notebookKey(msg); ok {
			return cmd
		}
	}
	return a.globalKey(msg)
}

func (a *App) setMode(m mode) {
	a.mode = m
	if c := a.focused(); c != nil {
		c.base().form.stopEdit()
	}
	a.reindex()
}

func (a *App) setFocus(i int) {
	if len(a.cells) == 0 {
		a.focus = 0
		return
	}
	a.focus = max(0, min(i, len(a.cells)-1))
	a.reindex()
	a.layout()
	a.scrollOff = 0
	a.setViewTop(a.viewTop())
}

// notebookKey handles motion between cells.
func (a *App) notebookKey(msg tea.KeyMsg) (tea.Cmd, bool) {
	km := &a.keys
	switch {
	case key.Matches(msg, km.Up):
		a.setFocus(a.focus - 1)
	case key.Matches(msg, km.Down):
		a.setFocus(a.focus + 1)
	case key.Matches(msg, km.Top):
		a.setFocus(0)
	case key.Matches(msg, km.Bottom):
		a.setFocus(len(a.cells) - 1)
	case key.Matches(msg, km.PageUp):
		a.scrollBy(-max(1, a.bodyHeight()/2))
	case key.Matches(msg, km.PageDown):
		a.scrollBy(max(1, a.bodyHeight()/2))
	case key.Matches(msg, km.Enter):
		if a.focused() != nil {
			a.setMode(modeCell)
		}
	default:
		return nil, false
	}
	return nil, true
}

// globalKey handles the keys that work in the notebook and in a cell.
func (a *App) globalKey(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	nb := a.sh.nb
	c := a.focused()
	switch {
	case key.Matches(msg, km.Run):
		if c != nil {
			return a.run([]cellModel{c})
		}
	case key.Matches(msg, km.RunAll):
		return a.run(a.cells)
	case key.Matches(msg, km.Cancel):
		if c != nil && c.base().job != nil {
			if c.base().job.auto {
				a.setFlash("this cell evaluates by itself; nothing to cancel", false)
				return nil
			}
			c.base().job.cancel()
			a.setFlash("cancelling…", false)
		}
	case key.Matches(msg, km.Add):
		a.prompt = newAddPrompt()
	case key.Matches(msg, km.Delete):
		if c == nil {
			return nil
		}
		if err := nb.Delete(a.focus); err != nil {
			a.setFlash(err.Error(), true)
			return nil
		}
		if j := c.base().job; j != nil && !j.auto {
			j.cancel()
		}
		a.cells = append(a.cells[:a.focus], a.cells[a.focus+1:]...)
		a.setMode(modeNotebook)
		a.setFocus(a.focus)
		a.setFlash("deleted the cell (u undoes)", false)
		return a.evaluate()
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
		what, ok := nb.CanUndo()
		if !ok {
			a.setFlash("nothing to undo", false)
			return nil
		}
		if err := nb.Undo(); err != nil {
			a.setFlash(err.Error(), true)
			return nil
		}
		a.rebuild()
		a.setFlash("undid "+what, false)
		return a.evaluate()
	case key.Matches(msg, km.Fold):
		if c != nil {
			c.base().folded = !c.base().folded
			c.base().touch()
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
	a.setFocus(a.focus)
}

func (a *App) setFlash(s string, isErr bool) { a.flash, a.flashErr = s, isErr }

func (a *App) save(path string) tea.Cmd {
	if err := a.sh.nb.Save(path); err != nil {
		a.setFlash(err.Error(), true)
		return nil
	}
	a.setFlash("saved "+path, false)
	return a.evaluate()
}

// quit asks about unsaved changes, then stops every job and quits.
func (a *App) quit() tea.Cmd {
	if a.sh.nb.Dirty() && (a.prompt == nil || a.prompt.kind != promptQuit) {
		a.prompt = &prompt{kind: promptQuit}
		return nil
	}
	return a.forceQuit()
}

// forceQuit stops every job and quits, saved or not.
func (a *App) forceQuit() tea.Cmd {
	for _, js := range a.jobs {
		js.cancel()
	}
	return tea.Quit
}

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
		line := m.Y - 1 + a.viewTop()
		if m.Y < 1 || m.Y > a.bodyHeight() {
			return nil
		}
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

// --- prompts ----------------------------------------------------------------

type promptKind int

const (
	promptQuit promptKind = iota
	promptSave
	promptTitle
	promptAdd
)

// prompt is a question on the bottom line: save as, title, the kind of a
// new cell, or what to do with unsaved changes on quit.
type prompt struct {
	kind      promptKind
	input     textinput.Model
	choice    int
	quitAfter bool
	err       string
}

func newInputPrompt(k promptKind, value string) *prompt {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Cursor.SetMode(cursor.CursorStatic)
	ti.SetValue(value)
	ti.CursorEnd()
	ti.Focus()
	return &prompt{kind: k, input: ti}
}

func newSavePrompt(nb *explorer.Notebook, quitAfter bool) *prompt {
	p := nb.Path
	if p == "" {
		p = "notebook.gravf.toml"
	}
	pr := newInputPrompt(promptSave, p)
	pr.quitAfter = quitAfter
	return pr
}

func newTitlePrompt(nb *explorer.Notebook) *prompt { return newInputPrompt(promptTitle, nb.Title) }

func newAddPrompt() *prompt { return &prompt{kind: promptAdd} }

func (a *App) promptKey(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	p := a.prompt
	if key.Matches(msg, km.Dismiss) {
		a.prompt = nil
		return nil
	}
	switch p.kind {
	case promptQuit:
		switch {
		case key.Matches(msg, km.Yes):
			if a.sh.nb.Path == "" {
				a.prompt = newSavePrompt(a.sh.nb, true)
				return nil
			}
			if err := a.sh.nb.Save(a.sh.nb.Path); err != nil {
				a.prompt = nil
				a.setFlash(err.Error(), true)
				return nil
			}
			return a.quit()
		case key.Matches(msg, km.No):
			return a.forceQuit()
		}
	case promptAdd:
		switch {
		case key.Matches(msg, km.Up), msg.String() == "left", msg.String() == "h", msg.String() == "shift+tab":
			p.choice = (p.choice - 1 + len(explorer.Kinds)) % len(explorer.Kinds)
		case key.Matches(msg, km.Down), msg.String() == "right", msg.String() == "l", msg.String() == "tab":
			p.choice = (p.choice + 1) % len(explorer.Kinds)
		case key.Matches(msg, km.Confirm):
			k := explorer.Kinds[p.choice]
			at := a.focus + 1
			if len(a.cells) == 0 {
				at = 0
			}
			a.prompt = nil
			if err := a.sh.nb.Insert(at, k); err != nil {
				a.setFlash(err.Error(), true)
				return nil
			}
			c := newCell(a.sh, k, at)
			a.cells = append(a.cells[:at], append([]cellModel{c}, a.cells[at:]...)...)
			a.setMode(modeNotebook)
			a.setFocus(at)
			return a.evaluate()
		default:
			if r := msg.Runes; len(r) == 1 && r[0] >= '1' && r[0] <= '9' {
				if i := int(r[0] - '1'); i < len(explorer.Kinds) {
					p.choice = i
				}
			}
			if msg.String() == "0" {
				p.choice = len(explorer.Kinds) - 1
			}
		}
	case promptSave, promptTitle:
		if key.Matches(msg, km.Confirm) {
			v := strings.TrimSpace(p.input.Value())
			if p.kind == promptTitle {
				a.sh.nb.SetTitle(v)
				a.prompt = nil
				return nil
			}
			if v == "" {
				p.err = "enter a file name"
				return nil
			}
			if err := a.sh.nb.Save(v); err != nil {
				p.err = err.Error()
				return nil
			}
			a.prompt = nil
			if p.quitAfter {
				return a.quit()
			}
			a.setFlash("saved "+v, false)
			return a.evaluate()
		}
		var cmd tea.Cmd
		p.input, cmd = p.input.Update(msg)
		p.err = ""
		return cmd
	}
	return nil
}

func (a *App) promptView() []string {
	th := a.sh.th
	p := a.prompt
	switch p.kind {
	case promptQuit:
		// Two lines when one does not fit, so that no choice is cut off.
		return joinWrapped([]string{th.warn.Render("Unsaved changes.") + " Save before quitting?",
			th.key.Render("y") + " save · " + th.key.Render("n") + " quit without saving · " + th.key.Render("esc") + " stay"}, "  ", a.width)
	case promptAdd:
		var parts []string
		for i, k := range explorer.Kinds {
			s := fmt.Sprintf("%d %s", (i+1)%10, k)
			if i == p.choice {
				s = th.selected.Render("[" + s + "]")
			} else {
				s = " " + s + " "
			}
			parts = append(parts, s)
		}
		lines := []string{th.bold.Render("Add a cell below:") + th.dim.Render("  ←/→ choose · enter adds · esc cancels")}
		return append(lines, joinWrapped(parts, "", a.width)...)
	case promptSave, promptTitle:
		label := "Save as: "
		if p.kind == promptTitle {
			label = "Title: "
		}
		p.input.Width = max(10, a.width-lipgloss.Width(label)-2)
		lines := []string{th.bold.Render(label) + p.input.View()}
		if p.err != "" {
			lines = append(lines, th.err.Render("✗ "+p.err))
		} else {
			lines = append(lines, th.dim.Render("enter confirms · esc cancels"))
		}
		return lines
	}
	return nil
}

// --- layout and view ---------------------------------------------------------

func (a *App) topBar() string {
	th := a.sh.th
	nb := a.sh.nb
	file := nb.Path
	if file == "" {
		file = "built-in notebook, not saved"
	}
	s := " gravf-tui · " + nb.Title + " · " + file
	right := ""
	if nb.Dirty() {
		right = "● modified "
	}
	if n := len(a.jobs); n > 0 {
		right += fmt.Sprintf("⟳ %d job", n)
		if n > 1 {
			right += "s"
		}
		right += " "
	}
	s = truncate(s, a.width-lipgloss.Width(right)-1)
	return th.title.Render(padRight(s, a.width-lipgloss.Width(right))) + th.running.Render(right)
}

func (a *App) bottomLines() []string {
	th := a.sh.th
	if a.prompt != nil {
		return a.promptView()
	}
	var lines []string
	if a.flash != "" {
		st := th.ok
		if a.flashErr {
			st = th.err
		}
		lines = append(lines, truncate(st.Render(a.flash), a.width))
	}
	if a.showHelp {
		return append(lines, a.fullHelp()...)
	}
	return append(lines, truncate(a.help.ShortHelpView(a.shortKeys()), a.width))
}

func (a *App) bodyHeight() int {
	return max(1, a.height-1-len(a.bottomLines()))
}

// layout computes where each cell starts in the body.
func (a *App) layout() []string {
	var lines []string
	a.starts = a.starts[:0]
	th := a.sh.th
	for i, c := range a.cells {
		a.starts = append(a.starts, len(lines))
		bar := th.idleBar.Render("│ ")
		if i == a.focus {
			bar = th.focusBar.Render("▌ ")
		}
		for _, l := range strings.Split(c.base().render(), "\n") {
			lines = append(lines, bar+l)
		}
		lines = append(lines, "")
	}
	if len(a.cells) == 0 {
		lines = append(lines, th.dim.Render("  The notebook is empty: a adds a cell."))
	}
	return lines
}

// total is the number of body lines.
func (a *App) total() int {
	if len(a.starts) == 0 || len(a.cells) == 0 {
		return 1
	}
	return a.starts[len(a.starts)-1] + lineCount(a.cells[len(a.cells)-1].base().render()) + 1
}

// viewTop is the first body line on the screen.
func (a *App) viewTop() int {
	top := a.scrollOff
	if a.focus < len(a.starts) {
		top += a.starts[a.focus]
	}
	return max(0, min(top, a.maxTop()))
}

// maxTop is the last first line of the view: the end of the notebook, or
// further so that the focused cell can start at the top.
func (a *App) maxTop() int {
	m := a.total() - a.bodyHeight()
	if a.focus < len(a.starts) {
		m = max(m, a.starts[a.focus])
	}
	return m
}

// setViewTop scrolls to body line t (clamped).
func (a *App) setViewTop(t int) {
	t = max(0, min(t, a.maxTop()))
	a.scrollOff = t
	if a.focus < len(a.starts) {
		a.scrollOff -= a.starts[a.focus]
	}
}

// scrollBy scrolls the view; in the notebook the focus follows when the
// focused cell leaves the screen.
func (a *App) scrollBy(d int) {
	a.setViewTop(a.viewTop() + d)
	if a.mode != modeNotebook || len(a.cells) == 0 {
		return
	}
	top, h := a.viewTop(), a.bodyHeight()
	start := a.starts[a.focus]
	end := start + lineCount(a.cells[a.focus].base().render())
	if end > top && start < top+h {
		return
	}
	for i := len(a.starts) - 1; i >= 0; i-- {
		if a.starts[i] <= top || i == 0 {
			if a.starts[i]+lineCount(a.cells[i].base().render()) <= top && i+1 < len(a.cells) {
				i++
			}
			a.focus = i
			a.reindex()
			a.layout()
			a.setViewTop(top)
			return
		}
	}
}

func lineCount(s string) int { return strings.Count(s, "\n") + 1 }

// ensureVisible scrolls so that the focused cell's header, or in a cell
// the form's cursor, is on the screen.
func (a *App) ensureVisible() {
	c := a.focused()
	if c == nil || a.height == 0 || a.focus >= len(a.starts) {
		return
	}
	b := c.base()
	top := a.starts[a.focus]
	h := a.bodyHeight()
	row := top
	if a.mode == modeCell {
		b.render()
		row = top + b.cursorRow
	}
	vt := a.viewTop()
	switch {
	case row < vt:
		vt = row
	case row >= vt+h:
		vt = row - h + 1
		if a.mode == modeCell {
			vt = min(top, row-h/2)
		}
	}
	a.setViewTop(vt)
}

// View implements tea.Model.
func (a *App) View() string {
	th := a.sh.th
	if a.width == 0 {
		return "gravf-tui: starting…"
	}
	if a.tooSmall() {
		msg := th.err.Render("terminal too small") + "\n" +
			fmt.Sprintf("%d×%d here; the notebook needs at least %d×%d.", a.width, a.height, MinWidth, MinHeight) + "\n" +
			"Enlarge the window, or press " + th.key.Render("q") + " to quit."
		if a.prompt != nil && a.prompt.kind == promptQuit {
			msg += "\n" + th.warn.Render("Unsaved changes: y saves and quits, n quits, esc stays.")
		}
		return lipgloss.Place(a.width, a.height, lipgloss.Center, lipgloss.Center, lipgloss.NewStyle().Width(min(a.width, 60)).Render(msg))
	}
	body := a.layout()
	h := a.bodyHeight()
	top := a.viewTop()
	var out []string
	out = append(out, a.topBar())
	for i := top; i < top+h; i++ {
		if i < len(body) {
			out = append(out, truncate(body[i], a.width))
		} else {
			out = append(out, "")
		}
	}
	out = append(out, a.bottomLines()...)
	return strings.Join(out, "\n")
}
