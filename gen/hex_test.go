package gen

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// packHexSlow is the definition of a packed word: the fields' bits
// concatenated as a bit string, first field first, printed in hex.
func packHexSlow(vals []uint64, ts []kernel.Type, width int) string {
	var bits strings.Builder
	for i, t := range ts {
		fmt.Fprintf(&bits, "%0*b", t.Width, vals[i]&t.Mask())
	}
	v, _ := new(big.Int).SetString("0"+bits.String(), 2)
	return fmt.Sprintf("%0*s", max((width+3)/4, (bits.Len()+3)/4), v.Text(16))
}

func TestPackHex(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		n := 1 + rng.IntN(5)
		var ts []kernel.Type
		var vals []uint64
		sum := 0
		for range n {
			w := 1 + rng.IntN(64)
			ts = append(ts, kernel.Uint(w))
			vals = append(vals, rng.Uint64())
			sum += w
		}
		width := sum + rng.IntN(9)
		if got, want := packHex(vals, ts, width), packHexSlow(vals, ts, width); got != want {
			t.Fatalf("packHex(%x, %v, %d) = %s, want %s", vals, ts, width, got, want)
		}
	}
}

func TestHexWord(t *testing.T) {
	for _, tc := range []struct {
		v     uint64
		width int
	}{{0, 1}, {0, 70}, {0xabc, 4}, {0xabc, 12}, {1, 9}, {^uint64(0), 64}, {^uint64(0), 80}, {1 << 63, 3}} {
		if got, want := hexWord(tc.v, tc.width), fmt.Sprintf("%0*x", (tc.width+3)/4, tc.v); got != want {
			t.Errorf("hexWord(%#x, %d) = %s, want %s", tc.v, tc.width, got, want)
		}
	}
}

// TestWordOr places slots across limb boundaries and compares with big.Int.
func TestWordOr(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 500 {
		slotBits := 1 + rng.IntN(64)
		slots := 1 + rng.IntN(8)
		var x word
		x.reset(slots*slotBits + 64)
		want := new(big.Int)
		for i := range slots {
			v := rng.Uint64() & (1<<uint(slotBits) - 1)
			if slotBits == 64 {
				v = rng.Uint64()
			}
			x.or(v, i*slotBits)
			want.Or(want, new(big.Int).Lsh(new(big.Int).SetUint64(v), uint(i*slotBits)))
		}
		digits := (slots*slotBits + 3) / 4
		if got, w := string(x.appendHex(nil, digits)), fmt.Sprintf("%0*s", digits, want.Text(16)); got != w {
			t.Fatalf("slots of %d bits: %s, want %s", slotBits, got, w)
		}
	}
}
