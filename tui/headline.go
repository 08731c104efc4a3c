package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/teps"
)

// answer is the state of the model cell that follows the focus (see
// explorer.Notebook.ModelFor) and of the simulation of its design: what
// the headline, the summary and the dashboard show.
type answer struct {
	cell int // the model cell, -1 for none
	mo   *explorer.ModelOutput
	// last is the model's latest output while it is being re-evaluated.
	last *explorer.ModelOutput
	// bound is the model's limits and T_sys for the current inputs while
	// job computes the prediction.
	bound *explorer.ModelOutput
	// job is the job evaluating the model, hold why it waits, err its
	// own error.
	job  *jobState
	hold string
	err  error

	simCell  int
	sim      *explorer.SimulateOutput
	simStale bool // sim is the last result, for other inputs
	simJob   *jobState
}

// answer finds the model cell that follows the focus and reads its state.
func (a *App) answer() answer {
	nb := a.sh.nb
	an := answer{cell: nb.ModelFor(a.focus), simCell: -1}
	if an.cell < 0 || an.cell >= len(a.cells) {
		an.cell = -1
		return an
	}
	b := a.cells[an.cell].base()
	an.job, an.hold = b.job, b.hold
	if mo, ok := resultOf[*explorer.ModelOutput](a, an.cell); ok {
		an.mo = mo
	} else if b.hasResult && b.err != nil && b.hold == "" {
		an.err = b.err
	}
	an.last, _ = b.last.(*explorer.ModelOutput)
	if an.mo == nil && an.err == nil && an.hold == "" {
		an.bound = b.currentBound()
	}
	an.simCell = nb.SimulationFor(an.cell)
	if an.simCell >= 0 {
		sb := a.cells[an.simCell].base()
		an.simJob = sb.job
		if so, ok := resultOf[*explorer.SimulateOutput](a, an.simCell); ok {
			an.sim = so
		} else if so, ok := sb.last.(*explorer.SimulateOutput); ok && so != nil {
			an.sim, an.simStale = so, true
		}
	}
	return an
}

// currentBound returns the model cell's limits and T_sys for its current
// inputs without the prediction (explorer.Notebook.Bound), kept per input
// hash so that a frame costs nothing once it is known; nil for other
// cells and while the cell's inputs are not evaluated.
func (c *cellBase) currentBound() *explorer.ModelOutput {
	if c.kind != explorer.KindModel {
		return nil
	}
	h := c.sh.nb.Hash(c.index)
	if c.boundHash == h {
		return c.bound
	}
	mo, err := c.sh.nb.Bound(c.index)
	c.bound, c.boundHash = mo, ""
	if mo != nil || err != nil {
		// Known for these inputs; nil and no error means not yet.
		c.boundHash = h
	}
	return c.bound
}

// shown is the model output the answer shows: the cell's result, or its
// bound while the prediction is computed.
func (an answer) shown() *explorer.ModelOutput {
	if an.mo != nil {
		return an.mo
	}
	return an.bound
}

// predictionPending is the prediction's fact while only the bound is
// known: the job computing it, or the pause before it starts.
func (an answer) predictionPending(th *theme) string {
	if an.job != nil {
		return th.running.Render("predicting ⟳ " + an.job.what() + " " + an.job.percent())
	}
	return th.stale.Render("prediction ◌ updating")
}

// predicted is the model's latency-aware throughput (0 without it).
func predicted(mo *explorer.ModelOutput) float64 {
	if mo == nil || mo.Prediction == nil {
		return 0
	}
	return mo.Prediction.TEPS
}

// simAgainst says how the simulation compares with the prediction (or,
// without one, with T_sys).
func simAgainst(sim *explorer.SimulateOutput, mo *explorer.ModelOutput, short bool) string {
	ref, what := sim.PredictedTEPS(), "predicted"
	if ref <= 0 && mo != nil {
		ref, what = predicted(mo), "predicted"
	}
	if ref <= 0 && mo != nil {
		ref, what = mo.TSys, "T_sys"
	}
	if ref <= 0 {
		return ""
	}
	if short {
		return fmt.Sprintf("%.2f× %s", sim.Result.TEPS/ref, strings.TrimSuffix(what, "icted"))
	}
	return fmt.Sprintf("%.2f × %s", sim.Result.TEPS/ref, what)
}

