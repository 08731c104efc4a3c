package fidelity

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Stat is the median and the worst of a set of signed relative errors:
// the median of their absolute values, and the error furthest from zero
// with its sign.
type Stat struct {
	N      int     `json:"n"`
	Median float64 `json:"median_abs"`
	Worst  float64 `json:"worst"`
}

func stat(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	abs := make([]float64, len(xs))
	s := Stat{N: len(xs)}
	for i, x := range xs {
		abs[i] = math.Abs(x)
		if abs[i] > math.Abs(s.Worst) {
			s.Worst = x
		}
	}
	slices.Sort(abs)
	if n := len(abs); n%2 == 1 {
		s.Median = abs[n/2]
	} else {
		s.Median = (abs[n/2-1] + abs[n/2]) / 2
	}
	return s
}

// Group summarises the points of one kernel or one graph class.
type Group struct {
	By   string `json:"by"` // "kernel" or "class"
	Name string `json:"name"`
	// Points counts the group's points; Fast.N may be fewer (points
	// measured without fast detail).
	Points int  `json:"points"`
	Fast   Stat `json:"fast_total"`
	Step   Stat `json:"fast_superstep"` // over every point's worst superstep
	Model  Stat `json:"model"`          // over the points held to the model's bound
}

// Summary is what `gravf-tui validate` prints.
type Summary struct {
	Points int     `json:"points"`
	All    Group   `json:"all"`
	Groups []Group `json:"groups"`
	// The points furthest off, worst first: fast detail in total cycles,
	// in its worst superstep, and the model's prediction.
	WorstFast  []*Measurement `json:"worst_fast"`
	WorstStep  []*Measurement `json:"worst_superstep"`
	WorstModel []*Measurement `json:"worst_model"`
	// FastFailures and ModelFailures count the points outside the bounds.
	FastFailures  int `json:"fast_failures"`
	ModelFailures int `json:"model_failures"`
	// NoFast counts the points measured without fast detail; CycleFrom
	// lists the earlier runs whose cycle-detail results were reused, and
	// Reused how many points reuse one.
	NoFast    int      `json:"no_fast,omitempty"`
	CycleFrom []string `json:"cycle_from,omitempty"`
	Reused    int      `json:"cycle_reused,omitempty"`
}

// Summarise groups measurements by kernel and by graph class and lists the
// worst n points of each comparison.
func Summarise(ms []*Measurement, n int) Summary {
	s := Summary{Points: len(ms), All: group("all", "all", ms)}
	for _, k := range Kernels {
		if sub := keep(ms, func(m *Measurement) bool { return m.Point.Kernel == k }); len(sub) > 0 {
			s.Groups = append(s.Groups, group("kernel", k, sub))
		}
	}
	for _, c := range Classes {
		if sub := keep(ms, func(m *Measurement) bool { return m.Point.Class == c }); len(sub) > 0 {
			s.Groups = append(s.Groups, group("class", c, sub))
		}
	}
	for _, m := range ms {
		if m.NoFast {
			s.NoFast++
		}
		if m.CycleFrom != "" {
			s.Reused++
			if !slices.Contains(s.CycleFrom, m.CycleFrom) {
				s.CycleFrom = append(s.CycleFrom, m.CycleFrom)
			}
		}
		if !m.FastOK() {
			s.FastFailures++
		}
		if !m.ModelOK() {
			s.ModelFailures++
		}
	}
	s.WorstFast = worst(ms, n, func(m *Measurement) (float64, bool) { return m.FastErr, !m.NoFast })
	s.WorstStep = worst(ms, n, func(m *Measurement) (float64, bool) {
		if m.WorstStep == nil {
			return 0, false
		}
		return m.WorstStep.Err, true
	})
	s.WorstModel = worst(ms, n, func(m *Measurement) (float64, bool) { return m.ModelErr, m.ModelChecked() })
	return s
}

func keep(ms []*Measurement, f func(*Measurement) bool) []*Measurement {
	var out []*Measurement
	for _, m := range ms {
		if f(m) {
			out = append(out, m)
		}
	}
	return out
}

