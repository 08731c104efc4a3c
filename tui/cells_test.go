package tui

import (
	"context"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/gravf-tui/gravf-tui/explorer"
)

// evaluated is the default notebook with every cell but the export
// evaluated once for the package's tests (the simulation takes a second).
var evaluated = sync.OnceValues(func() (*explorer.Notebook, error) {
	nb := explorer.Default()
	dir, err := tempDir()
	if err != nil {
		return nil, err
	}
	nb.Path = dir + "/default.gravf.toml"
	for i, c := range nb.Cells {
		if c.In.Kind() == explorer.KindExport || c.In.Kind() == explorer.KindNotes {
			continue
		}
		if _, err := nb.Eval(context.Background(), i, nil); err != nil {
			return nil, err
		}
	}
	return nb, nil
})

func evaluatedApp(t testing.TB, w, h int) *App {
	t.Helper()
	nb, err := evaluated()
	if err != nil {
		t.Fatal(err)
	}
	// Each test edits its own copy; the cache is shared, so results stay.
	cp := *nb
	cp.Cells = nil
	for _, c := range nb.Cells {
		cp.Cells = append(cp.Cells, &explorer.Cell{In: c.In, Line: c.Line})
	}
	return newTestApp(t, &cp, w, h)
}

// TestCellViews renders every cell kind of the evaluated default notebook.
func TestCellViews(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	for _, tc := range []struct {
		kind explorer.Kind
		want []string
	}{
		{explorer.KindNotes, []string{"1 notes", "The paper's platform"}},
		{explorer.KindPlatform, []string{"✓ up to date", "board ac510", "clock_mhz", "187.5 MHz", "up to 4 FPGAs × 9 PEs"}},
		{explorer.KindKernel, []string{"label:vertexidsize", "sizes at 32-bit ids: m_vertex 33", "behaviour", "min(state.label, msg.label)"}},
		{explorer.KindDataset, []string{"V 65,536", "E 1,048,307", "degree histogram"}},
		{explorer.KindPartition, []string{"greedy over 4 FPGAs × 9 PEs", "edges per PE, by FPGA", "cut: 1,573,276 of 2,096,614", "filter: saves"}},
		{explorer.KindModel, []string{"=> pe     6.750 GTEPS", "T_sys = 6.750 GTEPS, bound by the PEs", "GraVF-M against GraVF", "gravf-m/gravf = 3.22x",
			"T_sys against nF (nP = 9)", "4 FPGAs ▲", "T_sys against nP (nF = 4)", "recommendations", "latency-aware"}},
		{explorer.KindSweep, []string{"fpgas=1..4,pes=1..9: 36 points", "throughput, GTEPS", "* 6.8", "Pareto front: throughput against pes"}},
		{explorer.KindSimulate, []string{"throughput 5.558 GTEPS", "sim/T_sys 0.82", "sim/predicted 0.97", "throughput per superstep", "where the PE cycles went", "B busy 82.3 %"}},
		{explorer.KindTrace, []string{"⏸ paused ×1 · superstep 0 (of 0..5)", "PE busy, cycles 0..1,000", "link utilisation", "0→1"}},
		{explorer.KindExport, []string{"○ not run", "directory wcc-4xac510", "r runs it"}},
	} {
		t.Run(string(tc.kind), func(t *testing.T) {
			c := focusKind(t, a, tc.kind)
			v := c.View()
			for _, w := range tc.want {
				if !strings.Contains(v, w) {
					t.Errorf("no %q in\n%s", w, v)
				}
			}
		})
	}
}

