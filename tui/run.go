package tui

import (
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/term"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/muesli/termenv"
)

// Run opens the notebook in the terminal and returns when the user quits.
// A panic anywhere in the program restores the terminal, prints the panic
// and its stack, and returns an error wrapping tea.ErrProgramPanic.
func Run(nb *explorer.Notebook) error {
	return RunWith(nb, Options{}, os.Stdin, os.Stdout)
}

// RunWith is Run with options and the terminal's input and output.
func RunWith(nb *explorer.Notebook, opt Options, in io.Reader, out io.Writer) error {
	// Bubble Tea v1 asks the terminal for its background colour once; ask
	// before the program reads input, so that the answer is not taken
	// for keys.
	lipgloss.HasDarkBackground()
	f, isFile := out.(*os.File)
	if p, ok := noColorProfile(lipgloss.ColorProfile(), isFile && term.IsTerminal(f.Fd()), os.Getenv("TERM")); ok {
		lipgloss.SetColorProfile(p)
	}
	if _, err := newProgram(New(nb, opt), in, out).Run(); err != nil {
		return fmt.Errorf("tui: %w", err)
	}
	return nil
}

// newProgram wires a model to a terminal as Run does: the alternate
// screen, and Bubble Tea's panic handling left on, so that a panic in
// Update, View or a command restores the terminal before it is printed.
func newProgram(m tea.Model, in io.Reader, out io.Writer) *tea.Program {
	return tea.NewProgram(m, tea.WithAltScreen(), tea.WithInput(in), tea.WithOutput(out))
}

// noColorProfile is the profile to draw with when NO_COLOR is set: the
// detector then says Ascii, which would drop bold, faint and reverse too,
// and with them the text cursor and the selected value. NO_COLOR asks for
// no colour (https://no-color.org), so on a real terminal the program
// keeps those attributes (the ANSI profile) and its theme uses no colour.
// ok is false when the detected profile stands.
func noColorProfile(detected termenv.Profile, terminal bool, termName string) (termenv.Profile, bool) {
	if !noColor() || detected != termenv.Ascii || !terminal || termName == "dumb" || termName == "" {
		return detected, false
	}
	return termenv.ANSI, true
}
