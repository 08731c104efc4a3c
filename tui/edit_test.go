package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/model"
)

func platformOf(a *App) *explorer.Platform { return a.sh.nb.Cells[1].In.(*explorer.Platform) }

// TestEditSelectsValue: a field opens with its value selected, so typing
// replaces it (fpgas 4, typing 2, gives 2, not 42); an arrow key keeps the
// value and moves the cursor.
func TestEditSelectsValue(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	c := focusKind(t, a, explorer.KindPlatform)
	press(a, "enter")
	focusField(t, c, "fpgas")
	press(a, "enter", "2", "enter")
	if p := platformOf(a); p.FPGAs != 2 {
		t.Fatalf("typing 2 into fpgas = 4 gave %d", p.FPGAs)
	}
	press(a, "enter", "left", "3", "enter") // the cursor before the 2
	if p := platformOf(a); p.FPGAs != 32 {
		t.Errorf("an arrow key then 3 gave fpgas %d, want 32", p.FPGAs)
	}
	// 32 FPGAs is more than the board has: the error is at the field.
	if v := c.View(); !strings.Contains(v, "✗ ac510 has at most 4 FPGAs") {
		t.Errorf("the range error is not next to the field:\n%s", v)
	}
}

// TestEscCancels: Esc takes the edit back, unsaved flag included, and
// leaves no undo step; Enter keeps it as one undo step, and redo brings
// an undone edit back.
func TestEscCancels(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	c := focusKind(t, a, explorer.KindPlatform)
	press(a, "enter")
	focusField(t, c, "set.clock_mhz")
	press(a, "enter", "2", "5", "0")
	if p := platformOf(a); p.Set["clock_mhz"] != 250 {
		t.Fatalf("the keystrokes were not committed live: %v", p.Set)
	}
	runModelJobs(t, a)
	if !strings.Contains(a.View(), "T_sys 8.234 GTEPS (gravf) · bound by the memory bandwidth") {
		t.Errorf("the headline does not follow the typing:\n%s", a.View())
	}
	press(a, "esc")
	if p := platformOf(a); len(p.Set) != 0 || a.sh.nb.Dirty() || c.base().editing() {
		t.Fatalf("esc did not take the edit back: %v, dirty %v", p.Set, a.sh.nb.Dirty())
	}
	if _, ok := a.sh.nb.CanUndo(); ok {
		t.Error("a cancelled edit left an undo step")
	}
	press(a, "enter", "2", "5", "0", "enter", "esc")
	if p := platformOf(a); p.Set["clock_mhz"] != 250 {
		t.Fatalf("enter did not keep the edit: %v", p.Set)
	}
	press(a, "u")
	if p := platformOf(a); len(p.Set) != 0 {
		t.Fatalf("one undo did not take the whole edit back: %v", p.Set)
	}
	if !strings.Contains(a.View(), "undid clock_mhz in cell 2") {
		t.Errorf("the undo does not say what it undid:\n%s", a.View())
	}
	press(a, "U")
	if p := platformOf(a); p.Set["clock_mhz"] != 250 {
		t.Errorf("redo did not bring the edit back: %v", p.Set)
	}
}

// TestCellOpensOnFirstField: entering a cell puts the cursor on its first
// field, whatever field it was left on.
func TestCellOpensOnFirstField(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	c := focusKind(t, a, explorer.KindPlatform)
	press(a, "enter", "j", "j", "esc", "enter")
	if fl, _ := c.base().form.current(); fl.key != "board" {
		t.Errorf("the cell opened on %s", fl.key)
	}
}