// TestPlatformForm types into the platform cell's fields: valid text is
// committed at once, invalid text stays shown with its error.
func TestPlatformForm(t *testing.T) {
	for _, tc := range []struct {
		name, field string
		keys        []string
		check       func(*explorer.Platform) bool
		pending     string // error shown in place, "" for none
	}{
		{"fpgas", "fpgas", []string{"enter", "ctrl+u", "3"}, func(p *explorer.Platform) bool { return p.FPGAs == 3 }, ""},
		{"fpgas auto", "fpgas", []string{"enter", "ctrl+u", "auto"}, func(p *explorer.Platform) bool { return p.FPGAs == 0 }, ""},
		{"fpgas not a number", "fpgas", []string{"enter", "ctrl+u", "x"}, func(p *explorer.Platform) bool { return p.FPGAs == 0 }, `"x" is not a whole number`},
		{"fpgas negative", "fpgas", []string{"enter", "ctrl+u", "-1"}, func(p *explorer.Platform) bool { return p.FPGAs == 0 }, "must be 0 (auto) or positive"},
		{"arch choice", "arch", []string{"l"}, func(p *explorer.Platform) bool { return p.Arch == "gravf" }, ""},
		{"mem choice back", "mem", []string{"h"}, func(p *explorer.Platform) bool { return p.Mem == "bram" }, ""},
		{"packing toggle", "packing", []string{"space"}, func(p *explorer.Platform) bool { return p.Packing }, ""},
		{"board param", "set.clock_mhz", []string{"enter", "200"}, func(p *explorer.Platform) bool { return p.Set["clock_mhz"] == 200 }, ""},
		{"board param integer", "set.memory.word_bits", []string{"enter", "1.5"}, func(p *explorer.Platform) bool { return len(p.Set) == 0 }, "must be a whole number"},
		{"board", "board", []string{"l"}, func(p *explorer.Platform) bool { return p.Board == "f1" }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := evaluatedApp(t, 120, 40)
			c := focusKind(t, a, explorer.KindPlatform)
			press(a, "enter")
			focusField(t, c, tc.field)
			press(a, tc.keys...)
			p := a.sh.nb.Cells[c.base().index].In.(*explorer.Platform)
			if !tc.check(p) {
				t.Errorf("input after %v: %+v", tc.keys, p)
			}
			v := c.View()
			if tc.pending != "" && !strings.Contains(v, tc.pending) {
				t.Errorf("no error %q shown:\n%s", tc.pending, v)
			}
			if tc.pending == "" && strings.Contains(v, "✗") && tc.field != "board" {
				t.Errorf("unexpected error:\n%s", v)
			}
		})
	}
}

// TestModelFollowsEdit: an edit of the platform re-evaluates the model in
// the same Update when its dependencies are cached (back to the board's
// clock); a new clock runs the model as a job (runModelJobs). At 375 MHz
// the memory grants 3 words a cycle and the optimiser, choosing on the
// prediction, takes 4 x 8 (T_sys 8.553 GTEPS, memory bound) over 4 x 9
// (T_sys 8.234) and 4 x 6 (T_sys 9.000), as cycle detail does (6.36
// GTEPS against 6.22 and 6.03).
func TestModelFollowsEdit(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	pc := focusKind(t, a, explorer.KindPlatform)
	press(a, "enter")
	focusField(t, pc, "set.clock_mhz")
	press(a, "enter", "375")
	runModelJobs(t, a)
	mc := a.cells[5].base()
	if !mc.hasResult {
		t.Fatal("the model cell is stale after the edit")
	}
	if v := mc.self.View(); !strings.Contains(v, "at 375.0 MHz") || !strings.Contains(v, "T_sys = 8.553 GTEPS") {
		t.Errorf("the model did not follow the clock:\n%s", v)
	}
	press(a, "backspace", "backspace", "backspace")
	if v := mc.self.View(); !strings.Contains(v, "6.750 GTEPS") {
		t.Errorf("emptying the field did not restore the board's clock:\n%s", v)
	}
}

