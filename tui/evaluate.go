package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// debounceMsg says that typing paused: jobs for the edit may start.
type debounceMsg struct{ seq int }

// quitTimeoutMsg ends the program when jobs take too long to stop.
type quitTimeoutMsg struct{}

// quitGrace is how long quitting waits for cancelled jobs (and the
// process groups of their tools) to end.
const quitGrace = 3 * time.Second

// evaluate brings the cheap cells up to date: the quick ones in place at
// once, the others in one background job, which waits while the user is
// still typing in a field. Expensive cells wait for r. Cells that depend
// on an invalid input are held and not evaluated.
func (a *App) evaluate() tea.Cmd {
	nb := a.sh.nb
	typing := a.sh.typing
	a.sh.edited, a.sh.typing = false, false
	a.holdPending()
	for i, c := range nb.Cells {
		k := c.In.Kind()
		b := a.cells[i].base()
		if explorer.Expensive(k) || k == explorer.KindNotes || b.hold != "" || !nb.Stale(i) || !nb.Ready(i) || a.blockedBy(i) >= 0 || b.job != nil {
			continue
		}
		nb.Eval(context.Background(), i, nil) // the result, or its error, is cached
	}
	for _, c := range a.cells {
		c.base().refresh()
	}
	a.settle()
	a.dropObsoleteAuto()
	if typing {
		a.typed++
		seq := a.typed
		return tea.Tick(a.debounce, func(time.Time) tea.Msg { return debounceMsg{seq: seq} })
	}
	return a.startAuto()
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
		if b.waiting != "" {
			b.waiting = ""
			b.touch()
		}
		if explorer.Expensive(k) || k == explorer.KindNotes || !nb.Stale(i) || b.hold != "" {
			continue
		}
		if d := a.blockedBy(i); d >= 0 {
			b.waiting = fmt.Sprintf("waiting for cell %d (%s): r runs it", d+1, nb.Cells[d].In.Kind())
			b.touch()
			continue
		}
		if b.job != nil || b.stopped == nb.Hash(i) {
			continue
		}
		j, err := nb.Plan(i)
		if err != nil {
			b.waiting = errText(err, i)
			b.touch()
			continue
		}
		targets = append(targets, c)
		plans = append(plans, j)
	}
	if len(plans) == 0 {
		return nil
	}
	// Model cells first: the headline waits for them, and the partition
	// or trace cells can come after.
	order := make([]int, len(targets))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool {
		return targets[order[x]].base().kind == explorer.KindModel && targets[order[y]].base().kind != explorer.KindModel
	})
	ts, ps := make([]cellModel, len(order)), make([]*explorer.Job, len(order))
	for i, o := range order {
		ts[i], ps[i] = targets[o], plans[o]
	}
	js, cmd := a.launch(true, ts, ps)
	a.auto = js
	return cmd
}

