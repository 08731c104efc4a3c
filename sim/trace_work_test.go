package sim_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/sim"
)

// longTrace records a run of n cycles of two PEs sampled every cycle, with
// a superstep every 16 cycles: a trace of n samples and n/16 supersteps.
func longTrace(t testing.TB, n int64) []byte {
	t.Helper()
	var buf bytes.Buffer
	rec, err := sim.NewRecorder(&buf, sim.TraceOptions{Interval: 1, Meta: synthMeta()})
	if err != nil {
		t.Fatal(err)
	}
	v := &fakeView{pes: make([]sim.PEStats, 2), words: make([]float64, 2)}
	var steps []sim.Superstep
	for c := range n {
		v.now, v.step = c, int(c/16)
		if c%16 == 0 {
			steps = append(steps, sim.Superstep{Index: v.step, Start: c, Cycles: min(16, n-c)})
		}
		v.pes[c%2].Busy++
		v.words[0] += 0.25
		rec.Cycle(v)
	}
	res := &sim.Result{Cycles: n, Supersteps: len(steps), PerPE: v.pes, ResultSHA256: "00", PerSuperstep: steps,
		Links: []sim.LinkStats{{From: 0, To: 1, Words: v.words[0]}, {From: 1, To: 0}}}
	if err := rec.Close(res); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestTraceReadWorkIsLinear reads traces at two lengths, compressed and
// plain, and a trace whose every record is padded with blanks: the bytes
// allocated per input byte must not grow with the input (allocations are
// deterministic; this is no timing test). A compressed trace expands at
// most about a thousand times (deflate's limit), so this bounds the work
// per byte of a trace file of either kind.
func TestTraceReadWorkIsLinear(t *testing.T) {
	shapes := func(n int64) map[string][]byte {
		gz := longTrace(t, n)
		plain := gunzip(t, gz)
		padded := bytes.ReplaceAll(plain, []byte(`{"t":`), []byte(`{`+strings.Repeat(" ", 200)+`"t":`))
		return map[string][]byte{"compressed": gz, "plain": plain, "padded": padded}
	}
	perByte := func(src []byte) float64 {
		return testenv.AllocatedPerByte(len(src), func() { _, _ = sim.OpenTrace(bytes.NewReader(src)) })
	}
	small, large := shapes(500), shapes(4000)
	for _, name := range []string{"compressed", "plain", "padded"} {
		s, l := perByte(small[name]), perByte(large[name])
		t.Logf("%s: bytes allocated per input byte: %.1f at 500 samples, %.1f at 4,000", name, s, l)
		if l > 2*s+16 {
			t.Errorf("%s: bytes allocated per input byte: %.1f at 500 samples, %.1f at 4,000: not linear", name, s, l)
		}
	}
	if _, err := sim.OpenTrace(bytes.NewReader(large["plain"])); err != nil {
		t.Fatal(err)
	}
}
