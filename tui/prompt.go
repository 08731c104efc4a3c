package tui

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
)

type promptKind int

const (
	// promptQuit asks about unsaved changes on quit.
	promptQuit promptKind = iota
	// promptJobs asks before quitting while a job runs.
	promptJobs
	// promptSave asks for a file name; promptOverwrite asks before
	// saving over another file.
	promptSave
	promptOverwrite
	promptTitle
	promptAdd
	// promptReplace asks before an export replaces an existing folder.
	promptReplace
	// promptFind finds a cell or a field by name.
	promptFind
)

// prompt is a question on the bottom lines.
type prompt struct {
	kind promptKind
	// input is the text input of save as, title and find.
	input     *textinput.Model
	choice    int
	quitAfter bool
	// jobsOK says the user agreed to cancel the running jobs on quit.
	jobsOK bool
	err    string
	// path is the file or folder an overwrite or replace is about; cell
	// the export cell.
	path    string
	cell    cellModel
	matches []findMatch
}

func newInputPrompt(k promptKind, value string) *prompt {
	ti := textinput.New()
	ti.Prompt = ""
	ti.Cursor.SetMode(cursor.CursorStatic)
	if noColor() {
		ti.PlaceholderStyle = lipgloss.NewStyle().Faint(true)
	}
	ti.SetValue(value)
	ti.CursorEnd()
	ti.Focus()
	return &prompt{kind: k, input: &ti}
}

func newSavePrompt(nb *explorer.Notebook, quitAfter bool) *prompt {
	p := nb.Path
	if p == "" {
		p = "notebook.gravf.toml"
	}
	pr := newInputPrompt(promptSave, p)
	pr.quitAfter = quitAfter
	return pr
}

func newTitlePrompt(nb *explorer.Notebook) *prompt { return newInputPrompt(promptTitle, nb.Title) }

func newAddPrompt() *prompt { return &prompt{kind: promptAdd} }

func (a *App) promptKey(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	p := a.prompt
	if key.Matches(msg, km.Dismiss) {
		if p.kind == promptOverwrite {
			// Back to the file name.
			a.prompt = newSavePrompt(a.sh.nb, p.quitAfter)
			a.prompt.input.SetValue(p.path)
			a.prompt.input.CursorEnd()
			return nil
		}
		a.prompt = nil
		return nil
	}
	switch p.kind {
	case promptQuit:
		return a.quitKey(msg)
	case promptJobs:
		if key.Matches(msg, km.Yes) {
			p.jobsOK = true
			return a.quit()
		}
		if key.Matches(msg, km.No) {
			a.prompt = nil
		}
	case promptOverwrite:
		switch {
		case key.Matches(msg, km.Yes):
			return a.saveAs(p.path, p.quitAfter)
		case key.Matches(msg, km.No):
			a.prompt = newSavePrompt(a.sh.nb, p.quitAfter)
			a.prompt.input.SetValue(p.path)
			a.prompt.input.CursorEnd()
		}
	case promptReplace:
		switch {
		case key.Matches(msg, km.Yes):
			a.prompt = nil
			return a.run([]cellModel{p.cell}, p.cell)
		case key.Matches(msg, km.No):
			a.prompt = nil
			a.setFlash("kept "+p.path+"; set directory to export elsewhere", false)
		}
	case promptAdd:
		return a.addKey(msg)
	case promptFind:
		return a.findKey(msg)
	case promptSave, promptTitle:
		return a.inputKey(msg)
	}
	return nil
}

// quitKey answers the question about unsaved changes.
func (a *App) quitKey(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	switch {
	case key.Matches(msg, km.Yes):
		if a.sh.nb.Path == "" {
			a.prompt = newSavePrompt(a.sh.nb, true)
			return nil
		}
		if err := a.sh.nb.Save(a.sh.nb.Path); err != nil {
			a.prompt = nil
			a.setFlash(err.Error(), true)
			return nil
		}
		return a.forceQuit()
	case key.Matches(msg, km.No):
		return a.forceQuit()
	}
	return nil
}

