package sim_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/gravf-tui/gravf-tui/sim"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// FuzzOpenTrace feeds the reader arbitrary bytes: it must return an error
// or a trace whose invariants hold, never panic, hang or allocate by a
// count it has not checked. The seeds are a valid trace, compressed and
// plain (mutations of the plain form reach the record checks; the CRC is
// only compared at the trailer), and a few broken ones.
func FuzzOpenTrace(f *testing.F) {
	data, _ := synthTrace(f)
	plain := gunzip(f, data)
	f.Add(data)
	f.Add(plain)
	f.Add(plain[:len(plain)/2])
	f.Add([]byte(`{"format":"gravf-trace","version":1,"fpgas":1,"pes":1,"num_pes":1,"clock_hz":1,"interval":1,"links":[]}` + "\n" +
		`{"t":"sample","c":0,"n":1,"s":0,"pe":[[1,0,0,0,0,0,0,0,0,0,0]],"lw":[]}` + "\n" +
		`{"t":"superstep","superstep":0,"start_cycle":0,"cycles":1}` + "\n" +
		`{"t":"summary","cycles":1,"supersteps":1,"per_pe":[{}],"links":[]}` + "\n" +
		`{"t":"end","records":4,"crc32":0}` + "\n"))
	f.Add([]byte(`{"format":"gravf-trace","version":2}` + "\n"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		var tr *sim.Trace
		var err error
		testenv.WithinBudget(t, len(b), func() { tr, err = sim.OpenTrace(bytes.NewReader(b)) })
		if err != nil {
			if tr != nil {
				t.Fatal("a trace and an error")
			}
			return
		}
		m := tr.Meta()
		ss := tr.Samples()
		next := int64(0)
		for i, s := range ss {
			if s.Cycle != next || s.Span < 1 || len(s.PEBusy) != m.NumPEs || len(s.PEStall) != m.NumPEs ||
				len(s.LinkUtil) != len(m.Links) {
				t.Fatalf("sample %d: %+v", i, s)
			}
			next = s.End()
		}
		if len(ss) > 0 {
			if next != tr.Summary().Cycles {
				t.Fatalf("samples end at %d, run at %d", next, tr.Summary().Cycles)
			}
			if i := tr.SeekCycle(next / 2); i < 0 || i >= len(ss) {
				t.Fatalf("SeekCycle %d", i)
			}
			if w := tr.Window(0, next); len(w) != len(ss) {
				t.Fatalf("window holds %d of %d samples", len(w), len(ss))
			}
		}
		if len(tr.Supersteps()) != tr.Summary().Supersteps {
			t.Fatal("superstep count")
		}
		for i := range tr.Supersteps() {
			if start, ok := tr.SeekSuperstep(i); !ok || (start < tr.Summary().Cycles && tr.SuperstepAt(start) < 0) {
				t.Fatalf("superstep %d at %d", i, start)
			}
		}
		if err := tr.WriteChrome(io.Discard); err != nil {
			t.Fatal(err)
		}
	})
}
