package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/sim"
)

// simulateCell runs the simulator on demand, in the background, and shows
// TEPS, model against simulation, a per-superstep chart and the stall
// breakdown.
type simulateCell struct{ cellBase }

func simIn(in explorer.Input) *explorer.Simulate { return in.(*explorer.Simulate) }

// Update implements cellModel.
func (c *simulateCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *simulateCell) View() string { return c.render() }

func (c *simulateCell) cellKeys() []key.Binding { return nil }

func (c *simulateCell) fields() []field {
	return []field{
		enumField("detail", "detail", simDetails, func(in explorer.Input) *sim.Detail { return &simIn(in).Detail }),
		numField("seed", "seed", "", func(in explorer.Input) *uint64 { return &simIn(in).Seed }),
		numField("max_cycles", "max cycles", "no limit", func(in explorer.Input) *int64 { return &simIn(in).MaxCycles }),
		{key: "trace", label: "trace file", kind: fText, placeholder: "none (no trace recorded)",
			get: func(in explorer.Input) string { return simIn(in).Trace },
			set: func(in explorer.Input, s string) error { simIn(in).Trace = strings.TrimSpace(s); return nil }},
	}
}

// causeLetters mark the stall causes in a stacked bar, so that it reads
// without colour; the order is sim.CauseNames.
var causeLetters = []string{"B", "a", "h", "s", "m", "x", "n", "w", "d"}

var causeColors = []lipgloss.TerminalColor{
	lipgloss.AdaptiveColor{Light: "#008700", Dark: "#5FD75F"}, // busy
	lipgloss.AdaptiveColor{Light: "#005FAF", Dark: "#5FAFFF"}, // apply
	lipgloss.AdaptiveColor{Light: "#AF0000", Dark: "#FF5F5F"}, // hazard
	lipgloss.AdaptiveColor{Light: "#875FAF", Dark: "#AF87FF"}, // scatter
	lipgloss.AdaptiveColor{Light: "#AF5F00", Dark: "#FFAF5F"}, // memory
	lipgloss.AdaptiveColor{Light: "#AF0087", Dark: "#FF87D7"}, // crossbar
	lipgloss.AdaptiveColor{Light: "#008787", Dark: "#5FD7D7"}, // network
	lipgloss.AdaptiveColor{Light: "#6C6C6C", Dark: "#8A8A8A"}, // barrier
	lipgloss.AdaptiveColor{Light: "#BCBCBC", Dark: "#444444"}, // done
}

// stackedBar draws shares (summing to about 1) as one bar of width cells,
// each cause in its letter (and colour).
func stackedBar(th *theme, shares []float64, width int) string {
	var b strings.Builder
	used := 0
	total := 0.0
	for i, s := range shares {
		total += s
		end := int(total*float64(width) + 0.5)
		n := max(0, min(width, end)-used)
		used += n
		if n == 0 {
			continue
		}
		seg := strings.Repeat(causeLetters[i], n)
		if th.color {
			seg = lipgloss.NewStyle().Background(causeColors[i]).Foreground(lipgloss.Color("16")).Render(seg)
		}
		b.WriteString(seg)
	}
	if used < width {
		b.WriteString(strings.Repeat("·", width-used))
	}
	return b.String()
}

// stallShares turns PE counts into shares of their total.
func stallShares(s sim.PEStats) []float64 {
	v := []int64{s.Busy, s.Apply, s.Hazard, s.Scatter, s.Memory, s.Crossbar, s.Network, s.Barrier, s.Done}
	var total int64
	for _, x := range v {
		total += x
	}
	out := make([]float64, len(v))
	for i, x := range v {
		if total > 0 {
			out[i] = float64(x) / float64(total)
		}
	}
	return out
}

func (c *simulateCell) output(out explorer.Output, w int) []string {
	o := out.(*explorer.SimulateOutput)
	r := o.Result
	th := c.sh.th
	var lines []string
	lines = append(lines, wrapDots(fmt.Sprintf("%s · %d FPGAs × %d PEs · %s detail · %s cycles (%.3g s) · %s messages in %d supersteps",
		r.Arch, r.FPGAs, r.PEs, r.Detail, count(r.Cycles), r.Seconds, count(r.Messages), r.Supersteps), w)...)
	lines = append(lines, c.againstModel(o, w)...)
	if o.Trace != "" {
		lines = append(lines, truncate("trace "+relPath(c.sh.nb, o.Trace), w))
	}
	lines = append(lines, c.perSuperstep(o, w)...)
	// Stall breakdown.
	shares := stallShares(r.Stalls)
	lines = append(lines, "")
	lines = append(lines, th.heading.Render("where the PE cycles went"))
	lines = append(lines, stackedBar(th, shares, max(20, min(w-2, 100))))
	var leg []string
	for i, n := range sim.CauseNames {
		leg = append(leg, fmt.Sprintf("%s %s %s", causeLetters[i], n, pct(shares[i])))
	}
	lines = append(lines, joinWrapped(leg, "  ", w)...)
	if len(r.Links) > 0 {
		mean, hi := 0.0, 0.0
		for _, l := range r.Links {
			mean += l.Utilisation
			hi = max(hi, l.Utilisation)
		}
		mean /= float64(len(r.Links))
		lines = append(lines, truncate(fmt.Sprintf("links: %d, utilisation mean %s, max %s", len(r.Links), pct(mean), pct(hi)), w))
	}
	return lines
}

