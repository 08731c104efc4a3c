package sim

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// fastM is GraVF-M at fast detail. The reference engine runs the kernels
// and hands over each superstep's senders; the timing follows every item
// through the machine with the cycle-level machine's rules, but at the
// level of items rather than cycles:
//
//   - the crossbars and the links are stepped cycle by cycle exactly as in
//     machine.go (fastnet.go), skipping cycles in which nothing can move;
//   - each PE is a set of recurrences over its items (fastpe.go): the
//     lookup stage, the walker or the off-chip requests and unpacker, the
//     message FIFO, the gather unit with its hazard detector and the apply
//     sweep. An update whose list on a PE is empty is never visited there
//     (its take cycle has a closed form), so a crossbar write costs the
//     PEs with a non-empty list and each message costs one step;
//   - the memory bandwidth is shared per FPGA by a window of per-cycle
//     grants (fastmem.go).
//
// The reference engine produces superstep s+1's senders only after
// superstep s's callback returns, while the machine's supersteps overlap
// (one FPGA may still deliver superstep s while another applies s+1), so
// the timing runs as a coroutine of the engine: each callback stores the
// senders and advances the machine until some crossbar is about to open
// the channel of a superstep whose senders are not known yet.
type fastM struct {
	s      *Setup
	p      Params
	fm     fastMachine
	g      *graph.Graph
	part   *graph.Partition
	layout *graph.EdgeLayout
	filter *graph.Filter
	nF, nP int
	nPE    int
	cost   float64 // an update's link words

	pes    []*fastPE
	queues []fxQueue
	fpgas  []*fxFPGA
	links  []*fxLink
	// runAt[u*(nF+1)+f] is the first of u's layout runs on FPGA f's PEs.
	runAt []int32
	// The detector's key of every edge (see msgPipe): the vertex itself
	// (byVertex) or keys[runOff[i]:runOff[i+1]] for run i; neither when
	// the detector never holds a message.
	byVertex bool
	keys     []uint32
	runOff   []int32

	senders map[int][][]uint32 // per round, per PE: the senders in local order
	known   int                // rounds whose senders have arrived
	now     int64

	txTotal  int   // items in every send FIFO
	arriveAt int64 // the first cycle an item in flight on a link arrives

	starts   []int64 // per round: the first PE's apply sweep
	active   []int64
	messages []int64
	err      error
	ctx      context.Context
}

func newFastM(ctx context.Context, s *Setup, p Params) *fastM {
	f := &fastM{s: s, p: p, g: s.Graph, part: s.partition, nF: s.FPGAs, nP: s.PEs, nPE: s.FPGAs * s.PEs,
		cost: p.UpdateWords, senders: map[int][][]uint32{}, ctx: ctx}
	f.layout = graph.NewEdgeLayout(s.Graph, s.partition)
	if s.Filter && s.FPGAs > 1 {
		f.filter = graph.NewFilter(s.Graph, s.partition)
	}
	hz := newHazard(s.PE, s.Kernel, p)
	f.fm = fastMachine{p: &f.p, hold: hz.hold, prefetch: s.PE != PEPaper, offchip: s.Mem == MemOffChip}
	for x := 0; x < f.nF; x++ {
		f.fm.mem = append(f.fm.mem, newMemArbiter(p.MemWordsPerCycle, s.PEs))
		f.fpgas = append(f.fpgas, &fxFPGA{id: x, out: make([]*fxLink, f.nF), lastW: never, passedAt: never, ifAt: -1})
	}
	if !f.fm.offchip {
		f.fm.mem = make([]*memArbiter, f.nF)
	}
	for id := 0; id < f.nPE; id++ {
		n := len(s.partition.Members[id])
		q := newFastPE(id, id/f.nP, n, &f.p, hz)
		f.pes = append(f.pes, q)
		f.queues = append(f.queues, fxQueue{round: 0, applyAt: -1, barrier: true, members: n, al: int64(p.ApplyLatency), pe: id})
	}
	for a := 0; a < f.nF; a++ {
		for b := 0; b < f.nF; b++ {
			if a == b {
				continue
			}
			l := &fxLink{from: a, to: b, tokAt: -1, tx: newRing[fxItem](LinkTxFIFODepth), inflight: newRing[fxItem](64), rx: newRing[fxItem](LinkRxFIFODepth)}
			l.rxCap = LinkRxFIFODepth + int(math.Ceil(2*float64(p.LinkLatency)*p.PairWordsPerCycle/max(f.cost, 1e-9)))
			f.links = append(f.links, l)
			f.fpgas[a].out[b] = l
			f.fpgas[b].in = append(f.fpgas[b].in, l)
		}
	}
	f.indexRuns()
	f.indexKeys(hz)
	f.starts = []int64{0}
	f.arriveAt = math.MaxInt64
	return f
}

