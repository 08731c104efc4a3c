package sim

import (
	"math"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// core is what both cycle-level machines (GraVF-M and the GraVF baseline)
// share: the setup, the functional state of the vertices, the clock and
// the superstep counters, and the apply sweep.
type core struct {
	s     *Setup
	p     Params
	k     *kernel.Kernel
	g     *graph.Graph
	part  *graph.Partition
	fpgas []*fpga
	links []*link
	nPE   int

	states []uint64
	nf, nu int
	updPay [3][]uint64 // update payloads by round mod 3, indexed by vertex
	// msgPay holds, by round mod 3 and sender, the message of a kernel
	// whose scatter reads only the update, the sender and its degree
	// (kernel.ScatterPerSender, no globals): scatter runs once per
	// update, as it is applied, instead of once per edge; every edge's
	// message is the same value. nil otherwise.
	msgPay   [3][]uint64
	nm       int
	hazard   hazard
	glob     *globals // nil when the kernel has none
	prefetch bool     // the scatter unit looks up the next list while it walks one (PEGenerated)
	offchip  bool

	now   int64
	units []*applyUnit // every PE, in global order
	// lanes hold what each FPGA's units write while they step a cycle,
	// one lane per FPGA (see lane); serial is the lane of what steps on
	// the caller alone (the links, the GraVF baseline's units).
	lanes  []lane
	serial lane
}

// lane is what the units of one FPGA write as they step: a kernel context
// and an edge buffer of their own, their progress and their superstep
// counters. GraVF-M's FPGAs step a cycle on different cores
// (cyclecrew.go), so nothing they write may be shared; the counters are
// sums and minima, merged in the same figures whichever core stepped
// which FPGA, and the cycle a lane last progressed counts as the
// machine's.
type lane struct {
	ctx        *kernel.Ctx
	edgeBuf    []uint64
	steps      []stepStats
	progressed int64
	// now is the cycle the lane's FPGA is stepping: the machine's, but
	// for cycle detail's windows (cyclewindow.go), in which every FPGA
	// runs on its own clock.
	now int64
	// Lanes sit side by side in an array; the padding keeps two cores'
	// lanes off one cache line (128 bytes: two lines prefetched as a pair).
	_ [128 - 8 - 24 - 24 - 8 - 8]byte
}

func newLane(k *kernel.Kernel) lane {
	return lane{ctx: k.NewCtx(), edgeBuf: make([]uint64, len(k.Checked.EdgeT)), progressed: math.MinInt64}
}

func (l *lane) progress(now int64) { l.progressed = now }

// stepOf returns the lane's counters of superstep round.
func (l *lane) stepOf(round uint32) *stepStats {
	for int(round) >= len(l.steps) {
		l.steps = append(l.steps, stepStats{})
	}
	return &l.steps[round]
}

func newCore(s *Setup, p Params) core {
	k, g := s.Kernel, s.Graph
	c := core{s: s, p: p, k: k, g: g, part: s.partition, nPE: s.FPGAs * s.PEs, serial: newLane(k), offchip: s.Mem == MemOffChip}
	c.nf, c.nu, c.nm = len(k.Checked.VertexT), len(k.Checked.UpdateT), len(k.Checked.MessageT)
	c.states = make([]uint64, g.NumVertices()*c.nf)
	for i := range c.updPay {
		c.updPay[i] = make([]uint64, g.NumVertices()*c.nu)
	}
	c.hazard = newHazard(p)
	c.glob = newGlobals(k, c.nPE)
	c.prefetch = s.PE != PEPaper
	for v := 0; v < g.NumVertices(); v++ {
		x := c.serial.ctx
		x.ID, x.Degree = uint64(v), uint64(g.OutDegree(uint32(v)))
		k.Init(x, c.state(uint32(v)))
	}
	for f := 0; f < s.FPGAs; f++ {
		c.fpgas = append(c.fpgas, &fpga{id: f, out: make([]*link, s.FPGAs)})
		c.lanes = append(c.lanes, newLane(k))
	}
	c.serial.steps = []stepStats{{}}
	return c
}

// makeLinks joins every ordered FPGA pair; items cost words on the wire.
// perPE > 0 gives each receiving endpoint one FIFO per local PE (GraVF).
func (c *core) makeLinks(cost float64, perPE int) {
	for a := 0; a < c.s.FPGAs; a++ {
		for b := 0; b < c.s.FPGAs; b++ {
			if a == b {
				continue
			}
			l := &link{from: a, to: b, tx: newRing[item](LinkTxFIFODepth), inflight: newRing[item](64), rx: newRing[item](LinkRxFIFODepth)}
			// Credit covers the receive FIFO plus the link's round trip.
			l.rxCap = LinkRxFIFODepth + int(math.Ceil(2*float64(c.p.LinkLatency)*c.p.PairWordsPerCycle/max(cost, 1e-9)))
			for i := 0; i < perPE; i++ {
				l.perPE = append(l.perPE, newRing[item](l.rxCap))
			}
			c.links = append(c.links, l)
			c.fpgas[a].out[b] = l
			c.fpgas[b].in = append(c.fpgas[b].in, l)
		}
	}
}

func (c *core) progress() { c.serial.progress(c.now) }

// progressed returns the last cycle in which anything moved, on any lane.
func (c *core) progressed() int64 {
	last := c.serial.progressed
	for i := range c.lanes {
		last = max(last, c.lanes[i].progressed)
	}
	return last
}

// stepCount is the number of supersteps any unit has reached.
func (c *core) stepCount() int {
	n := len(c.serial.steps)
	for i := range c.lanes {
		n = max(n, len(c.lanes[i].steps))
	}
	return n
}

// mergedSteps adds up the lanes' superstep counters: the
// activity and messages are sums, a superstep starts at the first cycle
// any unit saw it start (0 stands for not seen, superstep 0 aside).
func (c *core) mergedSteps() []stepStats {
	out := make([]stepStats, c.stepCount())
	add := func(steps []stepStats) {
		for i, st := range steps {
			o := &out[i]
			if st.start != 0 && (o.start == 0 || st.start < o.start) {
				o.start = st.start
			}
			o.active += st.active
			o.messages += st.messages
		}
	}
	add(c.serial.steps)
	for i := range c.lanes {
		add(c.lanes[i].steps)
	}
	return out
}

func (c *core) state(v uint32) []uint64 { return c.states[int(v)*c.nf : int(v)*c.nf+c.nf] }

func (c *core) stepOf(round uint32) *stepStats { return c.serial.stepOf(round) }

// applyUnit is the apply side of a PE: its vertices, the sweep and the
// update queue.
type applyUnit struct {
	id, fpga int
	members  []uint32 // local vertices in local-index order
	uq       ring[item]
	mode     peMode
	round    uint32
	applyIdx int
	sent     int
	st       PEStats
}

// applyStep sweeps one vertex through apply, or, after the last one,
// queues the PE's barrier marker and returns to gathering.
func (c *core) applyStep(q *applyUnit, now int64) {
	if q.applyIdx < len(q.members) {
		v := q.members[q.applyIdx]
		ln := &c.lanes[q.fpga]
		x := ln.ctx
		x.ID, x.Degree, x.Superstep = uint64(v), uint64(c.g.OutDegree(v)), uint64(q.round)
		if c.glob != nil {
			x.Global = c.glob.read(q.round)
		}
		off := int(v) * c.nu
		if c.k.Apply(x, c.state(v), c.updPay[q.round%3][off:off+c.nu]) {
			if c.msgPay[0] != nil {
				c.scatterOnce(x, v, q.round)
			}
			q.uq.push(item{v: v, round: q.round, kind: kindUpdate, ready: now + int64(c.p.ApplyLatency)})
			q.sent++
			ln.stepOf(q.round).active++
		}
		if c.glob != nil {
			c.glob.contribute(q.id, q.applyIdx, x.Contrib)
		}
		q.applyIdx++
		q.st.Apply++
		ln.progress(now)
		return
	}
	ready := now + int64(c.p.ApplyLatency) + 1
	if c.glob != nil {
		c.glob.finish(q.id, q.round)
		ready += c.glob.markerDelay()
	}
	q.uq.push(item{v: uint32(q.id), round: q.round, kind: kindBarrier, halt: q.sent == 0, ready: ready})
	q.mode = modeGather
	q.st.Apply++
	c.lanes[q.fpga].progress(now)
}

// scatterOnce computes sender v's message of round (see msgPay) with
// the inputs the scatter unit would give it at every edge, in context x.
func (c *core) scatterOnce(x *kernel.Ctx, v, round uint32) {
	off := int(v) * c.nu
	x.Update = c.updPay[round%3][off : off+c.nu]
	x.Sender, x.Degree, x.Superstep = uint64(v), uint64(c.g.OutDegree(v)), uint64(round+1)
	c.k.Scatter(x, c.msgPay[round%3][int(v)*c.nm:int(v)*c.nm+c.nm])
	x.Superstep = uint64(round) // as apply left it
}

// Now returns the current cycle (View).
func (c *core) Now() int64 { return c.now }

// Superstep returns the highest superstep any PE has reached (View).
func (c *core) Superstep() int { return c.stepCount() - 1 }

// LinkWords returns the words sent on every link so far (View).
func (c *core) LinkWords() []float64 {
	out := make([]float64, len(c.links))
	for i, l := range c.links {
		out[i] = l.words
	}
	return out
}

// PEStats returns the running breakdown of every PE (View).
func (c *core) PEStats() []PEStats {
	out := make([]PEStats, len(c.units))
	for i, q := range c.units {
		out[i] = q.st
	}
	return out
}

// result collects the measurements of a finished run.
func (c *core) result() *Result { return c.resultOf(c.mergedSteps()) }

// resultOf collects the measurements of a run whose supersteps are steps.
func (c *core) resultOf(steps []stepStats) *Result {
	r := &Result{Arch: c.s.Arch, Mem: c.s.Mem, FPGAs: c.s.FPGAs, PEs: c.s.PEs, Cycles: c.now + 1, States: c.states, Fields: c.nf}
	fillSteps(r, steps)
	r.PerPE = c.PEStats()
	linkStats(r, c.links, c.p.PairWordsPerCycle)
	return r
}