// TestKernelWidths edits a layout field's width.
func TestKernelWidths(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	c := focusKind(t, a, explorer.KindKernel)
	press(a, "enter")
	focusField(t, c, "widths.vertex.active")
	press(a, "enter", "8", "enter")
	k := a.sh.nb.Cells[c.base().index].In.(*explorer.Kernel)
	if k.Widths["vertex.active"] != "8" {
		t.Fatalf("widths = %v", k.Widths)
	}
	if v := c.View(); !strings.Contains(v, "active:8*") || !strings.Contains(v, "m_vertex 40") {
		t.Errorf("the edited width is not shown:\n%s", v)
	}
	press(a, "enter", "ctrl+u", "zz", "enter")
	if v := c.View(); !strings.Contains(v, "✗") {
		t.Errorf("a width the kernel cannot use shows no error:\n%s", v)
	}
}

// TestInputCells edits the dataset, partition, sweep, simulate, trace,
// export and notes cells through their forms.
func TestInputCells(t *testing.T) {
	for _, tc := range []struct {
		kind    explorer.Kind
		field   string
		keys    []string
		check   func(explorer.Input) bool
		pending string
	}{
		{explorer.KindDataset, "graph", []string{"enter", "ctrl+u"}, func(in explorer.Input) bool { return in.(*explorer.Dataset).Graph != "" }, "graph is empty"},
		{explorer.KindDataset, "format", []string{"l"}, func(in explorer.Input) bool { return in.(*explorer.Dataset).Format == "edgelist" }, ""},
		{explorer.KindDataset, "directed", []string{"space"}, func(in explorer.Input) bool { return in.(*explorer.Dataset).Directed }, ""},
		{explorer.KindPartition, "partitioner", []string{"l"}, func(in explorer.Input) bool { return in.(*explorer.Partition).Partitioner == "greedy-sorted" }, ""},
		{explorer.KindPartition, "ufactor", []string{"enter", "-3"}, func(in explorer.Input) bool { return in.(*explorer.Partition).UFactor == 0 }, "must not be negative"},
		{explorer.KindSweep, "grid", []string{"enter", "ctrl+u", "pes=0..2"}, func(in explorer.Input) bool { return in.(*explorer.Sweep).Grid == "fpgas=1..4,pes=1..9" }, "want positive integers"},
		{explorer.KindSweep, "cost", []string{"l"}, func(in explorer.Input) bool { return in.(*explorer.Sweep).Cost == "price" }, ""},
		{explorer.KindSimulate, "detail", []string{"l"}, func(in explorer.Input) bool { return in.(*explorer.Simulate).Detail == "fast" }, ""},
		{explorer.KindSimulate, "max_cycles", []string{"enter", "1000"}, func(in explorer.Input) bool { return in.(*explorer.Simulate).MaxCycles == 1000 }, ""},
		{explorer.KindTrace, "superstep", []string{"enter", "ctrl+u", "-1"}, func(in explorer.Input) bool { return in.(*explorer.Trace).Superstep == 0 }, "must not be negative"},
		{explorer.KindExport, "out", []string{"enter", "ctrl+u"}, func(in explorer.Input) bool { return in.(*explorer.Export).Out != "" }, "out is empty"},
		{explorer.KindExport, "run_sim", []string{"space"}, func(in explorer.Input) bool { return in.(*explorer.Export).RunSim }, ""},
		{explorer.KindNotes, "text", []string{"enter", "x", "esc"}, func(in explorer.Input) bool { return strings.HasSuffix(in.(*explorer.Notes).Text, "x") }, ""},
	} {
		t.Run(string(tc.kind)+"/"+tc.field, func(t *testing.T) {
			a := evaluatedApp(t, 120, 40)
			c := focusKind(t, a, tc.kind)
			press(a, "enter")
			focusField(t, c, tc.field)
			press(a, tc.keys...)
			if in := a.sh.nb.Cells[c.base().index].In; !tc.check(in) {
				t.Errorf("input after %v: %+v", tc.keys, in)
			}
			if v := c.View(); tc.pending != "" && !strings.Contains(v, tc.pending) {
				t.Errorf("no error %q shown:\n%s", tc.pending, v)
			}
		})
	}
}