// indexRuns finds, for every vertex, where its layout runs on each FPGA
// begin (runs are sorted by PE).
func (f *fastM) indexRuns() {
	n := f.g.NumVertices()
	f.runAt = make([]int32, n*(f.nF+1))
	for u := 0; u < n; u++ {
		lo, hi := f.layout.Runs(uint32(u))
		i := lo
		for x := 0; x <= f.nF; x++ {
			for i < hi {
				pe, _, _ := f.layout.Run(i)
				if pe/f.nP >= x {
					break
				}
				i++
			}
			f.runAt[u*(f.nF+1)+x] = int32(i)
		}
	}
}

// run runs the reference engine on its own goroutine, a superstep or two
// ahead of the timing, which consumes its senders in order: the result
// depends only on that order, so it is the same on one core or two.
// indexKeys gives every edge its hazard detector key where the
// neighbour's id will not do: the paper's aliased slot (the low bits of
// the local index, as many as the PE's detector has), or the local index
// when the detector is deeper than msgPipe's window.
func (f *fastM) indexKeys(hz hazard) {
	switch {
	case hz.hold <= 1:
		return
	case hz.exact && hz.hold-1 <= hazardWindow:
		f.byVertex = true
		return
	}
	n := f.layout.NumRuns()
	f.runOff = make([]int32, n+1)
	for i := 0; i < n; i++ {
		pe, nbrs, _ := f.layout.Run(i)
		f.runOff[i+1] = f.runOff[i] + int32(len(nbrs))
		slots := uint32(hz.slots(len(f.part.Members[pe])))
		for _, w := range nbrs {
			k := f.part.Local[w]
			if !hz.exact {
				k &= slots - 1
			}
			f.keys = append(f.keys, k)
		}
	}
}

func (f *fastM) run(ctx context.Context) (*kernel.Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type step struct {
		r       int
		senders []uint32
	}
	steps := make(chan step, 2)
	type outcome struct {
		ref *kernel.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		ref, err := kernel.Run(ctx, f.s.Kernel, f.s.Graph, kernel.RunOptions{Senders: func(r int, s []uint32) {
			select {
			case steps <- step{r, slices.Clone(s)}:
			case <-ctx.Done():
			}
		}})
		close(steps)
		done <- outcome{ref, err}
	}()
	for st := range steps {
		if f.err == nil {
			f.superstep(st.r, st.senders)
		}
		if f.err != nil {
			cancel() // the engine stops at its next superstep
		}
	}
	out := <-done
	switch {
	case f.err != nil:
		return nil, f.err
	case out.err != nil:
		return nil, out.err
	}
	if err := f.advance(true); err != nil {
		return nil, err
	}
	return out.ref, nil
}

// superstep stores one superstep's senders and advances the machine as far
// as they allow.
func (f *fastM) superstep(r int, senders []uint32) {
	if f.err != nil {
		return
	}
	byPE := make([][]uint32, f.nPE)
	var msgs int64
	for _, u := range senders {
		q := f.part.PE[u]
		byPE[q] = append(byPE[q], u)
		msgs += int64(f.g.OutDegree(u))
	}
	f.senders[r] = byPE
	f.known = r + 1
	f.active = append(f.active, int64(len(senders)))
	f.messages = append(f.messages, msgs)
	for i := range f.queues {
		if f.queues[i].round == r {
			f.fill(i)
		}
	}
	for k := range f.senders {
		if k < r-2 {
			delete(f.senders, k)
		}
	}
	f.err = f.advance(false)
}

