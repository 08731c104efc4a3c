package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/sim"
)

// traceCell replays a recorded trace: play, pause, step through
// supersteps and scrub through time, with per-PE and per-link utilisation
// and a barrier timeline that animate while it plays.
type traceCell struct {
	cellBase
	// src is the output the replay state belongs to.
	src *explorer.TraceOutput
	// cursor is the cycle shown.
	cursor  int64
	playing bool
	// speed is the number of samples a frame advances.
	speed int
	// seq tags frames, so that a frame of an earlier play is dropped.
	seq int
}

// traceFrameMsg advances a playing replay by one frame.
type traceFrameMsg struct {
	c   *traceCell
	seq int
}

func (m traceFrameMsg) target() cellModel { return m.c }

// frameInterval is the time between replay frames.
const frameInterval = 100 * time.Millisecond

func trc(in explorer.Input) *explorer.Trace { return in.(*explorer.Trace) }

func (c *traceCell) fields() []field {
	f := strField("file", "trace file", func(in explorer.Input) *string { return &trc(in).File })
	f.placeholder = "the simulate cell's trace"
	return []field{f, numField("superstep", "start at superstep", "", func(in explorer.Input) *int { return &trc(in).Superstep })}
}

// View implements cellModel.
func (c *traceCell) View() string { return c.render() }

func (c *traceCell) trace() *sim.Trace {
	if c.src == nil {
		return nil
	}
	return c.src.Trace()
}

func (c *traceCell) cellKeys() []key.Binding {
	if c.trace() == nil {
		return nil
	}
	km := c.sh.keys
	return []key.Binding{km.Play, km.StepNext, km.StepPrev, km.ScrubFwd, km.ScrubBack, km.Faster, km.Slower}
}

// sync resets the replay when a new trace arrives.
func (c *traceCell) sync() {
	o, _ := c.out.(*explorer.TraceOutput)
	if o == nil {
		o, _ = c.last.(*explorer.TraceOutput)
	}
	if o == c.src {
		return
	}
	c.src, c.playing = o, false
	c.cursor = 0
	if o != nil {
		if start, ok := o.Trace().SeekSuperstep(o.Superstep); ok {
			c.cursor = start
		}
	}
}

func (c *traceCell) frame() tea.Cmd {
	seq := c.seq
	return tea.Tick(frameInterval, func(time.Time) tea.Msg { return traceFrameMsg{c: c, seq: seq} })
}

// Update implements cellModel.
func (c *traceCell) Update(msg tea.Msg) (cellModel, tea.Cmd) {
	c.sync()
	tr := c.trace()
	switch m := msg.(type) {
	case traceFrameMsg:
		if m.seq != c.seq || !c.playing || tr == nil {
			return c, nil
		}
		c.cursor += int64(c.speed) * max(1, tr.Meta().Interval)
		if end := tr.Summary().Cycles; c.cursor >= end {
			c.cursor, c.playing = max(0, end-1), false
			return c, nil
		}
		return c, c.frame()
	case tea.KeyMsg:
		if tr == nil || c.editing() {
			break
		}
		km := c.sh.keys
		steps := tr.Supersteps()
		total := tr.Summary().Cycles
		cur := tr.SuperstepAt(c.cursor)
		used := true
		switch {
		case key.Matches(m, km.Play):
			c.playing = !c.playing
			if c.playing {
				if c.cursor >= total-1 {
					c.cursor = 0
				}
				c.seq++
				c.consumed = true
				return c, c.frame()
			}
		case key.Matches(m, km.StepNext):
			if cur+1 < len(steps) {
				c.cursor = steps[cur+1].Start
			}
		case key.Matches(m, km.StepPrev):
			switch {
			case cur >= 0 && c.cursor > steps[cur].Start:
				c.cursor = steps[cur].Start
			case cur > 0:
				c.cursor = steps[cur-1].Start
			}
		case key.Matches(m, km.ScrubFwd), key.Matches(m, km.ScrubBack):
			d := max(tr.Meta().Interval, total/50)
			if key.Matches(m, km.ScrubBack) {
				d = -d
			}
			c.cursor = max(0, min(total-1, c.cursor+d))
		case key.Matches(m, km.Faster):
			c.speed = min(64, c.speed*2)
		case key.Matches(m, km.Slower):
			c.speed = max(1, c.speed/2)
		default:
			used = false
		}
		if used {
			c.consumed = true
			return c, nil
		}
	}
	return c, c.update(msg)
}

