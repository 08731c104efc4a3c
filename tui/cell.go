package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// shared is the read-only context every cell model sees: the notebook,
// the theme, the keymap, the width cells render at and the clock. Only
// App changes it. Cells write to the notebook only through their form's
// commits (Notebook.Edit), which set edited so that App re-evaluates.
type shared struct {
	nb    *explorer.Notebook
	th    *theme
	keys  *keyMap
	width int
	now   func() time.Time
	// edited is set by a commit and cleared by App once it re-evaluated;
	// typing says that the commit was a keystroke in a field still being
	// edited, so that jobs wait until the typing pauses.
	edited, typing bool
}

// cellModel is the Bubble Tea model of one cell kind. App gives it the
// keys of the focused cell that App does not handle itself, and the
// messages addressed to it; View renders the cell, header included.
type cellModel interface {
	// Update handles a message; it returns the model (always the same
	// pointer) and a command.
	Update(msg tea.Msg) (cellModel, tea.Cmd)
	// View renders the cell at the shared width.
	View() string
	base() *cellBase
	// fields lists the form fields for the current input and result.
	fields() []field
	// output renders a result of the cell.
	output(out explorer.Output, width int) []string
	// cellKeys lists the cell's own keys that are live now (for the help).
	cellKeys() []key.Binding
}

// cellBase is what every cell model shares: its place in the notebook,
// the form, the latest result, the job evaluating it and a render cache.
type cellBase struct {
	sh      *shared
	self    cellModel
	kind    explorer.Kind
	index   int
	form    form
	entered bool
	focused bool

	// out and err are the result for the current inputs (hasResult), or
	// nil when the cell is stale.
	out       explorer.Output
	err       error
	hasResult bool
	// last is the latest output the cell had, shown faint while the cell
	// is stale; good is the latest successful one (forms built from a
	// result, such as the kernel's layout fields, keep it).
	last, good explorer.Output
	lastErr    error

	job *jobState
	// stopped is the input hash of the cell's last evaluation that failed
	// without a cached error (a job error, a cancel): the cell shows it
	// and does not evaluate again by itself until its inputs change.
	stopped    string
	stoppedErr error
	note       string
	// waiting says why a stale cheap cell is not being evaluated (an
	// expensive cell above has not run).
	waiting string
	// hold says that an input this cell depends on is not valid ("waiting
	// for a valid fpgas in cell 2"): the cell shows that instead of a
	// result that would not be for the inputs on the screen.
	hold string
	// ownErr says that the cell's error is its own and not one a field
	// shows already.
	ownErr bool
	// restored is when the shown result was kept, when it was read back
	// from beside the notebook.
	restored time.Time
	folded   bool
	// bound is a model cell's limits and T_sys without the prediction, for
	// the inputs of hash boundHash, shown while the prediction is computed
	// (see App.bound).
	bound     *explorer.ModelOutput
	boundHash string
	// consumed tells App that Update used the key it was given.
	consumed bool

	rev       int
	cacheKey  renderKey
	cacheView string
	cursorRow int
}

type renderKey struct {
	rev, width       int
	entered, focused bool
	editing          bool
}

func newBase(sh *shared, k explorer.Kind) cellBase {
	return cellBase{sh: sh, kind: k, form: newForm(), ownErr: true}
}

func (c *cellBase) base() *cellBase { return c }

// input is the cell's current input.
func (c *cellBase) input() explorer.Input { return c.sh.nb.Cells[c.index].In }

// touch invalidates the render cache.
func (c *cellBase) touch() { c.rev++ }

// commit implements formHost: it writes a field's text into the
// notebook.
func (c *cellBase) commit(fl field, text string) error {
	err := c.sh.nb.Edit(c.index, func(in explorer.Input) error { return fl.set(in, text) })
	// A refused text changes what waits for it, so App re-evaluates too.
	c.sh.edited = true
	c.sh.typing = c.form.editing
	return err
}

// begin implements formHost: the edit of a field is one undo step.
func (c *cellBase) begin(fl field) {
	c.sh.nb.BeginGroup(fmt.Sprintf("%s in cell %d", fieldName(fl), c.index+1))
}

// end implements formHost.
func (c *cellBase) end(keep bool) {
	nb := c.sh.nb
	if keep {
		nb.EndGroup()
	} else {
		_ = nb.CancelGroup() // the snapshot was encoded from valid cells
	}
	c.sh.edited, c.sh.typing = true, false
}

