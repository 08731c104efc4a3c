package model

import (
	"math"
	"math/bits"
	"slices"

	"github.com/gravf-tui/gravf-tui/crew"
)

// The lockstep recursion of GraVF-M. Every PE sweeps its vertices, one per
// cycle, and queues the updates it issues; each FPGA's crossbar takes them
// in the order they become ready (the same cycle of every PE's sweep in
// PE order, as its round-robin does), moves one per cycle, and writes it
// in the same cycle into the input FIFO of every local PE: when one of
// those FIFOs is full, nothing moves. A PE walking a long list therefore
// holds the broadcast for every PE of its FPGA once eight more items are
// waiting for it. Each PE takes one item per cycle from its FIFO, walks
// the item's local list one edge per cycle into its message FIFO, and
// gathers one message per cycle once its own sweep is done, unless the
// message's vertex (or detector slot) was issued less than the hazard's
// hold ago. The recursion follows every item and every message through
// these units with the exact lists of the partition; only the order in
// which remote updates reach an FPGA is taken as the order in which they
// become ready, and the links and the memory are left to their own
// bounds (see Predict).

// msgRing bounds the message FIFO's slots the recursion follows (a power
// of two: indices wrap with a mask).
const msgRing = 64

// lockstep is the recursion's state for one superstep.
type lockstep struct {
	w     *profiler
	xb    []crossbar
	lanes [][]lane // per FPGA, per local PE
	// lists are the partition's lists split by PE.
	lists *peLists
	// base is the current superstep's cycle 0 in the hazard detectors'
	// entries, past every entry an earlier superstep left (so that no
	// superstep has to clear them, nor check that an entry is its own).
	base int64
	// want[f] lists the items FPGA f's crossbar moves; heads is scratch
	// space for its segments by home FPGA.
	want  [][]int32
	segs  []segment
	nexts []nextItem
	// ordered and start are readyOrder's scratch, kept from superstep to
	// superstep (12 bytes per sender, 8 per cycle of an FPGA's sweeps).
	ordered []readyItem
	start   []int
	// sent holds, per FPGA, the items schedule has yet to forward. cores
	// is how many cores schedule may use: a window's FPGAs are stepped by
	// a crew (package crew) that pace keeps from costing more than it
	// brings; dealt counts the windows it has shared.
	sent  []outbox
	cores int
	pace  crew.Pace
	dealt int
}

// crossbar is one FPGA's crossbar.
//
// A lane takes item j at T(j) = max(t_j+1, T(j-1)+1, free), t_j being the
// cycle the crossbar moved it; a lane without a list for the item takes
// it and is done. Between two lists of a lane, free no longer binds
// after the first item, so T(j) - j = max(t_j+1-j, T(j-1)-(j-1)), and
// t_j+1-j never decreases (the crossbar moves one item per cycle at
// most): T(j) = max(t_j+1, j+lag) with the lane's lag fixed at its last
// list. The crossbar therefore never visits a lane without a list: the
// latest cycle any of its lanes takes item j is max(t_j+1, j+behind),
// behind being the largest lag so far (a lane's lag only grows).
type crossbar struct {
	now   int64 // the cycle of the last move
	items int   // items moved
	// full holds, for each of the last InFIFODepth items, the cycle by
	// which every lane has taken it: the crossbar may not write the item
	// InFIFODepth later before.
	full   [InFIFODepth]int64
	behind int64
	_      [40]byte // a crossbar's own cache lines (see cacheLine)
}