// TestTraceReplay steps, scrubs and plays the trace.
func TestTraceReplay(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	c := focusKind(t, a, explorer.KindTrace).(*traceCell)
	c.View()
	steps := c.trace().Supersteps()
	scrub := max(c.trace().Meta().Interval, c.trace().Summary().Cycles/50) // a fiftieth of the run
	for _, tc := range []struct {
		key  string
		want int64
	}{
		{".", steps[1].Start},
		{"n", steps[2].Start},
		{",", steps[1].Start},
		{">", steps[1].Start + scrub},
		{"<", steps[1].Start},
		{"N", steps[0].Start},
	} {
		press(a, tc.key)
		if c.cursor != tc.want {
			t.Errorf("after %q the cursor is at %d, want %d", tc.key, c.cursor, tc.want)
		}
	}
	press(a, "+", "+")
	if c.speed != 4 {
		t.Errorf("speed %d, want 4", c.speed)
	}
	press(a, "-")
	_, cmd := c.Update(keyMsg(" "))
	if !c.playing || cmd == nil {
		t.Fatal("space did not start the replay")
	}
	at := c.cursor
	a.Update(traceFrameMsg{c: c, seq: c.seq})
	if want := at + 2*1000; c.cursor != want {
		t.Errorf("a frame moved the cursor to %d, want %d", c.cursor, want)
	}
	a.Update(traceFrameMsg{c: c, seq: c.seq - 1})
	if c.cursor != at+2000 {
		t.Error("a stale frame moved the cursor")
	}
	if v := c.View(); !strings.Contains(v, "▶ playing ×2") {
		t.Errorf("not shown as playing:\n%s", v)
	}
	press(a, "p")
	if c.playing {
		t.Error("p did not pause")
	}
}

// TestNotebookOps adds, moves, deletes, folds and undoes cells.
func TestNotebookOps(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	nb := a.sh.nb
	n := len(nb.Cells)
	a.setFocus(0)
	press(a, "a", "0", "enter") // 0 picks the last kind: notes
	if len(nb.Cells) != n+1 || nb.Cells[1].In.Kind() != explorer.KindNotes || a.focus != 1 || len(a.cells) != n+1 {
		t.Fatalf("add: %d cells, cell 2 is %s, focus %d", len(nb.Cells), nb.Cells[1].In.Kind(), a.focus)
	}
	press(a, "J")
	if nb.Cells[2].In.Kind() != explorer.KindNotes || a.focus != 2 || a.cells[2].base().kind != explorer.KindNotes {
		t.Fatal("J did not move the cell down")
	}
	press(a, "K", "d")
	if len(nb.Cells) != n || a.cells[1].base().kind != explorer.KindPlatform {
		t.Fatal("d did not delete the new cell")
	}
	press(a, "u")
	if len(nb.Cells) != n+1 || a.cells[1].base().kind != explorer.KindNotes {
		t.Fatal("u did not restore the deleted cell")
	}
	press(a, "z")
	if !a.cells[a.focus].base().folded || !strings.Contains(a.cells[a.focus].View(), "folded") {
		t.Error("z did not fold the output")
	}
	press(a, "G")
	if a.focus != len(a.cells)-1 {
		t.Error("G did not go to the last cell")
	}
	press(a, "g")
	if a.focus != 0 {
		t.Error("g did not go to the first cell")
	}
	press(a, "t", "ctrl+u", "New title", "enter")
	if nb.Title != "New title" {
		t.Errorf("title %q", nb.Title)
	}
}