// fieldName is how messages name a field: its key without the table
// prefix (memory.peak_gib_s, vertex.label, root).
func fieldName(fl field) string {
	for _, p := range []string{"set.", "widths.", "params."} {
		if s, ok := strings.CutPrefix(fl.key, p); ok {
			return s
		}
	}
	return fl.key
}

// refresh reads the cell's result from the notebook and rebuilds the
// form's fields.
func (c *cellBase) refresh() {
	nb := c.sh.nb
	out, err, ok := nb.Result(c.index)
	if n, isNotes := c.input().(*explorer.Notes); isNotes {
		if o, _ := c.out.(*explorer.NotesOutput); o != nil && o.Notes == n.Text {
			out = o
		} else {
			out = &explorer.NotesOutput{Notes: n.Text}
		}
		err, ok = nil, true
	}
	if !ok && c.stopped != "" && c.stopped == nb.Hash(c.index) {
		// A failure the notebook did not cache is the current result.
		out, err, ok = nil, c.stoppedErr, true
	}
	if ok != c.hasResult || out != c.out || !sameErr(err, c.err) {
		c.touch()
	}
	c.out, c.err, c.hasResult = out, err, ok
	if ok {
		c.last, c.lastErr = out, err
		if err == nil && out != nil {
			c.good = out
		}
		c.note = ""
	}
	c.restored = time.Time{}
	if t, r := nb.Restored(c.index); r && ok {
		c.restored = t
	}
	c.form.setFields(c.self.fields())
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Error() == b.Error()
}

// handleKey is the default Update for keys of an entered cell: the form.
func (c *cellBase) handleKey(msg tea.KeyMsg) (bool, tea.Cmd) {
	if !c.entered {
		return false, nil
	}
	return c.form.update(msg, c.sh.keys, c.input(), c.sh.width, c)
}

// update is the Update every cell model starts with: keys go to the
// form of an entered cell.
func (c *cellBase) update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyMsg); ok {
		used, cmd := c.handleKey(k)
		c.consumed = c.consumed || used
		return cmd
	}
	return nil
}

// editing reports whether a field's text input has the keys.
func (c *cellBase) editing() bool { return c.entered && c.form.editing }

// render draws the cell (cached by revision and layout) and remembers the
// line of the form's cursor.
func (c *cellBase) render() string {
	k := renderKey{rev: c.rev, width: c.sh.width, entered: c.entered, focused: c.focused, editing: c.form.editing}
	if k == c.cacheKey && c.cacheView != "" {
		return c.cacheView
	}
	th, w := c.sh.th, c.sh.width
	var lines []string
	lines = append(lines, c.header())
	in := c.input()
	if c.entered {
		fl, cur := c.form.view(in, w, th)
		c.cursorRow = len(lines) + cur
		lines = append(lines, fl...)
	} else {
		c.cursorRow = 0
		lines = append(lines, c.form.summary(in, w, th)...)
	}
	lines = append(lines, c.body(w)...)
	c.cacheKey, c.cacheView = k, strings.Join(lines, "\n")
	return c.cacheView
}

// header is the cell's first line: number, kind and status.
func (c *cellBase) header() string {
	th := c.sh.th
	left := fmt.Sprintf("%d %s", c.index+1, c.kind)
	if c.focused {
		left = th.title.Render(left)
	} else {
		left = th.bold.Render(left)
	}
	status := c.status()
	gap := c.sh.width - lipgloss.Width(left) - lipgloss.Width(status)
	return left + strings.Repeat(" ", max(1, gap)) + status
}

// status is the right end of the header.
func (c *cellBase) status() string {
	th := c.sh.th
	_, _, bad := c.form.firstProblem()
	switch {
	case c.kind == explorer.KindNotes:
		return ""
	case c.job != nil && c.job.running(c.self):
		return th.running.Render("⟳ running")
	case c.job != nil && !c.hasResult:
		return th.dim.Render("◌ queued")
	case bad:
		return th.err.Render("✗ invalid input")
	case c.hold != "":
		return th.stale.Render("◌ waiting")
	case c.hasResult && c.err != nil:
		return th.err.Render("✗ error")
	case c.hasResult && !c.restored.IsZero():
		return th.ok.Render("✓ restored")
	case c.hasResult:
		return th.ok.Render("✓ up to date")
	case c.last != nil || c.lastErr != nil:
		return th.stale.Render("● stale")
	case explorer.Expensive(c.kind):
		return th.dim.Render("○ not run")
	}
	return th.stale.Render("● stale")
}

