package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refPipe is the message FIFO and gather unit stepped message by message
// with the recurrences msgPipe's closed forms stand for: scatter writes
// entry k at max(its own next cycle, the read of entry k-cap); gather
// reads it at max(the cycle after the previous read, vis after the write,
// hold after the last read of the same key).
type refPipe struct {
	cap         int
	vis, hold   int64
	reads       []int64
	gFree, last int64
	keyFree     map[uint32]int64
	stalls      int64
}

func (r *refPipe) emit(start int64, keys []uint32) (first, last int64) {
	e := start - 1
	for i, k := range keys {
		free := int64(never)
		if n := len(r.reads); n >= r.cap {
			free = r.reads[n-r.cap]
		}
		e = max(e+1, free)
		if i == 0 {
			first = e
		}
		g := max(r.gFree, e+r.vis)
		if r.hold > 1 {
			if f, ok := r.keyFree[k]; ok && f > g {
				r.stalls += f - g
				g = f
			}
			r.keyFree[k] = g + r.hold
		}
		r.reads = append(r.reads, g)
		r.gFree, r.last = g+1, g
	}
	return first, e
}

// TestMsgPipeMatchesRecurrence drives msgPipe and the message-by-message
// recurrence with the same random lists (distinct keys within a list for
// the exact detector, repeating slots for the aliased one, gaps and
// bursts, apply sweeps that hold gather back) and compares every write
// and read, with the keys stored at each width.
func TestMsgPipeMatchesRecurrence(t *testing.T) {
	for _, w := range []struct {
		name    string
		largest uint32
	}{{"8", math.MaxUint8}, {"16", math.MaxUint16}, {"32", math.MaxUint32}} {
		t.Run(w.name, func(t *testing.T) { testMsgPipe(t, w.largest) })
	}
}

// testMsgPipe is TestMsgPipeMatchesRecurrence with keys stored at the
// width newHazardKeys chooses for largest.
func testMsgPipe(t *testing.T, largest uint32) {
	for _, tc := range []struct {
		name  string
		hz    hazard
		sl    int
		slots int
	}{
		{"no detector", hazard{exact: true, hold: 1}, 0, 0},
		{"exact hold 6", hazard{exact: true, hold: 6}, 2, 0},
		{"exact hold 9", hazard{exact: true, hold: 9}, 1, 0},
		{"exact hold 12 (per key)", hazard{exact: true, hold: 12}, 0, 0},
		{"aliased hold 2", hazard{hold: 2}, 0, 32},
		{"aliased hold 7", hazard{hold: 7}, 3, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(tc.hz.hold)))
			p := &Params{ScatterLatency: tc.sl}
			mp := newMsgPipe(p, tc.hz, 4096)
			ref := &refPipe{cap: MsgFIFODepth + tc.sl, vis: int64(max(tc.sl, 1)), hold: tc.hz.hold, keyFree: map[uint32]int64{}, last: never}
			start := int64(0)
			for list := 0; list < 3000; list++ {
				n := 1 + r.IntN(4)
				if r.IntN(10) == 0 {
					n = 1 + r.IntN(40)
				}
				keys := make([]uint32, n)
				seen := map[uint32]bool{}
				for i := range keys {
					for {
						k := uint32(r.IntN(max(12, 2*n))) // few keys: many hazards
						if tc.slots > 0 {
							k %= uint32(tc.slots)
						}
						if tc.slots > 0 || !seen[k] {
							keys[i], seen[k] = k, true
							break
						}
					}
				}
				if tc.slots == 0 && tc.hz.exact {
					// The exact detector sees vertex ids, sorted in a list.
					sortKeys(keys)
				}
				if r.IntN(50) == 0 {
					// An apply sweep holds gather back.
					sweep := ref.gFree + int64(r.IntN(200))
					mp.gFree, ref.gFree = sweep, sweep
				}
				start += int64(r.IntN(6))
				mp.keys = newHazardKeys(n, largest)
				for i, k := range keys {
					mp.keys.set(uint32(i), k)
				}
				// Half the lists go in one piece (the walker), half in words
				// of 1 to 4 edges with gaps between them (the off-chip
				// unpacker), each word told how many of the list follow.
				epw := n
				if r.IntN(2) == 0 {
					epw = 1 + r.IntN(4)
				}
				for lo := 0; lo < n; lo += epw {
					hi := min(lo+epw, n)
					f1, l1 := mp.emit(start, hi-lo, uint32(lo), lo, n-hi)
					f2, l2 := ref.emit(start, keys[lo:hi])
					if f1 != f2 || l1 != l2 || mp.gFree != ref.gFree || mp.lastMsg != ref.last {
						t.Fatalf("list %d (%v from %d, edges %d..%d): writes %d..%d, reference %d..%d; gather free %d, reference %d", list, keys, start, lo, hi, f1, l1, f2, l2, mp.gFree, ref.gFree)
					}
					start = l1 + 1 + int64(r.IntN(3))
				}
			}
			if mp.stalls != ref.stalls {
				t.Errorf("stalls %d, reference %d", mp.stalls, ref.stalls)
			}
			t.Logf("%d messages, %d stall cycles", len(ref.reads), ref.stalls)
		})
	}
}

func sortKeys(k []uint32) {
	for i := 1; i < len(k); i++ {
		for j := i; j > 0 && k[j] < k[j-1]; j-- {
			k[j], k[j-1] = k[j-1], k[j]
		}
	}
}

// TestTakeAtClosedForm: the lookup stage takes a run of updates with
// empty lists one per cycle, none before the cycle after its write; takeAt
// gives the same cycle as taking them one by one.
func TestTakeAtClosedForm(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for trial := 0; trial < 200; trial++ {
		q := &fastPE{lastT: int64(r.IntN(100)), lastIdx: int64(r.IntN(10)), release: int64(r.IntN(200))}
		a := q.lastT - int64(r.IntN(20))
		prev := max(q.lastT+1, q.release) - 1 // so that the first empty update needs release
		for m := q.lastIdx + 1; m < q.lastIdx+40; m++ {
			a += int64(1 + r.IntN(3))
			step := max(a+1, prev+1)
			if m == q.lastIdx+1 {
				step = max(a+1, q.lastT+1, q.release)
			}
			if got := q.takeAt(a, m); got != step {
				t.Fatalf("trial %d, update %d written at %d: takeAt %d, one by one %d", trial, m, a, got, step)
			}
			prev = step
		}
	}
}
