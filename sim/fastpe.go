package sim

import (
	"math"

	"github.com/gravf-tui/gravf-tui/model"
)

// never is a time earlier than any cycle of a run.
const never = math.MinInt64 / 4

// fastPE is one processing element at fast detail. Instead of stepping
// the PE's units every cycle it computes, item by item, the cycle at which
// each unit handles each item, with the max-plus recurrences of the units'
// rules in machine.go: a unit takes an item at the latest of the cycle the
// item reaches it, the cycle after it took the previous one and the cycle
// the unit downstream frees a FIFO slot for it. The items are the updates
// (and barrier markers) in the order the crossbar writes them into the
// PE's input FIFO, and the messages in the order scatter emits them.
//
// An update whose list on this PE is empty costs the lookup stage one
// cycle and nothing else, so such runs are not visited one by one: the
// stage's state (the cycle it took its last item, that item's position in
// the FPGA's crossbar order, and the cycle from which it may take the next
// update) gives the take cycle of any later empty update in closed form
// (takeAt). Likewise the messages of a list follow each other at one per
// cycle once they can no longer meet a hazard, so only a list's first few
// messages are visited one by one (msgPipe.emit).
type fastPE struct {
	id, fpga int
	members  int // local vertices: one apply sweep

	// Lookup stage (BRAM) or latch stage (off-chip).
	lastT   int64 // the cycle it took its last item
	lastIdx int64 // that item's position in the FPGA's crossbar order
	release int64 // the cycle from which it may take the next update

	// Walker (BRAM) or unpacker (off-chip): the cycle it read its last
	// edge.
	walkEnd int64
	// Off-chip: the cycle each of the last InFlight words was handed to
	// the unpacker (oldest at wordHead), and words requested so far.
	wordPop  []int64
	wordHead int
	words    int64

	msgPipe

	// Barrier counter of the current round.
	bcSeen int
	bcHalt bool

	// Rounds: the round being gathered, the cycle its apply sweep began
	// (the cycle gather read the previous round's last barrier), and the
	// cycle the lookup stage passed its last barrier.
	round    int
	applyAt  int64
	passedAt int64
	done     bool
	doneAt   int64

	apply int64 // apply sweep cycles so far
}

func newFastPE(id, fpga, members int, p *Params, hz hazard, keys hazardKeys) *fastPE {
	q := &fastPE{id: id, fpga: fpga, members: members, lastT: never, lastIdx: -1, release: never, walkEnd: never,
		bcHalt: true, applyAt: -1, passedAt: -1}
	q.wordPop = make([]int64, max(p.InFlight, 1))
	for i := range q.wordPop {
		q.wordPop[i] = never
	}
	q.msgPipe = newMsgPipe(p, hz, members)
	q.keys = keys
	// Round 0's sweep runs from cycle 0; gather reads from its end.
	q.gFree = int64(members) + 1
	q.apply = int64(members) + 1
	return q
}

// takeAt returns the cycle the lookup (latch) stage takes the update at
// position m of the FPGA's crossbar order, written into the input FIFO in
// cycle a, when every update since its last item had an empty list here:
// one per cycle, none before the cycle after its arrival, the first not
// before release.
func (q *fastPE) takeAt(a, m int64) int64 {
	return max(a+1, max(q.lastT+1, q.release)+(m-q.lastIdx-1))
}

// key is takeAt without the arrival term, less m: the most loaded PE of an
// FPGA (the largest key) decides when the crossbar's write into every
// input FIFO finds room.
func (q *fastPE) key() int64 { return max(q.lastT+1, q.release) - q.lastIdx - 1 }

// msgPipe is a PE's message FIFO and gather unit. The FIFO holds cap =
// MsgFIFODepth + ScatterLatency entries, so scatter may write entry k
// once gather has read entry k-cap; gather reads one entry per cycle, an
// entry no earlier than vis cycles after it was written, a message not
// while the hazard detector holds it.
//
// Both detectors hold a message for hold cycles after the read of an
// earlier one with the same key: the vertex for the generated PE's exact
// detector, the low bits of the local index for the paper's aliased one
// (fastEdges gives every edge its key, keys). As gather reads one entry per
// cycle, only the last hold-1 messages can hold the next. For the exact
// detector msgPipe keeps those in a window (model.HazardWindow, which the
// prediction's recursion uses too), whose count of keys by bucket lets
// most messages skip the comparison and emit tell that a list meets none
// of them. The aliased detector, whose keys are a few slots, and an exact
// one deeper than model.HazardWindowMax keep one
// opening cycle per key instead (slotFree): the cycle after the last read
// of the key plus hold, which is the same bound, as reads only move
// forward and a read hold-1 reads back no longer holds anything.
type msgPipe struct {
	ring    []int64 // the gather cycle of the last cap entries, oldest at head
	head    int
	gFree   int64 // the first cycle gather may read the next entry
	lastMsg int64 // the cycle gather read its last message
	vis     int64
	hold    int64
	// detect is false when no message ever waits (hold <= 1: the exact
	// detector of a latency-1 gather kernel). distinct says the keys of a
	// list differ (vertices), so only its first hold-1 messages can wait.
	detect, distinct bool
	win              model.HazardWindow
	slotFree         []int64    // by key, for the aliased detector and when the window is too short
	keys             hazardKeys // every edge's, in the layout's edge order
	msgs             int64
	stalls           int64 // cycles gather waited on the detector
}

