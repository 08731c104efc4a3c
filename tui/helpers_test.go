package tui

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/muesli/termenv"
)

// pkgDir is the package's folder, where testdata lives (flows run in a
// temporary folder).
var pkgDir string

func TestMain(m *testing.M) {
	pkgDir, _ = os.Getwd()
	// Screens in tests are plain text: no colour, no adaptive guess.
	lipgloss.SetColorProfile(termenv.Ascii)
	lipgloss.SetHasDarkBackground(true)
	// Keep away from the user's cache, where synthesised PE costs would
	// change the model's nP max.
	os.Exit(testenv.RunWithPrivateCache(m.Run))
}

// fixedNow is the test clock: every elapsed time reads 0.0 s.
func fixedNow() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// testNotebook is the default notebook placed in a temporary folder, so
// that traces and exports land there. The test runs in that folder and
// the notebook's path is relative, so that screens do not name it.
func testNotebook(t *testing.T) *explorer.Notebook {
	t.Chdir(t.TempDir())
	nb := explorer.Default()
	nb.Path = "default.gravf.toml"
	return nb
}

// editCell changes cell i of a notebook for a test, failing on error.
func editCell(t *testing.T, nb *explorer.Notebook, i int, f func(explorer.Input)) {
	t.Helper()
	if err := nb.Edit(i, func(in explorer.Input) error { f(in); return nil }); err != nil {
		t.Fatal(err)
	}
}

// smallNotebook is the default notebook on a 512-vertex graph with a fast
// simulation that records small.trace.gz, saved as small.gravf.toml in a
// temporary folder the test runs in.
func smallNotebook(t *testing.T) *explorer.Notebook {
	t.Helper()
	nb := testNotebook(t)
	editCell(t, nb, 3, func(in explorer.Input) { in.(*explorer.Dataset).Graph = "uniform:v=512,d=4,seed=1" })
	editCell(t, nb, 7, func(in explorer.Input) {
		s := in.(*explorer.Simulate)
		s.Detail, s.Trace = "fast", "small.trace.gz"
	})
	if err := nb.Save("small.gravf.toml"); err != nil {
		t.Fatal(err)
	}
	return nb
}

// exportSmall makes the default notebook's design small enough for make
// sim in seconds: 2 FPGAs x 2 PEs with the edges in BRAM on a 256-vertex
// graph, and the export cell running make sim.
func exportSmall(t *testing.T, nb *explorer.Notebook) {
	t.Helper()
	editCell(t, nb, 1, func(in explorer.Input) {
		p := in.(*explorer.Platform)
		p.FPGAs, p.PEs, p.Mem = 2, 2, "bram"
	})
	editCell(t, nb, 3, func(in explorer.Input) { in.(*explorer.Dataset).Graph = "uniform:v=256,d=4,seed=1" })
	editCell(t, nb, 9, func(in explorer.Input) { in.(*explorer.Export).RunSim = true })
}

// newTestApp is an App on a notebook at a fixed size, evaluated.
func newTestApp(t testing.TB, nb *explorer.Notebook, w, h int) *App {
	t.Helper()
	a := New(nb, Options{Now: fixedNow})
	a.Update(tea.WindowSizeMsg{Width: w, Height: h})
	a.evaluate()
	return a
}