// lane is one PE: its input FIFO, scatter unit, message FIFO and gather.
// Times are cycles from the start of the superstep's sweeps, in integers:
// every latency and depth is a whole number of cycles.
type lane struct {
	pe int
	// last is the cycle the PE took item (the last with a list on it);
	// it takes every later item j at max(t_j+1, j+lag) (see crossbar).
	last int64
	item int
	lag  int64
	free int64 // the scatter unit may take the next item from this cycle
	// walkEnd is the cycle the walker (BRAM) or the unpacker read its
	// last edge.
	walkEnd int64
	// Gather starts after the PE's own sweep (gather); issued holds the
	// issue cycles of the last msgSlots messages (with a hazard detector
	// counted from the lockstep's base, see walkHeld), so the walker may
	// add a message only when the one msgSlots before it has left the
	// FIFO.
	gather   int64
	tg       int64
	issued   [msgRing]int64
	msgs     int
	msgSlots int
	stall    int64 // cycles gather waited on hazards
	// The hazard detector: the first cycle at which a message for each
	// local vertex (the exact detector) or for each slot (the aliased
	// one: the local index's low bits) may issue, counted from the
	// lockstep's base; or, for an exact detector of a short hold, the
	// last messages' keys and issue cycles (recent).
	det    []int64
	recent HazardWindow
	words  int64
	popped []int64 // off-chip: pop cycles of the last InFlight words
	pop    int     // the slot of popped the next word uses (words mod InFlight)
}

func newLockstep(w *profiler) *lockstep {
	nP := w.part.PEs
	lk := &lockstep{w: w, xb: make([]crossbar, w.nF), lists: w.lists, want: make([][]int32, w.nF), cores: w.cores}
	for f := 0; f < w.nF; f++ {
		ls := make([]lane, nP)
		for l := range ls {
			q := f*nP + l
			ls[l].pe = q
			switch h := w.opt.Hazard; {
			case h.Hold <= 1:
			case h.Slots > 0:
				ls[l].det = make([]int64, h.slotsFor(len(w.part.Members[q])))
			case h.Hold-1 <= HazardWindowMax:
				ls[l].recent = NewHazardWindow(int64(h.Hold))
			default:
				ls[l].det = make([]int64, len(w.part.Members[q]))
			}
			if w.opt.Mem == OffChip {
				ls[l].popped = make([]int64, w.opt.InFlight)
			}
		}
		lk.lanes = append(lk.lanes, ls)
	}
	return lk
}

// never is a cycle before any other.
const never = -1 << 60

func (lk *lockstep) reset() {
	w := lk.w
	// Every entry the last superstep left is at most its base plus its
	// last issue and the hold; the entries are compared with issue cycles
	// (at least 0) from the new base.
	base := lk.base
	for f := range lk.lanes {
		for l := range lk.lanes[f] {
			base = max(base, lk.base+lk.lanes[f][l].tg+int64(w.opt.Hazard.Hold)+1)
		}
	}
	lk.base = base
	for f := range lk.xb {
		x := &lk.xb[f]
		x.now, x.items, x.behind = -1, 0, never
		for i := range x.full {
			x.full[i] = -1
		}
		for l := range lk.lanes[f] {
			ln := &lk.lanes[f][l]
			ln.last, ln.item, ln.lag, ln.free, ln.walkEnd, ln.tg = -1, -1, never, 0, -1, -1
			ln.gather = int64(len(w.part.Members[ln.pe]) + 1)
			ln.msgs, ln.stall, ln.words, ln.pop = 0, 0, 0, 0
			ln.msgSlots = min(MsgFIFODepth+w.opt.ScatterLatency, msgRing)
			for i := range ln.issued {
				ln.issued[i] = never
			}
			for i := range ln.popped {
				ln.popped[i] = never
			}
		}
	}
}

// run follows one superstep with the given senders: every FPGA's
// crossbar in the order it takes its items (see schedule).
func (lk *lockstep) run(senders []uint32) {
	w := lk.w
	lk.reset()
	items := lk.readyOrder(senders)
	lk.route(items)
	lk.schedule(items, func(f int, it readyItem, at int64) {
		if it.barrier {
			lk.move(f, at, nil, 0, 0)
			return
		}
		pl := lk.lists
		lk.move(f, at, pl.on(it.rank, f), pl.from(it.rank, f), pl.listAt(it.rank))
	})
	for f := range lk.lanes {
		x := &lk.xb[f]
		items := int64(x.items)
		for l := range lk.lanes[f] {
			ln := &lk.lanes[f][l]
			last := ln.last // when it had a list on the last item
			if ln.item != x.items-1 {
				last = max(x.now+1, items-1+ln.lag)
			}
			w.end[f] = max(w.end[f], float64(max(last+1, x.now+2, ln.tg+1)))
			w.words[ln.pe] = ln.words
			w.stall[ln.pe] = float64(ln.stall)
			w.edges[ln.pe] = int64(ln.msgs)
			sc := max(items, w.edges[ln.pe])
			switch {
			case w.opt.Mem == OffChip:
				sc = max(sc, ln.words)
			case w.opt.PE == PEPaper:
				sc = items + w.edges[ln.pe]
			}
			w.scatter[ln.pe] = float64(sc)
		}
	}
}