func (c *traceCell) output(out explorer.Output, w int) []string {
	c.sync()
	o := out.(*explorer.TraceOutput)
	th := c.sh.th
	m, s := o.Meta, o.Summary
	var lines []string
	lines = append(lines, wrapDots(fmt.Sprintf("%s: %s on %s · %d FPGAs × %d PEs · %s detail · %d samples of %d cycles · %s",
		relPath(c.sh.nb, o.File), m.Kernel, m.Board, m.FPGAs, m.PEs, m.Detail, o.Samples, m.Interval, m.Graph), w)...)
	lines = append(lines, wrapDots(fmt.Sprintf("%s cycles · %s messages in %d supersteps · %s", count(s.Cycles), count(s.Messages), s.Supersteps, explorer.TEPS(s.TEPS)), w)...)
	tr := o.Trace()
	if o != c.src || tr == nil || len(tr.Samples()) == 0 {
		return lines
	}
	samples := tr.Samples()
	steps := tr.Supersteps()
	total := max(1, s.Cycles)
	cur := tr.SuperstepAt(c.cursor)
	si := tr.SeekCycle(c.cursor)
	smp := samples[si]
	state := th.accent.Render("⏸ paused")
	if c.playing {
		state = th.running.Render("▶ playing")
	}
	lines = append(lines, "")
	lines = append(lines, wrapDots(fmt.Sprintf("%s ×%d · superstep %d (of 0..%d) · cycle %s/%s · sample %d/%d",
		state, c.speed, cur, len(steps)-1, count(c.cursor), count(s.Cycles), si+1, len(samples)), w)...)
	// Activity over the whole run, the barrier timeline and the cursor.
	tw := max(20, w-8)
	col := func(cyc int64) int { return min(tw-1, int(cyc*int64(tw)/total)) }
	act := make([]float64, tw)
	n := make([]int, tw)
	for _, sm := range samples {
		mean := 0.0
		for _, b := range sm.PEBusy {
			mean += b
		}
		if len(sm.PEBusy) > 0 {
			mean /= float64(len(sm.PEBusy))
		}
		x := col(sm.Cycle)
		act[x] += mean
		n[x]++
	}
	for i := range act {
		if n[i] > 0 {
			act[i] /= float64(n[i])
		} else if i > 0 {
			act[i] = act[i-1]
		}
	}
	timeline := []rune(strings.Repeat("─", tw))
	for _, st := range steps {
		x := col(st.Start)
		timeline[x] = '│'
		lab := []rune(fmt.Sprint(st.Index))
		if x+1+len(lab) <= tw && (st.End()-st.Start)*int64(tw)/total > int64(len(lab)) {
			copy(timeline[x+1:], lab)
		}
	}
	lines = append(lines, th.dim.Render("busy    ")+th.accent.Render(sparklineFixed(act)))
	lines = append(lines, th.dim.Render("steps   ")+string(timeline))
	lines = append(lines, strings.Repeat(" ", 8+col(c.cursor))+th.binding.Render("▲"))
	lines = append(lines, th.dim.Render(padRight("        0", tw+8-len(count(s.Cycles))-7)+count(s.Cycles)+" cycles"))
	if cur >= 0 && cur < len(steps) {
		st := steps[cur]
		lines = append(lines, wrapDots(fmt.Sprintf("superstep %d: cycles %s..%s · %s active · %s messages", st.Index, count(st.Start), count(st.End()), count(st.Active), count(st.Messages)), w)...)
	}
	return append(lines, c.sampleView(smp, m, w)...)
}

// sampleView draws one sample: the per-PE utilisation with what else each
// PE did most, and the per-link utilisation.
func (c *traceCell) sampleView(smp sim.TraceSample, m sim.TraceMeta, w int) []string {
	th := c.sh.th
	lines := []string{"", th.heading.Render(fmt.Sprintf("PE busy, cycles %s..%s", count(smp.Cycle), count(smp.End()))) + th.dim.Render("  letter: what else the PE did most")}
	np := len(smp.PEBusy)
	if np > 0 {
		cw := max(1, min(3, (w-8)/np))
		vals := smp.PEBusy
		if np*cw > w-8 {
			vals = vals[:w-8]
		}
		for i, r := range columns(vals, 1, 4, cw) {
			lab := "        "
			if i == 0 {
				lab = "   100% "
			}
			if i == 3 {
				lab = "     0% "
			}
			lines = append(lines, th.dim.Render(lab)+th.accent.Render(r))
		}
		var dom strings.Builder
		for i := range vals {
			name, _ := dominantOther(smp.PEStall[i])
			dom.WriteString(padRight(name, cw))
		}
		lines = append(lines, th.dim.Render("        ")+dom.String())
		axis := []rune(strings.Repeat(" ", len(vals)*cw+8))
		for f := 0; f < m.FPGAs; f++ {
			lab := []rune(fmt.Sprintf("F%d", f))
			at := 8 + f*m.PEs*cw
			if at+len(lab) <= len(axis) {
				copy(axis[at:], lab)
			}
		}
		lines = append(lines, th.dim.Render(strings.TrimRight(string(axis), " ")))
		var leg []string
		for i, n := range sim.CauseNames[1:] {
			leg = append(leg, causeLetters[i+1]+" "+n)
		}
		for _, l := range joinWrapped(leg, " · ", w) {
			lines = append(lines, th.dim.Render(l))
		}
	}
	// Per-link utilisation.
	if len(smp.LinkUtil) > 0 {
		lines = append(lines, th.heading.Render("link utilisation"))
		var items []string
		for i, u := range smp.LinkUtil {
			name := fmt.Sprint(i)
			if i < len(m.Links) {
				name = fmt.Sprintf("%d→%d", m.Links[i].From, m.Links[i].To)
			}
			items = append(items, fmt.Sprintf("%-4s %s %4.0f%%", name, hbar(u, 10), 100*u))
		}
		lines = append(lines, joinWrapped(items, "   ", w)...)
	}
	return lines
}

// dominantOther is the largest cause of a PE's interval other than busy,
// as a letter ("" when the PE did nothing else).
func dominantOther(c sim.TraceCauses) (string, float64) {
	v := c.Values()
	best, share := -1, 0.0
	for i := 1; i < len(v); i++ {
		if v[i] > share {
			best, share = i, v[i]
		}
	}
	if best < 0 || share < 0.05 {
		return "", 0
	}
	return causeLetters[best], share
}

// sparklineFixed draws shares (0..1) as blocks, not rescaled to the
// largest, so that a half-busy run looks half busy.
func sparklineFixed(vals []float64) string {
	var b strings.Builder
	for _, v := range vals {
		i := int(v*8 + 0.5)
		i = max(0, min(8, i))
		if v > 0 && i == 0 {
			i = 1
		}
		b.WriteString(vblocks[i])
	}
	return b.String()
}