func newMsgPipe(p *Params, hz hazard, members int) msgPipe {
	return newPipe(MsgFIFODepth+p.ScatterLatency, int64(max(p.ScatterLatency, 1)), hz, members)
}

// newPipe returns a FIFO of depth entries, each visible to gather vis
// cycles after it is written, in front of a gather unit with detector hz.
func newPipe(depth int, vis int64, hz hazard, members int) msgPipe {
	mp := msgPipe{ring: make([]int64, depth), lastMsg: never, vis: vis, hold: hz.hold}
	for i := range mp.ring {
		mp.ring[i] = never
	}
	if hz.hold <= 1 {
		return mp
	}
	mp.detect = true
	mp.distinct = hz.exact && hz.hold-1 <= model.HazardWindowMax
	if mp.distinct {
		mp.win = model.NewHazardWindow(hz.hold)
		return mp
	}
	mp.slotFree = make([]int64, max(hz.slots(members), 1))
	for i := range mp.slotFree {
		mp.slotFree[i] = never
	}
	return mp
}

// push records that gather reads the next entry in cycle g.
func (mp *msgPipe) push(g int64) {
	mp.ring[mp.head] = g
	if mp.head++; mp.head == len(mp.ring) {
		mp.head = 0
	}
	mp.gFree = g + 1
}

// held returns the first cycle from g on in which the detector lets a
// message with key k through, and records that gather reads it then.
func (mp *msgPipe) held(g int64, k uint32) int64 {
	if s := mp.slotFree; s != nil {
		g = max(g, s[k])
		s[k] = g + mp.hold
		return g
	}
	return mp.win.Issue(k, g)
}

// clearKeys reports whether no key of a list's first messages is in the
// window (by its bucket, so a collision of buckets only costs a visit):
// the detector then holds none of them, as the list's own keys differ and
// the window only loses keys while they pass.
func clearKeys[K hazardKey](mp *msgPipe, keys []K) bool {
	for _, k := range keys {
		if mp.win.MayHold(uint32(k)) {
			return false
		}
	}
	return true
}

// emit writes n messages into the FIFO, one per cycle from cycle start on,
// and gathers them; edge is the first one's edge in the layout's order
// (the place of its key in keys), pos its place in its edge list and rest
// the number of the list's messages that follow them. It returns the
// cycles of the first and the last write. Messages the detector may hold
// are visited one by one; the rest follow in closed form (emitRun).
func (mp *msgPipe) emit(start int64, n int, edge uint32, pos, rest int) (first, last int64) {
	if !mp.detect {
		return mp.emitRun(start, n)
	}
	end := edge + uint32(n)
	switch k := &mp.keys; {
	case k.k8 != nil:
		return emitKeys(mp, start, k.k8[edge:end], pos, rest)
	case k.k16 != nil:
		return emitKeys(mp, start, k.k16[edge:end], pos, rest)
	}
	return emitKeys(mp, start, mp.keys.k32[edge:end], pos, rest)
}

// emitKeys is emit with the detector's keys of the n messages, at the
// width they are stored in.
func emitKeys[K hazardKey](mp *msgPipe, start int64, keys []K, pos, rest int) (first, last int64) {
	n := len(keys)
	p := n
	if mp.distinct {
		p = min(n, max(mp.win.Len()-pos, 0))
		if p > 0 && mp.lastMsg+mp.hold <= max(mp.gFree, max(start, mp.ring[mp.head])+mp.vis) {
			// Gather reads the first of them no earlier than the
			// detector's hold after its last message: none can wait.
			p = 0
		} else if clearKeys(mp, keys[:p]) {
			p = 0
		}
	}
	first, e := never, start-1
	if p > 0 {
		first, e = emitHeld(mp, start, keys[:p])
		if p == n {
			return first, e
		}
	}
	f, l := mp.emitRun(e+1, n-p)
	if p == 0 {
		first = f
	}
	// Later lists may meet the last hold-1 messages in the detector: the
	// window needs those of these that rest does not displace (one read
	// per cycle, so a message hold-1 reads back no longer holds any).
	for j := max(p, n-(mp.win.Len()-rest)); j < n; j++ {
		mp.win.Remember(uint32(keys[j]), mp.lastMsg-int64(n-1-j))
	}
	return first, l
}