// TestJumpAndFind: a digit jumps to that cell; / finds a field by a word
// of its name and opens its cell on it.
func TestJumpAndFind(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	press(a, "6")
	if a.focus != 5 {
		t.Fatalf("6 focused cell %d", a.focus+1)
	}
	press(a, "/", "clock", "enter")
	c := a.focused().base()
	fl, _ := c.form.current()
	if c.kind != explorer.KindPlatform || a.mode != modeCell || fl.key != "set.clock_mhz" {
		t.Fatalf("/clock went to cell %d (%s) field %s in mode %d", a.focus+1, c.kind, fl.key, a.mode)
	}
	press(a, "esc", "/", "trace", "enter")
	if a.focused().base().kind != explorer.KindSimulate && a.focused().base().kind != explorer.KindTrace {
		t.Errorf("/trace went to %s", a.focused().base().kind)
	}
	press(a, "esc", "/", "no such thing", "enter")
	if a.prompt == nil || !strings.Contains(a.View(), "nothing matches") {
		t.Errorf("a search without a match:\n%s", a.View())
	}
}

// TestScrollInsideCell: PgDn and ctrl+d scroll inside the focused cell and
// keep the focus until its end is on the screen; PgUp comes back.
func TestScrollInsideCell(t *testing.T) {
	a := evaluatedApp(t, 80, 24)
	press(a, "6")
	start, end := a.cellSpan(5)
	h := a.bodyHeight()
	if end-start <= 2*h {
		t.Fatalf("the model cell (%d lines) fits in two screens of %d", end-start, h)
	}
	press(a, "pgdown")
	if a.focus != 5 || a.viewTop() <= start {
		t.Fatalf("pgdn: focus %d, top %d (the cell starts at %d)", a.focus+1, a.viewTop(), start)
	}
	press(a, "ctrl+d")
	top := a.viewTop()
	for range 20 {
		if a.focus != 5 {
			break
		}
		top = a.viewTop()
		press(a, "pgdown")
	}
	if a.focus != 6 || top+h < end {
		t.Errorf("pgdn left the model cell at top %d (it ends at %d, the screen is %d high)", top, end, h)
	}
	press(a, "pgup")
	if a.focus != 5 || a.viewTop() != max(start, end-h) {
		t.Errorf("pgup from the next cell: focus %d, top %d, want the end of the model cell (%d)", a.focus+1, a.viewTop(), end-h)
	}
}

// TestErrorsOnceAtTheirField: an out-of-range pes is a model error caused
// by the platform cell's field: it shows there, once, and the model cell
// waits for it; no CLI advice (--force, --format) appears in the TUI.
func TestErrorsOnceAtTheirField(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	c := focusKind(t, a, explorer.KindPlatform)
	press(a, "enter")
	focusField(t, c, "pes")
	press(a, "enter", "1", "2", "enter")
	v := a.View()
	if n := strings.Count(v, "at most 9 PEs fit one FPGA of ac510"); n != 1 {
		t.Errorf("the error shows %d times:\n%s", n, v)
	}
	if !strings.Contains(a.cells[5].View(), "waiting for a valid pes in cell 2") {
		t.Errorf("the model does not wait for pes:\n%s", a.cells[5].View())
	}
	if !strings.Contains(v, "T_sys ◌ waiting for a valid pes in cell 2") {
		t.Errorf("the headline does not say what it waits for:\n%s", v)
	}
}

// TestNoCommandLineWords: errors whose text gives command-line advice
// read as what to do in the TUI.
func TestNoCommandLineWords(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "hello.txt"), []byte("hello world\nthis is not a graph\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := evaluatedApp(t, 120, 40)
	c := focusKind(t, a, explorer.KindDataset)
	press(a, "enter")
	focusField(t, c, "graph")
	press(a, "enter", "ctrl+u", filepath.Join(dir, "hello.txt"), "enter")
	a.startAuto()
	deadline := time.Now().Add(30 * time.Second)
	for c.base().job != nil && time.Now().Before(deadline) {
		m := <-c.base().job.ch
		a.Update(m)
	}
	v := c.View()
	if !strings.Contains(v, "cannot detect the format") {
		t.Fatalf("no detection error:\n%s", v)
	}
	if strings.Contains(v, "--") || !strings.Contains(v, "the dataset cell's format") {
		t.Errorf("command-line words in the TUI:\n%s", v)
	}
	for _, s := range []string{"export: x exists; use --force to replace it", "force it with --format mtx", "--set clock_mhz=200"} {
		if w := tuiWords(s); strings.Contains(w, "--") {
			t.Errorf("tuiWords(%q) = %q", s, w)
		}
	}
}

