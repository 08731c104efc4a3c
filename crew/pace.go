package crew

// Pace keeps a crew's helpers from costing more than they bring. On a
// machine whose other cores are busy a helper's thread runs in slices
// between other processes': it comes late to most windows, spins for
// windows it misses, and the caller waits for the units it holds, so two
// cores ran a third slower than one (fast detail, PR, one core taken by
// another process). Over each round of windows it counts the units the
// helpers stepped; after a round in which they stepped fewer than two
// thirds of their share, the caller steps the next windows alone (the
// helpers park) and tries the crew again, the rest doubling after each
// such round up to maxRest rounds' worth of paceRound windows. The zero
// Pace has rounds of paceRound windows; Round sets another length (cycle
// detail's cycles, see StartCycles).
type Pace struct {
	windows, units, helped int
	rest, backoff          int
	// Rested counts the windows the caller stepped alone.
	Rested int
	// Round is the number of windows a round counts (0: paceRound).
	Round int
}

const (
	paceRound = 64
	maxRest   = 4096
)

// RestFor has the caller step the next n windows alone (tests start a
// crew resting with it).
func (p *Pace) RestFor(n int) { p.rest = n }

// Resting reports whether the caller steps this window alone.
func (p *Pace) Resting() bool {
	if p.rest > 0 {
		p.rest--
		p.Rested++
		return true
	}
	return false
}

// Count records a crew's window of n units, helped of them stepped by
// the helpers of a crew of workers cores.
func (p *Pace) Count(n, helped, workers int) {
	p.windows++
	p.units += n
	p.helped += helped
	round := p.Round
	if round == 0 {
		round = paceRound
	}
	if p.windows < round {
		return
	}
	if 3*workers*p.helped < 2*(workers-1)*p.units {
		p.backoff = min(max(2*p.backoff, round), maxRest*round/paceRound)
		p.rest = p.backoff
	} else {
		p.backoff = 0
	}
	p.windows, p.units, p.helped = 0, 0, 0
}
