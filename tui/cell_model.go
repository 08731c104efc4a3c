package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/model"
)

// modelCell shows the analytical model, updated live on every edit above
// it: the four limits with the binding one highlighted, T_sys, the curves
// over nF and nP with the chosen point, GraVF against GraVF-M and the
// recommendations.
type modelCell struct{ cellBase }

// Update implements cellModel.
func (c *modelCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *modelCell) View() string { return c.render() }

func (c *modelCell) cellKeys() []key.Binding { return nil }

func (c *modelCell) fields() []field {
	return []field{boolField("latency", "latency-aware", func(in explorer.Input) *bool { return &in.(*explorer.Model).Latency })}
}

var limitNames = []string{model.LimitPE, model.LimitMem, model.LimitIf, model.LimitNet}

func (c *modelCell) output(out explorer.Output, w int) []string {
	m := out.(*explorer.ModelOutput)
	th := c.sh.th
	var lines []string
	lines = append(lines, wrapDots(fmt.Sprintf("%s on %s · %s · V %s · %s arcs · d %.2f", m.Kernel, m.Board, m.Graph, count(int64(m.Vertices)), count(m.Arcs), m.Degree), w)...)
	lines = append(lines, wrapDots(fmt.Sprintf("design: %d FPGAs × %d PEs · %s · %s · %s PE · packing %s · filter %s · CPE %.2f (%s)",
		m.FPGAs, m.PEs, m.Arch, edgesText(m.Mem), m.PE, onOff(m.Packing), onOff(m.Filter), m.CPE, m.CPESource), w)...)
	lines = append(lines, "")
	// The four limits, as bars against the largest finite one.
	hi := 0.0
	m.Limits.Each(func(_ string, v float64) {
		if !math.IsInf(v, 0) {
			hi = max(hi, v)
		}
	})
	barW := max(8, min(30, w/5))
	// Wide, the reasons stand in a column beside the bars (after "binds").
	col := 3 + 4 + 1 + 13 + 2 + barW + 2 + 5 + 2
	for _, n := range limitNames {
		v, ok := m.Limits.Get(n)
		name := padRight(n, 4)
		if !ok {
			row := fmt.Sprintf("   %s %s  %s  ", name, padLeft("-", 13), strings.Repeat(" ", barW))
			if w >= 120 {
				row = padRight(row, col)
			}
			lines = append(lines, truncate(row+th.dim.Render(m.Inapplicable(n)), w))
			continue
		}
		row := fmt.Sprintf("%s %s  %s  ", name, padLeft(explorer.TEPS(v), 13), hbar(v/hi, barW))
		reason := m.Reasons[n]
		head := "   " + row
		if n == m.Binding {
			head = th.binding.Render("=> " + row + "binds")
		}
		if w >= 120 {
			for i, l := range wrap(reason, w-col) {
				if i == 0 {
					lines = append(lines, padRight(head, col)+th.dim.Render(l))
				} else {
					lines = append(lines, strings.Repeat(" ", col)+th.dim.Render(l))
				}
			}
			continue
		}
		// Narrow: the reason under the bar.
		lines = append(lines, head)
		for _, l := range wrap(reason, w-8) {
			lines = append(lines, "        "+th.dim.Render(l))
		}
	}
	lines = append(lines, th.bold.Render(fmt.Sprintf("T_sys = %s", explorer.TEPS(m.TSys)))+", bound by "+th.binding.Render(model.LimitTitle(m.Binding)))
	if p := predicted(m); p > 0 {
		lines = append(lines, wrapDots(fmt.Sprintf("%s = %s · %.2f × T_sys · the latency of %d supersteps (below)", th.bold.Render("predicted"), explorer.TEPS(p), p/m.TSys, m.Supersteps), w)...)
	} else if in, _ := c.sh.nb.Cells[c.index].In.(*explorer.Model); in != nil && in.Latency {
		lines = append(lines, th.running.Render("predicted: ⟳ being computed for these inputs (the bound above is current)"))
	} else {
		lines = append(lines, th.dim.Render("predicted: - (turn latency-aware on for the prediction)"))
	}
	lines = append(lines, truncate(th.dim.Render(tepsNote), w))
	lines = append(lines, wrapDots(sizesText(m), w)...)
	lines = append(lines, wrapDots(storageText(m), w)...)
	if o := m.Other; o != nil {
		top := max(m.TSys, o.TSys)
		bw := max(8, min(30, w/4))
		lines = append(lines, "")
		lines = append(lines, th.heading.Render("GraVF-M against GraVF")+th.dim.Render(" at the same design point"))
		for _, r := range []struct {
			arch    model.Arch
			t       float64
			binding string
		}{{m.Arch, m.TSys, m.Binding}, {o.Arch, o.TSys, o.Binding}} {
			lines = append(lines, truncate(fmt.Sprintf("  %-8s %s %13s  bound by %s", r.arch, hbar(r.t/top, bw), explorer.TEPS(r.t), model.LimitTitle(r.binding)), w))
		}
		if o.TSys > 0 {
			lines = append(lines, fmt.Sprintf("  %s/%s = %.2fx", m.Arch, o.Arch, m.TSys/o.TSys))
		}
	}
	lines = append(lines, "")
	lines = append(lines, c.charts(m, w)...)
	if p := m.Prediction; p != nil {
		lines = append(lines, "")
		lines = append(lines, th.heading.Render("latency-aware"))
		lines = append(lines, wrap(fmt.Sprintf("%d supersteps take %.3g s (%s); bandwidth alone says %.3g s. t_sync %.2f us and an apply sweep of %.2f us per superstep; t_sync exceeds the bandwidth time in %d of them.",
			m.Supersteps, p.Seconds, explorer.TEPS(p.TEPS), p.BandwidthSeconds, p.SyncSeconds*1e6, p.SweepSeconds*1e6, p.LatencyBoundSupersteps), w)...)
	}
	if len(m.Recommendations) > 0 {
		lines = append(lines, "")
		lines = append(lines, th.heading.Render("recommendations"))
		for _, r := range m.Recommendations {
			for i, l := range wrap(r, w-2) {
				if i == 0 {
					lines = append(lines, "• "+l)
				} else {
					lines = append(lines, "  "+l)
				}
			}
		}
	}
	return lines
}