// fill gives PE i's update queue its round's senders.
func (f *fastM) fill(i int) {
	u := &f.queues[i]
	byPE, ok := f.senders[u.round]
	if !ok || u.known {
		return
	}
	u.known, u.sends, u.pos = true, byPE[i], 0
	u.local = u.local[:0]
	for _, v := range u.sends {
		u.local = append(u.local, f.part.Local[v])
	}
	u.setHead()
	if x := f.fpgas[i/f.nP]; u.ok {
		x.wake = min(x.wake, u.ready)
	}
}

// advance steps the network until every PE has terminated or (unless
// final) a crossbar is about to open the channel of a superstep whose
// senders are not known yet. A crossbar that cannot move sleeps until the
// first cycle it might (its wake cycle, brought forward by whatever could
// let it move sooner: an arrival, a free send FIFO slot, a filled update
// queue, every local PE past the barrier), and cycles in which every
// crossbar sleeps and the links are idle are skipped.
func (f *fastM) advance(final bool) error {
	for iter := 0; ; iter++ {
		if iter&0xFFFF == 0 {
			if err := f.ctx.Err(); err != nil {
				return err
			}
			if f.s.Progress != nil {
				f.s.Progress(Progress{Cycle: f.now, Superstep: len(f.starts) - 1})
			}
		}
		if f.allDone() {
			return nil
		}
		if !final && f.needsSenders() {
			return nil
		}
		if f.s.MaxCycles > 0 && f.now >= f.s.MaxCycles {
			return fmt.Errorf("stopped at the cycle limit %d in superstep %d", f.s.MaxCycles, len(f.starts)-1)
		}
		for _, x := range f.fpgas {
			if x.wake <= f.now {
				x.wake = f.stepCrossbar(x)
			}
		}
		if f.txTotal > 0 || f.arriveAt <= f.now {
			f.stepLinks()
		}
		next := f.now + 1
		if f.txTotal == 0 {
			next = max(next, f.arriveAt)
			for _, x := range f.fpgas {
				next = min(next, max(x.wake, f.now+1))
			}
		}
		if next == math.MaxInt64 {
			return f.stuck()
		}
		f.now = next
	}
}

func (f *fastM) allDone() bool {
	for _, q := range f.pes {
		if !q.done {
			return false
		}
	}
	return true
}

// needsSenders reports whether some crossbar opens, this cycle, the channel
// of a superstep whose senders are not known yet.
func (f *fastM) needsSenders() bool {
	for _, x := range f.fpgas {
		if int(x.round)+1 >= f.known && x.passed == f.nP && x.passedAt <= f.now {
			return true
		}
	}
	return false
}

// stepCrossbar moves at most one item on FPGA x in this cycle, with the
// rules of machine.stepCrossbar: the channel advances once every local PE
// has passed its barrier; remote items first, then the local update
// queues in round-robin order; an item moves only when every local input
// FIFO and every send FIFO it needs has room. It returns the next cycle
// in which the crossbar might move.
func (f *fastM) stepCrossbar(x *fxFPGA) int64 {
	t := f.now
	if x.passed == f.nP && x.passedAt <= t {
		x.round++
		x.passed, x.passedAt = 0, never
	}
	x.txBlocked = false
	unblock := int64(math.MinInt64)
	if x.writes >= InFIFODepth {
		unblock = x.takeRing[x.writes%InFIFODepth] // a local input FIFO is full before this cycle
	}
	full := unblock > t
	n := len(x.in)
	for i := 0; i < n; i++ {
		l := x.in[(x.rrRemote+i)%n]
		if l.rx.empty() || l.rx.peek().round != x.round {
			continue
		}
		if full {
			return unblock
		}
		f.write(x, l.rx.pop(), t)
		x.rrRemote = (x.rrRemote + i + 1) % n
		return t + 1
	}
	wake := int64(math.MaxInt64)
	if x.passed == f.nP {
		wake = x.passedAt
	}
	for i := 0; i < f.nP; i++ {
		src := (x.rrLocal + i) % f.nP
		pe := x.id*f.nP + src
		u := &f.queues[pe]
		if !u.ok || u.item.round != x.round {
			continue
		}
		if u.ready > t {
			wake = min(wake, u.ready)
			continue
		}
		it := u.item
		if full {
			return unblock
		}
		mask := f.needMask(it, x.id)
		for g := mask; g != 0; g &= g - 1 {
			if x.out[bits.TrailingZeros64(g)].tx.full() {
				x.txBlocked = true
				return math.MaxInt64 // woken when the link takes an item
			}
		}
		u.pop()
		f.write(x, it, t)
		for g := mask; g != 0; g &= g - 1 {
			x.out[bits.TrailingZeros64(g)].tx.push(it)
			x.txItems++
			f.txTotal++
		}
		x.rrLocal = (src + 1) % f.nP
		return t + 1
	}
	return wake
}

