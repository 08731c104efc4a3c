package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/sim"
)

// sweepCell evaluates a grid of design points on demand and shows a heat
// map of nF × nP and the Pareto front.
type sweepCell struct{ cellBase }

func swp(in explorer.Input) *explorer.Sweep { return in.(*explorer.Sweep) }

// Update implements cellModel.
func (c *sweepCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *sweepCell) View() string { return c.render() }

func (c *sweepCell) cellKeys() []key.Binding { return nil }

func (c *sweepCell) fields() []field {
	g := strField("grid", "grid", func(in explorer.Input) *string { return &swp(in).Grid })
	g.hint = "axis=values,…: fpgas=1..4,pes=1..16,arch=gravf-m|gravf"
	return []field{
		g,
		boolField("simulate", "simulate each point", func(in explorer.Input) *bool { return &swp(in).Simulate }),
		enumField("detail", "detail", simDetails, func(in explorer.Input) *sim.Detail { return &swp(in).Detail }),
		choiceField("cost", "Pareto cost", []string{explorer.CostFPGAs, explorer.CostPEs, explorer.CostPrice}, func(in explorer.Input) *string { return &swp(in).Cost }),
		numField("workers", "workers", "one per core", func(in explorer.Input) *int { return &swp(in).Workers }),
		{key: "shard", label: "shard i/n", kind: fText, placeholder: "whole grid",
			get: func(in explorer.Input) string { return swp(in).Shard },
			set: func(in explorer.Input, s string) error { swp(in).Shard = strings.TrimSpace(s); return nil }},
	}
}

func (c *sweepCell) output(out explorer.Output, w int) []string {
	o := out.(*explorer.SweepOutput)
	th := c.sh.th
	head := fmt.Sprintf("%s: %d points", o.Grid, o.Total)
	if o.Shard != "" {
		head += fmt.Sprintf(" (shard %s: %d)", o.Shard, len(o.Points))
	}
	if o.Simulate {
		head += ", simulated at " + o.Detail + " detail"
	}
	if !o.Complete {
		head += fmt.Sprintf(", cancelled after %d", len(o.Points))
	}
	lines := wrap(head, w)
	if p := o.Point(o.Best); p != nil {
		lines = append(lines, truncate("best: "+th.bold.Render(describePoint(o, p)), w))
	}
	heat := c.heatMap(o, w)
	pareto := c.paretoList(o, w)
	if len(heat) > 0 && w >= 150 {
		hw := 0
		for _, l := range heat {
			hw = max(hw, lipgloss.Width(l))
		}
		left := lipgloss.NewStyle().Width(hw + 4).Render(strings.Join(heat, "\n"))
		right := make([]string, len(pareto))
		for i, l := range pareto {
			right[i] = truncate(l, w-hw-4)
		}
		return append(lines, strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, left, strings.Join(right, "\n")), "\n")...)
	}
	lines = append(lines, heat...)
	return append(lines, pareto...)
}

// describePoint names a point as the sweep's text does.
func describePoint(o *explorer.SweepOutput, p *explorer.PointResult) string {
	s := fmt.Sprintf("#%d %d×%d", p.Index, p.Point.FPGAs, p.Point.PEs)
	g, _ := explorer.ParseGrid(o.Grid)
	for _, a := range []struct{ axis, v string }{{explorer.AxisBoard, p.Point.Board}, {explorer.AxisKernel, p.Point.Kernel},
		{explorer.AxisDataset, p.Point.Dataset}, {explorer.AxisPartitioner, string(p.Point.Partitioner)}, {explorer.AxisArch, string(p.Point.Arch)},
		{explorer.AxisMem, string(p.Point.Mem)}, {explorer.AxisPacking, strconv.FormatBool(p.Point.Packing)}, {explorer.AxisFilter, strconv.FormatBool(p.Point.Filter)}} {
		if g.Has(a.axis) {
			s += " " + a.axis + "=" + a.v
		}
	}
	if !p.Fits {
		return s + ": does not fit"
	}
	s += fmt.Sprintf(": model %s (%s)", explorer.TEPS(p.TSys), p.Binding)
	if p.Sim != nil {
		if p.Sim.Error != "" {
			s += ", sim failed"
		} else {
			s += fmt.Sprintf(", sim %s (%.2f)", explorer.TEPS(p.Sim.TEPS), p.Sim.Efficiency)
		}
	}
	return s + fmt.Sprintf(", cost %g", p.Cost)
}

