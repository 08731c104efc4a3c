package fidelity

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestSummarise: medians are of absolute errors, the worst keeps its sign,
// groups follow the kernels and classes present, and the bounds count the
// points outside them.
func TestSummarise(t *testing.T) {
	mk := func(k, class string, fast, step, model float64, edges int64) *Measurement {
		m := &Measurement{Point: Point{Kernel: k, Class: class}, Name: k + " " + class, FastErr: fast, Messages: edges,
			Cycle: 1000, Fast: int64(1000 * (1 + fast)), Predicted: 1, ModelErr: model, TSys: 2}
		if step != 0 {
			m.WorstStep = &StepDiff{Index: 1, Cycle: 2000, Fast: int64(2000 * (1 + step)), Err: step}
		}
		return m
	}
	ms := []*Measurement{
		mk("wcc", ClassRMAT, 0.01, 0.02, 0.10, 200000),
		mk("wcc", ClassSocial, -0.06, 0.03, -0.20, 200000), // fast total outside, model outside
		mk("pr", ClassRMAT, 0.002, -0.12, 0.5, 5000),       // superstep outside; model not held (few edges)
	}
	s := Summarise(ms, 2)
	if s.All.Fast.N != 3 || math.Abs(s.All.Fast.Median-0.01) > 1e-12 || s.All.Fast.Worst != -0.06 {
		t.Errorf("fast: %+v", s.All.Fast)
	}
	if s.All.Step.Worst != -0.12 || s.All.Model.N != 2 || s.All.Model.Worst != -0.20 {
		t.Errorf("superstep %+v, model %+v", s.All.Step, s.All.Model)
	}
	if s.FastFailures != 2 || s.ModelFailures != 1 {
		t.Errorf("%d fast failures, %d model failures; want 2 and 1", s.FastFailures, s.ModelFailures)
	}
	var names []string
	for _, g := range s.Groups {
		names = append(names, g.By+":"+g.Name)
	}
	if got := strings.Join(names, " "); got != "kernel:wcc kernel:pr class:rmat class:social" {
		t.Errorf("groups %s", got)
	}
	if len(s.WorstFast) != 2 || s.WorstFast[0].FastErr != -0.06 || len(s.WorstModel) != 2 {
		t.Errorf("worst lists: %d fast (first %+.2f), %d model", len(s.WorstFast), s.WorstFast[0].FastErr, len(s.WorstModel))
	}
	var text, md bytes.Buffer
	s.WriteText(&text)
	s.WriteMarkdown(&md, ms, true)
	WritePoints(&text, ms)
	for _, want := range []string{"3 points; bounds", "2 points outside the fast bounds, 1 outside the model's", "FAST MODEL"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(md.String(), "| wcc social | 1000 | −6.00 % | +3.00 % | −20.00 % * |") {
		t.Errorf("markdown point row missing:\n%s", md.String())
	}
	above := mk("bfs", ClassGrid, 0, 0, 0, 200000)
	above.Predicted, above.TSys = 3, 2
	if above.ModelOK() {
		t.Error("a prediction above T_sys passes")
	}
}

// TestSummariseModelOnly: points measured without fast detail (validate
// --model-only) leave the fast statistics empty and pass the fast bounds,
// the summary says what it reused, and the Markdown drops the fast
// columns.
func TestSummariseModelOnly(t *testing.T) {
	ms := []*Measurement{
		{Point: Point{Kernel: "pr", Class: ClassSocial}, Name: "pr social", Messages: 200000, Cycle: 1000, Predicted: 1, ModelErr: -0.12, TSys: 2, NoFast: true, CycleFrom: "old.json", FastErr: 0.5},
		{Point: Point{Kernel: "wcc", Class: ClassRoad}, Name: "wcc road", Messages: 200000, Cycle: 1000, Predicted: 1, ModelErr: 0.2, TSys: 2, NoFast: true, CycleFrom: "old.json"},
	}
	s := Summarise(ms, 5)
	if s.All.Fast.N != 0 || len(s.WorstFast) != 0 || s.FastFailures != 0 || s.ModelFailures != 1 || s.All.Points != 2 {
		t.Fatalf("fast stats over %d points, %d worst fast, %d fast and %d model failures, %d points", s.All.Fast.N, len(s.WorstFast), s.FastFailures, s.ModelFailures, s.All.Points)
	}
	if s.NoFast != 2 || s.Reused != 2 || len(s.CycleFrom) != 1 || s.CycleFrom[0] != "old.json" {
		t.Fatalf("no fast %d, reused %d from %v", s.NoFast, s.Reused, s.CycleFrom)
	}
	var text, md bytes.Buffer
	s.WriteText(&text)
	s.WriteMarkdown(&md, ms, true)
	for _, want := range []string{"cycle detail of 2 points reused from old.json", "fast detail not run on 2 points"} {
		if !strings.Contains(text.String(), want) || !strings.Contains(md.String(), want) {
			t.Errorf("the summaries lack %q:\n%s\n%s", want, text.String(), md.String())
		}
	}
	if !strings.Contains(md.String(), "| by | group | points | held to the bound | median | worst |") || strings.Contains(md.String(), "fast, total") {
		t.Errorf("the model-only Markdown table:\n%s", md.String())
	}
	if !strings.Contains(md.String(), "| pr social | 1000 | - |") {
		t.Errorf("a point without fast detail shows a fast error:\n%s", md.String())
	}
}
