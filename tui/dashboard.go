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

// The dashboard is the model cell that follows the focus, pinned: in a
// pane beside the notebook from WideWidth columns on, and as a summary of
// a few lines under the notebook in narrower terminals while an input of
// the model is focused.

// summaryRows is the height of the summary under the notebook.
const summaryRows = 6

// dashCache keeps the rendered dashboard and summary until what they show
// changes.
type dashCache struct {
	key   dashKey
	dash  []string
	sumKy dashKey
	sum   []string
}

type dashKey struct {
	cell, rev, simCell, simRev, w, h, focus int
	hold                                    string
	// bound changes when the bound for new inputs is known.
	bound *explorer.ModelOutput
}

func (a *App) dashKey(an answer, w, h int) dashKey {
	k := dashKey{cell: an.cell, simCell: an.simCell, w: w, h: h, focus: a.focus, hold: an.hold, bound: an.bound}
	if an.cell >= 0 {
		k.rev = a.cells[an.cell].base().rev
	}
	if an.simCell >= 0 {
		k.simRev = a.cells[an.simCell].base().rev
	}
	return k
}

// summaryShown reports whether the summary goes under the notebook: the
// terminal is not wide, it has room, and the focused cell is an input of
// the model cell that follows it.
func (a *App) summaryShown() bool {
	if a.wide() || a.height < 16 || a.width < TinyWidth {
		return false
	}
	nb := a.sh.nb
	m := nb.ModelFor(a.focus)
	if m < 0 || m == a.focus {
		return false
	}
	for _, d := range nb.Dependents(a.focus) {
		if d == m {
			return true
		}
	}
	return false
}

// summaryBox is the model summary under the notebook (nil when it is not
// shown).
func (a *App) summaryBox() []string {
	if !a.summaryShown() {
		return nil
	}
	an := a.answer()
	k := a.dashKey(an, a.width, summaryRows)
	if k == a.dash.sumKy && a.dash.sum != nil {
		return a.dash.sum
	}
	th := a.sh.th
	w := a.width
	lines := []string{a.dashRule(an, w)}
	switch mo := an.mo; {
	case an.hold != "":
		lines = append(lines, th.stale.Render("◌ "+an.hold))
	case an.err != nil:
		lines = append(lines, wrap("✗ "+errText(an.err, an.cell), w)...)
	case mo == nil && an.bound != nil:
		lines = append(lines, limitBars(th, an.bound, w, false)...)
		lines = append(lines, truncate(an.predictionPending(th), w))
	case mo == nil && an.job != nil:
		lines = append(lines, an.job.view(a.sh, w)...)
	case mo == nil:
		lines = append(lines, th.dim.Render("evaluating…"))
	default:
		lines = append(lines, limitBars(th, mo, w, false)...)
		if a.cells[a.focus].base().kind == explorer.KindKernel {
			lines = append(lines, truncate(sizesText(mo), w))
		} else {
			lines = append(lines, truncate(storageText(mo), w))
		}
	}
	for len(lines) < summaryRows {
		lines = append(lines, "")
	}
	lines = lines[:summaryRows]
	for i, l := range lines {
		lines[i] = truncate(l, w)
	}
	a.dash.sumKy, a.dash.sum = k, lines
	return lines
}

// dashRule is the dashboard's heading: the model cell and its status.
func (a *App) dashRule(an answer, w int) string {
	th := a.sh.th
	head := fmt.Sprintf("── model · cell %d ", an.cell+1)
	status := a.cells[an.cell].base().status()
	fill := max(1, w-lipgloss.Width(head)-lipgloss.Width(status)-1)
	return th.dim.Render(head+strings.Repeat("─", fill)+" ") + status
}