// shades mark the heat map's levels without colour.
var shades = []string{" ", "░", "▒", "▓", "█"}

// heatMap draws throughput over nF (rows) and nP (columns); with other
// axes in the grid each square shows the best point of its (nF, nP).
func (c *sweepCell) heatMap(o *explorer.SweepOutput, w int) []string {
	g, err := explorer.ParseGrid(o.Grid)
	if err != nil || !g.Has(explorer.AxisFPGAs) || !g.Has(explorer.AxisPEs) {
		return nil
	}
	th := c.sh.th
	fs, ps := g.Values(explorer.AxisFPGAs), g.Values(explorer.AxisPEs)
	type cellV struct {
		v      float64
		pareto bool
		best   bool
		ok     bool
	}
	best := map[[2]int]*cellV{}
	inPareto := map[int]bool{}
	for _, i := range o.Pareto {
		inPareto[i] = true
	}
	hi := 0.0
	for i := range o.Points {
		p := &o.Points[i]
		k := [2]int{p.Point.FPGAs, p.Point.PEs}
		cv := best[k]
		if cv == nil {
			cv = &cellV{}
			best[k] = cv
		}
		if !p.Fits {
			continue
		}
		t := p.Throughput()
		if !cv.ok || t > cv.v {
			cv.v, cv.ok = t, true
		}
		cv.pareto = cv.pareto || inPareto[p.Index]
		cv.best = cv.best || p.Index == o.Best
		hi = max(hi, t)
	}
	const cw = 6
	maxCols := max(1, (w-8)/cw)
	if len(ps) > maxCols {
		ps = ps[:maxCols]
	}
	lines := []string{th.heading.Render("throughput, GTEPS") + th.dim.Render("  rows nF, columns nP; ◆ Pareto, * best, × does not fit")}
	hdr := "nF\\nP "
	for _, p := range ps {
		hdr += padLeft(p, cw)
	}
	lines = append(lines, th.dim.Render(hdr))
	for _, f := range fs {
		fi, _ := strconv.Atoi(f)
		row := padLeft(f, 5) + " "
		for _, p := range ps {
			pi, _ := strconv.Atoi(p)
			cv := best[[2]int{fi, pi}]
			var sq string
			switch {
			case cv == nil:
				sq = padLeft("·", cw)
			case !cv.ok:
				sq = padLeft("×", cw)
			default:
				lvl := cv.v / hi
				mark := " "
				switch {
				case cv.best:
					mark = "*"
				case cv.pareto:
					mark = "◆"
				}
				txt := fmt.Sprintf("%4.1f", cv.v/1e9)
				if th.color {
					i := int(math.Round(lvl * float64(len(th.heat)-1)))
					fg := lipgloss.Color("231")
					if i >= len(th.heat)*2/3 {
						fg = lipgloss.Color("16")
					}
					sq = lipgloss.NewStyle().Background(th.heat[i]).Foreground(fg).Render(mark + txt + " ")
				} else {
					sh := shades[int(math.Round(lvl*float64(len(shades)-1)))]
					sq = mark + txt + sh
				}
			}
			row += sq
		}
		lines = append(lines, row)
	}
	if len(g.Values(explorer.AxisPEs)) > len(ps) {
		lines = append(lines, th.dim.Render(fmt.Sprintf("(first %d of %d nP columns; widen the terminal for more)", len(ps), len(g.Values(explorer.AxisPEs)))))
	}
	return lines
}

func (c *sweepCell) paretoList(o *explorer.SweepOutput, w int) []string {
	th := c.sh.th
	if len(o.Pareto) == 0 {
		return nil
	}
	lines := []string{th.heading.Render(fmt.Sprintf("Pareto front: throughput against %s", o.Cost))}
	for _, i := range o.Pareto {
		if p := o.Point(i); p != nil {
			lines = append(lines, truncate("  "+describePoint(o, p), w))
		}
	}
	if len(o.Disagree) > 0 {
		lines = append(lines, th.heading.Render(fmt.Sprintf("model against simulation: mean sim/model %.3f; farthest from 1", o.MeanEfficiency)))
		for _, i := range o.Disagree {
			if p := o.Point(i); p != nil {
				lines = append(lines, truncate("  "+describePoint(o, p), w))
			}
		}
	}
	return lines
}
