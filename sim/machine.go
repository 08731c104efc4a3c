package sim

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"github.com/gravf-tui/gravf-tui/crew"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

type itemKind uint8

const (
	kindUpdate itemKind = iota
	kindBarrier
)

// item travels through the crossbar, the links and the PE input FIFOs: an
// update (v = sender) or a barrier marker (v = source PE).
type item struct {
	v     uint32
	round uint32
	kind  itemKind
	halt  bool
	// run is the edge layout's run of the sender's neighbours on the PE
	// whose input FIFO holds the item (-1: none there), looked up once
	// per FPGA when the crossbar broadcasts the update.
	run   int32
	ready int64 // the cycle from which it may leave its queue
	// GraVF messages: the destination vertex (or PE, for a barrier) and
	// the edge's weight; the payload is computed from these when gathered.
	dst    uint32
	weight uint32
}

// msg travels from scatter to gather.
type msg struct {
	dst     uint32 // destination vertex
	sender  uint32
	round   uint32
	barrier bool
	halt    bool
	ready   int64
	slot    int32 // payload slot, -1 when the payload is the update's
}

type peMode uint8

const (
	modeApply peMode = iota
	modeGather
	modeDone
)

// resp is an off-chip memory word on its way back to a PE's scatter unit,
// or a barrier marker kept in order behind the words.
type resp struct {
	u       uint32 // update sender
	round   uint32
	run     int32  // the edge layout's run (GraVF-M) holding the list
	lo, hi  uint32 // edges of the list carried by this word
	arrive  int64
	barrier bool
	halt    bool
}

// pe is one processing element.
type pe struct {
	applyUnit
	in   ring[item]
	msgs ring[msg]

	// barrier counter
	bcSeen      int
	bcHalt      bool
	bcCompleted int64 // last round whose barriers have all been counted (-1: none)
	globReady   int64 // the cycle the globals of the next superstep are folded

	// scatter (BRAM): the walker, and the lookup stage (PEGenerated)
	walking  bool
	wU       uint32
	wRound   uint32
	wNbrs    []uint32
	wWeights []uint32
	wPos     int
	lkValid  bool
	lkU      uint32
	lkRound  uint32
	lkRun    int   // the update's list on this PE, -1 when it has none
	lastEdge int64 // the cycle the walker last read an edge
	// scatter (off-chip)
	reqActive   bool
	reqU        uint32
	reqRound    uint32
	reqRun      int32
	reqLen      int
	reqPos      int // next edge index to request
	outstanding ring[resp]
	inflight    int
	unpacking   bool
	unpack      resp
	unpackPos   uint32

	// gather
	hazardSlot []int64 // per hazard slot (local index mod the slots): the cycle it frees
	hazardMask int     // local index & hazardMask is the slot (the slots are all or a power of two)
	lastAny    int64

	// payloads of messages in flight (scatter output), used in turn
	payNext, paySlots int32
	pay               []uint64

	// per-cycle flags for the stall breakdown
	issued, hazard, scatterBusy bool
}

// link is one direction of one FPGA pair.
type link struct {
	from, to int
	tx       ring[item]
	inflight ring[item] // ready = arrival cycle
	rx       ring[item]
	rxCap    int
	tokens   float64
	words    float64
	// GraVF: the receiving endpoint sorts arrivals into one FIFO per local
	// PE (virtual channels), so a message for a busy PE does not block the
	// others; held counts the items waiting there (they still hold credit).
	perPE []ring[item]
	held  int
	// Cycle detail's windows (cyclewindow.go): sent counts the items
	// serialised, takes what the sender knows of the receiver's takes;
	// outbox holds the items serialised in the window, lastSend the cycle
	// of the last, busy the cycles in which the sender's FIFO or the wire
	// held an item.
	sent     int64
	takes    takeLog
	outbox   ring[item]
	lastSend int64
	busy     ring[spanCycles]
}

