package sim

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// The GraVF baseline: a PE stores the full edge lists of its own vertices,
// scatters its own updates and sends one unicast message per edge through
// a full crossbar (every output takes one message per cycle, round-robin
// among the inputs whose head is for it). After its last message of a
// superstep a PE sends a barrier marker to every PE; a PE applies once it
// has every marker of the superstep and its gather has drained.

// bpe is one PE of the baseline.
type bpe struct {
	applyUnit              // its update queue holds own updates, waiting for scatter
	voq       []ring[item] // scatter output, one FIFO per crossbar output (virtual output queues)
	queued    int          // items in all voq FIFOs
	in        ring[item]   // crossbar output, waiting for gather

	// scatter
	walking         bool
	wItem           item
	wNbrs, wWeights []uint32
	wPos            int
	lkValid         bool // the lookup stage holds an update (PEGenerated, BRAM)
	lkItem          item
	reqActive       bool
	reqItem         item
	reqPos          int
	outstanding     ring[resp]
	inflight        int
	unpacking       bool
	unpack          resp
	unpackPos       int
	barrierTo       int // next PE to send a barrier marker to (-1: none pending)
	barrierRound    uint32
	barrierHalt     bool

	// gather
	bcSeen      int
	bcHalt      bool
	bcCompleted int64
	// globFor is the superstep whose last marker was counted, globReady
	// the cycle the globals it completes are folded.
	globFor, globReady int64
	hazardSlot         []int64
	hazardMask         int // local index & hazardMask is the slot
	lastAny            int64

	issued, hazard, scatterBusy bool
}

type baseline struct {
	core
	pes    []*bpe
	msgBuf []uint64
	rrIn   [][]int // per FPGA, per output port: round-robin pointer
}

func newBaseline(s *Setup, p Params) *baseline {
	b := &baseline{core: newCore(s, p)}
	b.msgBuf = make([]uint64, max(len(s.Kernel.Checked.MessageT), 1))
	for f := 0; f < s.FPGAs; f++ {
		for l := 0; l < s.PEs; l++ {
			id := f*s.PEs + l
			mem := s.partition.Members[id]
			q := &bpe{applyUnit: applyUnit{id: id, fpga: f, members: mem, uq: newRing[item](len(mem) + UpdateQueueExtra)},
				in: newRing[item](InFIFODepth), outstanding: newRing[resp](p.InFlight + OrderFIFOExtra), bcCompleted: -1, bcHalt: true, globFor: -1,
				hazardSlot: make([]int64, b.hazard.slots(len(mem))), hazardMask: hazardMask(b.hazard.slots(len(mem)), len(mem)), lastAny: math.MinInt32, barrierTo: -1}
			for o := 0; o < s.PEs+s.FPGAs; o++ {
				q.voq = append(q.voq, newRing[item](MsgFIFODepth+p.ScatterLatency))
			}
			b.pes = append(b.pes, q)
			b.units = append(b.units, &q.applyUnit)
		}
		b.rrIn = append(b.rrIn, make([]int, s.PEs+s.FPGAs))
	}
	b.makeLinks(p.MessageWords, s.PEs)
	return b
}

func (b *baseline) run(ctx context.Context) error {
	stallLimit := int64(200000 + 20*(b.p.LinkLatency+b.p.MemLatency))
	maxSteps := b.s.maxSupersteps()
	for {
		if b.now&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return b.stop(StopInterrupted, 0, err)
			}
			if b.s.Progress != nil {
				b.s.Progress(Progress{Cycle: b.now, Superstep: b.stepCount() - 1})
			}
		}
		done := true
		for _, q := range b.pes {
			q.issued, q.hazard, q.scatterBusy = false, false, false
			b.stepGatherApply(q)
			done = done && q.mode == modeDone
		}
		for _, fp := range b.fpgas {
			if b.offchip {
				fp.memTokens = min(fp.memTokens+b.p.MemWordsPerCycle, max(b.p.MemWordsPerCycle, 1))
			}
			for i := 0; i < b.s.PEs; i++ {
				b.stepScatter(fp, b.pes[fp.id*b.s.PEs+(i+fp.memRR)%b.s.PEs])
			}
			fp.memRR++
		}
		for _, fp := range b.fpgas {
			for _, l := range fp.in {
				for !l.rx.empty() {
					it := l.rx.pop()
					l.perPE[b.port(fp.id, &it)].push(it)
					l.held++
				}
			}
			b.stepCrossbar(fp)
		}
		if stepLinks(b.fpgas, b.links, &b.p, b.p.MessageWords, b.now) {
			b.progress()
		}
		b.account()
		if b.s.Listener != nil {
			b.s.Listener.Cycle(b)
		}
		if done {
			return nil
		}
		b.now++
		if b.now-b.progressed() > stallLimit {
			return b.deadlock()
		}
		if b.s.MaxCycles > 0 && b.now >= b.s.MaxCycles {
			return b.stop(StopCycleLimit, b.s.MaxCycles, nil)
		}
		if b.stepCount() > maxSteps {
			return b.stop(StopSuperstepLimit, int64(maxSteps), nil)
		}
	}
}

