package tui

import (
	"bytes"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/muesli/termenv"
)

// panicky panics on the key "!", to show what a bug in a cell would do.
type panicky struct{ *App }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok && k.String() == "!" {
		panic("a bug in a cell")
	}
	_, cmd := p.App.Update(msg)
	return p, cmd
}

// TestPanicRestoresTerminal runs the program wired as Run wires it and
// panics in Update: the program leaves the alternate screen, prints the
// panic and returns tea.ErrProgramPanic.
func TestPanicRestoresTerminal(t *testing.T) {
	// Bubble Tea prints the panic and its stack to the process's standard
	// output and error.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = w, w
	printed := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		printed <- string(b)
	}()
	in, feed := io.Pipe()
	var out bytes.Buffer
	p := newProgram(panicky{New(explorer.Default(), Options{Now: fixedNow})}, in, &out)
	go func() {
		time.Sleep(200 * time.Millisecond)
		feed.Write([]byte("!"))
	}()
	_, err = p.Run()
	os.Stdout, os.Stderr = stdout, stderr
	w.Close()
	feed.Close()
	text := <-printed
	if !errors.Is(err, tea.ErrProgramPanic) {
		t.Fatalf("Run returned %v, want tea.ErrProgramPanic", err)
	}
	if !strings.Contains(out.String(), "\x1b[?1049l") {
		t.Error("the program did not leave the alternate screen")
	}
	if !strings.Contains(text, "a bug in a cell") {
		t.Errorf("the panic was not printed: %q", text)
	}
}

// TestNoColor: NO_COLOR turns colour off, whatever the terminal says;
// an empty NO_COLOR does not (https://no-color.org).
func TestNoColor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	if newTheme().color {
		t.Error("colour with NO_COLOR set")
	}
	lipgloss.SetColorProfile(termenv.ANSI256)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	t.Setenv("NO_COLOR", "")
	if !newTheme().color {
		t.Error("no colour with NO_COLOR empty")
	}
}

// TestNoColorCursor: with NO_COLOR on a terminal the program keeps bold,
// faint and reverse (so the text cursor and the selected value show) and
// draws no colour at all.
func TestNoColorCursor(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	for _, tc := range []struct {
		term, name string
		want       termenv.Profile
		ok         bool
	}{
		{"xterm-256color", "a terminal", termenv.ANSI, true},
		{"dumb", "a dumb terminal", termenv.Ascii, false},
	} {
		if p, ok := noColorProfile(termenv.Ascii, true, tc.term); p != tc.want || ok != tc.ok {
			t.Errorf("%s: profile %v %v, want %v %v", tc.name, p, ok, tc.want, tc.ok)
		}
	}
	if _, ok := noColorProfile(termenv.Ascii, false, "xterm"); ok {
		t.Error("a pipe gets attributes")
	}
	lipgloss.SetColorProfile(termenv.ANSI)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	a := evaluatedApp(t, 100, 30)
	c := focusKind(t, a, explorer.KindPlatform)
	press(a, "enter")
	focusField(t, c, "fpgas")
	press(a, "enter")
	v := a.View()
	if !strings.Contains(v, "\x1b[7m4") {
		t.Errorf("the selected value is not shown in reverse:\n%q", v)
	}
	press(a, "3")
	v = a.View()
	if !strings.Contains(v, "\x1b[7m \x1b[") && !strings.Contains(v, "\x1b[7m") {
		t.Errorf("no visible text cursor:\n%q", v)
	}
	if m := sgrColour.FindString(v); m != "" {
		t.Errorf("a colour under NO_COLOR: %q", m)
	}
}

// sgrColour matches an SGR sequence that sets a colour.
var sgrColour = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m`)

// BenchmarkKeystroke measures Update and View of one keystroke that
// changes the model: typing in the platform cell's clock field of the
// default notebook (evaluated) at 200×60, which re-evaluates the model in
// place and redraws the headline and the dashboard pane. The target is
// under 16 ms (a frame at 60 Hz).
func BenchmarkKeystroke(b *testing.B) {
	a := evaluatedApp(b, 200, 60)
	c := focusKind(b, a, explorer.KindPlatform)
	press(a, "enter")
	focusField(b, c, "set.clock_mhz")
	press(a, "enter", "ctrl+u", "2")
	mc := a.cells[5].base()
	keys := []tea.KeyMsg{keyMsg("0"), keyMsg("backspace")} // 20 MHz, 2 MHz, ...
	b.ResetTimer()
	for i := range b.N {
		a.Update(keys[i%2])
		_ = a.View()
	}
	b.StopTimer()
	if !mc.hasResult {
		b.Fatal("the model was not re-evaluated")
	}
	if v := a.View(); !strings.Contains(v, "── model · cell 6") {
		b.Fatalf("no dashboard:\n%s", v)
	}
}