// TestQuit asks about unsaved changes, and quits at once without any.
func TestQuit(t *testing.T) {
	a := evaluatedApp(t, 120, 40)
	_, cmd := a.Update(keyMsg("q"))
	if cmd == nil || cmd() != tea.Quit() {
		t.Fatal("q did not quit a notebook without changes")
	}
	press(a, "j", "enter", "j", "enter", "3", "enter", "esc")
	_, cmd = a.Update(keyMsg("q"))
	if cmd != nil || a.prompt == nil || !strings.Contains(a.View(), "Unsaved changes") {
		t.Fatal("q with unsaved changes did not ask")
	}
	press(a, "esc")
	if a.prompt != nil {
		t.Fatal("esc did not dismiss the question")
	}
	press(a, "q")
	_, cmd = a.Update(keyMsg("n"))
	// With the background job of the edit still running, the program
	// quits once it stopped.
	if cmd == nil || !a.quitting && cmd() != tea.Quit() {
		t.Fatal("n did not quit")
	}
}

// TestQuitPromptFits: at 80 columns the question about unsaved changes
// takes two lines rather than cutting a choice off.
func TestQuitPromptFits(t *testing.T) {
	a := evaluatedApp(t, 80, 24)
	press(a, "j", "enter", "j", "enter", "3", "enter", "esc", "q")
	v := a.View()
	for _, w := range []string{"Save before quitting?", "n quit without saving · esc stay"} {
		if !strings.Contains(v, w) {
			t.Errorf("no %q in\n%s", w, v)
		}
	}
}

// TestFieldHint: the focused field's hint (unit and meaning) stays on the
// screen while it is edited, and is not cut off when it is long.
func TestFieldHint(t *testing.T) {
	a := evaluatedApp(t, 80, 24)
	c := focusKind(t, a, explorer.KindPlatform)
	press(a, "enter")
	focusField(t, c, "set.memory.sustained_gib_s")
	if v := c.View(); !strings.Contains(v, "measured bandwidth per FPGA, 0") || !strings.Contains(v, "not measured") {
		t.Errorf("the focused field's hint is cut off:\n%s", v)
	}
	focusField(t, c, "set.memory.peak_gib_s")
	press(a, "enter", "10")
	if v := c.View(); !strings.Contains(v, "GiB/s · edge memory peak bandwidth per FPGA") {
		t.Errorf("no hint while editing:\n%s", v)
	}
}

// TestSmallTerminals: below 80×24 the program degrades to the headline
// and the focused cell, with every key working; only where nothing fits
// does it say the terminal is too small, and q still quits there.
func TestSmallTerminals(t *testing.T) {
	a := evaluatedApp(t, 60, 15)
	v := a.View()
	if strings.Contains(v, "too small") || !strings.Contains(v, "T_sys 6.750 GTEPS") || !strings.Contains(v, "1 notes") {
		t.Fatalf("60x15 does not show the headline and the notebook:\n%s", v)
	}
	if strings.Contains(v, "gravf-tui · ") {
		t.Errorf("the title bar takes a line of a 60x15 terminal:\n%s", v)
	}
	press(a, "j")
	if a.focus != 1 {
		t.Error("keys do not work in a small terminal")
	}
	press(a, "?")
	if v := a.View(); !strings.Contains(v, "keys (? or esc closes)") || len(strings.Split(v, "\n")) != 15 {
		t.Errorf("the help at 60x15:\n%s", v)
	}
	press(a, "?")
	a.Update(tea.WindowSizeMsg{Width: 39, Height: 30})
	if v := a.View(); !strings.Contains(v, "terminal too small") || !strings.Contains(v, "39×30") {
		t.Fatalf("no message at 39x30:\n%s", v)
	}
	press(a, "j")
	if a.focus != 1 {
		t.Error("keys other than quit work in a terminal too small")
	}
	_, cmd := a.Update(keyMsg("q"))
	if cmd == nil || cmd() != tea.Quit() {
		t.Error("q does not quit")
	}
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := a.View(); strings.Contains(v, "too small") || !strings.Contains(v, "gravf-tui · ") {
		t.Errorf("80×24 does not show the full layout:\n%s", v)
	}
}