// emitHeld is emit for messages the detector may hold, one by one: scatter
// writes entry i at max(the cycle after entry i-1, the read of entry
// i-cap), gather reads it at max(the cycle after the previous read, vis
// after the write, the detector's hold). The FIFO's state stays in locals
// through the loop, the fast model's innermost.
func emitHeld[K hazardKey](mp *msgPipe, start int64, keys []K) (first, last int64) {
	ring, head, gFree, vis := mp.ring, mp.head, mp.gFree, mp.vis
	slot, hold := mp.slotFree, mp.hold
	var stalls int64
	e := start - 1
	for i, k := range keys {
		e = max(e+1, ring[head])
		if i == 0 {
			first = e
		}
		g := max(gFree, e+vis)
		var h int64
		if slot != nil {
			h = max(g, slot[k])
			slot[k] = h + hold
		} else {
			h = mp.win.Issue(uint32(k), g)
		}
		stalls += h - g
		ring[head] = h
		if head++; head == len(ring) {
			head = 0
		}
		gFree = h + 1
	}
	mp.head, mp.gFree, mp.lastMsg = head, gFree, gFree-1
	mp.stalls += stalls
	mp.msgs += int64(len(keys))
	return first, e
}

// emitRun is emit for k messages that no hazard can hold. Gather then
// reads them one per cycle from the first (G_i = G_0 + i): while scatter
// is the slower, the message FIFO drains as fast as it fills; while
// gather is, it stays full and scatter waits on it. Scatter writes entry
// i at e_i = max(e_{i-1}+1, G_{i-cap}), and as G_j - j never decreases,
// the last write is max(e_0+k-1, G_{k-1-cap}).
func (mp *msgPipe) emitRun(start int64, k int) (first, last int64) {
	c := len(mp.ring)
	e0 := max(start, mp.ring[mp.head])
	g0 := max(mp.gFree, e0+mp.vis)
	last = e0 + int64(k-1)
	if k-1 < c {
		idx := mp.head + k - 1
		if idx >= c {
			idx -= c
		}
		last = max(last, mp.ring[idx])
	} else {
		last = max(last, g0+int64(k-1-c))
	}
	m := min(k, c)
	idx := mp.head + k - m
	if idx >= c {
		idx %= c
	}
	for j := k - m; j < k; j++ {
		mp.ring[idx] = g0 + int64(j)
		if idx++; idx == c {
			idx = 0
		}
	}
	mp.head = idx
	mp.gFree = g0 + int64(k)
	mp.lastMsg = g0 + int64(k-1)
	mp.msgs += int64(k)
	return e0, last
}

// fastMachine is what a fastPE needs of the system: parameters, the PE
// design's rules and the FPGAs' memory schedulers (nil where the memory
// never binds).
type fastMachine struct {
	p        *Params
	hold     int64 // the detector's hold, which also flushes gather before a barrier
	prefetch bool  // the generated PE's lookup stage (BRAM)
	offchip  bool
	fold     int64 // the globals' fold after the last marker (fastRounds.fold)
	mem      []*memSched
}

// takeUpdate processes update m with a list of n edges on this PE, from
// edge on in the layout's order, written into the input FIFO in cycle a.
func (fm *fastMachine) takeUpdate(q *fastPE, a, m int64, edge uint32, n int) {
	t := q.takeAt(a, m)
	q.lastT, q.lastIdx = t, m
	switch {
	case fm.offchip:
		q.release = fm.fetch(q, t, edge, n)
	case fm.prefetch:
		fm.walkPrefetch(q, t, edge, n)
	default:
		// The paper's PE: the walker reads the list from the cycle after
		// the lookup, and the next input waits until it is done.
		_, q.walkEnd = q.emit(t+1, n, edge, 0, 0)
		q.release = q.walkEnd + 1
	}
}

