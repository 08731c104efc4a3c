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

// HazardWindowMax is the longest hold-1 a HazardWindow follows.
const HazardWindowMax = 8

// HazardWindow is the exact detector of one PE for a short hold (at most
// HazardWindowMax+1 cycles), as fast detail and the prediction's lockstep
// recursion follow it. Gather issues one message per cycle at most, so of
// all earlier messages only the last hold-1 can hold the next: a window of
// their keys (local indices) and issue cycles gives the same waits as a
// table of one entry per local vertex, whose reads miss the cache on large
// graphs. A count of the window's keys by their low six bits lets most
// messages skip the comparisons, and a caller tell that a run of keys
// meets none of them (MayHold). The initial entries are key 0 at a cycle
// long past, which holds nothing.
type HazardWindow struct {
	key    [HazardWindowMax]uint32
	at     [HazardWindowMax]int64
	head   int
	n      int // hold-1
	hold   int64
	bucket [64]uint8
}

// NewHazardWindow returns the window of a detector that holds a vertex
// for hold cycles, 1 < hold <= HazardWindowMax+1.
func NewHazardWindow(hold int64) HazardWindow {
	w := HazardWindow{n: int(max(min(hold-1, HazardWindowMax), 1)), hold: hold}
	for i := range w.at {
		w.at[i] = math.MinInt64 / 4
	}
	w.bucket[0] = uint8(w.n)
	return w
}

// Len returns the number of messages the window follows, hold-1.
func (w *HazardWindow) Len() int { return w.n }

// MayHold reports whether a message for key k may meet the window: false
// means that none of its messages has k.
func (w *HazardWindow) MayHold(k uint32) bool { return w.bucket[k&63] != 0 }

// Issue returns the first cycle from at on in which a message for key k
// may issue, and records that it does.
func (w *HazardWindow) Issue(k uint32, at int64) int64 {
	if w.bucket[k&63] != 0 {
		for i := 0; i < w.n; i++ {
			if w.key[i] == k {
				at = max(at, w.at[i]+w.hold)
			}
		}
	}
	w.Remember(k, at)
	return at
}

// Remember records that a message for key k issued in cycle at, without
// asking whether it waited (the caller knows it did not).
func (w *HazardWindow) Remember(k uint32, at int64) {
	h := w.head
	w.bucket[w.key[h]&63]--
	w.key[h], w.at[h] = k, at
	w.bucket[k&63]++
	if h++; h == w.n {
		h = 0
	}
	w.head = h
}