// route counts what every FPGA's crossbar and every link carries (an
// update goes to the FPGAs that hold a neighbour, or to every FPGA
// without the filter; a barrier marker to every FPGA) and lists, per
// FPGA, the items its crossbar moves (lk.want, indices into items). Each
// FPGA's list and counts are its own, so the FPGAs are routed on the
// recursion's cores.
func (lk *lockstep) route(items []readyItem) {
	w := lk.w
	nP := w.part.PEs
	for _, it := range items {
		if !it.barrier {
			w.local[int(it.pe)/nP]++
		}
	}
	routeTo := func(f int) {
		want := lk.want[f][:0]
		if cap(want) < len(items) {
			// At most every item: one allocation rather than a doubling
			// that copies and touches twice the pages (the first
			// superstep of a profile, every vertex a sender, sets it).
			want = make([]int32, 0, len(items))
		}
		// The updates from each home FPGA, added to w.link at the end so
		// that the FPGAs routed on other cores do not write the same
		// cache lines item by item.
		from := make([]int64, w.nF)
		for i, it := range items {
			home := int(it.pe) / nP
			if !it.barrier && f != home && w.opt.Filter && len(lk.lists.on(it.rank, f)) == 0 {
				continue
			}
			want = append(want, int32(i))
			if !it.barrier && f != home {
				from[home]++
			}
		}
		lk.want[f] = want
		w.xbar[f] += int64(len(want))
		for h, n := range from {
			w.link[h*w.nF+f] += n
		}
	}
	inPieces(lk.cores, w.nF, func(take func() (int, bool)) {
		for f, ok := take(); ok; f, ok = take() {
			routeTo(f)
		}
	})
}