// fpga groups the PEs and the crossbar of one FPGA.
type fpga struct {
	id        int
	pes       []*pe
	round     uint32
	rrLocal   int
	rrRemote  int
	in        []*link // links arriving here
	out       []*link // links leaving here, by destination FPGA (nil for self)
	ifTokens  float64
	memTokens float64
	memRR     int  // the rotation of the order in which the PEs meet the memory arbiter
	stalled   bool // the crossbar had an item but a destination was full
	netBusy   bool // a link arriving here holds an item (after the links stepped)
	done      bool // every PE has terminated (after the FPGA stepped)
	moved     bool
	xbarMoves int64
	xbarStall int64
	// StallPE and stallLink split the crossbar's stalls by cause: a full
	// PE input FIFO, or a full link send FIFO.
	stallPE, stallLink int64
	// Windows (cyclewindow.go): paused says the crossbar has stepped the
	// FPGA's cycle and the links have not, doneSince is the first cycle
	// after which every PE had terminated (-1: not yet), amb holds the
	// cycles whose accounting waits for the senders' side of the links.
	paused    bool
	doneSince int64
	amb       ring[ambCycle]
	// stepped is the last cycle the crossbar has stepped, which the
	// senders towards it read while it runs.
	stepped atomic.Int64
}

// machine is one GraVF-M system being simulated at cycle level.
type machine struct {
	core
	layout   *graph.EdgeLayout
	filter   *graph.Filter
	pes      []*pe
	listener Listener
	// workers is how many cores step the FPGAs of a cycle; crew is their
	// crew while a run lasts (nil: the caller steps them alone).
	workers int
	crew    *crew.Cycles
	pace    crew.Pace
	// window is the length of cycle detail's windows (cyclewindow.go; 0:
	// cycle by cycle), windowCrew their crew, windowing whether a window
	// is being stepped (the crossbars log their takes), active the FPGAs
	// of the current one.
	window     int64
	windowCrew *crew.Windows
	windowing  bool
	active     []*fpga
	// windows and pauses count the windows stepped and the FPGAs that
	// paused in them for a credit (tests and benchmarks read them).
	windows, pauses int
	// pending says the cycle stepped last is not accounted yet: the next
	// stepFPGA of each FPGA accounts it, or settle once the run ends.
	pending bool
}

type stepStats struct {
	start    int64
	active   int64
	messages int64
}

// newMachine builds the system: partition, layout, filter, PEs, links.
func newMachine(s *Setup, p Params) *machine {
	m := &machine{core: newCore(s, p), listener: s.Listener, workers: 1}
	switch n := s.FPGAs * s.PEs; {
	case n >= windowMinPEs && m.windowLength() > 0 && s.cores() > 1:
		m.workers, m.window = s.cores(), m.windowLength()
	case n >= crewMinPEs:
		m.workers = s.cores()
	}
	m.layout = graph.NewEdgeLayout(s.Graph, s.partition)
	if s.Filter && s.FPGAs > 1 {
		m.filter = graph.NewFilter(s.Graph, s.partition)
	}
	if k := s.Kernel; !k.ScatterIsCopy() && k.ScatterPerSender() && m.glob == nil {
		for i := range m.msgPay {
			m.msgPay[i] = make([]uint64, s.Graph.NumVertices()*m.nm)
		}
	}
	paySlots := MsgFIFODepth + p.ScatterLatency + 1
	for f := 0; f < s.FPGAs; f++ {
		for l := 0; l < s.PEs; l++ {
			id := f*s.PEs + l
			members := s.partition.Members[id]
			slots := m.hazard.slots(len(members))
			q := &pe{applyUnit: applyUnit{id: id, fpga: f, members: members, uq: newRing[item](len(members) + UpdateQueueExtra)},
				in:          newRing[item](InFIFODepth),
				msgs:        newRing[msg](MsgFIFODepth + p.ScatterLatency),
				outstanding: newRing[resp](p.InFlight + OrderFIFOExtra),
				hazardSlot:  make([]int64, slots), hazardMask: hazardMask(slots, len(members)),
				paySlots:    int32(paySlots),
				bcCompleted: -1, bcHalt: true, lastEdge: math.MinInt32,
				pay: make([]uint64, paySlots*max(m.nm, 1)), lastAny: math.MinInt32}
			m.fpgas[f].pes = append(m.fpgas[f].pes, q)
			m.pes = append(m.pes, q)
			m.units = append(m.units, &q.applyUnit)
		}
	}
	m.makeLinks(p.UpdateWords, 0)
	return m
}

