package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// TestPackedStatesRoundTrip: every vertex's fields come back from the
// packed states as the reference run held them, masked to their widths
// (what the images write), for widths that cross word boundaries and a
// whole 64-bit field.
func TestPackedStatesRoundTrip(t *testing.T) {
	for _, widths := range [][]int{{1}, {18, 1}, {32}, {64}, {7, 64, 33, 1}, {63, 2}} {
		t.Run(fmt.Sprint(widths), func(t *testing.T) {
			var l arch.Layout
			for i, w := range widths {
				l.Fields = append(l.Fields, arch.Field{Name: fmt.Sprint("f", i), Width: w})
			}
			rng := rand.New(rand.NewPCG(1, uint64(len(widths))))
			r := &kernel.Result{Fields: len(widths), States: make([]uint64, 301*len(widths))}
			for i := range r.States {
				r.States[i] = rng.Uint64()
			}
			p := packStates(r, l)
			got := make([]uint64, len(widths))
			for v := range uint32(301) {
				want := slices.Clone(r.State(v))
				for i, w := range widths {
					if w < 64 {
						want[i] &= 1<<uint(w) - 1
					}
				}
				if got = p.state(v, got); !slices.Equal(got, want) {
					t.Fatalf("vertex %d: %x, want %x", v, got, want)
				}
			}
		})
	}
}