// dashboard renders the pane beside the notebook, h lines of w cells.
func (a *App) dashboard(w, h int) []string {
	an := a.answer()
	k := a.dashKey(an, w, h)
	if k == a.dash.key && a.dash.dash != nil {
		return a.dash.dash
	}
	th := a.sh.th
	var lines []string
	switch mo := an.mo; {
	case an.cell < 0:
		lines = append(lines, th.dim.Render("No model cell: a adds one (choose model)."))
	case an.hold != "":
		lines = append(lines, a.dashRule(an, w), th.stale.Render("◌ "+an.hold))
	case an.err != nil:
		lines = append(lines, a.dashRule(an, w))
		for _, l := range wrap("✗ "+errText(an.err, an.cell), w) {
			lines = append(lines, th.err.Render(l))
		}
	case mo == nil && an.bound != nil:
		lines = a.dashFull(an, w, h)
	case mo == nil:
		lines = append(lines, a.dashRule(an, w))
		if an.job != nil {
			lines = append(lines, an.job.view(a.sh, w)...)
		} else {
			lines = append(lines, th.dim.Render("evaluating…"))
		}
	default:
		lines = a.dashFull(an, w, h)
	}
	for i, l := range lines {
		lines[i] = truncate(l, w)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	a.dash.key, a.dash.dash = k, lines
	return lines
}

// dashFull is the dashboard of an evaluated model: the design, the four
// limits with the binding one marked, T_sys beside the prediction and the
// last simulation, sizes and storage, the curve over nF with the chosen
// point, and the recommendations as far as they fit.
func (a *App) dashFull(an answer, w, h int) []string {
	th := a.sh.th
	mo := an.shown()
	lines := []string{a.dashRule(an, w)}
	if an.mo == nil && an.job != nil {
		lines = append(lines, an.job.view(a.sh, w)...)
	}
	lines = append(lines, wrapDots(fmt.Sprintf("%s on %s · %s · V %s · d %.2f", mo.Kernel, mo.Board, mo.Graph, count(int64(mo.Vertices)), mo.Degree), w)...)
	lines = append(lines, wrapDots(fmt.Sprintf("%d FPGAs × %d PEs · %s · %s · %s PE · packing %s · filter %s",
		mo.FPGAs, mo.PEs, mo.Arch, edgesText(mo.Mem), mo.PE, onOff(mo.Packing), onOff(mo.Filter)), w)...)
	lines = append(lines, "")
	lines = append(lines, limitBars(th, mo, w, true)...)
	lines = append(lines, "")
	lines = append(lines, a.throughputBars(an, w)...)
	lines = append(lines, truncate(th.dim.Render(tepsNote), w))
	lines = append(lines, "")
	lines = append(lines, wrapDots(sizesText(mo), w)...)
	lines = append(lines, wrapDots(storageText(mo), w)...)
	if rest := h - len(lines) - 2; rest >= 8 && len(mo.Curve) > 0 {
		lines = append(lines, "")
		lines = append(lines, nfChart(th, mo, w, min(8, rest-6))...)
	}
	if len(mo.Recommendations) > 0 && h-len(lines) > 2 {
		lines = append(lines, "", th.heading.Render("recommendations"))
		for _, r := range mo.Recommendations {
			for i, l := range wrap(r, w-2) {
				if i == 0 {
					lines = append(lines, "• "+l)
				} else {
					lines = append(lines, "  "+l)
				}
			}
		}
		if len(lines) > h {
			lines = append(lines[:h-1], th.dim.Render("… (the model cell has the rest)"))
		}
	}
	return lines
}

// limitBars draws the four limits as bars against the largest finite
// one, the binding one marked; wide adds why a limit does not apply.
func limitBars(th *theme, mo *explorer.ModelOutput, w int, wide bool) []string {
	hi := 0.0
	mo.Limits.Each(func(_ string, v float64) {
		if !math.IsInf(v, 0) {
			hi = max(hi, v)
		}
	})
	barW := max(8, min(30, w-36))
	var lines []string
	for _, n := range limitNames {
		v, ok := mo.Limits.Get(n)
		name := padRight(n, 4)
		if !ok {
			why := mo.Inapplicable(n)
			lines = append(lines, truncate(fmt.Sprintf("   %s %13s  %s", name, "-", th.dim.Render(why)), w))
			continue
		}
		row := fmt.Sprintf("%s %13s  %s", name, explorer.TEPS(v), hbar(v/hi, barW))
		if n == mo.Binding {
			lines = append(lines, th.binding.Render("=> "+row+"  binds"))
		} else {
			lines = append(lines, "   "+row)
		}
	}
	return lines
}

// throughputBars sets T_sys (the bound), the prediction and the last
// simulation side by side as bars on one scale.
func (a *App) throughputBars(an answer, w int) []string {
	th := a.sh.th
	mo := an.shown()
	p := predicted(mo)
	top := max(mo.TSys, p)
	var simT float64
	if an.sim != nil {
		simT = an.sim.Result.TEPS
		top = max(top, simT)
	}
	if math.IsInf(top, 0) || top <= 0 {
		return nil
	}
	barW := max(8, min(24, w-56))
	row := func(name string, v float64, note string) string {
		return fmt.Sprintf("%-10s %13s  %s  ", name, explorer.TEPS(v), hbar(v/top, barW)) + th.dim.Render(note)
	}
	lines := []string{th.bold.Render(row("T_sys", mo.TSys, "the bound: "+mo.Binding+" binds"))}
	if p > 0 {
		lines = append(lines, row("predicted", p, fmt.Sprintf("latency-aware, %.2f × T_sys", p/mo.TSys)))
	} else if an.mo == nil {
		lines = append(lines, fmt.Sprintf("%-10s %13s  ", "predicted", "")+an.predictionPending(th))
	} else {
		lines = append(lines, fmt.Sprintf("%-10s %13s  ", "predicted", "-")+th.dim.Render("latency-aware is off in the model cell"))
	}
	switch {
	case an.simJob != nil:
		lines = append(lines, fmt.Sprintf("%-10s %13s  ", "simulated", "⟳")+th.running.Render("running "+an.simJob.percent()))
	case an.sim != nil && an.simStale:
		lines = append(lines, th.dim.Render(row("last sim", simT, "for other inputs: r in cell "+itoa(an.simCell+1)+" runs it")))
	case an.sim != nil:
		r := an.sim.Result
		lines = append(lines, row("simulated", simT, fmt.Sprintf("%s, %s detail, %d×%d", simAgainst(an.sim, mo, false), r.Detail, r.FPGAs, r.PEs)))
	case an.simCell >= 0:
		lines = append(lines, fmt.Sprintf("%-10s %13s  ", "simulated", "-")+th.dim.Render("not run: r in cell "+itoa(an.simCell+1)))
	}
	return lines
}

// tepsNote names how every throughput the TUI shows is counted, as the
// CLI's text outputs do (teps.Definition.Label).
var tepsNote = teps.GraVF.Label()

// sizesText is the kernel's sizes as the model uses them.
func sizesText(mo *explorer.ModelOutput) string {
	s := mo.Sizes
	return fmt.Sprintf("sizes: m_vertex %d · m_update %d bits (%.0f on the wire) · m_message %d (%.0f) · m_edge %d · memory word %d",
		s.Vertex, s.UpdateWire.Bits, s.Update, s.MessageWire.Bits, s.Message, s.Edge, s.MemWord)
}

// storageText is the storage per FPGA against the board's capacity.
func storageText(mo *explorer.ModelOutput) string {
	c := mo.Capacity
	s := fmt.Sprintf("storage per FPGA: on chip %s of %s Mbit", mbit(c.VertexBitsPerFPGA), mbit(c.OnChipBits))
	if c.OnChipBits > 0 {
		s += fmt.Sprintf(" (%.0f %%)", 100*c.VertexBitsPerFPGA/c.OnChipBits)
	}
	if mo.Mem == model.BRAM {
		s += fmt.Sprintf(" · edges in BRAM %s Mbit", mbit(c.EdgeBitsPerFPGA))
	} else {
		s += fmt.Sprintf(" · edges %s of %s GiB off-chip", gib(c.EdgeBitsPerFPGA), gib(c.OffChipBits))
	}
	if !c.Fits && c.Problem != "" {
		s += " · does not fit: " + c.Problem
	}
	return s
}

func mbit(bits float64) string { return fmt.Sprintf("%.1f", bits/1e6) }

func gib(bits float64) string {
	g := bits / 8 / (1 << 30)
	if g < 0.1 {
		return fmt.Sprintf("%.3f", g)
	}
	return fmt.Sprintf("%.2f", g)
}