// run steps the machine until every PE has terminated.
func (m *machine) run(ctx context.Context) error {
	stallLimit := int64(200000 + 20*(m.p.LinkLatency+m.p.MemLatency))
	maxCycles, maxSteps := m.s.MaxCycles, m.s.maxSupersteps()
	stepAll := m.stepper()
	if m.crew != nil {
		defer m.crew.Stop()
	}
	if m.windowed() && m.workers > 1 {
		m.windowCrew = crew.StartWindows(min(m.workers, len(m.fpgas))-1, &m.pace)
		defer m.windowCrew.Stop()
	}
	defer m.settle()
	for {
		if m.windowed() && m.mayWindow(stallLimit) {
			done, err := m.runWindows(ctx, stallLimit)
			if done || err != nil {
				return err
			}
		}
		if m.now&0xFFFF == 0 {
			if err := ctx.Err(); err != nil {
				return m.stop(StopInterrupted, 0, err)
			}
			if m.s.Progress != nil {
				m.s.Progress(Progress{Cycle: m.now, Superstep: m.stepCount() - 1})
			}
		}
		for i := range m.lanes {
			m.lanes[i].now = m.now
		}
		stepAll() // accounting the cycle before, if pending
		m.pending = false
		done := true
		for _, fp := range m.fpgas {
			done = done && fp.done
		}
		m.stepLinks()
		if m.listener != nil {
			m.settle()
			m.listener.Cycle(m)
		}
		if done {
			return nil
		}
		m.now++
		if m.now-m.progressed() > stallLimit {
			return m.deadlock()
		}
		if maxCycles > 0 && m.now >= maxCycles {
			return m.stop(StopCycleLimit, maxCycles, nil)
		}
		if m.stepCount() > maxSteps {
			return m.stop(StopSuperstepLimit, int64(maxSteps), nil)
		}
	}
}

// stepper returns what steps every FPGA through a cycle: a crew of
// m.workers cores (cyclecrew.go), or the caller alone. A kernel with
// globals folds every PE's contributions into one value as the PEs apply,
// which couples the FPGAs within a cycle, so it steps them in order.
func (m *machine) stepper() func() {
	if m.workers > 1 && m.glob == nil && len(m.fpgas) > 1 && !m.windowed() && len(m.pes) >= crewMinPEs {
		m.crew = crew.StartCycles(len(m.fpgas), min(m.workers, len(m.fpgas))-1, &m.pace, func(k int) { m.stepFPGA(m.fpgas[k]) })
		return m.crew.Cycle
	}
	return func() {
		for _, fp := range m.fpgas {
			m.stepFPGA(fp)
		}
	}
}

// stepFPGA steps the units of one FPGA through the current cycle: every
// PE's gather or apply, then its scatter, the PEs meeting the memory
// arbiter in an order that rotates every cycle, then the crossbar. It
// reads and writes nothing of another FPGA (see cyclecrew.go).
func (m *machine) stepFPGA(fp *fpga) {
	if m.pending {
		m.account(fp) // the cycle before, as it left the PEs' flags
	}
	for _, q := range fp.pes {
		q.issued, q.hazard, q.scatterBusy = false, false, false
		m.stepGatherApply(q)
	}
	m.memRefill(fp)
	for i, n := fp.memRR, len(fp.pes); i < fp.memRR+n; i++ {
		j := i
		if j >= n {
			j -= n
		}
		q := fp.pes[j]
		if m.offchip {
			m.stepScatterOffchip(fp, q)
		} else {
			m.stepScatterBRAM(q)
		}
	}
	if fp.memRR++; fp.memRR == len(fp.pes) {
		fp.memRR = 0
	}
	m.stepCrossbar(fp)
	fp.done = true
	for _, q := range fp.pes {
		fp.done = fp.done && q.mode == modeDone
	}
}

