package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// findShown is how many matches the find prompt lists.
const findShown = 5

// findMatch is a cell, or a field of a cell, whose name matches the
// text typed after /.
type findMatch struct {
	cell int
	// key is the field's key, "" for the cell itself.
	key, text string
}

func newFindPrompt() *prompt {
	p := newInputPrompt(promptFind, "")
	p.input.Placeholder = "a field or a cell: bandwidth, fpgas, peak, model, 6…"
	return p
}

// findMatches lists the cells and fields that match every word of q, by
// kind or number for cells and by key, label or hint for fields; cells
// first, then fields in notebook order.
func (a *App) findMatches(q string) []findMatch {
	words := strings.Fields(strings.ToLower(q))
	if len(words) == 0 {
		return nil
	}
	all := func(s string) bool {
		s = strings.ToLower(s)
		for _, w := range words {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	}
	var cells, fields []findMatch
	for i, c := range a.cells {
		b := c.base()
		name := fmt.Sprintf("%d %s", i+1, b.kind)
		if all(name) {
			cells = append(cells, findMatch{cell: i, text: "cell " + name})
		}
		for _, fl := range b.form.fields {
			if all(fl.key + " " + fl.label + " " + fl.hint) {
				fields = append(fields, findMatch{cell: i, key: fl.key, text: fmt.Sprintf("%s · cell %s", fl.label, name)})
			}
		}
	}
	return append(cells, fields...)
}

func (a *App) findKey(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	p := a.prompt
	switch {
	case key.Matches(msg, km.Confirm):
		if len(p.matches) == 0 {
			p.err = "nothing matches"
			return nil
		}
		m := p.matches[min(p.choice, len(p.matches)-1)]
		a.prompt = nil
		a.goTo(m)
		return nil
	case msg.Type == tea.KeyUp || msg.Type == tea.KeyShiftTab:
		p.choice = max(0, p.choice-1)
		return nil
	case msg.Type == tea.KeyDown || msg.Type == tea.KeyTab:
		p.choice = min(max(0, len(p.matches)-1), p.choice+1)
		return nil
	}
	var cmd tea.Cmd
	*p.input, cmd = p.input.Update(msg)
	p.matches, p.choice, p.err = a.findMatches(p.input.Value()), 0, ""
	return cmd
}

// goTo focuses a match: the cell, and for a field the cell entered with
// its cursor on the field.
func (a *App) goTo(m findMatch) {
	a.setFocus(m.cell)
	if m.key == "" {
		return
	}
	a.setMode(modeCell)
	c := a.cells[m.cell].base()
	c.form.moveTo(m.key)
	c.touch()
	a.follow = true
}

func (a *App) findView() []string {
	th := a.sh.th
	p := a.prompt
	p.input.Width = max(10, a.width-8)
	var lines []string
	shown := p.matches
	first := 0
	if p.choice >= findShown {
		first = p.choice - findShown + 1
	}
	if len(shown) > first+findShown {
		shown = shown[first : first+findShown]
	} else {
		shown = shown[first:]
	}
	for i, m := range shown {
		s := "  " + m.text
		if first+i == p.choice {
			s = th.selected.Render("▸ " + m.text)
		}
		lines = append(lines, truncate(s, a.width))
	}
	switch {
	case p.err != "":
		lines = append(lines, th.err.Render("✗ "+p.err))
	case p.input.Value() != "" && len(p.matches) == 0:
		lines = append(lines, th.dim.Render("nothing matches"))
	case len(p.matches) > findShown:
		lines = append(lines, th.dim.Render(fmt.Sprintf("%d matches · ↑/↓ choose · enter goes there · esc cancels", len(p.matches))))
	default:
		lines = append(lines, th.dim.Render("↑/↓ choose · enter goes there · esc cancels"))
	}
	return append(lines, th.bold.Render("/ ")+p.input.View())
}