// runModelJobs evaluates the stale model cells that an edit left to a
// job, as the job would, and refreshes the app: a clock edit changes an
// off-chip design's edge-memory latency in cycles, on which the
// prediction's profile depends, so the first evaluation at a new clock
// computes a profile (seconds on a large graph) in the background.
func runModelJobs(t testing.TB, a *App) {
	t.Helper()
	nb := a.sh.nb
	for i, c := range nb.Cells {
		if c.In.Kind() == explorer.KindModel && nb.Stale(i) {
			if _, err := nb.Eval(context.Background(), i, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	a.evaluate()
}

// press sends keys to an App: runes one by one, or named keys in <>.
func press(a *App, keys ...string) {
	for _, k := range keys {
		a.Update(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyMsg {
	switch k {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "ctrl+u":
		return tea.KeyMsg{Type: tea.KeyCtrlU}
	case "ctrl+d":
		return tea.KeyMsg{Type: tea.KeyCtrlD}
	case "pgdown":
		return tea.KeyMsg{Type: tea.KeyPgDown}
	case "pgup":
		return tea.KeyMsg{Type: tea.KeyPgUp}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(k)}
}

// focusKind moves the focus to the first cell of kind k.
func focusKind(t testing.TB, a *App, k explorer.Kind) cellModel {
	t.Helper()
	for i, c := range a.cells {
		if c.base().kind == k {
			a.setFocus(i)
			return c
		}
	}
	t.Fatalf("no %s cell", k)
	return nil
}

// focusField moves the form cursor of the entered cell to a key.
func focusField(t testing.TB, c cellModel, key string) {
	t.Helper()
	f := &c.base().form
	for i, fl := range f.fields {
		if fl.key == key {
			f.cursor = i
			c.base().touch()
			return
		}
	}
	t.Fatalf("no field %s", key)
}

// probe wraps the App so that a test can read its screen from the
// program's own goroutine.
type probe struct {
	*App
	snaps chan string
}

type snapMsg struct{}

// inspectMsg runs a check on the App in the program's goroutine.
type inspectMsg struct {
	f   func(*App) bool
	res chan bool
}

func (p probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch m := msg.(type) {
	case snapMsg:
		p.snaps <- p.App.View()
		return p, nil
	case inspectMsg:
		m.res <- m.f(p.App)
		return p, nil
	}
	_, cmd := p.App.Update(msg)
	return p, cmd
}

// flow is a running program under teatest.
type flow struct {
	t  *testing.T
	tm *teatest.TestModel
	p  probe
	// tmp is replaced in screens, so that goldens do not name it.
	tmp string
	// quit says the test ended the program itself.
	quit bool
}

func startFlow(t *testing.T, nb *explorer.Notebook, w, h int) *flow {
	p := probe{App: New(nb, Options{Now: fixedNow}), snaps: make(chan string)}
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(w, h))
	f := &flow{t: t, tm: tm, p: p}
	t.Cleanup(func() {
		if f.quit {
			return
		}
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
		tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	})
	return f
}

// screen returns the program's current screen.
func (f *flow) screen() string {
	f.tm.Send(snapMsg{})
	select {
	case s := <-f.p.snaps:
		if f.tmp != "" {
			s = strings.ReplaceAll(s, f.tmp, "$TMP")
		}
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		return strings.Join(lines, "\n")
	case <-time.After(10 * time.Second):
		f.t.Fatal("the program did not answer")
	}
	return ""
}

// keys types keys into the program, as press does.
func (f *flow) keys(keys ...string) {
	for _, k := range keys {
		if len(k) > 1 && keyMsg(k).Type == tea.KeyRunes {
			f.tm.Type(k)
			continue
		}
		f.tm.Send(keyMsg(k))
	}
}

// waitFor polls the screen until cond holds (and no job runs), failing
// with the last screen after the timeout.
func (f *flow) waitFor(what string, timeout time.Duration, cond func(string) bool) string {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	var s string
	for time.Now().Before(deadline) {
		s = f.screen()
		if cond(s) && !strings.Contains(strings.SplitN(s, "\n", 2)[0], "⟳") {
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.t.Fatalf("waiting for %s: timed out; the screen:\n%s", what, s)
	return ""
}

// waitBusy polls the screen until it shows text, jobs running or not.
func (f *flow) waitBusy(text string, timeout time.Duration) string {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	var s string
	for time.Now().Before(deadline) {
		if s = f.screen(); strings.Contains(s, text) {
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.t.Fatalf("waiting for %s: timed out; the screen:\n%s", text, s)
	return ""
}

func (f *flow) waitText(text string, timeout time.Duration) string {
	f.t.Helper()
	return f.waitFor(text, timeout, func(s string) bool { return strings.Contains(s, text) })
}

// until polls the App until cond holds and no job runs.
func (f *flow) until(what string, timeout time.Duration, cond func(*App) bool) string {
	f.t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		res := make(chan bool)
		f.tm.Send(inspectMsg{f: func(a *App) bool { return len(a.jobs) == 0 && cond(a) }, res: res})
		select {
		case ok := <-res:
			if ok {
				return f.screen()
			}
		case <-time.After(10 * time.Second):
			f.t.Fatal("the program did not answer")
		}
		time.Sleep(50 * time.Millisecond)
	}
	f.t.Fatalf("waiting for %s: timed out; the screen:\n%s", what, f.screen())
	return ""
}

// done waits until the first cell of kind k has a result.
func (f *flow) done(k explorer.Kind, timeout time.Duration) string {
	f.t.Helper()
	return f.until(string(k)+" result", timeout, func(a *App) bool {
		for _, c := range a.cells {
			if b := c.base(); b.kind == k {
				return b.hasResult && b.job == nil
			}
		}
		return false
	})
}

func tempDir() (string, error) { return os.MkdirTemp("", "gravf-tui-test") }

func lipglossWidth(s string) int { return lipgloss.Width(s) }