// needMask returns the other FPGAs that must receive an item of FPGA
// home, as a bit set (see machine.needs): barriers go everywhere, an
// update only where the filter says a neighbour lives.
func (f *fastM) needMask(it fxItem, home int) uint64 {
	all := uint64(1)<<f.nF - 1
	all &^= 1 << home
	if it.barrier || f.filter == nil {
		return all
	}
	var m uint64
	for g := 0; g < f.nF; g++ {
		if g != home && f.filter.Has(it.v, g) {
			m |= 1 << g
		}
	}
	return m
}

// write hands the item that x's crossbar writes into every local input
// FIFO in cycle t to the PEs: an update to the PEs holding part of its
// list (the others take it in closed form), a barrier marker to all.
func (f *fastM) write(x *fxFPGA, it fxItem, t int64) {
	m := x.writes
	var take int64
	if it.barrier {
		take = never
		for _, q := range f.pes[x.id*f.nP : (x.id+1)*f.nP] {
			tb, last := f.fm.takeBarrier(q, t, x.lastW, m, it.halt, f.nPE)
			take = max(take, tb)
			if last && !q.done {
				x.passed++
				x.passedAt = max(x.passedAt, q.passedAt)
				f.passedBarrier(q)
			}
		}
		if x.passed == f.nP {
			x.wake = min(x.wake, x.passedAt)
		}
		x.maxKey = never
		for _, q := range f.pes[x.id*f.nP : (x.id+1)*f.nP] {
			x.maxKey = max(x.maxKey, q.key())
		}
	} else {
		take = max(t+1, x.maxKey+m)
		u := it.v
		base := int(u) * (f.nF + 1)
		for i := f.runAt[base+x.id]; i < f.runAt[base+x.id+1]; i++ {
			pe, nbrs, _ := f.layout.Run(int(i))
			var keys []uint32
			switch {
			case f.byVertex:
				keys = nbrs
			case f.keys != nil:
				keys = f.keys[f.runOff[i]:f.runOff[i+1]]
			}
			q := f.pes[pe]
			f.fm.takeUpdate(q, t, m, len(nbrs), keys)
			x.maxKey = max(x.maxKey, q.key())
		}
	}
	x.takeRing[m%InFIFODepth] = take
	x.writes++
	x.lastW = t
}

// passedBarrier starts PE q's next round: its apply sweep began when
// gather read the marker.
func (f *fastM) passedBarrier(q *fastPE) {
	if q.done {
		return
	}
	r := q.round
	for len(f.starts) <= r {
		f.starts = append(f.starts, math.MaxInt64)
	}
	f.starts[r] = min(f.starts[r], q.applyAt)
	f.queues[q.id] = fxQueue{round: r, applyAt: q.applyAt, barrier: true, members: q.members, al: int64(f.p.ApplyLatency), pe: q.id, local: f.queues[q.id].local}
	f.fill(q.id)
}