// charts draws T_sys and every limit against nF and against nP (at the
// chosen nF), side by side when they fit.
func (c *modelCell) charts(m *explorer.ModelOutput, w int) []string {
	th := c.sh.th
	side := w >= 150
	cw := w
	if side {
		cw = (w - 4) / 2
	}
	nf := nfChart(th, m, cw, 8)
	np := curveChart(th, m.PECurve, func(p model.Point) int { return p.PEs }, func(p model.Point) bool { return p.PEs == m.PEs },
		"nP", fmt.Sprintf("T_sys against nP (nF = %d)", m.FPGAs), fmt.Sprintf("%d PEs", m.PEs), cw, 8)
	if side && len(nf) > 0 && len(np) > 0 {
		left := lipgloss.NewStyle().Width(cw + 4).Render(strings.Join(nf, "\n"))
		return strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, left, strings.Join(np, "\n")), "\n")
	}
	var lines []string
	lines = append(lines, nf...)
	if len(nf) > 0 && len(np) > 0 {
		lines = append(lines, "")
	}
	return append(lines, np...)
}

// nfChart draws T_sys and the limits against nF. Its title names the nP
// of the curve's points (the optimiser walks nF at nP max, or at a fixed
// nP), and the mark names the chosen design, saying so when it is not on
// the curve (the optimiser lowered nP afterwards).
func nfChart(th *theme, m *explorer.ModelOutput, w, height int) []string {
	nps := map[int]bool{}
	for _, p := range m.Curve {
		nps[p.PEs] = true
	}
	title := "T_sys against nF (nP per point)"
	curveNP := 0
	if len(nps) == 1 {
		for n := range nps {
			curveNP = n
		}
		title = fmt.Sprintf("T_sys against nF (nP = %d)", curveNP)
	}
	mark := fmt.Sprintf("%d FPGAs", m.FPGAs)
	on := func(p model.Point) bool { return p.FPGAs == m.FPGAs && p.PEs == m.PEs }
	if curveNP != 0 && curveNP != m.PEs {
		mark = fmt.Sprintf("%d FPGAs; chosen with %d PEs: %s", m.FPGAs, m.PEs, explorer.TEPS(m.TSys))
		on = func(p model.Point) bool { return p.FPGAs == m.FPGAs }
	}
	return curveChart(th, m.Curve, func(p model.Point) int { return p.FPGAs }, on, "nF", title, mark, w, height)
}

// curveChart draws T_sys and the four limits over the points of a curve
// (x gives a point's abscissa) with the point chosen marked, and the
// numbers behind it.
func curveChart(th *theme, pts []model.Point, x func(model.Point) int, chosen func(model.Point) bool, xname, title, mark string, w, height int) []string {
	if len(pts) == 0 {
		return nil
	}
	xs := make([]int, len(pts))
	sel := -1
	tsys := series{name: "T_sys", vals: make([]float64, len(pts))}
	lims := map[string]*series{}
	for i, p := range pts {
		xs[i] = x(p)
		if chosen(p) {
			sel = i
		}
		tsys.vals[i] = math.NaN()
		if p.Fits {
			tsys.vals[i] = p.TSys / 1e9
		}
		for _, n := range limitNames {
			v, ok := p.Limits.Get(n)
			if !ok || math.IsInf(v, 0) {
				continue
			}
			s := lims[n]
			if s == nil {
				s = &series{name: n, vals: make([]float64, len(pts))}
				for j := range s.vals {
					s.vals[j] = math.NaN()
				}
				lims[n] = s
			}
			s.vals[i] = v / 1e9
		}
	}
	ss := []series{tsys}
	for _, n := range limitNames {
		if s := lims[n]; s != nil {
			ss = append(ss, *s)
		}
	}
	lines := []string{th.heading.Render(title) + th.dim.Render("  GTEPS")}
	lines = append(lines, lineChart(th, ss, xs, xname, sel, mark, w, height)...)
	// The numbers behind the chart.
	colW := 7
	maxCols := max(1, (w-6)/colW)
	step := max(1, (len(xs)+maxCols-1)/maxCols)
	head := padRight(xname, 6)
	for i := 0; i < len(xs); i += step {
		s := fmt.Sprint(xs[i])
		if i == sel {
			s += "*"
		}
		head += padLeft(s, colW)
	}
	lines = append(lines, th.dim.Render(head))
	for _, s := range ss {
		row := padRight(s.name, 6)
		for i := 0; i < len(xs); i += step {
			v := "-"
			if !math.IsNaN(s.vals[i]) {
				v = fmt.Sprintf("%.2f", s.vals[i])
			}
			row += padLeft(v, colW)
		}
		lines = append(lines, truncate(row, w))
	}
	return lines
}
