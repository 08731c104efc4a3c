package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// The screen, top down: the title bar (not in a compact terminal), the
// headline (always), the body (the notebook, with the dashboard pane
// beside it from WideWidth columns on), the model summary under the body
// (narrower terminals, while an input of the model is focused), and the
// bottom lines (a message, a prompt or the help).

// wide reports whether the dashboard is a pane beside the notebook.
func (a *App) wide() bool { return a.width >= WideWidth && a.height >= MinHeight }

// dashWidth is the width of the dashboard pane.
func (a *App) dashWidth() int { return max(56, min(90, a.width*2/5)) }

// notebookWidth is the width of the notebook pane.
func (a *App) notebookWidth() int {
	if a.wide() {
		return a.width - a.dashWidth() - 3
	}
	return a.width
}

// cellWidth is the width cells render at (the notebook less the focus
// bar).
func (a *App) cellWidth() int { return max(20, a.notebookWidth()-2) }

// topRows is the number of lines above the body.
func (a *App) topRows() int {
	if a.compact() {
		return 1
	}
	return 2
}

// bodyRow is the screen row of the body's first line.
func (a *App) bodyRow() int { return a.topRows() }

// bodyHeight is the number of body lines on the screen.
func (a *App) bodyHeight() int {
	return max(1, a.height-a.topRows()-len(a.summaryBox())-len(a.bottomLines()))
}

// layout renders every cell and records where each starts in the body.
func (a *App) layout() []string {
	if w := a.cellWidth(); w != a.sh.width {
		a.sh.width = w
	}
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

// cellSpan returns the body lines [start, end) of cell i.
func (a *App) cellSpan(i int) (int, int) {
	if i < 0 || i >= len(a.starts) {
		return 0, 0
	}
	s := a.starts[i]
	return s, s + lineCount(a.cells[i].base().render())
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

// scrollCell scrolls inside the focused cell by d lines (PgDn, ctrl+d,
// space and their opposites). At the cell's end (or start) the next key
// goes on to the next (previous) cell in the notebook; in a cell it stops
// there.
func (a *App) scrollCell(d int) {
	if len(a.cells) == 0 {
		return
	}
	a.layout()
	h := a.bodyHeight()
	start, end := a.cellSpan(a.focus)
	top := a.viewTop()
	switch {
	case d > 0 && top+h >= end:
		if a.mode == modeNotebook && a.focus < len(a.cells)-1 {
			a.setFocus(a.focus + 1)
		}
		a.follow = false
		return
	case d > 0:
		top = min(top+d, end-h)
	case top <= start:
		if a.mode == modeNotebook && a.focus > 0 {
			a.setFocus(a.focus - 1)
			s, e := a.cellSpan(a.focus)
			a.setViewTop(max(s, e-h))
		}
		a.follow = false
		return
	default:
		top = max(top+d, start)
	}
	a.setViewTop(top)
	a.follow = false
}

// scrollBy scrolls the view (the mouse wheel); in the notebook the focus
// follows when the focused cell leaves the screen.
func (a *App) scrollBy(d int) {
	a.setViewTop(a.viewTop() + d)
	if a.mode != modeNotebook || len(a.cells) == 0 {
		return
	}
	top, h := a.viewTop(), a.bodyHeight()
	start, end := a.cellSpan(a.focus)
	if end > top && start < top+h {
		return
	}
	for i := len(a.starts) - 1; i >= 0; i-- {
		if a.starts[i] <= top || i == 0 {
			if _, e := a.cellSpan(i); e <= top && i+1 < len(a.cells) {
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

// ensureVisible scrolls, after the focus or the form's cursor moved, so
// that the focused cell's header, or in a cell the form's cursor, is on
// the screen. Scrolling keys leave follow unset, so the view stays where
// they put it.
func (a *App) ensureVisible() {
	if !a.follow {
		return
	}
	a.follow = false
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
			vt = max(vt, row-h+2)
		}
	}
	a.setViewTop(vt)
}

// topBar is the title line: the notebook, its file, unsaved changes and
// running jobs.
func (a *App) topBar() string {
	th := a.sh.th
	nb := a.sh.nb
	file := nb.Path
	if file == "" {
		file = "built-in notebook, not saved"
	}
	s := " gravf-tui · " + nb.Title + " · " + file
	right := a.marks()
	s = truncate(s, a.width-lipgloss.Width(right)-1)
	return th.title.Render(padRight(s, a.width-lipgloss.Width(right))) + th.running.Render(right)
}

// marks is the right end of the top line: unsaved changes and jobs.
func (a *App) marks() string {
	right := ""
	if a.sh.nb.Dirty() {
		right = "● modified "
	}
	if n := len(a.jobs); n > 0 {
		right += fmt.Sprintf("⟳ %d job", n)
		if n > 1 {
			right += "s"
		}
		right += " "
	}
	return right
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
		help := a.fullHelp()
		// A small terminal keeps a few lines of the notebook above it.
		if room := a.height - a.topRows() - len(lines) - 3; len(help) > room {
			help = append(help[:max(1, room-1)], a.sh.th.dim.Render("… (a larger terminal shows every key)"))
		}
		return append(lines, help...)
	}
	return append(lines, truncate(a.help.ShortHelpView(a.shortKeys()), a.width))
}

// View implements tea.Model.
func (a *App) View() string {
	th := a.sh.th
	if a.width == 0 {
		return "gravf-tui: starting…"
	}
	if a.tooSmall() {
		return a.tooSmallView()
	}
	body := a.layout()
	h := a.bodyHeight()
	top := a.viewTop()
	out := make([]string, 0, a.height)
	if !a.compact() {
		out = append(out, a.topBar())
	}
	out = append(out, a.headline())
	nw := a.notebookWidth()
	var dash []string
	if a.wide() {
		dash = a.dashboard(a.dashWidth(), h)
	}
	sep := th.dim.Render(" │ ")
	for i := top; i < top+h; i++ {
		l := ""
		if i < len(body) {
			l = truncate(body[i], nw)
		}
		if dash != nil {
			d := ""
			if i-top < len(dash) {
				d = dash[i-top]
			}
			l = padRight(l, nw) + sep + d
		}
		out = append(out, l)
	}
	out = append(out, a.summaryBox()...)
	out = append(out, a.bottomLines()...)
	return strings.Join(out, "\n")
}

// tooSmallView is the screen of a terminal where nothing fits: what to
// do, and what a running quit question asks.
func (a *App) tooSmallView() string {
	th := a.sh.th
	msg := th.err.Render("terminal too small") + "\n" +
		fmt.Sprintf("%d×%d here; gravf-tui needs %d×%d.", a.width, a.height, TinyWidth, TinyHeight) + "\n" +
		"Enlarge it, or press " + th.key.Render("q") + " to quit."
	if a.prompt != nil && (a.prompt.kind == promptQuit || a.prompt.kind == promptJobs) {
		msg += "\n" + th.warn.Render("y quits, esc stays.")
	}
	return lipgloss.Place(a.width, a.height, lipgloss.Left, lipgloss.Top, lipgloss.NewStyle().Width(a.width).Render(msg))
}
