package tui

import (
	"fmt"
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
)

// padRight pads s with spaces to width cells (measured, not counted).
func padRight(s string, width int) string {
	if w := lipgloss.Width(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// padLeft right-aligns s in width cells.
func padLeft(s string, width int) string {
	if w := lipgloss.Width(s); w < width {
		return strings.Repeat(" ", width-w) + s
	}
	return s
}

// truncate cuts s to width cells, with an ellipsis when it cut; styles
// survive.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// wrap breaks text into lines of at most width cells at spaces only: the
// word wrapper also breaks after hyphens, which would put "-5" on two
// lines, so hyphens are swapped for non-breaking ones while it works.
func wrap(s string, width int) []string {
	if width < 10 {
		width = 10
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		w := ansi.Wordwrap(strings.ReplaceAll(para, "-", nbHyphen), width, "")
		w = ansi.Hardwrap(w, width, true)
		out = append(out, strings.Split(strings.ReplaceAll(w, nbHyphen, "-"), "\n")...)
	}
	return out
}

// nbHyphen is the non-breaking hyphen, one cell wide.
const nbHyphen = "\u2011"

// joinWrapped lays parts out on lines of at most width cells, separated
// by sep; a part wider than a line is cut.
func joinWrapped(parts []string, sep string, width int) []string {
	var lines []string
	cur := ""
	for _, p := range parts {
		switch {
		case cur == "":
			cur = p
		case lipgloss.Width(cur)+lipgloss.Width(sep)+lipgloss.Width(p) <= width:
			cur += sep + p
		default:
			lines = append(lines, truncate(cur, width))
			cur = p
		}
	}
	if cur != "" {
		lines = append(lines, truncate(cur, width))
	}
	return lines
}

// wrapDots lays out a line of facts separated by " · " in width cells,
// breaking between facts rather than cutting the last ones off.
func wrapDots(s string, width int) []string {
	return joinWrapped(strings.Split(s, " · "), " · ", width)
}

// eighths are the partial blocks of a horizontal bar.
var eighths = []string{"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"}

// hbar draws a horizontal bar of frac (0..1) of width cells, padded with
// a light shade so that its length reads without colour.
func hbar(frac float64, width int) string {
	if width <= 0 {
		return ""
	}
	if math.IsNaN(frac) || frac < 0 {
		frac = 0
	}
	frac = min(frac, 1)
	n := int(math.Round(frac * float64(width) * 8))
	full, part := n/8, n%8
	s := strings.Repeat("█", full) + eighths[part]
	used := full
	if part > 0 {
		used++
	}
	return s + strings.Repeat("·", width-used)
}

// vblocks are the partial blocks of a vertical bar, bottom up.
var vblocks = []string{" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"}

// sparkline draws values as one line of block characters, scaled to the
// largest.
func sparkline(vals []float64) string {
	hi := 0.0
	for _, v := range vals {
		hi = max(hi, v)
	}
	var b strings.Builder
	for _, v := range vals {
		i := 0
		if hi > 0 && v > 0 {
			i = max(1, int(math.Round(v/hi*8)))
		}
		b.WriteString(vblocks[i])
	}
	return b.String()
}

// columns draws values as vertical bars height rows tall, each colWidth
// cells wide, scaled to hi; it returns the rows top down.
func columns(vals []float64, hi float64, height, colWidth int) []string {
	rows := make([]string, height)
	for r := range height {
		var b strings.Builder
		for _, v := range vals {
			level := 0.0
			if hi > 0 {
				level = v / hi * float64(height)
			}
			fill := level - float64(height-1-r)
			var c string
			switch {
			case fill >= 1:
				c = "█"
			case fill <= 0:
				c = " "
				if r == height-1 {
					c = "▁"
					if v <= 0 {
						c = " "
					}
				}
			default:
				c = vblocks[max(1, int(math.Round(fill*8)))]
			}
			if colWidth >= 2 {
				b.WriteString(strings.Repeat(c, colWidth-1) + " ")
			} else {
				b.WriteString(c)
			}
		}
		rows[r] = b.String()
	}
	return rows
}

// pct formats a share as a percentage.
func pct(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "-"
	}
	return fmt.Sprintf("%.1f %%", 100*f)
}

// count formats a large integer with thin groups (1 048 307).
func count(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// box frames lines with a heading rule: "── title ──────".
func rule(title string, width int, th *theme) string {
	if title == "" {
		return th.dim.Render(strings.Repeat("─", max(0, width)))
	}
	head := "── " + title + " "
	return th.dim.Render(head + strings.Repeat("─", max(0, width-lipgloss.Width(head))))
}