// settle accounts the cycle stepped last if it is pending, which
// stepFPGA would otherwise do at the start of the next one, on the core
// that steps the FPGA (its PEs' flags are in that core's cache): a
// listener reads the breakdown after every cycle, and a run's result
// after its last.
func (m *machine) settle() {
	if !m.pending {
		return
	}
	for _, fp := range m.fpgas {
		m.account(fp)
	}
	m.pending = false
}

// stepGatherApply advances the gather/apply unit of one PE.
func (m *machine) stepGatherApply(q *pe) {
	now := m.lanes[q.fpga].now
	ln := &m.lanes[q.fpga]
	k, c := m.k, ln.ctx
	switch q.mode {
	case modeDone:
		return
	case modeApply:
		m.applyStep(&q.applyUnit, now)
		return
	}
	if q.msgs.empty() || q.msgs.peek().ready > now {
		return
	}
	h := q.msgs.peek()
	if h.barrier {
		if now < q.lastAny+m.hazard.hold {
			q.hazard = true // flushing the gather pipeline
			return
		}
		if m.glob != nil && !h.halt && now < q.globReady {
			return // the globals of the next superstep are being folded
		}
		b := q.msgs.pop()
		ln.progress(now)
		if b.halt {
			q.mode = modeDone
			return
		}
		q.round = b.round + 1
		q.mode, q.applyIdx, q.sent = modeApply, 0, 0
		ns := ln.stepOf(q.round)
		if ns.start == 0 || now < ns.start {
			ns.start = now
		}
		return
	}
	slot := int(m.part.Local[h.dst]) & q.hazardMask
	if now < q.hazardSlot[slot] {
		q.hazard = true
		return
	}
	mg := q.msgs.pop()
	if mg.slot >= 0 {
		c.Msg = q.pay[int(mg.slot)*m.nm : int(mg.slot)*m.nm+m.nm]
	} else {
		c.Msg = m.senderMsg(mg.sender, mg.round)
	}
	c.Sender, c.ID, c.Superstep = uint64(mg.sender), uint64(mg.dst), uint64(mg.round+1)
	k.Gather(c, m.state(mg.dst))
	q.hazardSlot[slot], q.lastAny = now+m.hazard.hold, now
	q.issued = true
	q.st.Messages++
	ln.stepOf(mg.round).messages++
	ln.progress(now)
}

// emit sends one edge of update u through the scatter kernel into the
// message FIFO. The caller checks that the FIFO has room.
func (m *machine) emit(q *pe, u, round uint32, w uint32, weight uint32, hasWeight bool) {
	now := m.lanes[q.fpga].now
	mg := msg{dst: w, sender: u, round: round, ready: now + int64(m.p.ScatterLatency), slot: -1}
	if !m.k.ScatterIsCopy() && m.msgPay[0] == nil {
		ln := &m.lanes[q.fpga]
		c := ln.ctx
		off := int(u) * m.nu
		c.Update = m.updPay[round%3][off : off+m.nu]
		c.Sender, c.Neighbor, c.Degree, c.Superstep = uint64(u), uint64(w), uint64(m.g.OutDegree(u)), uint64(round+1)
		if len(ln.edgeBuf) > 0 {
			ln.edgeBuf[0] = kernel.UnitEdge(m.k)
			if hasWeight {
				ln.edgeBuf[0] = uint64(weight)
			}
			c.Edge = ln.edgeBuf
		}
		slot := q.payNext
		if q.payNext++; q.payNext == q.paySlots {
			q.payNext = 0
		}
		m.k.Scatter(c, q.pay[int(slot)*m.nm:int(slot)*m.nm+m.nm])
		mg.slot = slot
	}
	q.msgs.push(mg)
}

// senderMsg is the message of a copy scatter (the update) or of a
// per-sender one (msgPay), which every edge of the sender's lists carries.
func (m *machine) senderMsg(u, round uint32) []uint64 {
	if m.msgPay[0] != nil {
		return m.msgPay[round%3][int(u)*m.nm : int(u)*m.nm+m.nm]
	}
	off := int(u) * m.nu
	return m.updPay[round%3][off : off+m.nu]
}