// TestLayout: every screen fills the terminal exactly, at any size.
func TestLayout(t *testing.T) {
	a := evaluatedApp(t, 80, 24)
	for _, sz := range [][2]int{{80, 24}, {200, 60}, {100, 30}, {140, 40}, {60, 15}, {80, 24}} {
		a.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for _, k := range []string{"j", "j", "j", "j", "j", "ctrl+d", "ctrl+d", "ctrl+u", "G", "?"} {
			press(a, k)
			lines := strings.Split(a.View(), "\n")
			if len(lines) != sz[1] {
				t.Fatalf("%dx%d after %q: %d lines", sz[0], sz[1], k, len(lines))
			}
			for i, l := range lines {
				if w := lipglossWidth(l); w > sz[0] {
					t.Fatalf("%dx%d after %q: line %d is %d wide: %q", sz[0], sz[1], k, i, w, l)
				}
			}
		}
		press(a, "?", "g")
	}
}

// TestHelpLiveKeys: the help lists only keys that do something now.
func TestHelpLiveKeys(t *testing.T) {
	a := evaluatedApp(t, 200, 60)
	press(a, "?")
	v := a.View()
	for _, w := range []string{"next cell", "into the cell", "add a cell below", "save"} {
		if !strings.Contains(v, w) {
			t.Errorf("help lacks %q", w)
		}
	}
	for _, w := range []string{"previous cell", "move the cell up", "cancel the job", "play/pause", "undo"} {
		if strings.Contains(v, w) {
			t.Errorf("help lists %q, which does nothing on the first cell", w)
		}
	}
	focusKind(t, a, explorer.KindTrace)
	if v := a.View(); !strings.Contains(v, "play/pause") || !strings.Contains(v, "previous cell") {
		t.Error("the trace cell's keys are not in the help")
	}
	press(a, "enter")
	if v := a.View(); !strings.Contains(v, "back to the notebook") || strings.Contains(v, "next cell ") {
		t.Errorf("the help in a cell:\n%s", v)
	}
}

// TestHelpClosesWithEsc: esc closes the help before it leaves a cell,
// and a key the help shadows still does what it says afterwards.
func TestHelpClosesWithEsc(t *testing.T) {
	a := evaluatedApp(t, 100, 30)
	press(a, "?", "esc")
	if a.showHelp || a.mode != modeNotebook {
		t.Fatalf("esc on the notebook's help: help %v, mode %v", a.showHelp, a.mode)
	}
	press(a, "enter", "?", "esc")
	if a.showHelp || a.mode != modeCell {
		t.Fatalf("esc on a cell's help: help %v, mode %v (want the help closed, still in the cell)", a.showHelp, a.mode)
	}
	press(a, "esc")
	if a.mode != modeNotebook {
		t.Errorf("the second esc did not leave the cell: mode %v", a.mode)
	}
}

// TestMouse toggles mouse reporting; the wheel scrolls.
func TestMouse(t *testing.T) {
	a := evaluatedApp(t, 100, 30)
	top := a.viewTop()
	a.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if a.viewTop() != top {
		t.Error("the wheel scrolls with the mouse off")
	}
	_, cmd := a.Update(keyMsg("m"))
	if !a.mouse || cmd == nil {
		t.Fatal("m did not turn the mouse on")
	}
	a.Update(tea.MouseMsg{Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if a.viewTop() != top+3 {
		t.Errorf("the wheel scrolled to %d, want %d", a.viewTop(), top+3)
	}
	press(a, "m")
	if a.mouse {
		t.Error("m did not turn the mouse off")
	}
}

// TestSplitKeys: runes that arrive together act one by one, except in a
// text field.
func TestSplitKeys(t *testing.T) {
	a := evaluatedApp(t, 100, 30)
	a.Update(keyMsg("jjj"))
	if a.focus != 3 {
		t.Fatalf("focus %d after jjj, want 3", a.focus)
	}
}