// schedule calls move for every item every FPGA's crossbar moves, in the
// order the crossbars take them, with the cycle the item is there. An
// FPGA's own items are there when its PEs' sweeps queue them; another
// FPGA's arrive one link latency after that FPGA's crossbar moved them
// (the links' bandwidth is left to the network's bound). A crossbar takes
// an arrived remote item before its own (the simulator's priority),
// remote items in the order they arrive, and, when nothing is there, the
// first item to come. The crossbars are followed together, always the one
// whose next move is earliest: a move sends items that arrive a link
// latency later, so every arrival a crossbar's choice depends on is known
// when it chooses.
func (lk *lockstep) schedule(items []readyItem, move func(f int, it readyItem, at int64)) {
	w := lk.w
	nF, nP := w.nF, w.part.PEs
	lat := int64(w.opt.LinkLatency)
	homeOf := func(it readyItem) int { return int(it.pe) / nP }
	// segs[f*nF+h]: the items of home h in want[f] (want[f] is in the
	// order of items: by home FPGA, then by cycle).
	if cap(lk.segs) < nF*nF {
		lk.segs = make([]segment, nF*nF)
	}
	segs := lk.segs[:nF*nF]
	for f := 0; f < nF; f++ {
		want := lk.want[f]
		i := 0
		for h := 0; h < nF; h++ {
			sg := &segs[f*nF+h]
			j := i
			for j < len(want) && homeOf(items[want[j]]) == h {
				j++
			}
			sg.start, sg.pos, sg.end, sg.fwd = i, i, j, i
			if h != f {
				if cap(sg.arr) < j-i {
					sg.arr = make([]int64, j-i)
				}
				sg.arr = sg.arr[:j-i]
			} else {
				sg.fwd = j // its own items are known from the start
			}
			i = j
		}
	}
	// next returns FPGA f's next item's segment (its index in segs, -1:
	// none known yet) and the cycle it is there.
	next := func(f int) (int, int64) {
		now := lk.xb[f].now + 1
		own := &segs[f*nF+f]
		ownAt := int64(math.MaxInt64)
		if own.pos < own.end {
			ownAt = int64(items[lk.want[f][own.pos]].at)
		}
		remote := -1
		remoteAt := int64(math.MaxInt64)
		for h := 0; h < nF; h++ {
			if sg := &segs[f*nF+h]; h != f && sg.pos < sg.fwd {
				if at := sg.arr[sg.pos-sg.start]; at < remoteAt {
					remote, remoteAt = f*nF+h, at
				}
			}
		}
		switch {
		case remote >= 0 && remoteAt <= now:
			return remote, remoteAt
		case own.pos < own.end && (ownAt < remoteAt || ownAt <= now):
			return f*nF + f, ownAt
		case remote >= 0:
			return remote, remoteAt
		}
		return -1, 0
	}
	// Every FPGA's next item, kept until its crossbar moves or an item is
	// sent to it.
	nexts := grow(&lk.nexts, nF)
	for f := range nexts {
		nexts[f].stale = true
	}
	// moveAt returns the cycle of FPGA f's next move (math.MaxInt64: none
	// known).
	moveAt := func(f int) int64 {
		nx := &nexts[f]
		if nx.stale {
			nx.seg, nx.at = next(f)
			nx.stale = false
		}
		if nx.seg < 0 {
			return math.MaxInt64
		}
		return max(nx.at, lk.xb[f].now+1)
	}
	// An FPGA's own items are forwarded when its step is over (deliver),
	// so that in a window each FPGA writes only its own state.
	sent := grow(&lk.sent, nF)
	for f := range sent {
		sent[f].items = sent[f].items[:0]
	}
	step := func(f int) {
		nx := &nexts[f]
		sg := &segs[nx.seg]
		idx := lk.want[f][sg.pos]
		sg.pos++
		nx.stale = true
		move(f, items[idx], nx.at)
		if nx.seg == f*nF+f {
			sent[f].items = append(sent[f].items, forward{idx: idx, at: lk.xb[f].now + lat})
		}
	}
	// deliver forwards FPGA f's own items moved since the last call to
	// the FPGAs that need them.
	deliver := func(f int) {
		for _, s := range sent[f].items {
			for g := 0; g < nF; g++ {
				if sg := &segs[g*nF+f]; g != f && sg.fwd < sg.end && lk.want[g][sg.fwd] == s.idx {
					sg.arr[sg.fwd-sg.start] = s.at
					sg.fwd++
					nexts[g].stale = true
				}
			}
		}
		sent[f].items = sent[f].items[:0]
	}
	var c *crew.Windows
	if lk.cores > 1 && lat > 0 {
		c = crew.StartWindows(min(lk.cores, nF)-1, &lk.pace)
		defer func() {
			c.Stop()
			lk.dealt += c.Dealt
		}()
	}
	// run moves FPGA f through the window before horizon.
	var horizon int64
	run := func(f int) {
		for moveAt(f) < horizon {
			step(f)
		}
	}
	for {
		first := -1
		horizon = math.MaxInt64
		for f := range nexts {
			if at := moveAt(f); at < horizon {
				first, horizon = f, at
			}
		}
		if first < 0 {
			return
		}
		if lat <= 0 {
			// Every move may change what another crossbar takes in the
			// same cycle: one move at a time, the earliest, of the first
			// FPGA among equals (a negative latency, which no board has,
			// is followed the same way rather than by a window that
			// would end before it starts).
			step(first)
			deliver(first)
			continue
		}
		// No move from the earliest on reaches another FPGA before a link
		// latency later: up to then every crossbar's choices are known,
		// and each may move on its own. Its moves in that window arrive
		// elsewhere after it, where they change no choice in the window
		// (the earliest remote item there is still the earliest before
		// the window's end), so the FPGAs may move in any order, or at
		// once on several cores, with the same result.
		horizon += lat
		if c != nil {
			c.Run(nF, run)
		} else {
			for f := range nF {
				run(f)
			}
		}
		for f := range nexts {
			deliver(f)
		}
	}
}

// forward is an item an FPGA's crossbar moved and sends on, and the cycle
// it arrives.
type forward struct {
	idx int32
	at  int64
}

// outbox is an FPGA's items to forward.
type outbox struct {
	items []forward
	_     [cacheLine - 24]byte
}