// takeInput handles the head of the input FIFO when scatter is free: a
// barrier is counted (and passed on once every PE's has arrived, behind
// the messages, or with edges off-chip behind the words in flight); an
// update is returned for scatter. ok is false when nothing was taken.
func (m *machine) takeInput(q *pe) (it item, ok bool) {
	now := m.lanes[q.fpga].now
	if q.in.empty() {
		return item{}, false
	}
	h := q.in.peek()
	if h.kind == kindBarrier {
		if q.bcSeen+1 == m.nPE {
			if !m.pushBarrier(q, q.bcHalt && h.halt, h.round) {
				return item{}, false
			}
			q.bcCompleted = int64(h.round)
			q.bcSeen, q.bcHalt = 0, true
			if m.glob != nil {
				q.globReady = now + m.glob.foldDelay(m.nPE)
			}
		} else {
			q.bcSeen++
			q.bcHalt = q.bcHalt && h.halt
		}
		q.in.pop()
		q.scatterBusy = true
		m.lanes[q.fpga].progress(now)
		return item{}, false
	}
	q.scatterBusy = true
	m.lanes[q.fpga].progress(now)
	return q.in.pop(), true
}

// stepScatterBRAM steps the scatter unit with edges in block RAM.
func (m *machine) stepScatterBRAM(q *pe) {
	if m.prefetch {
		m.stepScatterPrefetch(q)
		return
	}
	// The paper's unit: one cycle to look up a list, then one edge per
	// cycle; the next input is taken once the list is read.
	if q.walking {
		q.scatterBusy = true
		if !q.msgs.full() {
			m.walkEdge(q)
		}
		return
	}
	it, ok := m.takeInput(q)
	if !ok {
		return
	}
	if it.run >= 0 {
		m.startWalk(q, it.v, it.round, int(it.run))
	}
}

// stepScatterPrefetch: the generated unit's two stages. The walker reads
// one edge per cycle; when idle it reads the looked-up list's first edge
// in the cycle after the lookup, and in the cycle it reads a list's last
// edge it takes the looked-up list, whose first edge follows in the next
// cycle. The lookup stage takes the next update once it has handed its
// own on or dropped it (an empty list). Barrier markers are counted as
// they arrive; the last of a channel goes behind the edges once both
// stages are idle and the last edge read has been queued.
func (m *machine) stepScatterPrefetch(q *pe) {
	now := m.lanes[q.fpga].now
	idle, lk := !q.walking, q.lkValid
	last := false
	if q.walking {
		q.scatterBusy = true
		if !q.msgs.full() {
			m.walkEdge(q)
			last = !q.walking
		}
	}
	if q.lkValid {
		q.scatterBusy = true
		switch {
		case q.lkRun < 0:
			q.lkValid = false
		case idle && !q.msgs.full():
			m.startWalk(q, q.lkU, q.lkRound, q.lkRun)
			q.lkValid = false
			m.walkEdge(q)
		case last:
			m.startWalk(q, q.lkU, q.lkRound, q.lkRun)
			q.lkValid = false
		}
	}
	if q.in.empty() {
		return
	}
	h := q.in.peek()
	if h.kind == kindUpdate && q.lkValid {
		return
	}
	if h.kind == kindBarrier && q.bcSeen+1 == m.nPE && (!idle || lk || q.lastEdge >= now-1) {
		return
	}
	it, ok := m.takeInput(q)
	if !ok {
		return
	}
	q.lkValid, q.lkU, q.lkRound, q.lkRun = true, it.v, it.round, int(it.run)
}

// pushBarrier queues a PE's passed barrier marker behind its messages
// (edges off-chip: behind its words in flight); false when that FIFO is
// full.
func (m *machine) pushBarrier(q *pe, halt bool, round uint32) bool {
	now := m.lanes[q.fpga].now
	if m.offchip {
		if q.outstanding.full() {
			return false
		}
		q.outstanding.push(resp{barrier: true, halt: halt, round: round, arrive: now})
		return true
	}
	if q.msgs.full() {
		return false
	}
	q.msgs.push(msg{barrier: true, halt: halt, round: round, ready: now + int64(m.p.ScatterLatency)})
	return true
}