func group(by, name string, ms []*Measurement) Group {
	var fast, step, mod []float64
	for _, m := range ms {
		if !m.NoFast {
			fast = append(fast, m.FastErr)
		}
		if m.WorstStep != nil {
			step = append(step, m.WorstStep.Err)
		}
		if m.ModelChecked() {
			mod = append(mod, m.ModelErr)
		}
	}
	return Group{By: by, Name: name, Points: len(ms), Fast: stat(fast), Step: stat(step), Model: stat(mod)}
}

// worst returns the n measurements with the largest |error|, worst first
// (ties in corpus order).
func worst(ms []*Measurement, n int, err func(*Measurement) (float64, bool)) []*Measurement {
	var out []*Measurement
	for _, m := range ms {
		if _, ok := err(m); ok {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b *Measurement) int {
		ea, _ := err(a)
		eb, _ := err(b)
		return cmp.Compare(math.Abs(eb), math.Abs(ea))
	})
	return out[:min(n, len(out))]
}

func pct(x float64) string { return fmt.Sprintf("%+.1f %%", 100*x) }

func statCells(s Stat) string {
	if s.N == 0 {
		return fmt.Sprintf("%9s %9s", "-", "-")
	}
	return fmt.Sprintf("%8.1f%% %9s", 100*s.Median, pct(s.Worst))
}

// WriteText prints the summary: a table per kernel and per graph class,
// then the worst points of each comparison.
func (s Summary) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%d points; bounds: fast within %.0f %% of cycle in total and %.0f %% per superstep of >= %d cycles; the model's prediction within %.0f %% where >= %d edges are traversed\n\n",
		s.Points, 100*FastTotalBound, 100*FastStepBound, StepMinCycles, 100*ModelBound, ModelMinEdges)
	s.writeProvenance(w)
	fmt.Fprintf(w, "%-8s %-17s %6s  %-19s  %-19s  %-19s\n", "", "", "", "fast/cycle, total", "fast, superstep", "model/cycle, TEPS")
	fmt.Fprintf(w, "%-8s %-17s %6s  %9s %9s  %9s %9s  %9s %9s\n", "by", "group", "points", "median", "worst", "median", "worst", "median", "worst")
	for _, g := range append([]Group{s.All}, s.Groups...) {
		fmt.Fprintf(w, "%-8s %-17s %6d  %s  %s  %s\n", g.By, g.Name, g.Points, statCells(g.Fast), statCells(g.Step), statCells(g.Model))
	}
	list := func(title string, ms []*Measurement, cell func(*Measurement) string) {
		if len(ms) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s\n", title)
		for _, m := range ms {
			fmt.Fprintf(w, "  %-62s %s\n", m.Name, cell(m))
		}
	}
	list("worst fast detail, total cycles:", s.WorstFast, func(m *Measurement) string {
		return fmt.Sprintf("cycle %d, fast %d (%s)", m.Cycle, m.Fast, pct(m.FastErr))
	})
	list("worst fast detail, one superstep:", s.WorstStep, func(m *Measurement) string {
		st := m.WorstStep
		return fmt.Sprintf("superstep %d: cycle %d, fast %d (%s)", st.Index, st.Cycle, st.Fast, pct(st.Err))
	})
	list("worst model prediction:", s.WorstModel, func(m *Measurement) string {
		return fmt.Sprintf("cycle %.0f MTEPS, predicted %.0f (%s), T_sys %.0f", m.CycleTEPS/1e6, m.Predicted/1e6, pct(m.ModelErr), m.TSys/1e6)
	})
	fmt.Fprintf(w, "\n%d points outside the fast bounds, %d outside the model's\n", s.FastFailures, s.ModelFailures)
}

// writeProvenance says what a summary did not measure now.
func (s Summary) writeProvenance(w io.Writer) {
	if s.Reused > 0 {
		fmt.Fprintf(w, "cycle detail of %d points reused from %s (not simulated now); the model's prediction evaluated now\n", s.Reused, strings.Join(s.CycleFrom, ", "))
	}
	if s.NoFast > 0 {
		fmt.Fprintf(w, "fast detail not run on %d points\n", s.NoFast)
	}
	if s.Reused+s.NoFast > 0 {
		fmt.Fprintln(w)
	}
}