func (b *baseline) stepGatherApply(q *bpe) {
	k, c := b.k, b.serial.ctx
	switch q.mode {
	case modeDone:
		return
	case modeApply:
		b.applyStep(&q.applyUnit, b.now)
		return
	}
	if q.in.empty() {
		return
	}
	h := q.in.peek()
	if h.kind == kindBarrier {
		if q.bcSeen+1 < b.nPE {
			q.bcSeen++
			q.bcHalt = q.bcHalt && h.halt
			q.in.pop()
			b.progress()
			return
		}
		if b.now < q.lastAny+b.hazard.hold {
			q.hazard = true
			return
		}
		if b.glob != nil && !(q.bcHalt && h.halt) {
			// The last marker is counted; the globals of the next
			// superstep take the fold of every PE's partial.
			if q.globFor != int64(h.round) {
				q.globFor, q.globReady = int64(h.round), b.now+b.glob.foldDelay(b.nPE)
			}
			if b.now < q.globReady {
				return
			}
		}
		bar := q.in.pop()
		halt := q.bcHalt && bar.halt
		q.bcSeen, q.bcHalt, q.bcCompleted = 0, true, int64(bar.round)
		b.progress()
		if halt {
			q.mode = modeDone
			return
		}
		q.round = bar.round + 1
		q.mode, q.applyIdx, q.sent = modeApply, 0, 0
		if ns := b.stepOf(q.round); ns.start == 0 || b.now < ns.start {
			ns.start = b.now
		}
		return
	}
	slot := int(b.part.Local[h.dst]) & q.hazardMask
	if b.now < q.hazardSlot[slot] {
		q.hazard = true
		return
	}
	it := q.in.pop()
	// The message payload: scatter's result for this edge, computed here
	// from the update, the edge and the sender (a pure function).
	off := int(it.v) * b.nu
	upd := b.updPay[it.round%3][off : off+b.nu]
	c.Sender, c.Superstep = uint64(it.v), uint64(it.round+1)
	if k.ScatterIsCopy() {
		c.Msg = upd
	} else {
		c.Update, c.Neighbor, c.Degree = upd, uint64(it.dst), uint64(b.g.OutDegree(it.v))
		if eb := b.serial.edgeBuf; len(eb) > 0 {
			eb[0] = uint64(it.weight)
			c.Edge = eb
		}
		k.Scatter(c, b.msgBuf)
		c.Msg = b.msgBuf
	}
	c.ID = uint64(it.dst)
	k.Gather(c, b.state(it.dst))
	q.hazardSlot[slot], q.lastAny = b.now+b.hazard.hold, b.now
	q.issued = true
	q.st.Messages++
	b.stepOf(it.round).messages++
	b.progress()
}

// emit puts one message for edge (u -> w) into the output FIFO of its
// crossbar port; it reports false (and moves nothing) when that FIFO is
// full.
func (b *baseline) emit(q *bpe, u item, w uint32, weights []uint32, i int) bool {
	it := item{v: u.v, round: u.round, dst: w, ready: b.now + int64(b.p.ScatterLatency), weight: 1}
	if weights != nil {
		it.weight = weights[i]
	}
	r := &q.voq[b.port(q.fpga, &it)]
	if r.full() {
		return false
	}
	r.push(it)
	q.queued++
	return true
}

// stepScatter walks the full edge list of the PE's own updates.
func (b *baseline) stepScatter(fp *fpga, q *bpe) {
	if q.barrierTo >= 0 {
		// Send the superstep's barrier marker to every PE, one per cycle.
		it := item{v: uint32(q.id), dst: uint32(q.barrierTo), round: q.barrierRound, kind: kindBarrier, halt: q.barrierHalt, ready: b.now}
		if r := &q.voq[b.port(q.fpga, &it)]; !r.full() {
			r.push(it)
			q.queued++
			q.barrierTo++
			if q.barrierTo == b.nPE {
				q.barrierTo = -1
			}
			b.progress()
		}
		q.scatterBusy = true
		return
	}
	if b.offchip {
		b.stepScatterOffchip(fp, q)
		return
	}
	if b.prefetch {
		b.stepScatterPrefetch(q)
		return
	}
	if q.walking {
		q.scatterBusy = true
		b.walkEdge(q)
		return
	}
	if it, ok := b.take(q); ok {
		q.wItem, q.wNbrs, q.wWeights, q.wPos = it, b.g.Neighbors(it.v), b.g.EdgeWeights(it.v), 0
		q.walking = len(q.wNbrs) > 0
	}
}

