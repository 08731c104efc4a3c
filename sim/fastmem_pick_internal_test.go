package sim

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/model"
)

// TestMemPickRotation: the PEs memSched.pick grants in a contended cycle,
// and their order, are those of the cycle-level arbiter's scan (PE c mod
// nP first when more ask than the bucket grants, PE 0 first otherwise),
// and those it does not grant ask again in the next cycle; on random sets
// of asking PEs, across the bit words of the mask.
func TestMemPickRotation(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 9, 63, 64, 65, 130} {
		for _, per := range []int{1, 2, 7, n - 1, n} {
			if per < 1 || per > n {
				continue
			}
			t.Run(fmt.Sprintf("%dPEs/%dper", n, per), func(t *testing.T) {
				for range 300 {
					s := &memSched{rate: model.MemGrants{PerCycle: per, Gap: 1}, pes: make([]memPE, n), ready: make([]int64, n), ask: make([]uint64, (n+63)/64)}
					c := rng.Int64N(1000)
					var asking []int
					for i := range n {
						s.ready[i] = c + 1 + rng.Int64N(3)
						if rng.IntN(4) != 0 {
							s.ready[i] = c
							s.list = append(s.list, int32(i))
							asking = append(asking, i)
						} else if rng.IntN(2) == 0 {
							s.list = append(s.list, int32(i)) // busy, asking later
						}
					}
					rng.Shuffle(len(s.list), func(a, b int) { s.list[a], s.list[b] = s.list[b], s.list[a] })
					if len(asking) == 0 {
						continue
					}
					before := slices.Clone(s.ready)
					got, k := s.asking()
					if got != c || k != len(asking) {
						t.Fatalf("asking: cycle %d, %d PEs; want %d, %d", got, k, c, len(asking))
					}
					grant := slices.Clone(s.pick(c, k))
					want, again := scanArbiter(before, c, n, per)
					if !slices.Equal(grant, want) {
						t.Fatalf("cycle %d, asking %v: granted %v, want %v", c, asking, grant, want)
					}
					for _, i := range again {
						if s.ready[i] != c+1 {
							t.Fatalf("cycle %d: PE %d not granted asks at %d, want %d", c, i, s.ready[i], c+1)
						}
					}
				}
			})
		}
	}
}

// scanArbiter is the cycle-level arbiter's scan over the PEs asking in
// cycle c (ready[i] == c): the ones it grants, in order, and the ones it
// turns away.
func scanArbiter(ready []int64, c int64, n, per int) (grant []int32, again []int) {
	asking := 0
	for _, r := range ready {
		if r == c {
			asking++
		}
	}
	first := 0
	if asking > per {
		first = int(c % int64(n))
	}
	for k := range n {
		j := (first + k) % n
		if ready[j] != c {
			continue
		}
		if len(grant) == per {
			again = append(again, j)
			continue
		}
		grant = append(grant, int32(j))
	}
	return grant, again
}

// TestMemScanPathsAgree runs fast detail on random contended designs
// twice, once as it runs and once with the asking PEs' mask a word wider
// than the PEs need, which takes the scheduler's general loops (asking's
// scan, pick across words, resolve's loop over the busy list) instead of
// the one-word ones (asking64, uncontended64), and requires every result
// to be the same field by field.
func TestMemScanPathsAgree(t *testing.T) {
	bd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	kernels := []string{"pr", "wcc", "bfs", "sssp"}
	for n := range 8 {
		kname := kernels[n%len(kernels)]
		fpgas, pes := 1+rng.IntN(4), 2+rng.IntN(11)
		rate := 0.4 + rng.Float64()*float64(pes-1)*0.8 // below a word per PE: the memory binds
		spec := fmt.Sprintf("rmat:scale=%d,ef=%d,seed=%d", 8+rng.IntN(3), 4+rng.IntN(13), rng.IntN(100))
		pe := PEGenerated
		if rng.IntN(3) == 0 {
			pe = PEPaper
		}
		t.Run(fmt.Sprintf("%s/%s/%dx%d/%s/%.2f", kname, spec, fpgas, pes, pe, rate), func(t *testing.T) {
			k, g := loadCase(t, kname, spec)
			s := &Setup{Board: bd, Kernel: k, Graph: g, FPGAs: fpgas, PEs: pes, Mem: model.OffChip, PE: pe, Filter: true, Detail: Fast}
			p := prepare(t, s)
			p.MemWordsPerCycle = rate
			var res [2]*Result
			for i := range res {
				f := newFastM(context.Background(), s, p)
				for _, ms := range f.fm.mem {
					if ms == nil {
						t.Fatal("the memory never binds")
					}
					if i == 1 {
						ms.ask = make([]uint64, len(ms.ask)+1)
					}
				}
				ref, err := f.run(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				res[i] = f.result(ref)
			}
			if !reflect.DeepEqual(res[0], res[1]) {
				t.Fatalf("one-word paths: %d cycles %v; general: %d cycles %v", res[0].Cycles, res[0].PerSuperstep, res[1].Cycles, res[1].PerSuperstep)
			}
		})
	}
}
