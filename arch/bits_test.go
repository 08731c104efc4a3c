package arch

import "testing"

// TestBitsRoundTrip: fields packed by OrBits at every offset, including
// those that straddle a limb, read back with ReadBits, masked to their
// widths, without touching their neighbours.
func TestBitsRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		width int
	}{{"one bit", 1}, {"odd", 19}, {"half", 32}, {"straddling", 61}, {"full", 64}} {
		t.Run(tc.name, func(t *testing.T) {
			const n = 40
			limbs := make([]uint64, (n*tc.width+63)/64+1)
			val := func(i int) uint64 { return 0x9E3779B97F4A7C15 * uint64(i+1) }
			mask := ^uint64(0)
			if tc.width < 64 {
				mask = 1<<uint(tc.width) - 1
			}
			for i := range n {
				OrBits(limbs, i*tc.width, val(i), tc.width)
			}
			for i := range n {
				if got, want := ReadBits(limbs, i*tc.width, tc.width), val(i)&mask; got != want {
					t.Fatalf("field %d at bit %d: read %#x, want %#x", i, i*tc.width, got, want)
				}
			}
		})
	}
}
