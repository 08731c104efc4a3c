package model

import (
	"math"
	"math/rand/v2"

	"github.com/gravf-tui/gravf-tui/arch"
)

// The gather unit issues one message per cycle, but a message whose
// destination (or, for the aliased detector, whose detector slot) was
// issued fewer than hold cycles ago waits until hold cycles have passed
// since that issue. A vertex that receives a large share of a PE's
// messages in a superstep (a hub) therefore stalls its PE: with the f32
// adder of PageRank (gather latency 6), a PE whose messages all go to one
// vertex gathers one message per 6 cycles.

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
const HazardSlots = arch.HazardSlots

// HazardFor returns the detector of a PE design for a kernel with the
// given gather latency; handWritten kernels keep the paper's detector in
// the generated PE, because the generator does not know their latency.
func HazardFor(d PEDesign, gatherLatency int, handWritten bool) Hazard {
	h := arch.DetectorFor(d, gatherLatency, handWritten)
	if h.Exact {
		return Hazard{Hold: h.Hold}
	}
	return Hazard{Hold: h.Hold, Slots: HazardSlots}
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

// stallPerMessage returns the mean stall cycles per message of a PE
// whose messages in one superstep fall on slots with counts counts (a
// slot: a vertex for the exact detector), arriving in random order with
// the gather unit saturated. It runs the detector on one seeded random
// order of exactly these messages: the closed forms over-count (a stall
// lets older issues expire) or need the order's statistics, and the run
// costs one step per message, as counting them did.
func (h Hazard) stallPerMessage(counts []int64, seed uint64) float64 {
	if h.Hold <= 1 {
		return 0
	}
	var stream []int32
	for s, c := range counts {
		for i := int64(0); i < c; i++ {
			stream = append(stream, int32(s))
		}
	}
	if len(stream) == 0 {
		return 0
	}
	r := rand.New(rand.NewPCG(seed, uint64(len(stream))))
	r.Shuffle(len(stream), func(i, j int) { stream[i], stream[j] = stream[j], stream[i] })
	free := make([]int64, len(counts))
	for i := range free {
		free[i] = math.MinInt64 / 2
	}
	hold := int64(h.Hold)
	var now, stalls int64
	for _, s := range stream {
		if free[s] > now {
			stalls += free[s] - now
			now = free[s]
		}
		free[s] = now + hold
		now++
	}
	return float64(stalls) / float64(len(stream))
}