// walkPrefetch is the generated PE's walker with its lookup stage: a list
// looked up in cycle t is handed to the walker in the cycle the walker
// reads the previous list's last edge (its first edge follows in the next
// cycle), or, when the walker is idle by then, in the cycle it reads the
// list's first edge; either way the lookup stage is free from that cycle.
func (fm *fastMachine) walkPrefetch(q *fastPE, t int64, edge uint32, n int) {
	if q.walkEnd >= t+1 {
		q.release = q.walkEnd
		_, q.walkEnd = q.emit(q.walkEnd+1, n, edge, 0, 0)
		return
	}
	q.release, q.walkEnd = q.emit(t+1, n, edge, 0, 0)
}

// fetch is the off-chip scatter unit where the memory never binds: the
// latch stage takes the update in cycle t and requests the list's words,
// one per cycle from t+1, each no earlier than a free request slot (fewer
// than InFlight words between request and unpacking). It returns the
// cycle of the last request, from which the latch stage may take the next
// update. Where the memory binds, memSched grants the same words in time
// order instead.
func (fm *fastMachine) fetch(q *fastPE, t int64, edge uint32, n int) int64 {
	r := t
	for lo := 0; lo < n; {
		r = max(r+1, q.wordPop[q.wordHead])
		lo = fm.word(q, r, edge, lo, n)
	}
	return r
}

// word is the off-chip scatter unit's word of a list of n edges (from edge
// on in the layout's order) that starts at the list's edge lo, requested
// in cycle r: it arrives MemLatency cycles later and the unpacker hands
// its edges on one per cycle, the first in the cycle it takes the word
// (once the previous word's edges are out). It returns the list's first
// edge of the next word.
func (fm *fastMachine) word(q *fastPE, r int64, edge uint32, lo, n int) int {
	hi := min(lo+fm.p.EdgesPerWord, n)
	pop := max(r+int64(fm.p.MemLatency), q.walkEnd+1)
	q.wordPop[q.wordHead] = pop
	if q.wordHead++; q.wordHead == len(q.wordPop) {
		q.wordHead = 0
	}
	q.words++
	_, q.walkEnd = q.emit(pop, hi-lo, edge+uint32(lo), lo, n-hi)
	return hi
}

// takeBarrier processes a barrier marker at position m, written in cycle a
// (aPrev: the write of position m-1). It reports the take cycle, and
// whether the marker was the round's last at this PE (every PE's marker
// counted), in which case the PE passes it behind its messages and gather
// reads it: passedAt, and applyAt for the next round, are then set (and
// done when every marker of the round said halt).
func (fm *fastMachine) takeBarrier(q *fastPE, a, aPrev, m int64, halt bool, nPE int) (int64, bool) {
	base := max(a+1, q.lastT+1)
	if m > q.lastIdx+1 || fm.offchip || !fm.prefetch {
		// Updates since the last item, and (off-chip, the paper's PE) the
		// marker itself, wait for the stage to be free.
		base = q.takeAt(a, m)
	}
	if q.bcSeen+1 < nPE {
		q.bcSeen++
		q.bcHalt = q.bcHalt && halt
		q.lastT, q.lastIdx = base, m
		return base, false
	}
	halt = q.bcHalt && halt
	q.bcSeen, q.bcHalt = 0, true
	t := base
	var push int64 // the cycle the marker enters the message FIFO
	free := q.ring[q.head]
	switch {
	case fm.offchip:
		// Behind the words in the order FIFO: the unpacker passes it on
		// once the last word's edges are out, and takes the next word in
		// a later cycle.
		push = max(t+1, q.walkEnd+1, free)
		q.walkEnd = push
	case fm.prefetch:
		// Both stages idle and the last edge queued a cycle ago.
		t = max(t, q.walkEnd+2, free)
		if m > q.lastIdx+1 {
			prev := q.takeAt(aPrev, m-1)
			t = max(t, prev+2) // the lookup drops an empty list a cycle after taking it
		}
		push = t
	default:
		t = max(t, free)
		push = t
	}
	q.lastT, q.lastIdx = t, m
	q.release = max(q.release, t+1)
	ready := max(push+q.vis, q.gFree)
	g := max(ready, q.lastMsg+fm.hold)
	q.stalls += g - ready // flushing the gather pipeline
	if !halt {
		// The globals of the next superstep are folded from the cycle
		// the last marker was counted.
		g = max(g, t+fm.fold)
	}
	q.push(g)
	q.passedAt = t
	if halt {
		q.done, q.doneAt = true, g
		return t, true
	}
	q.round++
	q.applyAt = g
	q.gFree = g + int64(q.members) + 2 // the sweep, then the marker's cycle
	q.apply += int64(q.members) + 1
	return t, true
}
