package tui

import (
	"context"
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/progress"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// jobState is a background evaluation: one or more planned cells run in
// order on one goroutine. Progress and the end reach the program as
// messages through ch; cancel stops it through its context.
type jobState struct {
	id      int
	auto    bool
	cancel  context.CancelFunc
	started time.Time
	// targets are the cells asked for, in order; cur indexes the one
	// running.
	targets []cellModel
	// hashes are the targets' input hashes when the job was planned.
	hashes []string
	cur    int
	prog   explorer.Progress
	ch     chan tea.Msg
	bar    progress.Model
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
	js := &jobState{id: id, auto: auto, cancel: cancel, started: now, targets: targets, ch: make(chan tea.Msg, 64),
		bar: progress.New(progress.WithSolidFill("#5FAFFF"), progress.WithoutPercentage())}
	go func() {
		defer close(js.ch)
		for k, j := range plans {
			out, err := j.Run(ctx, func(p explorer.Progress) {
				select {
				case js.ch <- progressMsg{job: id, target: k, p: p}:
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

// elapsed formats the time since the job started.
func (j *jobState) elapsed(now time.Time) string {
	d := now.Sub(j.started)
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// view is the job's progress as a cell shows it.
func (j *jobState) view(sh *shared, w int) []string {
	th := sh.th
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
	head := th.running.Render("⟳ "+j.elapsed(sh.now())) + "  " + text
	lines := []string{truncate(head, w)}
	if j.prog.Total > 0 {
		bw := max(10, min(60, w-20))
		j.bar.Width = bw
		frac := j.prog.Fraction()
		bar := j.bar.ViewAs(frac)
		if !th.color {
			bar = hbar(frac, bw)
		}
		lines = append(lines, bar+fmt.Sprintf(" %3.0f %%", 100*frac)+th.dim.Render("   c cancels"))
	} else {
		lines = append(lines, th.dim.Render("c cancels"))
	}
	return lines
}
