package tui

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// logLines is how many lines of an external tool's output a running cell
// shows.
const logLines = 4

// jobState is a background evaluation: one or more planned cells run in
// order on one goroutine. Progress and the end reach the program as
// messages through ch; cancel stops it through its context (and kills the
// process group of any tool it runs).
type jobState struct {
	id      int
	auto    bool
	cancel  context.CancelFunc
	started time.Time
	// targets are the cells asked for, in order; cur indexes the one
	// running, plans are their jobs.
	targets []cellModel
	plans   []*explorer.Job
	// hashes are the targets' input hashes when the job was planned.
	hashes []string
	cur    int
	prog   explorer.Progress
	// stepStart is when the cell being evaluated now started, for the
	// time-left estimate; stepCell is that cell.
	stepStart time.Time
	stepCell  int
	// log holds the last lines of a tool's output.
	log []string
	// obsolete says the job was cancelled because its inputs changed.
	obsolete bool
	ch       chan tea.Msg
	bar      progress.Model
}

// progressMsg reports a job's progress.
type progressMsg struct {
	job    int
	target int
	p      explorer.Progress
}

// stepDoneMsg says a job finished one of its targets.
type stepDoneMsg struct {
	job    int
	target int
	out    explorer.Output
	err    error
}

// jobDoneMsg says a job ended (all targets done, or cancelled).
type jobDoneMsg struct {
	job int
}

// tickMsg refreshes the elapsed time of running jobs.
type tickMsg struct{}

// listen waits for the next message of a job; App re-arms it after each.
func listen(ch <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		m, ok := <-ch
		if !ok {
			return nil
		}
		return m
	}
}

// startJob runs planned jobs in order on a goroutine. The notebook is not
// touched there: explorer.Job holds copies of the inputs and shares only
// the locked result cache.
func startJob(id int, auto bool, targets []cellModel, plans []*explorer.Job, now time.Time) (*jobState, tea.Cmd) {
	ctx, cancel := context.WithCancel(context.Background())
	js := &jobState{id: id, auto: auto, cancel: cancel, started: now, stepStart: now, stepCell: -1, targets: targets, plans: plans, ch: make(chan tea.Msg, 64),
		bar: progress.New(progress.WithSolidFill("#5FAFFF"), progress.WithoutPercentage())}
	js.prog.Cell = -1
	go func() {
		defer close(js.ch)
		for k, j := range plans {
			out, err := j.Run(ctx, func(p explorer.Progress) {
				msg := progressMsg{job: id, target: k, p: p}
				if p.Log != "" {
					js.ch <- msg // log lines are not dropped
					return
				}
				select {
				case js.ch <- msg:
				default: // the UI is behind; the next report will do
				}
			})
			js.ch <- stepDoneMsg{job: id, target: k, out: out, err: err}
			if ctx.Err() != nil {
				break
			}
		}
		js.ch <- jobDoneMsg{job: id}
	}()
	return js, listen(js.ch)
}

// report takes a progress message in; it reports whether the job went on
// to another cell (the one before it is then done).
func (j *jobState) report(m progressMsg, now time.Time) bool {
	moved := m.p.Cell != j.stepCell || m.target != j.cur
	if moved {
		j.stepCell, j.stepStart = m.p.Cell, now
		j.log = nil
	}
	j.cur = m.target
	if m.p.Log != "" {
		j.log = append(j.log, m.p.Log)
		if len(j.log) > logLines {
			j.log = j.log[len(j.log)-logLines:]
		}
		if m.p.Text == "" {
			m.p.Text, m.p.Done, m.p.Total = j.prog.Text, j.prog.Done, j.prog.Total
		}
	}
	j.prog = m.p
	return moved
}

// running reports whether the job works on cell c now (its current
// target), rather than on a target before it.
func (j *jobState) running(c cellModel) bool {
	return j.cur < len(j.targets) && j.targets[j.cur] == c
}

// current names the cell the job works on now ("cell 6 (model)").
func (j *jobState) current() string {
	if j.cur >= len(j.targets) {
		return "the job"
	}
	b := j.targets[j.cur].base()
	return fmt.Sprintf("cell %d (%s)", b.index+1, b.kind)
}

// elapsed formats the time since the job started.
func (j *jobState) elapsed(now time.Time) string {
	return fmt.Sprintf("%.1f s", now.Sub(j.started).Seconds())
}

// left estimates the time the running cell still needs from its progress
// so far ("" until the estimate means something).
func (j *jobState) left(now time.Time) string {
	f := j.prog.Fraction()
	d := now.Sub(j.stepStart)
	if f < 0.02 || f >= 1 || d < time.Second {
		return ""
	}
	rest := time.Duration(float64(d) * (1 - f) / f)
	switch {
	case rest < 10*time.Second:
		return fmt.Sprintf("about %.0f s left", rest.Seconds()+0.5)
	case rest < 2*time.Minute:
		return fmt.Sprintf("about %d s left", int(rest.Seconds()/5+0.5)*5)
	}
	return fmt.Sprintf("about %d min left", int(rest.Minutes()+0.5))
}

// what says what the job is doing, naming the cell when it is a
// dependency of the target (the dataset of a model cell).
func (j *jobState) what() string {
	text := j.prog.Text
	if text == "" {
		text = "starting"
		if j.prog.Kind != "" {
			text = string(j.prog.Kind)
		}
	}
	if j.prog.Kind != "" && j.cur < len(j.targets) && j.prog.Cell != j.targets[j.cur].base().index {
		text = fmt.Sprintf("cell %d (%s): %s", j.prog.Cell+1, j.prog.Kind, text)
	}
	return text
}

// view is the job's progress as a cell shows it.
func (j *jobState) view(sh *shared, w int) []string {
	th := sh.th
	now := sh.now()
	head := th.running.Render("⟳ "+j.elapsed(now)) + "  " + j.what()
	lines := []string{truncate(head, w)}
	cancel := "c cancels"
	if j.prog.Total > 0 {
		bw := max(10, min(50, w-40))
		j.bar.Width = bw
		frac := j.prog.Fraction()
		bar := j.bar.ViewAs(frac)
		if !th.color {
			bar = hbar(frac, bw)
		}
		tail := fmt.Sprintf(" %3.0f %%", 100*frac)
		if l := j.left(now); l != "" {
			tail += "  " + l
		}
		lines = append(lines, truncate(bar+tail+th.dim.Render("   "+cancel), w))
	} else {
		lines = append(lines, th.dim.Render(cancel))
	}
	for _, l := range j.log {
		lines = append(lines, th.dim.Render("│ ")+truncate(l, w-2))
	}
	return lines
}
