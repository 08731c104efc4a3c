package model

// The gather unit issues one message per cycle, but a message whose
// destination (or, for the aliased detector, whose detector slot) was
// issued fewer than hold cycles ago waits until hold cycles have passed
// since that issue. A vertex that receives a large share of a PE's
// messages in a superstep (a hub) therefore stalls its PE: with the f32
// adder of PageRank (gather latency 6) and a hub taking a third of the
// messages, every message costs on average 1.9 cycles.

// Hazard describes a PE's gather hazard detector.
type Hazard struct {
	// Hold is the number of cycles after an issue during which a message
	// for the same vertex (or slot) may not issue: the gather kernel's
	// latency with the generated PE's exact detector and bypass, latency
	// + 1 for the paper's detector.
	Hold int
	// Slots is 0 for the exact detector (one slot per vertex); otherwise
	// the number of aliased flags, indexed by the low bits of the
	// destination's local index.
	Slots int
}

// HazardSlots is the size of the paper's aliased detector (and the
// generated PE's with hand-written kernels).
const HazardSlots = 32

// HazardFor returns the detector of a PE design for a kernel with the
// given gather latency; handWritten kernels keep the paper's detector in
// the generated PE, because the generator does not know their latency.
func HazardFor(d PEDesign, gatherLatency int, handWritten bool) Hazard {
	if d != PEPaper && !handWritten {
		return Hazard{Hold: max(gatherLatency, 1)}
	}
	return Hazard{Hold: gatherLatency + 1, Slots: HazardSlots}
}

// slotsFor returns the slots of a PE with n vertices: the power of two
// that covers n, at most Slots (the slot is the low bits of the local
// index).
func (h Hazard) slotsFor(n int) int {
	s := 1
	for s < n && s < h.Slots {
		s *= 2
	}
	return s
}

// stallPerMessage returns the expected stall cycles per message of a PE
// whose messages in one superstep fall on slots with counts counts (a
// slot: a vertex for the exact detector) out of total messages, arriving
// in random order with the gather unit saturated.
//
// For a message to slot s, the previous one to s came k messages earlier
// with probability p(1-p)^(k-1), p = counts[s]/total; the k-1 messages
// in between issued one per cycle plus their own stalls, so the message
// waits max(0, hold - k - stalls between). The stalls between are taken
// at their mean over the other slots, which makes this a fixed point: a
// stall lets older issues expire, which is why the plain sum over k
// over-counts the aliased detector's stalls by a third.
func (h Hazard) stallPerMessage(counts []int64, total int64) float64 {
	if h.Hold <= 1 || total <= 0 {
		return 0
	}
	tot := float64(total)
	// Stalls are charged per slot: e[s] is the mean stall of a message to s.
	e := make([]float64, len(counts))
	sigma := 0.0
	for iter := 0; iter < 12; iter++ {
		next := 0.0
		for s, c := range counts {
			if c == 0 {
				continue
			}
			p := float64(c) / tot
			other := 0.0
			if c < total {
				other = (sigma*tot - float64(c)*e[s]) / (tot - float64(c))
				other = max(other, 0)
			}
			e[s] = waitAfter(h.Hold, p, other)
			next += float64(c) * e[s]
		}
		next /= tot
		if abs(next-sigma) < 1e-9 {
			sigma = next
			break
		}
		sigma = next
	}
	return sigma
}

// waitAfter is the mean wait of a message to a slot that takes a share p
// of the messages, when every other message costs 1 + other cycles.
func waitAfter(hold int, p, other float64) float64 {
	w, q := 0.0, p
	for k := 1; k < hold; k++ {
		gap := float64(k) + float64(k-1)*other
		if gap >= float64(hold) {
			break
		}
		w += q * (float64(hold) - gap)
		q *= 1 - p
	}
	return w
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