// WritePoints prints one line per measurement, in corpus order.
func WritePoints(w io.Writer, ms []*Measurement) {
	fmt.Fprintf(w, "%-62s %10s %10s %8s %9s %8s %8s\n", "point", "cycle", "fast", "fast", "superstep", "model", "checked")
	for _, m := range ms {
		step := "-"
		if m.WorstStep != nil {
			step = pct(m.WorstStep.Err)
		}
		mod := "-"
		if m.Predicted > 0 {
			mod = pct(m.ModelErr)
		}
		flag := strings.TrimSpace(map[bool]string{true: "", false: "FAST"}[m.FastOK()] + " " + map[bool]string{true: "", false: "MODEL"}[m.ModelOK()])
		fast, fastErr := strconv.FormatInt(m.Fast, 10), pct(m.FastErr)
		if m.NoFast {
			fast, fastErr = "-", "-"
		}
		fmt.Fprintf(w, "%-62s %10d %10s %8s %9s %8s %8s\n", m.Name, m.Cycle, fast, fastErr, step, mod, flag)
	}
}

// WriteMarkdown prints the summary as Markdown tables: per kernel and per
// graph class, the worst points of each comparison, then (with points)
// every point.
func (s Summary) WriteMarkdown(w io.Writer, ms []*Measurement, points bool) {
	cell := func(st Stat) string {
		if st.N == 0 {
			return "- | -"
		}
		return fmt.Sprintf("%.2f %% | %s", 100*st.Median, pctf(st.Worst))
	}
	s.writeProvenance(w)
	fmt.Fprintf(w, "| by | group | points | fast, total: median | worst | fast, superstep: median | worst | model: points | median | worst |\n")
	fmt.Fprintf(w, "|---|---|---|---|---|---|---|---|---|---|\n")
	for _, g := range append([]Group{s.All}, s.Groups...) {
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %d | %s |\n", g.By, g.Name, g.Points, cell(g.Fast), cell(g.Step), g.Model.N, cell(g.Model))
	}
	list := func(title string, ms []*Measurement, head string, row func(*Measurement) string) {
		if len(ms) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s\n\n| point | %s |\n|---|%s\n", title, head, strings.Repeat("---|", strings.Count(head, "|")+1))
		for _, m := range ms {
			fmt.Fprintf(w, "| %s | %s |\n", m.Name, row(m))
		}
	}
	list("Worst fast detail, total cycles:", s.WorstFast, "cycle | fast | error", func(m *Measurement) string {
		return fmt.Sprintf("%d | %d | %s", m.Cycle, m.Fast, pctf(m.FastErr))
	})
	list("Worst fast detail, one superstep of at least 1000 cycles:", s.WorstStep, "superstep | cycle | fast | error", func(m *Measurement) string {
		st := m.WorstStep
		return fmt.Sprintf("%d | %d | %d | %s", st.Index, st.Cycle, st.Fast, pctf(st.Err))
	})
	list("Worst model predictions (points of at least 100,000 traversed edges):", s.WorstModel, "cycle MTEPS | predicted | error | T_sys", func(m *Measurement) string {
		return fmt.Sprintf("%.0f | %.0f | %s | %.0f", m.CycleTEPS/1e6, m.Predicted/1e6, pctf(m.ModelErr), m.TSys/1e6)
	})
	if !points {
		return
	}
	fmt.Fprintf(w, "\nEvery point (fast and superstep: fast against cycle detail; model: predicted against cycle detail's throughput, * where held to the bound):\n\n")
	fmt.Fprintf(w, "| point | cycle | fast | superstep | model |\n|---|---|---|---|---|\n")
	for _, m := range ms {
		step, mod := "-", "-"
		if m.WorstStep != nil {
			step = pctf(m.WorstStep.Err)
		}
		if m.Predicted > 0 {
			mod = pctf(m.ModelErr)
			if m.ModelChecked() {
				mod += " *"
			}
		}
		fast := pctf(m.FastErr)
		if m.NoFast {
			fast = "-"
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s |\n", m.Name, m.Cycle, fast, step, mod)
	}
}

// pctf formats a relative error for Markdown (a real minus sign).
func pctf(x float64) string { return strings.Replace(fmt.Sprintf("%+.2f %%", 100*x), "-", "−", 1) }
