package sim_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// foreverSetup runs a kernel whose vertices send in every superstep (it
// never converges) on a small graph.
func foreverSetup(t testing.TB, detail sim.Detail, arch model.Arch) *sim.Setup {
	t.Helper()
	spec, err := kernel.Load("../kernel/testdata/forever")
	if err != nil {
		t.Fatal(err)
	}
	g, err := graph.Load("uniform:v=200,d=4,seed=3", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	return &sim.Setup{Board: b, Kernel: k, Graph: g, FPGAs: 2, PEs: 2, Arch: arch, Detail: detail, Mem: model.BRAM}
}

// TestSuperstepLimitEverywhere is issue 16 item 4: one superstep limit
// stops the reference engine, fast detail and cycle detail (GraVF-M and
// the GraVF baseline) at the same superstep, as an error that comes with
// the partial result; the default limit is the same everywhere.
func TestSuperstepLimitEverywhere(t *testing.T) {
	const limit = 12
	s := foreverSetup(t, sim.Fast, "")
	ref, err := kernel.Run(context.Background(), s.Kernel, s.Graph, kernel.RunOptions{MaxSupersteps: limit})
	var le *kernel.LimitError
	if !errors.As(err, &le) || le.Limit != limit || ref == nil || len(ref.Supersteps) != limit || ref.Converged {
		t.Fatalf("reference engine: err %v, result %v", err, ref != nil)
	}
	for _, c := range []struct {
		detail sim.Detail
		arch   model.Arch
	}{{sim.Fast, model.GraVFM}, {sim.Cycle, model.GraVFM}, {sim.Cycle, model.GraVF}} {
		s := foreverSetup(t, c.detail, c.arch)
		s.MaxSupersteps = limit
		res, err := sim.Run(context.Background(), s)
		var se *sim.StopError
		if !errors.As(err, &se) || se.Reason != sim.StopSuperstepLimit || se.Limit != limit {
			t.Fatalf("%s %s: err = %v, want the superstep limit", c.detail, c.arch, err)
		}
		if res == nil || res.Supersteps != limit || res.Stopped != sim.StopSuperstepLimit || res.Cycles <= 0 {
			t.Fatalf("%s %s: partial result %+v", c.detail, c.arch, res)
		}
		if !strings.Contains(err.Error(), "superstep limit of 12") {
			t.Errorf("%s: message %q", c.detail, err)
		}
	}
	// The default is the reference engine's: a kernel that converges
	// within it is not stopped, whatever the level of detail.
	if got, want := kernel.DefaultMaxSupersteps(10), 1000; got != want {
		t.Errorf("DefaultMaxSupersteps(10) = %d, want %d", got, want)
	}
	if got := kernel.DefaultMaxSupersteps(5000); got != 5002 {
		t.Errorf("DefaultMaxSupersteps(5000) = %d", got)
	}
}

// TestDefaultSuperstepLimitStopsCycleDetail: without a limit set, cycle
// detail no longer runs forever (it ran past superstep 90,000 before).
func TestDefaultSuperstepLimitStopsCycleDetail(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 1000 supersteps")
	}
	s := foreverSetup(t, sim.Cycle, model.GraVFM)
	s.Graph, _ = graph.Load("line:n=4", graph.ReadOptions{})
	k, err := s.Kernel.Spec.Bind(kernel.Env{Vertices: s.Graph.NumVertices()})
	if err != nil {
		t.Fatal(err)
	}
	s.Kernel, s.FPGAs, s.PEs = k, 1, 1
	res, err := sim.Run(context.Background(), s)
	var se *sim.StopError
	if !errors.As(err, &se) || se.Limit != 1000 || res.Supersteps != 1000 {
		t.Fatalf("err = %v, supersteps %v", err, res)
	}
}

func TestCycleLimit(t *testing.T) {
	s := foreverSetup(t, sim.Cycle, model.GraVFM)
	s.MaxCycles = 5000
	res, err := sim.Run(context.Background(), s)
	var se *sim.StopError
	if !errors.As(err, &se) || se.Reason != sim.StopCycleLimit || res == nil || res.Cycles != 5000 || res.Stopped != sim.StopCycleLimit {
		t.Fatalf("err = %v, result %+v", err, res)
	}
	// Fast detail stops at the same limit (it was ignored before), with
	// the same error and no partial result.
	for _, arch := range []model.Arch{model.GraVFM, model.GraVF} {
		s = foreverSetup(t, sim.Fast, arch)
		s.MaxCycles = 5000
		res, err := sim.Run(context.Background(), s)
		if !errors.As(err, &se) || se.Reason != sim.StopCycleLimit || se.Limit != 5000 || res != nil {
			t.Fatalf("fast %s with a cycle limit: err = %v, result %v", arch, err, res != nil)
		}
		if !strings.Contains(err.Error(), "cycle limit 5000") {
			t.Errorf("fast %s: message %q", arch, err)
		}
	}
}