func (m *machine) startWalk(q *pe, u, round uint32, run int) {
	_, nbrs, ws := m.layout.Run(run)
	q.walking, q.wU, q.wRound, q.wNbrs, q.wWeights, q.wPos = true, u, round, nbrs, ws, 0
}

// walkEdge reads the walker's next edge into the scatter kernel.
func (m *machine) walkEdge(q *pe) {
	now := m.lanes[q.fpga].now
	var w uint32
	if q.wWeights != nil {
		w = q.wWeights[q.wPos]
	}
	m.emit(q, q.wU, q.wRound, q.wNbrs[q.wPos], w, q.wWeights != nil)
	q.wPos++
	q.walking = q.wPos < len(q.wNbrs)
	q.lastEdge = now
	m.lanes[q.fpga].progress(now)
}

func (m *machine) memRefill(fp *fpga) {
	if !m.offchip {
		return
	}
	fp.memTokens = min(fp.memTokens+m.p.MemWordsPerCycle, max(m.p.MemWordsPerCycle, 1))
}

// stepScatterOffchip: the pipelined off-chip scatter. Unpack one edge per
// cycle from returned words; issue one word request per cycle; take the
// next update once the current one's requests are all issued.
func (m *machine) stepScatterOffchip(fp *fpga, q *pe) {
	now := m.lanes[fp.id].now
	// 1. Unpack.
	if !q.unpacking && !q.outstanding.empty() && q.outstanding.peek().arrive <= now {
		r := q.outstanding.peek()
		if r.barrier {
			if !q.msgs.full() {
				q.msgs.push(msg{barrier: true, halt: r.halt, round: r.round, ready: now + int64(m.p.ScatterLatency)})
				q.outstanding.pop()
				m.lanes[q.fpga].progress(now)
			}
		} else {
			q.unpack, q.unpacking, q.unpackPos = q.outstanding.pop(), true, r.lo
			q.inflight--
		}
	}
	if q.unpacking && !q.msgs.full() {
		r := &q.unpack
		_, nbrs, ws := m.layout.Run(int(r.run))
		var w uint32
		if ws != nil {
			w = ws[q.unpackPos]
		}
		m.emit(q, r.u, r.round, nbrs[q.unpackPos], w, ws != nil)
		q.unpackPos++
		q.scatterBusy = true
		q.unpacking = q.unpackPos < r.hi
		m.lanes[q.fpga].progress(now)
	}
	// 2. Request one word.
	if q.reqActive && q.inflight < m.p.InFlight && fp.memTokens >= 1 && !q.outstanding.full() {
		lo := q.reqPos
		hi := min(lo+m.p.EdgesPerWord, q.reqLen)
		q.outstanding.push(resp{u: q.reqU, round: q.reqRound, run: q.reqRun, lo: uint32(lo), hi: uint32(hi), arrive: now + int64(m.p.MemLatency)})
		q.inflight++
		fp.memTokens--
		q.reqPos = hi
		q.reqActive = q.reqPos < q.reqLen
		q.scatterBusy = true
		q.st.MemWords++
		m.lanes[q.fpga].progress(now)
		if q.reqActive {
			return
		}
		// The next update is latched in the cycle the last request issues.
	}
	if q.reqActive || q.in.empty() {
		return
	}
	// 3. Latch the next update.
	it, ok := m.takeInput(q)
	if !ok {
		return
	}
	if it.run >= 0 {
		_, nbrs, _ := m.layout.Run(int(it.run))
		q.reqActive, q.reqU, q.reqRound, q.reqRun, q.reqLen, q.reqPos = true, it.v, it.round, it.run, len(nbrs), 0
	}
}

