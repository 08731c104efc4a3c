package model

import "math"

// MemGrants is one FPGA's edge memory bandwidth as the cycle-level
// machine meters it: a token bucket refilled by r words every cycle up to
// max(r, 1) tokens, every word request taking one. With r >= 1 the bucket
// is full again after every refill, so each cycle grants PerCycle =
// floor(r) requests and no more; with r < 1 a grant empties it (it holds
// exactly one token then), and the next is possible Gap refills later,
// counted with the machine's own floating-point steps (0.1 words per
// cycle reach a token after 11 refills, not 10). The simulator's fast
// detail grants by it and the model's prediction reads its rate, so both
// see the words the machine really grants.
type MemGrants struct {
	PerCycle int   // grants per cycle
	Gap      int64 // cycles from one grant to the next possible (1 when r >= 1)
}

// NewMemGrants returns the grants of r words per cycle; none when r <= 0.
func NewMemGrants(r float64) MemGrants {
	switch {
	case !(r > 0):
		return MemGrants{}
	case r >= 1:
		// r - 1 is exact in floating point for 1 <= r < 2^53, so the
		// machine's refill-and-take steps grant exactly floor(r).
		return MemGrants{PerCycle: int(math.Min(math.Floor(r), math.MaxInt32)), Gap: 1}
	case r < 1e-6:
		// No board is that slow; the step count would take a million
		// iterations and differ from the quotient by rounding alone.
		return MemGrants{PerCycle: 1, Gap: int64(math.Ceil(1 / r))}
	}
	k := int64(0)
	for tok := 0.0; tok < 1; k++ {
		tok = min(tok+r, 1)
	}
	return MemGrants{PerCycle: 1, Gap: k}
}

// Rate is the words granted per cycle on average while every cycle asks.
func (g MemGrants) Rate() float64 {
	if g.Gap == 0 {
		return 0
	}
	return float64(g.PerCycle) / float64(g.Gap)
}