// headline is the pinned line under the title bar: T_sys and what binds,
// the prediction, nF × nP and the last simulation against the prediction,
// for the model cell that follows the focus. It follows every keystroke.
func (a *App) headline() string {
	th := a.sh.th
	an := a.answer()
	right := ""
	if a.compact() {
		right = a.marks()
	}
	w := a.width - lipgloss.Width(right)
	var line string
	switch {
	case an.cell < 0:
		line = th.dim.Render(" no model cell: a adds one (choose model)")
	case an.hold != "":
		line = " " + th.bold.Render("T_sys") + " " + th.stale.Render("◌ "+an.hold)
	case an.err != nil:
		line = " " + th.bold.Render("T_sys") + " " + th.err.Render("✗ cell "+itoa(an.cell+1)+" (model): "+errText(an.err, an.cell))
	case an.mo == nil && an.bound != nil:
		// The bound follows every edit at once; the prediction follows.
		line = a.headlineFacts(an, w)
	case an.mo == nil && an.job != nil:
		line = " " + th.bold.Render("T_sys") + " " + th.running.Render("⟳ "+an.job.what()+" "+an.job.percent())
		if an.last != nil {
			line += th.dim.Render(" · was " + explorer.TEPS(an.last.TSys) + ", " + an.last.Binding + " binding")
		}
	case an.mo == nil && an.last != nil:
		// Typing has not paused yet, or an expensive cell above is stale.
		line = " " + th.bold.Render("T_sys") + " " + th.stale.Render("◌ updating for the new inputs") +
			th.dim.Render(" · was "+explorer.TEPS(an.last.TSys)+", "+an.last.Binding+" binding")
	case an.mo == nil:
		line = " " + th.bold.Render("T_sys") + " " + th.dim.Render("not evaluated yet")
	default:
		line = a.headlineFacts(an, w)
	}
	return truncate(padRight(truncate(line, w), w), w) + th.running.Render(right)
}

// headlineFacts lays out the facts of an evaluated model in w cells,
// shortening the wording until they fit.
func (a *App) headlineFacts(an answer, w int) string {
	th := a.sh.th
	mo := an.shown()
	tsys := th.bold.Render("T_sys " + explorer.TEPS(mo.TSys))
	// The first fact names the TEPS definition right after T_sys: the
	// first to be shortened, the last to go.
	type fact struct{ long, short string }
	facts := []fact{
		{th.dim.Render("(" + string(teps.GraVF) + " TEPS: messages/s)"), th.dim.Render("(" + string(teps.GraVF) + ")")},
		{"bound by " + th.binding.Render(model.LimitTitle(mo.Binding)), th.binding.Render(mo.Binding) + " binds"},
	}
	if an.mo == nil {
		facts = append(facts, fact{an.predictionPending(th), th.running.Render("pred ⟳")})
	} else if p := predicted(mo); p > 0 {
		facts = append(facts, fact{"predicted " + th.bold.Render(explorer.TEPS(p)), "pred " + shortTEPS(p)})
	} else {
		facts = append(facts, fact{th.dim.Render("no prediction (latency-aware off)"), th.dim.Render("no pred")})
	}
	design := fact{fmt.Sprintf("%d FPGAs × %d PEs", mo.FPGAs, mo.PEs), fmt.Sprintf("%d×%d", mo.FPGAs, mo.PEs)}
	if an.mo == nil {
		// Chosen on T_sys until the prediction chooses.
		design.long += th.dim.Render(" on T_sys")
	}
	facts = append(facts, design)
	switch {
	case an.simJob != nil:
		facts = append(facts, fact{th.running.Render("simulating " + an.simJob.percent()), th.running.Render("sim ⟳")})
	case an.sim != nil && an.simStale:
		facts = append(facts, fact{th.dim.Render("last sim " + explorer.TEPS(an.sim.Result.TEPS) + " (for other inputs)"), th.dim.Render("sim stale")})
	case an.sim != nil:
		sim := an.sim.Result.TEPS
		facts = append(facts, fact{"sim " + explorer.TEPS(sim) + " = " + simAgainst(an.sim, mo, false), "sim " + shortTEPS(sim) + " = " + simAgainst(an.sim, mo, true)})
	}
	n := len(facts)
	short := make([]bool, n)
	build := func(keep int) string {
		s := " " + tsys
		for i, f := range facts[:keep] {
			text := f.long
			if short[i] {
				text = f.short
			}
			if i == 0 {
				s += " " + text // the definition belongs to T_sys
			} else {
				s += " · " + text
			}
		}
		return s
	}
	// Shorten the definition, then the facts from the last forwards; then
	// drop facts from the end.
	order := []int{0}
	for i := n - 1; i > 0; i-- {
		order = append(order, i)
	}
	for keep := n; keep >= 0; keep-- {
		for i := range short {
			short[i] = false
		}
		if s := build(keep); lipgloss.Width(s) <= w {
			return s
		}
		for _, i := range order {
			if i >= keep {
				continue
			}
			short[i] = true
			if s := build(keep); lipgloss.Width(s) <= w {
				return s
			}
		}
	}
	return build(0)
}

// shortTEPS is a throughput in few characters (5.90G, 812M).
func shortTEPS(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "∞"
	case v >= 1e9:
		return fmt.Sprintf("%.2fG", v/1e9)
	}
	return fmt.Sprintf("%.0fM", v/1e6)
}

// percent is a job's progress as a percentage, or its elapsed time when
// the total is not known.
func (j *jobState) percent() string {
	if j.prog.Total > 0 {
		return fmt.Sprintf("%.0f %%", 100*j.prog.Fraction())
	}
	return ""
}