// dropObsoleteAuto cancels the background job when the dataset it is
// loading is no longer the one in its cell: its graph would be thrown
// away. Other work of the job (a reference run) stays useful, so the job
// is left to finish.
func (a *App) dropObsoleteAuto() {
	js := a.auto
	if js == nil || js.cur >= len(js.plans) {
		return
	}
	nb := a.sh.nb
	i := js.prog.Cell
	if js.prog.Kind != explorer.KindDataset || i < 0 || i >= len(nb.Cells) || nb.Cells[i].In.Kind() != explorer.KindDataset {
		return
	}
	if h := js.plans[js.cur].PlannedHash(i); h != "" && h != nb.Hash(i) {
		js.obsolete = true
		js.cancel()
	}
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

// runAsk runs the focused cell on r; an export over an existing folder
// asks first.
func (a *App) runAsk(c cellModel) tea.Cmd {
	b := c.base()
	if b.kind == explorer.KindExport {
		if dir := a.sh.nb.ExportDir(b.index); dir != "" && !exp(b.input()).Force {
			if _, err := os.Stat(dir); err == nil {
				a.prompt = &prompt{kind: promptReplace, path: relPath(a.sh.nb, dir), cell: c}
				return nil
			}
		}
	}
	return a.run([]cellModel{c})
}

// run evaluates cells on demand (r, R). An export whose folder exists is
// left out unless replace is set (r asks about it).
func (a *App) run(cells []cellModel, replace ...cellModel) tea.Cmd {
	nb := a.sh.nb
	var targets []cellModel
	var plans []*explorer.Job
	for _, c := range cells {
		b := c.base()
		if b.kind == explorer.KindNotes || b.job != nil {
			continue
		}
		if b.hold != "" {
			b.note = "✗ " + b.hold
			b.touch()
			continue
		}
		j, err := nb.Plan(b.index)
		if err != nil {
			b.note = "✗ " + errText(err, b.index)
			b.touch()
			continue
		}
		if b.kind == explorer.KindExport {
			if len(replace) > 0 && replace[0] == c {
				j.ReplaceExisting()
			} else if dir := nb.ExportDir(b.index); !exp(b.input()).Force && fileExists(dir) {
				b.note = fmt.Sprintf("%s exists: r on this cell asks before replacing it", relPath(nb, dir))
				b.touch()
				continue
			}
		}
		b.stopped = ""
		targets = append(targets, c)
		plans = append(plans, j)
	}
	if len(plans) == 0 {
		return nil
	}
	_, cmd := a.launch(false, targets, plans)
	return cmd
}

func fileExists(p string) bool {
	if p == "" {
		return false
	}
	_, err := os.Stat(p)
	return err == nil
}

// cancelFocused cancels the focused cell's job (c).
func (a *App) cancelFocused() {
	c := a.focused()
	if c == nil || c.base().job == nil {
		a.setFlash("no job runs in this cell", false)
		return
	}
	js := c.base().job
	js.cancel()
	a.setFlash("cancelling…", false)
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
		if js.report(m, a.sh.now()) {
			// The cell before is done: its result (a dataset a model
			// cell needed) shows at once.
			for _, c := range a.cells {
				c.base().refresh()
			}
			a.settle()
		}
		if m.target < len(js.targets) {
			js.targets[m.target].base().touch()
		}
		return listen(js.ch)
	case stepDoneMsg:
		js := a.jobs[m.job]
		if js == nil {
			return nil
		}
		a.stepDone(js, m)
		return tea.Batch(listen(js.ch), a.evaluate())
	case jobDoneMsg:
		return a.jobDone(m)
	case debounceMsg:
		if m.seq != a.typed {
			return nil // more typing came since
		}
		return a.startAuto()
	case quitTimeoutMsg:
		return tea.Quit
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

// stepDone records the end of one target of a job.
func (a *App) stepDone(js *jobState, m stepDoneMsg) {
	js.cur = max(js.cur, m.target+1)
	t := js.targets[m.target].base()
	if t.job == js {
		t.job = nil
	}
	if err := js.plans[m.target].KeepError(); err != nil {
		a.setFlash("the result could not be kept beside the notebook: "+err.Error(), true)
	}
	switch {
	case errors.Is(m.err, context.Canceled):
		if a.flash == "cancelling…" {
			a.flash = ""
		}
		switch {
		case js.obsolete:
			// Dropped for newer inputs: nothing to say.
		case js.auto:
			t.stopped, t.stoppedErr = js.hashes[m.target], m.err
			t.note = "cancelled after " + js.elapsed(a.sh.now()) + ": r runs it"
		default:
			t.note = "cancelled after " + js.elapsed(a.sh.now())
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
			// The notebook does not cache an error that a cell above
			// caused: remember it, so that the cell is not run again by
			// itself until its inputs change.
			t.stopped, t.stoppedErr = js.hashes[m.target], m.err
		}
	}
	t.touch()
}

func (a *App) jobDone(m jobDoneMsg) tea.Cmd {
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
	if a.quitting {
		if len(a.jobs) == 0 {
			return tea.Quit
		}
		return nil
	}
	return a.evaluate()
}

// save writes the notebook (and the results it keeps) to path.
func (a *App) save(path string) tea.Cmd {
	nb := a.sh.nb
	a.endEdit(true)
	if err := nb.Save(path); err != nil {
		a.setFlash(err.Error(), true)
		return nil
	}
	msg := "saved " + path
	if _, _, bad := a.firstInvalid(); bad {
		msg += " (with the last valid value of every field marked ✗)"
	}
	if err := nb.SaveResults(); err != nil {
		msg += "; the results could not be kept beside it: " + err.Error()
	}
	a.setFlash(msg, false)
	return a.evaluate()
}

// runningJobs lists the jobs the user started (not the background
// evaluation of cheap cells).
func (a *App) runningJobs() []*jobState {
	var out []*jobState
	for _, js := range a.jobs {
		if !js.auto {
			out = append(out, js)
		}
	}
	return out
}

// quit asks before losing anything (a running job, unsaved changes),
// then stops every job and quits.
func (a *App) quit() tea.Cmd {
	if len(a.runningJobs()) > 0 && (a.prompt == nil || !a.prompt.jobsOK) {
		a.prompt = &prompt{kind: promptJobs}
		return nil
	}
	jobsOK := a.prompt != nil && a.prompt.jobsOK
	if a.sh.nb.Dirty() && (a.prompt == nil || a.prompt.kind != promptQuit) {
		a.prompt = &prompt{kind: promptQuit, jobsOK: jobsOK}
		return nil
	}
	return a.forceQuit()
}

// forceQuit cancels every job and quits once they ended (their tools'
// process groups killed), or after quitGrace.
func (a *App) forceQuit() tea.Cmd {
	a.prompt = nil
	if len(a.jobs) == 0 {
		return tea.Quit
	}
	a.quitting = true
	for _, js := range a.jobs {
		js.cancel()
	}
	a.setFlash("stopping the running jobs…", false)
	return tea.Tick(quitGrace, func(time.Time) tea.Msg { return quitTimeoutMsg{} })
}