// body is everything below the inputs: the job's progress, a hold or an
// error, and the output (the latest one, marked, when the cell is stale).
func (c *cellBase) body(w int) []string {
	th := c.sh.th
	var lines []string
	if c.kind != explorer.KindNotes {
		lines = append(lines, rule("", w, th))
	}
	switch {
	case c.job != nil && c.job.running(c.self):
		lines = append(lines, c.job.view(c.sh, w)...)
	case c.job != nil && !c.hasResult:
		lines = append(lines, c.sh.th.dim.Render("◌ queued after "+c.job.current()))
	}
	if c.note != "" {
		for _, l := range wrap(c.note, w) {
			lines = append(lines, th.warn.Render(l))
		}
	}
	if c.hold != "" && c.job == nil {
		return append(lines, th.stale.Render("◌ "+c.hold))
	}
	if c.folded {
		return append(lines, th.dim.Render("… output folded (z unfolds)"))
	}
	out, err := c.out, c.err
	stale := !c.hasResult
	if stale && c.hold == "" {
		// A model cell's bound is current while its prediction is not.
		if b := c.currentBound(); b != nil {
			out, err, stale = b, nil, false
		}
	}
	if stale {
		out, err = c.last, c.lastErr
		lines = append(lines, c.staleLine(out != nil || err != nil)...)
	}
	if !c.restored.IsZero() {
		lines = append(lines, th.dim.Render(fmt.Sprintf("restored: run %s and kept beside the notebook (r runs it again)", ago(c.sh.now(), c.restored))))
	}
	if err != nil && c.ownErr {
		for _, l := range wrap("✗ "+errText(err, c.index), w) {
			lines = append(lines, th.err.Render(l))
		}
	}
	if out == nil || isNil(out) {
		return lines
	}
	ol := c.self.output(out, w)
	if stale {
		for i, l := range ol {
			ol[i] = th.dim.Render("┆ ") + truncate(l, w-2)
		}
	}
	return append(lines, ol...)
}

// staleLine says why a stale cell shows no current result.
func (c *cellBase) staleLine(hasLast bool) []string {
	th := c.sh.th
	switch {
	case c.job != nil:
		return nil
	case hasLast:
		what := "inputs changed"
		if c.waiting != "" {
			what = c.waiting
		} else if !explorer.Expensive(c.kind) {
			return []string{th.stale.Render("● updating for the new inputs; the last result:")}
		}
		return []string{th.stale.Render("● stale (" + what + "); r re-runs. The last result:")}
	case c.waiting != "":
		return []string{th.dim.Render(c.waiting)}
	case explorer.Expensive(c.kind):
		return []string{th.dim.Render("○ not run yet: r runs it (R runs every cell)")}
	}
	return []string{th.dim.Render("evaluating…")}
}

// ago says how long before now t was, in a few words.
func ago(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "a moment ago"
	case d < time.Hour:
		return fmt.Sprintf("%d min ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h ago", int(d.Hours()))
	}
	return t.Local().Format("2006-01-02 15:04")
}

// isNil reports whether an Output interface holds a nil pointer (a sweep
// cancelled before its first point returns one).
func isNil(o explorer.Output) bool {
	switch v := o.(type) {
	case *explorer.SweepOutput:
		return v == nil
	case *explorer.ModelOutput:
		return v == nil
	}
	return false
}

// errText is an error as cell self shows it: without the notebook
// location, and without the cell's number when it is its own (the header
// gives it), in the TUI's words.
func errText(err error, self int) string {
	var ce *explorer.CellError
	if errors.As(err, &ce) && ce.Cell-1 >= 0 {
		if ce.Cell-1 == self {
			return errText(ce.Err, -1)
		}
		return tuiWords(fmt.Sprintf("cell %d (%s): %v", ce.Cell, ce.Kind, ce.Err))
	}
	if errors.Is(err, context.Canceled) {
		return "cancelled"
	}
	return tuiWords(err.Error())
}

// relPath shows a path relative to the notebook's folder when it lies
// inside it, so that screens do not depend on where the notebook is.
func relPath(nb *explorer.Notebook, p string) string {
	if p == "" {
		return ""
	}
	dir, err := filepath.Abs(nb.Dir())
	if err != nil {
		return p
	}
	ap, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.Rel(dir, ap); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}