// TestWrapKeepsNumbers: text wraps at spaces only, so "-5" stays whole.
func TestWrapKeepsNumbers(t *testing.T) {
	for _, l := range wrap("fpgas must be 0 (auto) or positive, not -5", 40) {
		if strings.HasSuffix(l, "-") || strings.HasPrefix(l, "5") {
			t.Errorf("wrap split -5: %q", wrap("fpgas must be 0 (auto) or positive, not -5", 40))
		}
	}
}

// TestTypingStartsNoJob: the keystrokes of a field start no background
// work until the typing pauses, so an intermediate value ("u" on the way
// to "uniform:...") is never loaded and its error never shown.
func TestTypingStartsNoJob(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	c := focusKind(t, a, explorer.KindDataset)
	press(a, "enter")
	focusField(t, c, "graph")
	press(a, "enter", "u")
	if len(a.jobs) != 0 {
		t.Fatalf("a keystroke started %d jobs", len(a.jobs))
	}
	if v := c.View(); strings.Contains(v, "does not exist") || strings.Contains(v, "no such file") {
		t.Errorf("the intermediate value's error shows:\n%s", v)
	}
	press(a, "niform:v=128,d=4,seed=1")
	a.Update(debounceMsg{seq: a.typed - 1}) // an earlier keystroke's timer
	if len(a.jobs) != 0 {
		t.Fatal("the timer of an earlier keystroke started a job")
	}
	a.Update(debounceMsg{seq: a.typed})
	if len(a.jobs) != 1 || c.base().job == nil {
		t.Errorf("the pause started %d jobs", len(a.jobs))
	}
}

// TestCurveLabels: the curve over nF is titled with the nP of its points,
// and when the optimiser chose fewer PEs than the curve has, the mark says
// so instead of pointing at another design.
func TestCurveLabels(t *testing.T) {
	th := newTheme()
	pt := func(f, p int, ts float64) model.Point {
		return model.Point{FPGAs: f, PEs: p, TSys: ts, Fits: true, Binding: model.LimitMem}
	}
	m := &explorer.ModelOutput{FPGAs: 4, PEs: 6, TSys: 4.387e9,
		Curve: []model.Point{pt(1, 9, 1.5e9), pt(2, 9, 2.5e9), pt(3, 9, 3.5e9), pt(4, 9, 4.1e9)}}
	v := strings.Join(nfChart(th, m, 100, 6), "\n")
	if !strings.Contains(v, "T_sys against nF (nP = 9)") || !strings.Contains(v, "chosen with 6 PEs: 4.387 GTEPS") {
		t.Errorf("a curve at nP = 9 for a 4x6 design:\n%s", v)
	}
	m.PEs = 9
	v = strings.Join(nfChart(th, m, 100, 6), "\n")
	if !strings.Contains(v, "4 FPGAs ▲") || strings.Contains(v, "chosen with") {
		t.Errorf("the chosen point on the curve:\n%s", v)
	}
}

// TestReflowNotes: notes broken at one width read at another; lists and
// paragraphs keep their breaks.
func TestReflowNotes(t *testing.T) {
	in := "The paper's platform: four\nAC-510 modules.\n\n- one\n- two\n1. first\nand more"
	want := "The paper's platform: four AC-510 modules.\n\n- one\n- two\n1. first and more"
	if got := reflow(in); got != want {
		t.Errorf("reflow:\n%q\nwant\n%q", got, want)
	}
}