// cacheLine is the size of a cache line. What one FPGA writes in a
// window (its crossbar, its next item, its segments, its outbox) fills
// whole lines, so that the cores stepping other FPGAs do not keep taking
// them from each other's caches: before, each FPGA took twice as long on
// two cores as on one (rmat:scale=18 at 4 x 9, all vertices sending).
const cacheLine = 64

// segment is the items of one home FPGA in an FPGA's list (want[f] from
// start to end): pos is the next one its crossbar takes, fwd the next one
// not yet sent to it, arr the arrival cycles of those sent (by index from
// start).
type segment struct {
	start, pos, end, fwd int
	arr                  []int64
	_                    [cacheLine - 56]byte
}

// nextItem is an FPGA's next item as schedule found it: its segment (its
// index in segs, -1: none known) and the cycle it is there, until stale.
type nextItem struct {
	seg   int
	at    int64
	stale bool
	_     [cacheLine - 24]byte
}

// move moves one item, ready at cycle ready, through FPGA f's crossbar
// into every local PE; runs are the item's lists on the FPGA's PEs, from
// arc from on in the item's list, which starts at list in the lists' loc
// or slot.
func (lk *lockstep) move(f int, ready int64, runs []peRun, from, list uint32) {
	x := &lk.xb[f]
	lanes := lk.lanes[f]
	slot := x.items % InFIFODepth
	j := int64(x.items)
	t := max(x.now+1, ready, x.full[slot])
	x.full[slot] = max(t+1, j+x.behind)
	base := f * len(lanes)
	for _, r := range runs {
		ln := &lanes[int(r.pe)-base]
		n := int(r.end - from)
		s := max(t+1, j+ln.lag)
		lk.take(ln, s, list+from, n)
		from = r.end
		ln.last, ln.item = s, x.items
		ln.lag = max(s-j, ln.free-j-1)
		x.behind = max(x.behind, ln.lag)
	}
	x.now = t
	x.items++
}

// take hands lane ln the non-empty local list of n edges (from at on in
// the lists' loc or slot when the hazard detector needs them; not kept in
// the lane, whose every store of a slice the collector's write barrier
// would see) of an item it took at
// cycle s (move: in the cycle after the item was written into its FIFO at
// the earliest, after the previous one, and once its scatter unit is
// free), as the scatter unit of the design does:
//
//   - generated PE, BRAM: the lookup stage took the item; an empty list
//     is dropped there in one cycle, a non-empty one is handed to the walker in the
//     cycle the walker reads the previous list's last edge (or at once
//     when it is idle), and the stage takes the next item in that cycle.
//   - paper's PE, BRAM: one cycle to take the item, then the walk; the
//     next item only after the walk.
//   - off-chip: the request stage issues one word per cycle from the
//     cycle after it took the item, while fewer than InFlight words wait
//     to be unpacked, and takes the next item in the cycle of the last
//     request; each word arrives after the memory latency and is
//     unpacked in order, one edge per cycle.
func (lk *lockstep) take(ln *lane, s int64, at uint32, n int) {
	opt := &lk.w.opt
	switch {
	case opt.Mem == OffChip:
		ln.free = s // the request stage's last request, as walk goes
		lk.walk(ln, s, at, n, opt.EdgesPerWord)
	case opt.PE == PEPaper:
		lk.walk(ln, s+1, at, n, n)
		ln.free = ln.walkEnd + 1
	default:
		first := max(s+1, ln.walkEnd+1)
		ln.free = max(s+1, ln.walkEnd)
		lk.walk(ln, first, at, n, n)
	}
}

// walk reads the n edges of the lane's list (from at on in the lists'
// loc or slot) one per cycle into the message FIFO, and gathers them.
// With edges in BRAM (perWord = n) the first is read in cycle first at
// the earliest; off chip the list is read word by word, perWord edges
// each, as the request stage issues them after ln.free (request).
func (lk *lockstep) walk(ln *lane, first int64, at uint32, n, perWord int) {
	switch pl := lk.lists; {
	case pl.loc16 != nil:
		walkHeld(lk, ln, first, pl.loc16[at:int(at)+n], perWord)
	case pl.loc != nil:
		walkHeld(lk, ln, first, pl.loc[at:int(at)+n], perWord)
	case pl.slot != nil:
		walkHeld(lk, ln, first, pl.slot[at:int(at)+n], perWord)
	default:
		lk.walkFree(ln, first, n, perWord)
	}
}

