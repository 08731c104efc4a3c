package sim_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

// traceSetup is a small real run: WCC on 600 vertices, 2 FPGAs × 3 PEs,
// cycle detail.
func traceSetup(t testing.TB) *sim.Setup {
	t.Helper()
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	s, err := samples.Kernel("wcc")
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load("uniform:v=600,d=6,seed=2", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	return &sim.Setup{Board: b, Kernel: k, Graph: g, FPGAs: 2, PEs: 3, Detail: sim.Cycle, ModelTSys: 1.5e9}
}

// recordRun runs the setup with a recorder and returns the result and the
// trace file's bytes.
func recordRun(t testing.TB, s *sim.Setup, interval int64) (*sim.Result, []byte) {
	t.Helper()
	meta, err := sim.NewTraceMeta(s)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rec, err := sim.NewRecorder(&buf, sim.TraceOptions{Interval: interval, Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
	s.Listener = rec
	res, err := sim.Run(context.Background(), s)
	if err != nil {
		rec.Abort(err)
		t.Fatal(err)
	}
	if err := rec.Close(res); err != nil {
		t.Fatal(err)
	}
	return res, buf.Bytes()
}

// fakeView lets a test drive a Recorder cycle by cycle with counters it
// controls.
type fakeView struct {
	now   int64
	step  int
	pes   []sim.PEStats
	words []float64
}

func (v *fakeView) Now() int64             { return v.now }
func (v *fakeView) Superstep() int         { return v.step }
func (v *fakeView) PEStats() []sim.PEStats { return append([]sim.PEStats(nil), v.pes...) }
func (v *fakeView) LinkWords() []float64   { return append([]float64(nil), v.words...) }

func synthMeta() sim.TraceMeta {
	return sim.TraceMeta{Board: "test", Kernel: "wcc", Graph: "synthetic", Vertices: 10, Edges: 20,
		FPGAs: 2, PEs: 1, NumPEs: 2, Arch: model.GraVFM, Mem: model.OffChip, Detail: sim.Cycle,
		ClockHz: 100e6, PairWordsPerCycle: 1, Links: []sim.TraceLink{{From: 0, To: 1}, {From: 1, To: 0}},
		Generator: "test"}
}

// synthTrace records a 35-cycle run of two PEs at interval 10: supersteps
// start at cycles 0, 12 and 30; PE 0 alternates busy and hazard, PE 1
// waits at the barrier; link 0->1 sends half a word per cycle.
func synthTrace(t testing.TB) ([]byte, *sim.Result) {
	t.Helper()
	var buf bytes.Buffer
	rec, err := sim.NewRecorder(&buf, sim.TraceOptions{Interval: 10, Meta: synthMeta()})
	if err != nil {
		t.Fatal(err)
	}
	v := &fakeView{pes: make([]sim.PEStats, 2), words: make([]float64, 2)}
	starts := []int64{0, 12, 30}
	for c := int64(0); c < 35; c++ {
		v.now = c
		for v.step+1 < len(starts) && c >= starts[v.step+1] {
			v.step++
		}
		if c%2 == 0 {
			v.pes[0].Busy++
			v.pes[0].Messages++
		} else {
			v.pes[0].Hazard++
		}
		v.pes[1].Barrier++
		v.words[0] += 0.5
		rec.Cycle(v)
	}
	res := &sim.Result{Cycles: 35, Messages: v.pes[0].Messages, Supersteps: 3, PerPE: v.pes, ResultSHA256: "00",
		PerSuperstep: []sim.Superstep{{Index: 0, Start: 0, Cycles: 12, Active: 10, Messages: 6},
			{Index: 1, Start: 12, Cycles: 18, Active: 4, Messages: 9}, {Index: 2, Start: 30, Cycles: 5, Active: 0, Messages: 3}},
		Links: []sim.LinkStats{{From: 0, To: 1, Words: v.words[0], Utilisation: 0.5}, {From: 1, To: 0}}}
	if err := rec.Close(res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), res
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTraceRoundTrip(t *testing.T) {
	const interval = 500
	res, data := recordRun(t, traceSetup(t), interval)
	tr, err := sim.OpenTrace(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	m := tr.Meta()
	if m.Board != "ac510" || m.Kernel != "wcc" || !strings.HasPrefix(m.Graph, "uniform:v=600,d=6,seed=2") || m.FPGAs != 2 || m.PEs != 3 ||
		m.NumPEs != 6 || m.Detail != sim.Cycle || m.Arch != model.GraVFM || m.Interval != interval || len(m.Links) != 2 {
		t.Errorf("meta %+v", m)
	}
	if m.ClockHz != res.Params.ClockHz || m.PairWordsPerCycle != res.Params.PairWordsPerCycle {
		t.Errorf("meta clock %g rate %g, params %g %g", m.ClockHz, m.PairWordsPerCycle, res.Params.ClockHz, res.Params.PairWordsPerCycle)
	}
	ss := tr.Samples()
	want := (res.Cycles + interval - 1) / interval
	if n := int64(len(ss)); n < want-1 || n > want+1 {
		t.Fatalf("%d samples for %d cycles at interval %d, want about %d", n, res.Cycles, interval, want)
	}
	t.Logf("%d cycles, %d supersteps, %d samples, %d bytes", res.Cycles, res.Supersteps, len(ss), len(data))

	// The samples tile the run and add up to the result's counters.
	sum := make([]sim.PEStats, m.NumPEs)
	words := make([]float64, len(m.Links))
	next := int64(0)
	for i, s := range ss {
		if s.Cycle != next || s.Span < 1 || (i < len(ss)-1 && s.Span != interval) {
			t.Fatalf("sample %d: [%d, +%d), want start %d", i, s.Cycle, s.Span, next)
		}
		next = s.End()
		for g, p := range s.PE {
			a := &sum[g]
			a.Busy += p.Busy
			a.Apply += p.Apply
			a.Hazard += p.Hazard
			a.Scatter += p.Scatter
			a.Memory += p.Memory
			a.Crossbar += p.Crossbar
			a.Network += p.Network
			a.Barrier += p.Barrier
			a.Done += p.Done
			a.Messages += p.Messages
			a.MemWords += p.MemWords
			if s.PEBusy[g] != float64(p.Busy)/float64(s.Span) || s.PEStall[g].Busy != s.PEBusy[g] || s.PEBusy[g] < 0 || s.PEBusy[g] > 1 {
				t.Fatalf("sample %d PE %d: busy %g, stall %+v, counts %+v", i, g, s.PEBusy[g], s.PEStall[g], p)
			}
		}
		for j, w := range s.LinkWords {
			words[j] += w
			if u := w / float64(s.Span) / m.PairWordsPerCycle; s.LinkUtil[j] != u {
				t.Fatalf("sample %d link %d: util %g, want %g", i, j, s.LinkUtil[j], u)
			}
		}
	}
	if next != res.Cycles {
		t.Errorf("samples end at %d, run at %d", next, res.Cycles)
	}
	if !reflect.DeepEqual(sum, res.PerPE) {
		t.Errorf("samples add up to\n%+v\nresult\n%+v", sum, res.PerPE)
	}
	for j, l := range res.Links {
		if math.Abs(words[j]-l.Words) > 1e-6*max(1, l.Words) {
			t.Errorf("link %d: samples %g words, result %g", j, words[j], l.Words)
		}
	}

	steps := tr.Supersteps()
	if len(steps) != len(res.PerSuperstep) {
		t.Fatalf("%d supersteps, result %d", len(steps), len(res.PerSuperstep))
	}
	for i, s := range steps {
		if sim.Superstep(s) != res.PerSuperstep[i] {
			t.Errorf("superstep %d: %+v, result %+v", i, s, res.PerSuperstep[i])
		}
	}
	got := tr.Summary()
	wantSum := sim.TraceSummary{Cycles: res.Cycles, Seconds: res.Seconds, Messages: res.Messages, TEPS: res.TEPS,
		Supersteps: res.Supersteps, ResultSHA256: res.ResultSHA256, ModelTSys: res.ModelTSys, Efficiency: res.Efficiency,
		Stalls: res.Stalls, PerPE: res.PerPE, Links: res.Links}
	if !reflect.DeepEqual(got, wantSum) {
		t.Errorf("summary\n%+v\nresult\n%+v", got, wantSum)
	}
}

func TestTraceDeterministic(t *testing.T) {
	_, a := recordRun(t, traceSetup(t), 1000)
	_, b := recordRun(t, traceSetup(t), 1000)
	if !bytes.Equal(a, b) {
		t.Fatal("two recordings of the same run differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() && zr.ModTime.Unix() != 0 || zr.Name != "" || zr.Comment != "" {
		t.Errorf("gzip header: time %v name %q comment %q", zr.ModTime, zr.Name, zr.Comment)
	}
	first, _, _ := strings.Cut(string(gunzip(t, a)), "\n")
	if !strings.HasPrefix(first, `{"format":"gravf-trace","version":1,`) {
		t.Errorf("header %s", first)
	}
}

func TestTraceSeek(t *testing.T) {
	data, _ := synthTrace(t)
	tr, err := sim.OpenTrace(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	starts := func(ss []sim.TraceSample) []int64 {
		out := []int64{}
		for _, s := range ss {
			out = append(out, s.Cycle)
		}
		return out
	}
	if got := starts(tr.Samples()); !reflect.DeepEqual(got, []int64{0, 10, 20, 30}) {
		t.Fatalf("sample starts %v", got)
	}
	for _, tc := range []struct {
		cycle int64
		want  int
	}{{-5, 0}, {0, 0}, {9, 0}, {10, 1}, {19, 1}, {29, 2}, {30, 3}, {34, 3}, {35, 3}, {1 << 40, 3}} {
		if got := tr.SeekCycle(tc.cycle); got != tc.want {
			t.Errorf("SeekCycle(%d) = %d, want %d", tc.cycle, got, tc.want)
		}
	}
	for _, tc := range []struct {
		from, to int64
		want     []int64
	}{
		{0, 10, []int64{0}}, {0, 11, []int64{0, 10}}, {5, 25, []int64{10, 20}}, {0, 35, []int64{0, 10, 20, 30}},
		{10, 10, []int64{}}, {20, 10, []int64{}}, {30, 100, []int64{30}}, {-100, 0, []int64{}}, {-100, 1, []int64{0}}, {35, 99, []int64{}},
	} {
		if got := starts(tr.Window(tc.from, tc.to)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Window(%d, %d) = %v, want %v", tc.from, tc.to, got, tc.want)
		}
	}
	for _, tc := range []struct {
		cycle int64
		want  int
	}{{-1, -1}, {0, 0}, {11, 0}, {12, 1}, {29, 1}, {30, 2}, {34, 2}, {35, -1}} {
		if got := tr.SuperstepAt(tc.cycle); got != tc.want {
			t.Errorf("SuperstepAt(%d) = %d, want %d", tc.cycle, got, tc.want)
		}
	}
	for _, tc := range []struct {
		i     int
		start int64
		ok    bool
	}{{0, 0, true}, {1, 12, true}, {2, 30, true}, {3, 0, false}, {-1, 0, false}} {
		if start, ok := tr.SeekSuperstep(tc.i); start != tc.start || ok != tc.ok {
			t.Errorf("SeekSuperstep(%d) = %d, %v, want %d, %v", tc.i, start, ok, tc.start, tc.ok)
		}
	}
	// Sample contents: PE 0 alternates busy and hazard, PE 1 waits, link
	// 0->1 sends at half its rate; the last sample spans 5 cycles.
	s := tr.Samples()[3]
	if s.Span != 5 || s.Superstep != 2 || s.PEBusy[0] != 0.6 || s.PEStall[0].Hazard != 0.4 || s.PEStall[1].Barrier != 1 ||
		s.LinkUtil[0] != 0.5 || s.LinkUtil[1] != 0 {
		t.Errorf("last sample %+v", s)
	}
	if name, share := s.PEStall[0].Dominant(); name != "busy" || share != 0.6 {
		t.Errorf("dominant %s %g", name, share)
	}
	if s := tr.Samples()[1]; s.Superstep != 1 || s.PEBusy[0] != 0.5 {
		t.Errorf("second sample %+v", s)
	}
}

func TestTraceEmptyTraceSeek(t *testing.T) {
	// A run that never called the listener (e.g. an architecture without
	// cycle hooks) still gets one sample, from the result, at Close.
	var buf bytes.Buffer
	rec, err := sim.NewRecorder(&buf, sim.TraceOptions{Meta: synthMeta()})
	if err != nil {
		t.Fatal(err)
	}
	res := &sim.Result{Cycles: 7, Supersteps: 1, PerSuperstep: []sim.Superstep{{Cycles: 7}},
		PerPE: []sim.PEStats{{Busy: 7}, {Barrier: 7}}, Links: []sim.LinkStats{{From: 0, To: 1}, {From: 1, To: 0}}}
	if err := rec.Close(res); err != nil {
		t.Fatal(err)
	}
	tr, err := sim.OpenTrace(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Samples()) != 1 || tr.Samples()[0].Span != 7 || tr.Samples()[0].PEBusy[0] != 1 {
		t.Fatalf("samples %+v", tr.Samples())
	}
	if tr.Meta().Interval != sim.DefaultTraceInterval {
		t.Errorf("interval %d", tr.Meta().Interval)
	}
}

// TestTraceTruncated cuts the file at every byte: every cut must be
// rejected as truncated, never accepted or panicking.
func TestTraceTruncated(t *testing.T) {
	data, _ := synthTrace(t)
	plain := gunzip(t, data)
	for name, b := range map[string][]byte{"gzip": data, "plain": plain} {
		for n := 0; n < len(b); n++ {
			_, err := sim.OpenTrace(bytes.NewReader(b[:n]))
			if err == nil {
				t.Fatalf("%s cut at %d of %d bytes: accepted", name, n, len(b))
			}
			if !errors.Is(err, sim.ErrTraceTruncated) {
				t.Fatalf("%s cut at %d of %d bytes: %v (not reported as truncated)", name, n, len(b), err)
			}
		}
	}
	// The message names the line a cut plain file stops at.
	lines := bytes.SplitAfter(plain, []byte("\n"))
	cut := bytes.Join(lines[:3], nil)
	_, err := sim.OpenTrace(bytes.NewReader(cut))
	if err == nil || !strings.Contains(err.Error(), "no end record after line 3") {
		t.Errorf("cut after 3 lines: %v", err)
	}
}

// TestTraceCorrupt flips every byte: the file must be rejected.
func TestTraceCorrupt(t *testing.T) {
	data, _ := synthTrace(t)
	plain := gunzip(t, data)
	for name, b := range map[string][]byte{"gzip": data, "plain": plain} {
		for i := range b {
			for _, x := range []byte{0x01, 0x20, 0xff} {
				if name == "gzip" && i >= 3 && i < 10 {
					// gzip's flags (FTEXT, reserved bits), modification
					// time, XFL and OS bytes are covered by no checksum.
					continue
				}
				c := bytes.Clone(b)
				c[i] ^= x
				if _, err := sim.OpenTrace(bytes.NewReader(c)); err == nil {
					t.Fatalf("%s byte %d ^ %#x: accepted", name, i, x)
				}
			}
		}
	}
	// Appending anything is rejected too.
	for _, extra := range []string{"\n", "{}\n", `{"t":"end","records":0,"crc32":0}` + "\n"} {
		if _, err := sim.OpenTrace(bytes.NewReader(append(bytes.Clone(plain), extra...))); err == nil {
			t.Errorf("appended %q: accepted", extra)
		}
	}
}

func TestTraceErrors(t *testing.T) {
	data, _ := synthTrace(t)
	lines := strings.SplitAfter(string(gunzip(t, data)), "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	edit := func(f func([]string) []string) string {
		return strings.Join(f(append([]string(nil), lines...)), "")
	}
	for _, tc := range []struct {
		name, file, want string
	}{
		{"empty", "", "the file is empty"},
		{"not a trace", "hello\n", "not a gravf-trace file"},
		{"other json", `{"format":"other"}` + "\n", "not a gravf-trace file"},
		{"newer", edit(func(l []string) []string {
			l[0] = strings.Replace(l[0], `"version":1`, `"version":2`, 1)
			return l
		}), "version 2 is newer"},
		{"no version", `{"format":"gravf-trace"}` + "\n", "no version"},
		{"bad header", `{"format":"gravf-trace","version":1,"fpgas":0}` + "\n", "line 1: header: 0 FPGAs"},
		{"absurd PEs", `{"format":"gravf-trace","version":1,"fpgas":1,"pes":100000000,"num_pes":100000000}` + "\n", "PEs per FPGA"},
		{"sample order", edit(func(l []string) []string {
			l[1], l[2] = l[2], l[1]
			return l
		}), "line 2: sample starts at cycle 10, want 0"},
		{"missing summary", edit(func(l []string) []string {
			return append(l[:len(l)-2], l[len(l)-1])
		}), "end record before the summary"},
		{"checksum", edit(func(l []string) []string {
			l[1] = strings.Replace(l[1], `"s":0`, `"s":1`, 1)
			return l
		}), "checksum mismatch"},
		{"count", edit(func(l []string) []string {
			return append(l[:2], l[3:]...)
		}), "sample starts at cycle 20, want 10"},
		{"cut line", strings.TrimSuffix(strings.Join(lines, ""), "\n"), "last line is cut"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := sim.OpenTrace(strings.NewReader(tc.file))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func TestTraceAbort(t *testing.T) {
	var buf bytes.Buffer
	rec, err := sim.NewRecorder(&buf, sim.TraceOptions{Interval: 10, Meta: synthMeta()})
	if err != nil {
		t.Fatal(err)
	}
	v := &fakeView{pes: make([]sim.PEStats, 2), words: make([]float64, 2)}
	for c := int64(0); c < 25; c++ {
		v.now = c
		v.pes[1].Busy++
		rec.Cycle(v)
	}
	if err := rec.Abort(errors.New("deadlock at cycle 25")); err != nil {
		t.Fatal(err)
	}
	if err := rec.Close(&sim.Result{}); err == nil {
		t.Error("Close after Abort succeeded")
	}
	_, err = sim.OpenTrace(&buf)
	if err == nil || !strings.Contains(err.Error(), "line 4: the run that wrote this trace failed: deadlock at cycle 25") {
		t.Errorf("error %v", err)
	}

	// A description that does not match the run fails at Close, and the
	// file says so.
	buf.Reset()
	rec, err = sim.NewRecorder(&buf, sim.TraceOptions{Interval: 10, Meta: synthMeta()})
	if err != nil {
		t.Fatal(err)
	}
	v = &fakeView{now: 10, pes: make([]sim.PEStats, 3), words: make([]float64, 2)}
	rec.Cycle(v)
	if err := rec.Close(&sim.Result{}); err == nil || !strings.Contains(err.Error(), "3 PEs") {
		t.Errorf("Close: %v", err)
	}
	if _, err = sim.OpenTrace(&buf); err == nil || !strings.Contains(err.Error(), "failed") {
		t.Errorf("open: %v", err)
	}

	if _, err := sim.NewRecorder(io.Discard, sim.TraceOptions{Meta: sim.TraceMeta{FPGAs: 2, PEs: 1, NumPEs: 2, ClockHz: 1}}); err == nil {
		t.Error("NewRecorder accepted a description without links")
	}
	if _, err := sim.NewRecorder(io.Discard, sim.TraceOptions{Interval: -1, Meta: synthMeta()}); err == nil {
		t.Error("NewRecorder accepted a negative interval")
	}
}

// TestTraceChrome checks the Trace Event Format export: every event has
// the fields its phase requires, and time never goes back on a track.
func TestTraceChrome(t *testing.T) {
	_, data := recordRun(t, traceSetup(t), 1000)
	tr, err := sim.OpenTrace(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := tr.WriteChrome(&out); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents     []map[string]any  `json:"traceEvents"`
		DisplayTimeUnit string            `json:"displayTimeUnit"`
		OtherData       map[string]string `json:"otherData"`
	}
	dec := json.NewDecoder(&out)
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	if doc.DisplayTimeUnit != "ns" || doc.OtherData["kernel"] != "wcc" {
		t.Errorf("displayTimeUnit %q, otherData %v", doc.DisplayTimeUnit, doc.OtherData)
	}
	num := func(e map[string]any, k string) (float64, bool) {
		n, ok := e[k].(json.Number)
		if !ok {
			return 0, false
		}
		f, err := n.Float64()
		return f, err == nil
	}
	last := map[string]float64{}
	count := map[string]int{}
	names := map[string]bool{}
	m := tr.Meta()
	endUS := float64(tr.Summary().Cycles) * 1e6 / m.ClockHz
	for i, e := range doc.TraceEvents {
		ph, _ := e["ph"].(string)
		name, _ := e["name"].(string)
		pid, okp := num(e, "pid")
		tid, okt := num(e, "tid")
		if name == "" || !okp || !okt {
			t.Fatalf("event %d lacks name, pid or tid: %v", i, e)
		}
		count[ph]++
		args, _ := e["args"].(map[string]any)
		var track string
		switch ph {
		case "M":
			if args == nil {
				t.Fatalf("event %d: metadata without args: %v", i, e)
			}
			if name == "process_name" || name == "thread_name" {
				n, _ := args["name"].(string)
				if n == "" {
					t.Fatalf("event %d: %s without a name: %v", i, name, e)
				}
				names[n] = true
			}
			continue
		case "X":
			d, ok := num(e, "dur")
			if !ok || d < 0 {
				t.Fatalf("event %d: complete event without dur: %v", i, e)
			}
			ts, _ := num(e, "ts")
			if ts+d > endUS*(1+1e-12) {
				t.Fatalf("event %d ends at %g us, after the run (%g us)", i, ts+d, endUS)
			}
			track = fmt.Sprintf("X %v/%v", pid, tid)
		case "C":
			if len(args) == 0 {
				t.Fatalf("event %d: counter without values: %v", i, e)
			}
			for k, v := range args {
				if _, ok := v.(json.Number); !ok {
					t.Fatalf("event %d: counter series %s is not a number", i, k)
				}
			}
			track = fmt.Sprintf("C %v/%s", pid, name)
		default:
			t.Fatalf("event %d: unexpected phase %q", i, ph)
		}
		ts, ok := num(e, "ts")
		if !ok || ts < 0 {
			t.Fatalf("event %d: no ts: %v", i, e)
		}
		if ts < last[track] {
			t.Fatalf("event %d: ts %g goes back on track %s (%g)", i, ts, track, last[track])
		}
		last[track] = ts
	}
	ns := len(tr.Samples())
	if count["X"] != len(tr.Supersteps())+ns*m.NumPEs {
		t.Errorf("%d complete events, want %d supersteps + %d samples × %d PEs", count["X"], len(tr.Supersteps()), ns, m.NumPEs)
	}
	if count["C"] != ns*(m.NumPEs+1+len(m.Links)) {
		t.Errorf("%d counter events", count["C"])
	}
	for _, n := range []string{"FPGA 0", "FPGA 1", "PE 0", "PE 5", "supersteps"} {
		if !names[n] {
			t.Errorf("no process or thread named %q", n)
		}
	}
}

func ExampleRecorder() {
	b, _ := boards.Get("ac510")
	wcc, _ := samples.Kernel("wcc")
	g, _ := graph.Load("uniform:v=600,d=6,seed=2", graph.ReadOptions{})
	k, _ := wcc.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	setup := &sim.Setup{Board: b, Kernel: k, Graph: g, FPGAs: 2, PEs: 3, Detail: sim.Cycle}

	meta, err := sim.NewTraceMeta(setup)
	if err != nil {
		fmt.Println(err)
		return
	}
	var file bytes.Buffer // an *os.File in real use
	rec, err := sim.NewRecorder(&file, sim.TraceOptions{Interval: 1000, Meta: meta})
	if err != nil {
		fmt.Println(err)
		return
	}
	setup.Listener = rec
	res, err := sim.Run(context.Background(), setup)
	if err != nil {
		rec.Abort(err)
		fmt.Println(err)
		return
	}
	if err := rec.Close(res); err != nil {
		fmt.Println(err)
		return
	}

	tr, err := sim.OpenTrace(&file)
	if err != nil {
		fmt.Println(err)
		return
	}
	m := tr.Meta()
	fmt.Printf("%s on %d vertices, %d FPGAs x %d PEs\n", m.Kernel, m.Vertices, m.FPGAs, m.PEs)
	fmt.Println("supersteps:", len(tr.Supersteps()))
	first := tr.Samples()[0]
	fmt.Printf("first sample: cycles %d..%d, %d PEs, %d links\n", first.Cycle, first.End()-1, len(first.PEBusy), len(first.LinkUtil))
	start, _ := tr.SeekSuperstep(1)
	fmt.Println("superstep 1 starts in sample", tr.SeekCycle(start) == int(start/1000))
	// Output:
	// wcc on 600 vertices, 2 FPGAs x 3 PEs
	// supersteps: 8
	// first sample: cycles 0..999, 6 PEs, 2 links
	// superstep 1 starts in sample true
}

// TestTraceOtherModes records runs whose simulators call no listener (fast
// detail, the GraVF baseline): the trace still opens, with samples that
// tile the run.
func TestTraceOtherModes(t *testing.T) {
	for _, tc := range []struct {
		detail sim.Detail
		arch   model.Arch
	}{{sim.Fast, model.GraVFM}, {sim.Cycle, model.GraVF}, {sim.Fast, model.GraVF}} {
		t.Run(string(tc.detail)+"/"+string(tc.arch), func(t *testing.T) {
			s := traceSetup(t)
			s.Detail, s.Arch = tc.detail, tc.arch
			res, data := recordRun(t, s, 1000)
			tr, err := sim.OpenTrace(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			ss := tr.Samples()
			if len(ss) == 0 || ss[len(ss)-1].End() != res.Cycles || len(tr.Supersteps()) != res.Supersteps {
				t.Errorf("%d samples, %d supersteps for %d cycles", len(ss), len(tr.Supersteps()), res.Cycles)
			}
			t.Logf("%d cycles, %d samples", res.Cycles, len(ss))
		})
	}
}