// walkEdge emits the walker's next edge unless its output FIFO is full.
func (b *baseline) walkEdge(q *bpe) bool {
	if !b.emit(q, q.wItem, q.wNbrs[q.wPos], q.wWeights, q.wPos) {
		return false
	}
	q.wPos++
	q.walking = q.wPos < len(q.wNbrs)
	b.progress()
	return true
}

// stepScatterPrefetch is the generated PE's scatter unit with edges in
// block RAM (machine.stepScatterPrefetch): the lookup stage takes the next
// update while the walker reads the current list, so lists follow each
// other without a gap. A barrier marker waits until both are idle.
func (b *baseline) stepScatterPrefetch(q *bpe) {
	idle, lk := !q.walking, q.lkValid
	last := false
	if q.walking {
		q.scatterBusy = true
		last = b.walkEdge(q) && !q.walking
	}
	if q.lkValid {
		q.scatterBusy = true
		it := q.lkItem
		nbrs := b.g.Neighbors(it.v)
		switch {
		case len(nbrs) == 0:
			q.lkValid = false
		case idle:
			q.wItem, q.wNbrs, q.wWeights, q.wPos = it, nbrs, b.g.EdgeWeights(it.v), 0
			if b.walkEdge(q) {
				q.lkValid = false
			}
		case last:
			q.wItem, q.wNbrs, q.wWeights, q.wPos, q.walking = it, nbrs, b.g.EdgeWeights(it.v), 0, true
			q.lkValid = false
		}
	}
	if q.lkValid || q.uq.empty() || (q.uq.peek().kind == kindBarrier && (!idle || lk)) {
		return
	}
	if it, ok := b.take(q); ok {
		q.lkValid, q.lkItem = true, it
	}
}

// take latches the next update; a barrier marker starts the barrier
// broadcast instead.
func (b *baseline) take(q *bpe) (item, bool) {
	if q.uq.empty() || q.uq.peek().ready > b.now {
		return item{}, false
	}
	it := q.uq.pop()
	q.scatterBusy = true
	b.progress()
	if it.kind == kindBarrier {
		q.barrierTo, q.barrierRound, q.barrierHalt = 0, it.round, it.halt
		return item{}, false
	}
	return it, true
}

func (b *baseline) stepScatterOffchip(fp *fpga, q *bpe) {
	if !q.unpacking && !q.outstanding.empty() && q.outstanding.peek().arrive <= b.now {
		q.unpack, q.unpacking = q.outstanding.pop(), true
		q.unpackPos = int(q.unpack.lo)
		q.inflight--
	}
	if q.unpacking {
		r := &q.unpack
		if b.emit(q, item{v: r.u, round: r.round}, b.g.Neighbors(r.u)[q.unpackPos], b.g.EdgeWeights(r.u), q.unpackPos) {
			q.unpackPos++
			q.unpacking = q.unpackPos < int(r.hi)
			b.progress()
		}
		q.scatterBusy = true
	}
	if q.reqActive && q.inflight < b.p.InFlight && fp.memTokens >= 1 && !q.outstanding.full() {
		lo := q.reqPos
		hi := min(lo+b.p.EdgesPerWord, len(q.wNbrs))
		q.outstanding.push(resp{u: q.reqItem.v, round: q.reqItem.round, lo: uint32(lo), hi: uint32(hi), arrive: b.now + int64(b.p.MemLatency)})
		q.inflight++
		fp.memTokens--
		q.reqPos = hi
		q.reqActive = q.reqPos < len(q.wNbrs)
		q.scatterBusy = true
		q.st.MemWords++
		b.progress()
		if q.reqActive {
			return
		}
	}
	if q.reqActive || q.unpacking || !q.outstanding.empty() {
		// The barrier broadcast must follow every message of the
		// superstep: hold the marker until the words are unpacked.
		if !q.uq.empty() && q.uq.peek().kind == kindBarrier {
			return
		}
		if q.reqActive {
			return
		}
	}
	if it, ok := b.take(q); ok {
		q.wNbrs, q.wWeights = b.g.Neighbors(it.v), b.g.EdgeWeights(it.v)
		q.reqActive, q.reqItem, q.reqPos = len(q.wNbrs) > 0, it, 0
	}
}