func (a *App) addKey(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	p := a.prompt
	switch {
	case key.Matches(msg, km.Up), msg.String() == "left", msg.String() == "h", msg.String() == "shift+tab":
		p.choice = (p.choice - 1 + len(explorer.Kinds)) % len(explorer.Kinds)
	case key.Matches(msg, km.Down), msg.String() == "right", msg.String() == "l", msg.String() == "tab":
		p.choice = (p.choice + 1) % len(explorer.Kinds)
	case key.Matches(msg, km.Confirm):
		k := explorer.Kinds[p.choice]
		at := a.focus + 1
		if len(a.cells) == 0 {
			at = 0
		}
		a.prompt = nil
		if err := a.sh.nb.Insert(at, k); err != nil {
			a.setFlash(err.Error(), true)
			return nil
		}
		c := newCell(a.sh, k, at)
		a.cells = append(a.cells[:at], append([]cellModel{c}, a.cells[at:]...)...)
		a.mode = modeNotebook
		a.reindex()
		a.setFocus(at)
		return a.evaluate()
	default:
		if r := msg.Runes; len(r) == 1 && r[0] >= '1' && r[0] <= '9' {
			if i := int(r[0] - '1'); i < len(explorer.Kinds) {
				p.choice = i
			}
		}
		if msg.String() == "0" {
			p.choice = len(explorer.Kinds) - 1
		}
	}
	return nil
}

// inputKey handles the save-as and title prompts.
func (a *App) inputKey(msg tea.KeyMsg) tea.Cmd {
	km := &a.keys
	p := a.prompt
	if !key.Matches(msg, km.Confirm) {
		var cmd tea.Cmd
		*p.input, cmd = p.input.Update(msg)
		p.err = ""
		return cmd
	}
	v := strings.TrimSpace(p.input.Value())
	if p.kind == promptTitle {
		a.sh.nb.SetTitle(v)
		a.prompt = nil
		return nil
	}
	if v == "" {
		p.err = "enter a file name"
		return nil
	}
	if v != a.sh.nb.Path {
		if st, err := os.Stat(v); err == nil {
			if st.IsDir() {
				p.err = v + " is a folder: enter a file name"
				return nil
			}
			a.prompt = &prompt{kind: promptOverwrite, path: v, quitAfter: p.quitAfter}
			return nil
		}
	}
	return a.saveAs(v, p.quitAfter)
}

// saveAs saves to path from a prompt, then quits when asked to.
func (a *App) saveAs(path string, quitAfter bool) tea.Cmd {
	a.prompt = nil
	cmd := a.save(path)
	if a.flashErr {
		return cmd
	}
	if quitAfter {
		return a.forceQuit()
	}
	return cmd
}

func (a *App) promptView() []string {
	th := a.sh.th
	p := a.prompt
	yes := func(y, n string) string {
		return th.key.Render("y") + " " + y + " · " + th.key.Render("n") + " " + n + " · " + th.key.Render("esc") + " stay"
	}
	switch p.kind {
	case promptQuit:
		// Two lines when one does not fit, so that no choice is cut off.
		return joinWrapped([]string{th.warn.Render("Unsaved changes.") + " Save before quitting?",
			yes("save", "quit without saving")}, "  ", a.width)
	case promptJobs:
		var names []string
		for _, js := range a.runningJobs() {
			for _, t := range js.targets {
				names = append(names, fmt.Sprintf("%s (cell %d, %s)", t.base().kind, t.base().index+1, js.elapsed(a.sh.now())))
			}
		}
		return joinWrapped([]string{th.warn.Render("Running: "+strings.Join(names, ", ")+".") + " Quit and cancel it?",
			yes("cancel and quit", "keep it running")}, "  ", a.width)
	case promptOverwrite:
		return joinWrapped([]string{th.warn.Render(p.path+" exists.") + " Replace it with this notebook?",
			yes("replace it", "choose another name")}, "  ", a.width)
	case promptReplace:
		return joinWrapped([]string{th.warn.Render(p.path+" exists.") + " Export over it (its files are replaced)?",
			yes("replace it", "keep it")}, "  ", a.width)
	case promptAdd:
		var parts []string
		for i, k := range explorer.Kinds {
			s := fmt.Sprintf("%d %s", (i+1)%10, k)
			if i == p.choice {
				s = th.selected.Render("[" + s + "]")
			} else {
				s = " " + s + " "
			}
			parts = append(parts, s)
		}
		lines := []string{th.bold.Render("Add a cell below:") + th.dim.Render("  ←/→ choose · enter adds · esc cancels")}
		return append(lines, joinWrapped(parts, "", a.width)...)
	case promptFind:
		return a.findView()
	case promptSave, promptTitle:
		label := "Save as: "
		if p.kind == promptTitle {
			label = "Title: "
		}
		p.input.Width = max(10, a.width-lipgloss.Width(label)-2)
		lines := []string{th.bold.Render(label) + p.input.View()}
		if p.err != "" {
			lines = append(lines, th.err.Render("✗ "+p.err))
		} else {
			lines = append(lines, th.dim.Render("enter confirms · esc cancels"))
		}
		return lines
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }
