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
	// edited is set by a commit and cleared by App once it re-evaluated.
	edited bool
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
	// failedHash is the input hash of the cell's last failed evaluation
	// whose error the notebook did not cache (a dependency failed), and
	// failed says that it is the current one: then the cell shows the
	// error and is not evaluated again by itself.
	failedHash string
	failed     bool
	note       string
	// waiting says why a stale cheap cell is not being evaluated.
	waiting string
	folded  bool
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
	return cellBase{sh: sh, kind: k, form: newForm()}
}

func (c *cellBase) base() *cellBase { return c }

// input is the cell's current input.
func (c *cellBase) input() explorer.Input { return c.sh.nb.Cells[c.index].In }

// touch invalidates the render cache.
func (c *cellBase) touch() { c.rev++ }

// commit writes a field's text into the notebook.
func (c *cellBase) commit(fl field, text string) error {
	err := c.sh.nb.Edit(c.index, func(in explorer.Input) error { return fl.set(in, text) })
	if err == nil {
		c.sh.edited = true
	}
	return err
}

// refresh reads the cell's result from the notebook and rebuilds the
// form's fields.
func (c *cellBase) refresh() {
	out, err, ok := c.sh.nb.Result(c.index)
	if n, isNotes := c.input().(*explorer.Notes); isNotes {
		if o, _ := c.out.(*explorer.NotesOutput); o != nil && o.Notes == n.Text {
			out = o
		} else {
			out = &explorer.NotesOutput{Notes: n.Text}
		}
		err, ok = nil, true
	}
	if ok != c.hasResult || out != c.out || !sameErr(err, c.err) {
		c.touch()
	}
	c.out, c.err, c.hasResult = out, err, ok
	failed := !ok && c.failedHash != "" && c.failedHash == c.sh.nb.Hash(c.index)
	if failed != c.failed {
		c.failed = failed
		c.touch()
	}
	if ok {
		c.last, c.lastErr = out, err
		if err == nil && out != nil {
			c.good = out
		}
		c.note = ""
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
	return c.form.update(msg, c.sh.keys, c.input(), c.sh.width, c.commit)
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
	switch {
	case c.kind == explorer.KindNotes:
		return ""
	case c.job != nil:
		return th.running.Render("⟳ running")
	case c.hasResult && c.err != nil, c.failed:
		return th.err.Render("✗ error")
	case c.hasResult:
		return th.ok.Render("✓ up to date")
	case c.last != nil || c.lastErr != nil:
		return th.stale.Render("● stale")
	case explorer.Expensive(c.kind):
		return th.dim.Render("○ not run")
	}
	return th.stale.Render("● stale")
}

// body is everything below the inputs: the job's progress, an error, and
// the output (the latest one, marked, when the cell is stale).
func (c *cellBase) body(w int) []string {
	th := c.sh.th
	var lines []string
	if c.kind != explorer.KindNotes {
		lines = append(lines, rule("", w, th))
	}
	if c.job != nil {
		lines = append(lines, c.job.view(c.sh, w)...)
	}
	if c.note != "" {
		lines = append(lines, th.warn.Render(c.note))
	}
	if c.folded {
		return append(lines, th.dim.Render("… output folded (z unfolds)"))
	}
	out, err := c.out, c.err
	stale := !c.hasResult
	if stale {
		out, err = c.last, c.lastErr
		switch {
		case c.job != nil, c.failed:
		case out != nil || err != nil:
			what := "inputs changed"
			if c.waiting != "" {
				what = c.waiting
			}
			lines = append(lines, th.stale.Render("● stale ("+what+"); r re-runs. The last result:"))
		case c.waiting != "":
			lines = append(lines, th.dim.Render(c.waiting))
		case explorer.Expensive(c.kind):
			lines = append(lines, th.dim.Render("○ not run yet: r runs it (R runs every cell)"))
		default:
			lines = append(lines, th.dim.Render("evaluating…"))
		}
	}
	if err != nil {
		for _, l := range wrap("✗ "+errText(err), w) {
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

// errText is an error as the cell shows it: a cell error without the
// notebook location, which the cell's header already gives.
func errText(err error) string {
	var ce *explorer.CellError
	if errors.As(err, &ce) {
		if ce.Cell-1 >= 0 {
			return fmt.Sprintf("cell %d (%s): %v", ce.Cell, ce.Kind, ce.Err)
		}
	}
	if errors.Is(err, context.Canceled) {
		return "cancelled"
	}
	return err.Error()
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