// stepCrossbar: every output (the local PEs' gather inputs, then the links
// to other FPGAs) takes at most one item per cycle, round-robin among the
// inputs that hold one for it: each local PE keeps one output FIFO per
// port (virtual output queues, so a message for a busy PE does not block
// one for an idle PE), and each link from another FPGA offers its head.
func (b *baseline) stepCrossbar(fp *fpga) {
	fp.stalled, fp.moved = false, false
	for {
		all := true
		for i := 0; i < b.s.PEs; i++ {
			// Every local PE has counted the channel's barriers and sent
			// all its own items of the channel.
			q := b.pes[fp.id*b.s.PEs+i]
			if q.bcCompleted < int64(fp.round) || (q.barrierTo >= 0 && q.barrierRound <= fp.round) {
				all = false
				break
			}
			for o := range q.voq {
				if !q.voq[o].empty() && q.voq[o].peek().round <= fp.round {
					all = false
				}
			}
		}
		if !all || fp.round > 1<<30 {
			break
		}
		fp.round++
	}
	nIn := b.s.PEs + len(fp.in)
	remoteUsed := make([]bool, len(fp.in))
	// Output port o: 0..PEs-1 local PEs, PEs.. the links by destination.
	for o := 0; o < b.s.PEs+b.s.FPGAs; o++ {
		var dst *ring[item]
		if o < b.s.PEs {
			dst = &b.pes[fp.id*b.s.PEs+o].in
		} else {
			g := o - b.s.PEs
			if g == fp.id {
				continue
			}
			dst = &fp.out[g].tx
		}
		rr := b.rrIn[fp.id][o]
		for j := 0; j < nIn; j++ {
			i := (rr + j) % nIn
			var src *ring[item]
			var q *bpe
			if i < b.s.PEs {
				q = b.pes[fp.id*b.s.PEs+i]
				src = &q.voq[o]
			} else {
				if remoteUsed[i-b.s.PEs] || o >= b.s.PEs {
					continue
				}
				src = &fp.in[i-b.s.PEs].perPE[o]
			}
			if src.empty() || src.peek().round != fp.round || src.peek().ready > b.now {
				continue
			}
			if dst.full() {
				fp.stalled = true
				fp.xbarStall++
				break
			}
			dst.push(src.pop())
			if q != nil {
				q.queued--
			} else {
				remoteUsed[i-b.s.PEs] = true
				fp.in[i-b.s.PEs].held--
			}
			b.rrIn[fp.id][o] = (i + 1) % nIn
			fp.moved = true
			fp.xbarMoves++
			b.progress()
			break
		}
	}
}

// port returns the crossbar output an item leaves by on FPGA f.
func (b *baseline) port(f0 int, it *item) int {
	var pe int
	if it.kind == kindBarrier {
		pe = int(it.dst)
	} else {
		pe = int(b.part.PE[it.dst])
	}
	if f := pe / b.s.PEs; f != f0 {
		return b.s.PEs + f
	}
	return pe % b.s.PEs
}

func (b *baseline) account() {
	for _, fp := range b.fpgas {
		netBusy := false
		for _, l := range fp.in {
			if !l.inflight.empty() || !l.rx.empty() || l.held > 0 {
				netBusy = true
			}
		}
		for i := 0; i < b.s.PEs; i++ {
			q := b.pes[fp.id*b.s.PEs+i]
			st := &q.st
			switch {
			case q.mode == modeDone:
				st.Done++
			case q.mode == modeApply:
			case q.issued:
				st.Busy++
			case q.hazard:
				st.Hazard++
			case b.offchip && (q.inflight > 0 || q.unpacking) && q.in.empty():
				st.Memory++
			case fp.stalled && q.in.empty():
				st.Crossbar++
			case netBusy && q.in.empty():
				st.Network++
			case q.scatterBusy:
				st.Scatter++
			default:
				st.Barrier++
			}
		}
	}
}

func (b *baseline) deadlock() error {
	var sb strings.Builder
	fmt.Fprintf(&sb, "no progress for %d cycles at cycle %d (superstep %d): deadlock", b.now-b.progressed(), b.now, b.stepCount()-1)
	for _, fp := range b.fpgas {
		fmt.Fprintf(&sb, "\n  FPGA %d crossbar: channel %d", fp.id, fp.round)
	}
	for _, q := range b.pes {
		fmt.Fprintf(&sb, "\n    PE %d: %s round %d, updates %d, output %d, input %d, barriers counted %d of %d",
			q.id, [...]string{"apply", "gather", "done"}[q.mode], q.round, q.uq.len(), q.queued, q.in.len(), q.bcSeen, b.nPE)
	}
	return fmt.Errorf("%s", sb.String())
}