// broadcast writes item it into the input FIFO of every PE of fp, each
// copy carrying the run of the sender's neighbours on that PE: the runs
// of a vertex are in ascending PE order, as are an FPGA's PEs, so one
// merge finds them all. The caller checks that no FIFO is full.
func (m *machine) broadcast(fp *fpga, it item) {
	i, hi := 0, 0
	if it.kind == kindUpdate {
		i, hi = m.layout.Runs(it.v)
	}
	for _, q := range fp.pes {
		it.run = -1
		for ; i < hi; i++ {
			pe, _, _ := m.layout.Run(i)
			if pe >= q.id {
				if pe == q.id {
					it.run = int32(i)
				}
				break
			}
		}
		q.in.push(it)
	}
}

// hazardMask maps a local index to its hazard slot: the exact detector
// has a slot per local vertex, the paper's a power of two of them.
func hazardMask(slots, members int) int {
	if slots >= members {
		return -1 // every local index is its own slot
	}
	return slots - 1
}

// stepCrossbar moves at most one item per FPGA: remote first, then the
// local update queues in round-robin order, in lockstep to every
// destination.
func (m *machine) stepCrossbar(fp *fpga) {
	now := m.lanes[fp.id].now
	fp.stalled, fp.moved = false, false
	// Advance the channel once every local PE has passed its barrier.
	for {
		all := true
		for _, q := range fp.pes {
			if q.mode != modeDone && q.bcCompleted < int64(fp.round) {
				all = false
				break
			}
		}
		if !all {
			break
		}
		fp.round++
		if fp.round > 1<<30 {
			return
		}
		allDone := true
		for _, q := range fp.pes {
			allDone = allDone && q.mode == modeDone
		}
		if allDone {
			return
		}
	}
	localFull := false
	for _, q := range fp.pes {
		if q.in.full() {
			localFull = true
			break
		}
	}
	// Remote inputs have priority.
	n := len(fp.in)
	for i := 0; i < n; i++ {
		l := fp.in[(fp.rrRemote+i)%n]
		if l.rx.empty() || l.rx.peek().round != fp.round {
			continue
		}
		if localFull {
			fp.stalled = true
			fp.xbarStall++
			fp.stallPE++
			return
		}
		m.broadcast(fp, l.rx.pop())
		if m.windowing {
			l.takes.take(now)
		}
		fp.rrRemote = (fp.rrRemote + i + 1) % n
		fp.moved = true
		fp.xbarMoves++
		m.lanes[fp.id].progress(now)
		return
	}
	np := len(fp.pes)
	for i := 0; i < np; i++ {
		src := fp.pes[(fp.rrLocal+i)%np]
		if src.uq.empty() {
			continue
		}
		h := src.uq.peek()
		if h.round != fp.round || h.ready > now {
			continue
		}
		ok := !localFull
		for g, l := range fp.out {
			if l != nil && m.needs(h, g) && l.tx.full() {
				ok = false
			}
		}
		if !ok {
			fp.stalled = true
			fp.xbarStall++
			if localFull {
				fp.stallPE++
			} else {
				fp.stallLink++
			}
			return
		}
		it := src.uq.pop()
		m.broadcast(fp, it)
		for g, l := range fp.out {
			if l != nil && m.needs(&it, g) {
				l.tx.push(it)
			}
		}
		fp.rrLocal = (fp.rrLocal + i + 1) % np
		fp.moved = true
		fp.xbarMoves++
		m.lanes[fp.id].progress(now)
		return
	}
}

// needs reports whether FPGA g must receive item it: barriers always,
// updates unless the filter knows g holds no neighbour of the sender.
func (m *machine) needs(it *item, g int) bool {
	return it.kind == kindBarrier || m.filter == nil || m.filter.Has(it.v, g)
}

// stepLinks serialises items onto the links and delivers arrivals.
// It also notes, for the accounting of the cycle, which FPGAs have
// something on a link arriving at them.
func (m *machine) stepLinks() {
	if stepLinks(m.fpgas, m.links, &m.p, m.p.UpdateWords, m.now) {
		m.progress()
	}
	for _, fp := range m.fpgas {
		fp.netBusy = false
	}
	for _, l := range m.links {
		if !l.inflight.empty() || !l.tx.empty() || !l.rx.empty() {
			m.fpgas[l.to].netBusy = true
		}
	}
	m.pending = true
}