// walkHeld is walk with the hazard detector, whose entry for each edge
// is keys' (the destinations' local indices or slots). The words, the
// edges and the lane's state stay in locals for the whole list: a list
// is a few edges on most PEs, and handing each word to a walker of its
// own cost as much as the edges. So that the loop over the edges holds
// no more than the registers do, its cycles count from the lockstep's
// base, as the detector's entries and the message FIFO's ring do (which
// starts the superstep at never: the walker's wait for the message
// slots before it needs no test of whether there was one), and gather's
// start is in the last issue (a lane's first message issues at it).
func walkHeld[K uint8 | uint16 | uint32](lk *lockstep, ln *lane, first int64, keys []K, perWord int) {
	opt := &lk.w.opt
	hold, lat, memLat := int64(opt.Hazard.Hold), int64(opt.ScatterLatency), int64(opt.MemLatency)
	base := lk.base
	tw, tg, msgs, slots := first+base-1, max(ln.tg, ln.gather-1)+base, ln.msgs, ln.msgSlots
	det := ln.det
	issued := &ln.issued
	word := len(keys) // where the next off-chip word starts
	if opt.Mem == OffChip {
		tw, word = ln.walkEnd+base, 0
	}
	for j, k := range keys {
		if j == word {
			tw = ln.request(tw-base, memLat) + base - 1
			word += perWord
		}
		tw = max(tw+1, issued[(msgs-slots)&(msgRing-1)])
		tg = max(tw+lat, tg+1)
		var wait int64
		if det != nil {
			h := &det[k]
			wait = max(*h-tg, 0)
			*h = tg + wait + hold
		} else {
			wait = ln.recent.Issue(uint32(k), tg) - tg
		}
		ln.stall += wait
		tg += wait
		issued[msgs&(msgRing-1)] = tg
		msgs++
	}
	ln.tg, ln.msgs, ln.walkEnd = tg-base, msgs, tw-base
}

// walkFree is walk without a hazard detector, where the edges flow one
// per cycle as soon as gather keeps up.
func (lk *lockstep) walkFree(ln *lane, first int64, n, perWord int) {
	opt := &lk.w.opt
	lat := int64(opt.ScatterLatency)
	offChip, memLat := opt.Mem == OffChip, int64(opt.MemLatency)
	tw, tg, msgs, slots, gather := ln.walkEnd, ln.tg, ln.msgs, ln.msgSlots, ln.gather
	issued := &ln.issued
	for lo := 0; lo < n; lo += perWord {
		hi := min(lo+perWord, n)
		start := first
		if offChip {
			start = ln.request(tw, memLat)
		}
		if tg <= start && tg+1 <= start+lat && gather <= start+lat && lat <= int64(slots) {
			// Gather is idle when the first edge arrives and every message
			// before it has left the FIFO: the edges flow one per cycle,
			// gathered lat cycles after they are read (a word of an
			// off-chip list, or a list after a pause).
			tw, tg, msgs = flow(issued, msgs, start, hi-lo, lat)
			continue
		}
		tw = start - 1
		flowing := 0 // messages in a row that gather took as they arrived
		for j := lo; j < hi; j++ {
			tw = max(tw+1, issued[(msgs-slots)&(msgRing-1)])
			tg = max(tw+lat, tg+1, gather)
			issued[msgs&(msgRing-1)] = tg
			msgs++
			if flowing++; tg != tw+lat {
				flowing = 0
			}
			if flowing > opt.ScatterLatency && j+1 < hi {
				// Gather has kept up for longer than the scatter kernel's
				// depth: neither it nor the message FIFO can hold the walker
				// again, and the rest of the word flows one edge per cycle.
				tw, tg, msgs = flow(issued, msgs, tw+1, hi-j-1, lat)
				break
			}
		}
	}
	ln.tg, ln.msgs, ln.walkEnd = tg, msgs, tw
}

