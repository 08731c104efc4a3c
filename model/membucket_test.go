package model

import "testing"

// TestMemGrants: MemGrants' grants per cycle and gap are those of the
// cycle-level machine's token bucket (refilled by r up to max(r, 1), a
// token per word), stepped cycle by cycle with as many requests as PEs.
func TestMemGrants(t *testing.T) {
	for _, r := range []float64{7.77, 3.58, 2.5, 1, 0.999, 0.72, 0.3, 0.1} {
		mr := NewMemGrants(r)
		tok, last := 0.0, int64(-1)
		for c := int64(0); c < 500; c++ {
			tok = min(tok+r, max(r, 1))
			n := 0
			for ; n < 9 && tok >= 1; n++ {
				tok--
			}
			switch {
			case n == 0:
				if c-last >= mr.Gap {
					t.Fatalf("rate %g: no grant in cycle %d, %d after the last (gap %d)", r, c, c-last, mr.Gap)
				}
			case n != mr.PerCycle || c-last < mr.Gap:
				t.Fatalf("rate %g: %d grants in cycle %d, %d after the last; MemGrants: %d per cycle, gap %d", r, n, c, c-last, mr.PerCycle, mr.Gap)
			default:
				last = c
			}
		}
	}
}
