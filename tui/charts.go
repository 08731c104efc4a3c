package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/guptarohit/asciigraph"
)

// series is one line of a chart.
type series struct {
	name string
	vals []float64
}

// lineChart plots series (all of len(xs) points) with asciigraph, then
// adds what asciigraph lacks: x tick labels, a marker under the chosen x
// (index into xs; -1 for none) and a legend. Missing or infinite values
// are gaps. It returns the chart's lines, at most width cells wide.
func lineChart(th *theme, ss []series, xs []int, xname string, chosen int, mark string, width, height int) []string {
	n := len(xs)
	if n == 0 || len(ss) == 0 {
		return nil
	}
	data := make([][]float64, len(ss))
	for i, s := range ss {
		d := make([]float64, n)
		for j := range n {
			v := math.NaN()
			if j < len(s.vals) && !math.IsInf(s.vals[j], 0) {
				v = s.vals[j]
			}
			d[j] = v
		}
		if n == 1 {
			d = append(d, d[0])
		}
		data[i] = d
	}
	plotWidth := max(10, width-12)
	opts := []asciigraph.Option{asciigraph.Width(plotWidth), asciigraph.Height(height), asciigraph.LowerBound(0), asciigraph.Precision(2)}
	if th.color && len(th.series) > 0 {
		cs := make([]asciigraph.AnsiColor, len(ss))
		for i := range ss {
			cs[i] = th.series[i%len(th.series)]
		}
		opts = append(opts, asciigraph.SeriesColors(cs...))
	}
	plot := asciigraph.PlotMany(data, opts...)
	lines := strings.Split(plot, "\n")
	axis := 0
	for _, l := range lines {
		plain := []rune(ansi.Strip(l))
		for i, r := range plain {
			if r == '┤' || r == '┼' {
				axis = max(axis, i)
				break
			}
		}
	}
	col := func(j int) int {
		if n <= 1 {
			return axis + 1
		}
		return axis + 1 + int(math.Round(float64(j)*float64(plotWidth-1)/float64(n-1)))
	}
	// x ticks, skipping labels that would collide.
	ticks := []rune(strings.Repeat(" ", axis+plotWidth+8))
	last := -1
	for j, x := range xs {
		lab := []rune(fmt.Sprint(x))
		c := col(j) - (len(lab)-1)/2
		if c <= last+1 || c+len(lab) > len(ticks) {
			continue
		}
		copy(ticks[c:], lab)
		last = c + len(lab) - 1
	}
	name := []rune(xname)
	if axis+1 > len(name) {
		copy(ticks[axis-len(name):], name)
	}
	lines = append(lines, strings.TrimRight(string(ticks), " "))
	if chosen >= 0 && chosen < n {
		c := col(chosen)
		m := "▲ " + mark
		if c+len([]rune(m)) > axis+plotWidth+4 {
			m = mark + " ▲"
			c -= len([]rune(m)) - 1
		}
		lines = append(lines, strings.Repeat(" ", max(0, c))+th.binding.Render(m))
	}
	var leg []string
	for i, s := range ss {
		sq := "■"
		if th.color && len(th.series) > 0 {
			c := th.series[i%len(th.series)]
			sq = c.String() + "■" + asciigraph.Default.String()
		} else if i == 0 {
			sq = "(lowest)"
		}
		leg = append(leg, sq+" "+s.name)
	}
	lines = append(lines, strings.Repeat(" ", axis+1)+strings.Join(leg, "   "))
	for i, l := range lines {
		lines[i] = truncate(l, width)
	}
	return lines
}