// request issues the next word of an off-chip list, in the cycle after
// the last request (ln.free, where the request stage takes the next
// item) at the earliest and once the word InFlight before it has been
// unpacked, and returns the cycle its first edge is unpacked: after the
// memory's latency, and after the walker read the previous word's last
// edge (in walkEnd).
func (ln *lane) request(walkEnd, memLat int64) (first int64) {
	i := ln.pop
	if ln.pop++; ln.pop == len(ln.popped) {
		ln.pop = 0
	}
	ln.free = max(ln.free+1, ln.popped[i])
	first = max(ln.free+memLat, walkEnd+1)
	ln.popped[i] = first
	ln.words++
	return first
}

// readyItem is an update (or a PE's barrier marker) and the cycle of the
// apply sweep that queues it: 12 bytes, as every profiling core keeps one
// per sender of the densest superstep.
type readyItem struct {
	rank    uint32 // the sender's place in the lists (peLists.rank)
	at      int32
	pe      uint16 // the sender's PE, or the PE of a barrier marker
	barrier bool
}

// readyOrder returns the superstep's updates and barrier markers in the
// order the apply sweeps queue them: every PE sweeps its vertices in
// local order, one per cycle, and queues its barrier marker after the
// last; items of the same cycle go in PE order. That is FPGA by FPGA, by
// cycle, then by PE, a key no two items share.
func (lk *lockstep) readyOrder(senders []uint32) []readyItem {
	w := lk.w
	pe, local, rank := w.part.PE, w.part.Local, w.lists.rank
	nP := w.part.PEs
	span := fullestPE(w.part) + 1
	key := func(q uint16, at int32) int { return int(q)/nP*span + int(at) }
	inOrder := func(a, b readyItem) int {
		if d := key(a.pe, a.at) - key(b.pe, b.at); d != 0 {
			return d
		}
		return int(a.pe) - int(b.pe)
	}
	out := grow(&lk.ordered, len(senders)+w.nPE)
	if n := len(out); n*bits.Len(uint(n)) < w.nF*span {
		// A sparse superstep: a sort.
		for i, u := range senders {
			out[i] = readyItem{rank: rank[u], at: int32(local[u]), pe: pe[u]}
		}
		for q, m := range w.part.Members {
			out[len(senders)+q] = readyItem{pe: uint16(q), at: int32(len(m)), barrier: true}
		}
		slices.SortFunc(out, inOrder)
		return out
	}
	// A dense one: a counting sort by FPGA and cycle straight from the
	// senders (no copy of the items in between), then the items of each
	// FPGA's cycle, at most one per PE and in id order so far, into PE
	// order by insertion (in an array sorted by FPGA and cycle, an item of
	// the same cycle and a lower PE than the one before it is of the same
	// FPGA).
	start := grow(&lk.start, w.nF*span+1)
	clear(start)
	for _, u := range senders {
		start[key(pe[u], int32(local[u]))+1]++
	}
	for q, m := range w.part.Members {
		start[key(uint16(q), int32(len(m)))+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	place := func(it readyItem) {
		k := key(it.pe, it.at)
		out[start[k]] = it
		start[k]++
	}
	for _, u := range senders {
		place(readyItem{rank: rank[u], at: int32(local[u]), pe: pe[u]})
	}
	for q, m := range w.part.Members {
		place(readyItem{pe: uint16(q), at: int32(len(m)), barrier: true})
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].at == out[j-1].at && out[j].pe < out[j-1].pe; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// grow returns (*buf)[:n], reallocating when it is shorter; the contents
// are stale.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	*buf = (*buf)[:n]
	return *buf
}

// flow reads n edges one per cycle from cycle first on, each gathered lat
// cycles after it is read, into the message FIFO whose issue cycles are
// issued and which has seen msgs messages: the walk when neither gather
// nor the message FIFO holds the walker. It returns the cycles of the
// last read and the last issue, and the messages then.
func flow(issued *[msgRing]int64, msgs int, first int64, n int, lat int64) (walkEnd, tg int64, _ int) {
	for k := max(0, n-msgRing); k < n; k++ {
		issued[(msgs+k)&(msgRing-1)] = first + int64(k) + lat
	}
	walkEnd = first + int64(n-1)
	return walkEnd, walkEnd + lat, msgs + n
}