// TestInterruptKeepsPartialTrace is issue 16 item 4: a cancelled
// cycle-level run returns its partial result, and its trace is complete
// and readable, marked partial.
func TestInterruptKeepsPartialTrace(t *testing.T) {
	s := foreverSetup(t, sim.Cycle, model.GraVFM)
	s.MaxSupersteps = 1 << 30
	meta, err := sim.NewTraceMeta(s)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	rec, err := sim.NewRecorder(&buf, sim.TraceOptions{Interval: 500, Meta: meta})
	if err != nil {
		t.Fatal(err)
	}
	s.Listener = rec
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	res, err := sim.Run(ctx, s)
	var se *sim.StopError
	if !errors.As(err, &se) || se.Reason != sim.StopInterrupted || !errors.Is(err, context.Canceled) || res == nil {
		t.Fatalf("err = %v", err)
	}
	if err := rec.Close(res); err != nil {
		t.Fatal(err)
	}
	tr, err := sim.OpenTrace(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatalf("the partial trace does not read back: %v", err)
	}
	sum := tr.Summary()
	if sum.Stopped != sim.StopInterrupted || sum.Cycles != res.Cycles || len(tr.Samples()) == 0 {
		t.Fatalf("summary %+v, %d samples", sum, len(tr.Samples()))
	}
	// An older reader, which skips record types it does not know and
	// would take the partial run for a whole one, meets an abort record
	// before the trailer and refuses the file.
	raw := string(gunzip(t, buf.Bytes()))
	lines := strings.Split(strings.TrimSpace(raw), "\n")
	if n := len(lines); n < 3 || !strings.Contains(lines[n-2], `"t":"abort"`) || !strings.Contains(lines[n-3], `"t":"summary"`) {
		t.Fatalf("the partial trace does not end with summary, abort marker, trailer:\n%s\n%s", lines[n-3], lines[n-2])
	}
}

// TestTracePartialMarkerChecked: the marker of a partial run is accepted
// only after the summary of a partial run, and such a summary needs it.
func TestTracePartialMarkerChecked(t *testing.T) {
	s := foreverSetup(t, sim.Cycle, model.GraVFM)
	s.MaxSupersteps = 5
	meta, _ := sim.NewTraceMeta(s)
	var buf bytes.Buffer
	rec, _ := sim.NewRecorder(&buf, sim.TraceOptions{Interval: 100, Meta: meta})
	s.Listener = rec
	res, err := sim.Run(context.Background(), s)
	if res == nil || err == nil {
		t.Fatalf("no partial result: %v", err)
	}
	if err := rec.Close(res); err != nil {
		t.Fatal(err)
	}
	raw := gunzip(t, buf.Bytes())
	if _, err := sim.OpenTrace(bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	// Removing the marker (and fixing nothing else) is detected.
	var kept []string
	for _, l := range strings.SplitAfter(string(raw), "\n") {
		if !strings.Contains(l, `"t":"abort"`) {
			kept = append(kept, l)
		}
	}
	if _, err := sim.OpenTrace(strings.NewReader(strings.Join(kept, ""))); err == nil {
		t.Fatal("a partial trace without its marker was accepted")
	}
}

// TestFastInterruptSaysWhere is issue 16 item 4 at fast detail: a
// cancelled run is a StopError that says the cycle and superstep it
// reached (it was the bare "context canceled"), without a partial result.
func TestFastInterruptSaysWhere(t *testing.T) {
	// Cancelled at different moments, so that either the timing or the
	// reference engine (a superstep ahead) sees it first.
	for i, arch := range []model.Arch{model.GraVFM, model.GraVF, model.GraVFM, model.GraVF, model.GraVFM, model.GraVF} {
		s := foreverSetup(t, sim.Fast, arch)
		s.MaxSupersteps = 1 << 30
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(time.Duration(50+37*i)*time.Millisecond, cancel)
		res, err := sim.Run(ctx, s)
		cancel()
		var se *sim.StopError
		if !errors.As(err, &se) || se.Reason != sim.StopInterrupted || !errors.Is(err, context.Canceled) || res != nil {
			t.Fatalf("%s: err = %v, result %v", arch, err, res != nil)
		}
		if se.Cycle <= 0 || se.Superstep <= 0 || !strings.Contains(err.Error(), "interrupted at cycle") {
			t.Errorf("%s: %+v: %v", arch, se, err)
		}
	}
}