// stepLinks serialises items onto the links and delivers arrivals, with
// the rules of stepLinks in machine.go. The token buckets fill every
// cycle up to one item's worth; they are brought up to date when used.
func (f *fastM) stepLinks() {
	t, p := f.now, &f.p
	if f.arriveAt <= t {
		f.arriveAt = math.MaxInt64
		for _, l := range f.links {
			for !l.inflight.empty() && l.inflight.peek().at <= t {
				l.rx.push(l.inflight.pop())
				// The crossbar sees it in the next cycle.
				x := f.fpgas[l.to]
				x.wake = min(x.wake, t+1)
			}
			if !l.inflight.empty() {
				f.arriveAt = min(f.arriveAt, l.inflight.peek().at)
			}
		}
	}
	start := int(t % int64(f.nF))
	for _, src := range f.fpgas {
		if src.txItems == 0 {
			continue
		}
		src.ifTokens = fill(src.ifTokens, p.IfWordsPerCycle, f.cost, t-src.ifAt)
		src.ifAt = t
		for j, k := 0, start; j < f.nF; j, k = j+1, k+1 {
			if k == f.nF {
				k = 0
			}
			l := src.out[k]
			if l == nil || l.tx.empty() {
				continue
			}
			l.tokens = fill(l.tokens, p.PairWordsPerCycle, f.cost, t-l.tokAt)
			l.tokAt = t
			if l.tokens+1e-9 < f.cost || src.ifTokens+1e-9 < f.cost || l.inflight.len()+l.rx.len() >= l.rxCap {
				continue
			}
			it := l.tx.pop()
			src.txItems--
			f.txTotal--
			if src.txBlocked {
				src.wake = min(src.wake, t+1)
			}
			it.at = t + int64(max(p.LinkLatency, 1))
			l.inflight.push(it)
			f.arriveAt = min(f.arriveAt, it.at)
			l.tokens -= f.cost
			src.ifTokens -= f.cost
			l.words += f.cost
		}
	}
}

// fill returns a token bucket's level after d cycles of refills at rate
// words per cycle, capped at one refill or one item, whichever is more.
func fill(level, rate, cost float64, d int64) float64 {
	if d <= 0 {
		return level
	}
	c := max(rate, cost)
	if d == 1 {
		return min(level+rate, c)
	}
	return min(level+rate*float64(d), c)
}

// stuck describes a state in which nothing can ever move again: a bug of
// the fast model, not of the design.
func (f *fastM) stuck() error {
	var b strings.Builder
	fmt.Fprintf(&b, "fast detail: nothing can move at cycle %d", f.now)
	for _, x := range f.fpgas {
		fmt.Fprintf(&b, "\n  FPGA %d: channel %d, %d writes", x.id, x.round, x.writes)
	}
	for _, q := range f.pes {
		fmt.Fprintf(&b, "\n    PE %d: round %d, barriers %d, done %v, queue round %d pos %d/%d known %v", q.id, q.round, q.bcSeen, q.done,
			f.queues[q.id].round, f.queues[q.id].pos, len(f.queues[q.id].sends), f.queues[q.id].known)
	}
	return fmt.Errorf("%s", b.String())
}

func (f *fastM) result(ref *kernel.Result) *Result {
	var end int64
	for _, q := range f.pes {
		end = max(end, q.doneAt)
	}
	r := &Result{Arch: f.s.Arch, Mem: f.s.Mem, FPGAs: f.nF, PEs: f.nP, Cycles: end + 1, States: ref.States, Fields: ref.Fields}
	fillFastSteps(r, f.starts, f.active, f.messages)
	for _, q := range f.pes {
		st := q.stats()
		st.Done = r.Cycles - 1 - q.doneAt
		if used := st.Apply + st.Busy + st.Hazard + st.Done; used < r.Cycles {
			st.Barrier = r.Cycles - used
		}
		r.PerPE = append(r.PerPE, st)
	}
	for _, l := range f.links {
		u := 0.0
		if f.p.PairWordsPerCycle > 0 {
			u = l.words / float64(r.Cycles) / f.p.PairWordsPerCycle
		}
		r.Links = append(r.Links, LinkStats{From: l.from, To: l.to, Words: l.words, Utilisation: u})
	}
	return r
}

// fillFastSteps lists the supersteps of a fast run: superstep i starts
// with the first PE's apply sweep of round i and lasts until the next
// starts (the last until the end of the run).
func fillFastSteps(r *Result, starts, active, messages []int64) {
	for i := range active {
		st := Superstep{Index: i, Active: active[i], Messages: messages[i], Start: r.Cycles}
		if i < len(starts) {
			st.Start = min(starts[i], r.Cycles)
		}
		r.PerSuperstep = append(r.PerSuperstep, st)
		r.Messages += st.Messages
	}
	for i := range r.PerSuperstep {
		end := r.Cycles
		if i+1 < len(r.PerSuperstep) {
			end = r.PerSuperstep[i+1].Start
		}
		r.PerSuperstep[i].Cycles = end - r.PerSuperstep[i].Start
	}
	r.Supersteps = len(r.PerSuperstep)
}