// stepLinks serialises items of cost words each onto the links, within
// each pair's and each FPGA's bandwidth and the receiver's credit, and
// delivers the arrivals. An FPGA's links take their share of the interface
// in an order that rotates every cycle, so no link starves. It reports
// whether anything moved.
func stepLinks(fpgas []*fpga, links []*link, p *Params, cost float64, now int64) bool {
	moved := false
	for _, l := range links {
		for !l.inflight.empty() && l.inflight.peek().ready <= now {
			l.rx.push(l.inflight.pop())
			moved = true
		}
		l.tokens = min(l.tokens+p.PairWordsPerCycle, max(p.PairWordsPerCycle, cost))
	}
	nF := len(fpgas)
	first := int(now % int64(nF))
	for _, src := range fpgas {
		src.ifTokens = min(src.ifTokens+p.IfWordsPerCycle, max(p.IfWordsPerCycle, cost))
		for j := first; j < first+nF; j++ {
			i := j
			if i >= nF {
				i -= nF
			}
			l := src.out[i]
			if l == nil || l.tx.empty() {
				continue
			}
			if !mayTake(l.tokens, src.ifTokens, cost, int64(l.inflight.len()+l.rx.len()+l.held), l.rxCap) {
				continue
			}
			it := l.tx.pop()
			it.ready = now + int64(max(p.LinkLatency, 1))
			l.inflight.push(it)
			l.tokens -= cost
			src.ifTokens -= cost
			l.words += cost
			moved = true
		}
	}
	return moved
}

// mayTake reports whether a link may take an item of cost words onto the
// wire this cycle: the pair's and the sending FPGA's token buckets hold
// it, and the receive FIFO's credit, occupied of capacity items in flight
// or waiting, has room. Every level of detail serialises by it.
func mayTake(pairTokens, ifTokens, cost float64, occupied int64, capacity int) bool {
	return pairTokens+1e-9 >= cost && ifTokens+1e-9 >= cost && occupied < int64(capacity)
}

// account attributes the cycle of every PE of fp to one cause.
func (m *machine) account(fp *fpga) {
	for _, q := range fp.pes {
		if m.accountPE(fp, q) {
			if fp.netBusy {
				q.st.Network++
			} else {
				q.st.Barrier++
			}
		}
	}
}

// accountPE attributes the cycle of PE q to its cause, or reports that
// the network (an item on a link towards fp) or else the barrier explains
// it.
func (m *machine) accountPE(fp *fpga, q *pe) (network bool) {
	st := &q.st
	switch {
	case q.mode == modeDone:
		st.Done++
	case q.mode == modeApply:
		// counted when the sweep stepped
	case q.issued:
		st.Busy++
	case q.hazard:
		st.Hazard++
	case q.scatterBusy || !q.msgs.empty():
		st.Scatter++
	case m.offchip && (q.inflight > 0 || q.unpacking):
		st.Memory++
	case fp.stalled:
		st.Crossbar++
	default:
		return true
	}
	return false
}

// deadlock describes why nothing moved for a long time.
func (m *machine) deadlock() error {
	var b strings.Builder
	fmt.Fprintf(&b, "no progress for %d cycles at cycle %d (superstep %d): deadlock", m.now-m.progressed(), m.now, m.stepCount()-1)
	for _, fp := range m.fpgas {
		fmt.Fprintf(&b, "\n  FPGA %d crossbar: channel %d, stalled %v", fp.id, fp.round, fp.stalled)
		for _, q := range fp.pes {
			mode := [...]string{"apply", "gather", "done"}[q.mode]
			fmt.Fprintf(&b, "\n    PE %d: %s round %d, input %d/%d, messages %d, update queue %d, barriers counted %d of %d for round %d",
				q.id, mode, q.round, q.in.len(), q.in.cap(), q.msgs.len(), q.uq.len(), q.bcSeen, m.nPE, q.bcCompleted+1)
		}
	}
	for _, l := range m.links {
		fmt.Fprintf(&b, "\n  link %d->%d: send %d, in flight %d, receive %d", l.from, l.to, l.tx.len(), l.inflight.len(), l.rx.len())
	}
	return fmt.Errorf("%s", b.String())
}