// againstModel sets the simulated throughput beside the model's bound
// (T_sys) and its latency-aware prediction, the figure to compare with.
func (c *simulateCell) againstModel(o *explorer.SimulateOutput, w int) []string {
	th := c.sh.th
	r := o.Result
	p := o.PredictedTEPS()
	head := "throughput " + explorer.TEPS(r.TEPS)
	if p > 0 {
		head += fmt.Sprintf(" · sim/predicted %.2f", r.TEPS/p)
	}
	if r.ModelTSys > 0 {
		head += fmt.Sprintf(" · sim/T_sys %.2f", r.Efficiency)
	}
	lines := []string{th.bold.Render(head)}
	top := max(r.TEPS, r.ModelTSys, p)
	if top <= 0 || math.IsInf(top, 0) {
		return lines
	}
	bw := max(8, min(40, w-46))
	row := func(name string, v float64, note string) string {
		return truncate(fmt.Sprintf("  %-10s %s %13s  ", name, hbar(v/top, bw), explorer.TEPS(v))+th.dim.Render(note), w)
	}
	lines = append(lines, row("T_sys", r.ModelTSys, "the model's bound"))
	if p > 0 {
		lines = append(lines, row("predicted", p, "latency-aware"))
	} else {
		lines = append(lines, th.dim.Render("  predicted  - (no reference run)"))
	}
	lines = append(lines, row("simulated", r.TEPS, ""))
	return append(lines, truncate(th.dim.Render("  "+tepsNote), w))
}

// collapseAt is the number of supersteps from which the list gives way to
// the first, the slowest and the last.
const collapseAt = 8

// perSuperstep charts the throughput of every superstep against the
// prediction's, and lists the supersteps (the first, slowest and last
// ones when there are many).
func (c *simulateCell) perSuperstep(o *explorer.SimulateOutput, w int) []string {
	th := c.sh.th
	r := o.Result
	if len(r.PerSuperstep) == 0 || r.Cycles <= 0 || r.Seconds <= 0 {
		return nil
	}
	hz := float64(r.Cycles) / r.Seconds
	xs := make([]int, len(r.PerSuperstep))
	simS := series{name: "simulated", vals: make([]float64, len(xs))}
	preS := series{name: "predicted", vals: make([]float64, len(xs))}
	pr := o.Prediction
	for i, s := range r.PerSuperstep {
		xs[i] = s.Index
		simS.vals[i] = math.NaN()
		if s.Cycles > 0 {
			simS.vals[i] = float64(s.Messages) / (float64(s.Cycles) / hz) / 1e9
		}
		preS.vals[i] = math.NaN()
		if pr != nil && r.ModelTSys > 0 {
			// The prediction's time of this superstep: the bandwidth time
			// or the barrier latency, whichever is longer, and the sweep.
			t := max(float64(s.Messages)/r.ModelTSys, pr.SyncSeconds) + pr.SweepSeconds
			preS.vals[i] = float64(s.Messages) / t / 1e9
		}
	}
	ss := []series{simS}
	if pr != nil {
		ss = append(ss, preS)
	}
	lines := []string{"", th.heading.Render("throughput per superstep") + th.dim.Render("  GTEPS (messages / time of the superstep)")}
	lines = append(lines, lineChart(th, ss, xs, "step", -1, "", min(w, 100), 6)...)
	item := func(s sim.Superstep) string {
		return fmt.Sprintf("%d: %s msgs/%s cyc", s.Index, compact(float64(s.Messages)), compact(float64(s.Cycles)))
	}
	steps := r.PerSuperstep
	if len(steps) < collapseAt {
		var tbl []string
		for _, s := range steps {
			tbl = append(tbl, item(s))
		}
		return append(lines, joinWrapped(tbl, " · ", w)...)
	}
	slow := 0
	for i, s := range steps {
		if s.Cycles > steps[slow].Cycles {
			slow = i
		}
	}
	facts := []string{fmt.Sprintf("%d supersteps", len(steps)), "first " + item(steps[0]), "slowest " + item(steps[slow]), "last " + item(steps[len(steps)-1])}
	return append(lines, wrapDots(strings.Join(facts, " · "), w)...)
}
