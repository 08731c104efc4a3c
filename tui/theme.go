package tui

import (
	"os"

	"github.com/charmbracelet/lipgloss"
	"github.com/guptarohit/asciigraph"
	"github.com/muesli/termenv"
)

// theme holds every style of the program. Colours are adaptive, so that
// they read on light and dark terminals; with NO_COLOR set (or a terminal
// without colour) the styles fall back to bold, faint and reverse, and
// every piece of information that colour carries has a glyph as well.
type theme struct {
	color bool

	title, dim, faint, bold, err, ok, warn, accent, binding, key, running, stale, focusBar, idleBar, selected, heading lipgloss.Style
	// series are the colours of chart lines (asciigraph) in order.
	series []asciigraph.AnsiColor
	// heat is the colour ramp of the sweep's heat map, low to high.
	heat []lipgloss.TerminalColor
}

var (
	cAccent = lipgloss.AdaptiveColor{Light: "#005FAF", Dark: "#5FAFFF"}
	cDim    = lipgloss.AdaptiveColor{Light: "#6C6C6C", Dark: "#8A8A8A"}
	cErr    = lipgloss.AdaptiveColor{Light: "#AF0000", Dark: "#FF5F5F"}
	cOK     = lipgloss.AdaptiveColor{Light: "#005F00", Dark: "#87D787"}
	cWarn   = lipgloss.AdaptiveColor{Light: "#875F00", Dark: "#FFD75F"}
	cBind   = lipgloss.AdaptiveColor{Light: "#AF005F", Dark: "#FF87AF"}
	cSelBg  = lipgloss.AdaptiveColor{Light: "#D0E4F5", Dark: "#1C3A57"}
)

// noColor reports whether the user asked for no colour: NO_COLOR set and
// not empty (https://no-color.org).
func noColor() bool { return os.Getenv("NO_COLOR") != "" }

// newTheme builds the styles for the colour profile lipgloss detected (or
// a test pinned).
func newTheme() *theme {
	t := &theme{color: lipgloss.ColorProfile() != termenv.Ascii && !noColor()}
	s := lipgloss.NewStyle
	t.bold = s().Bold(true)
	t.faint = s().Faint(true)
	t.heading = s().Bold(true).Underline(true)
	if !t.color {
		t.title = s().Bold(true)
		t.dim = s()
		t.err = s().Bold(true)
		t.ok = s()
		t.warn = s().Bold(true)
		t.accent = s().Bold(true)
		t.binding = s().Bold(true).Reverse(true)
		t.key = s().Bold(true)
		t.running = s().Bold(true)
		t.stale = s()
		t.focusBar = s().Bold(true)
		t.idleBar = s()
		t.selected = s().Reverse(true)
		return t
	}
	t.title = s().Bold(true).Foreground(cAccent)
	t.dim = s().Foreground(cDim)
	t.err = s().Foreground(cErr).Bold(true)
	t.ok = s().Foreground(cOK)
	t.warn = s().Foreground(cWarn)
	t.accent = s().Foreground(cAccent)
	t.binding = s().Bold(true).Foreground(cBind)
	t.key = s().Bold(true).Foreground(cAccent)
	t.running = s().Bold(true).Foreground(cWarn)
	t.stale = s().Foreground(cWarn)
	t.focusBar = s().Foreground(cAccent).Bold(true)
	t.idleBar = s().Foreground(cDim)
	t.selected = s().Background(cSelBg)
	t.series = []asciigraph.AnsiColor{asciigraph.Default, asciigraph.Red, asciigraph.Blue, asciigraph.Green, asciigraph.Magenta}
	for _, c := range []string{"17", "18", "19", "25", "31", "37", "72", "107", "142", "178", "214", "220"} {
		t.heat = append(t.heat, lipgloss.Color(c))
	}
	return t
}
