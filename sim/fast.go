package sim

import (
	"context"
	"math"
	"math/rand/v2"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
)

// The fast level of detail replaces cycle stepping by one accounting pass
// per superstep. The functional result comes from the reference engine,
// which runs the same kernels on the same supersteps; the timing comes
// from the exact work each unit of the machine has in that superstep:
//
//   - every PE sweeps its vertices through apply (one per cycle); gather
//     waits for the sweep, so a superstep starts with the longest sweep;
//   - then the longest of: each crossbar moving its updates (one per
//     cycle; GraVF: each output port one message per cycle), each PE's
//     scatter (a lookup per update, a request per memory word, an edge per
//     cycle; with BRAM edges the longer of lookups and edges, or 1 + len
//     per list for the paper's PE) and gather (a message per cycle plus
//     the expected hazard stalls of the detector), each
//     link and each FPGA interface, and each FPGA's memory bandwidth;
//   - plus the pipeline's fill and drain: kernel latencies, the memory and
//     link latencies, and the barrier.
//
// Idle cycles are never stepped; a superstep costs work proportional to
// its updates and messages.

type fastModel struct {
	s      *Setup
	p      Params
	g      *graph.Graph
	part   *graph.Partition
	layout *graph.EdgeLayout
	filter *graph.Filter
	nPE    int
	glob   *globals // the latencies of the globals' folds; nil without globals

	// per-superstep scratch
	localUpd     []float64   // GraVF-M: updates issued on each FPGA
	share        [][]float64 // GraVF-M: of those, the share each FPGA needs
	xbar         []int64     // GraVF-M: items each crossbar moves
	latch, words []int64     // per PE
	edges        []int64     // per PE: messages it gathers
	scat         []int64     // GraVF: per PE scatter cycles
	linkWords    []float64   // per ordered pair a*nF+b
	linkTotal    []float64
	memWords     []int64 // per FPGA
	sweep        []int64 // per PE: local vertices
	stallPerMsg  []float64
	steps        []Superstep
	cycles       int64
	messages     int64
	perPE        []PEStats
}

func newFast(s *Setup, p Params) *fastModel {
	nPE := s.FPGAs * s.PEs
	f := &fastModel{s: s, p: p, g: s.Graph, part: s.partition, nPE: nPE,
		xbar: make([]int64, s.FPGAs), latch: make([]int64, nPE), words: make([]int64, nPE), edges: make([]int64, nPE),
		scat: make([]int64, nPE), linkWords: make([]float64, s.FPGAs*s.FPGAs), linkTotal: make([]float64, s.FPGAs*s.FPGAs),
		memWords: make([]int64, s.FPGAs), sweep: make([]int64, nPE), stallPerMsg: make([]float64, nPE), perPE: make([]PEStats, nPE),
		localUpd: make([]float64, s.FPGAs), glob: newGlobals(s.Kernel, nPE)}
	for g := 0; g < s.FPGAs; g++ {
		f.share = append(f.share, make([]float64, s.FPGAs))
	}
	if s.Arch == model.GraVFM {
		f.layout = graph.NewEdgeLayout(s.Graph, s.partition)
		if s.Filter && s.FPGAs > 1 {
			f.filter = graph.NewFilter(s.Graph, s.partition)
		}
	}
	stall := map[int]float64{}
	hz := newHazard(s.PE, s.Kernel, p)
	for q := 0; q < nPE; q++ {
		n := len(s.partition.Members[q])
		f.sweep[q] = int64(n)
		slots := hz.slots(n)
		if _, ok := stall[slots]; !ok {
			stall[slots] = hazardStall(int(hz.hold), slots)
		}
		f.stallPerMsg[q] = stall[slots]
	}
	return f
}

// hazardStall returns the mean stall cycles per message of the aliased
// hazard detector (slots slots, each held h cycles after an issue) for a
// saturated stream of messages to random vertices. It runs the detector
// itself on a seeded stream: the closed forms over-count, because a stall
// also lets the older issues in the window expire.
func hazardStall(h, slots int) float64 {
	if h <= 1 {
		return 0
	}
	r := rand.New(rand.NewPCG(uint64(h), uint64(slots)))
	free := make([]int64, slots)
	var now, stalls int64
	const n = 1 << 16
	for i := 0; i < n; i++ {
		s := r.IntN(slots)
		if free[s] > now {
			stalls += free[s] - now
			now = free[s]
		}
		free[s] = now + int64(h)
		now++
	}
	return float64(stalls) / n
}

func (f *fastModel) reset() {
	clear(f.localUpd)
	for _, r := range f.share {
		clear(r)
	}
	clear(f.xbar)
	clear(f.latch)
	clear(f.words)
	clear(f.edges)
	clear(f.scat)
	clear(f.linkWords)
	clear(f.memWords)
}

// superstep accounts for one superstep whose senders are given.
func (f *fastModel) superstep(index int, senders []uint32) {
	f.reset()
	s, p := f.s, &f.p
	nF := s.FPGAs
	epw := int64(p.EdgesPerWord)
	var msgs int64
	if s.Arch == model.GraVFM {
		for _, u := range senders {
			home := f.part.FPGA(u)
			f.localUpd[home]++
			for g := 0; g < nF; g++ {
				if g == home || f.filter == nil || f.filter.Has(u, g) {
					f.xbar[g]++
					if g != home {
						f.linkWords[home*nF+g] += p.UpdateWords
						f.share[home][g]++
					}
				}
			}
			lo, hi := f.layout.Runs(u)
			for i := lo; i < hi; i++ {
				q, nbrs, _ := f.layout.Run(i)
				n := int64(len(nbrs))
				f.edges[q] += n
				w := (n + epw - 1) / epw
				f.words[q] += w
				f.memWords[q/s.PEs] += w
				msgs += n
			}
		}
		for q := 0; q < f.nPE; q++ {
			f.latch[q] = f.xbar[q/s.PEs] + int64(f.nPE) // updates plus barrier markers
		}
	} else {
		for _, u := range senders {
			q := int(f.part.PE[u])
			home := q / s.PEs
			nbrs := f.g.Neighbors(u)
			n := int64(len(nbrs))
			f.latch[q]++
			f.scat[q] += n
			if s.PE == PEPaper {
				f.scat[q]++ // the lookup cycle of every list
			}
			w := (n + epw - 1) / epw
			f.words[q] += w
			f.memWords[home] += w
			msgs += n
			for _, v := range nbrs {
				d := int(f.part.PE[v])
				f.edges[d]++
				if g := d / s.PEs; g != home {
					f.linkWords[home*nF+g] += p.MessageWords
				}
			}
		}
	}
	if s.Arch == model.GraVFM {
		for a := 0; a < nF; a++ {
			for g := 0; g < nF; g++ {
				if f.localUpd[a] > 0 {
					f.share[a][g] /= f.localUpd[a]
				}
			}
		}
	}
	t := f.time(msgs)
	for q := 0; q < f.nPE; q++ {
		st := &f.perPE[q]
		st.Apply += f.sweep[q]
		st.Busy += f.edges[q]
		st.Messages += f.edges[q]
		st.Hazard += int64(math.Round(float64(f.edges[q]) * f.stallPerMsg[q]))
		st.MemWords += f.words[q]
	}
	for i := range f.linkWords {
		f.linkTotal[i] += f.linkWords[i]
	}
	f.steps = append(f.steps, Superstep{Index: index, Start: f.cycles, Cycles: t, Active: int64(len(senders)), Messages: msgs})
	f.cycles += t
	f.messages += msgs
}

// time returns the cycles of one superstep from this superstep's work.
func (f *fastModel) time(msgs int64) int64 {
	s, p := f.s, &f.p
	nF := s.FPGAs
	var sweep int64
	for q := range f.sweep {
		sweep = max(sweep, f.sweep[q])
	}
	var work float64
	offchip := s.Mem == MemOffChip
	for q := 0; q < f.nPE; q++ {
		gather := float64(f.edges[q]) * (1 + f.stallPerMsg[q])
		var scatter float64
		switch {
		case s.Arch == model.GraVFM && offchip:
			scatter = float64(max(f.latch[q], f.words[q], f.edges[q]))
		case s.Arch == model.GraVFM && s.PE == PEPaper:
			scatter = float64(f.latch[q] + f.edges[q])
		case s.Arch == model.GraVFM:
			// Lookups overlap the walk: the longer of the two.
			scatter = float64(max(f.latch[q], f.edges[q]))
		case offchip:
			scatter = float64(max(f.latch[q], f.words[q], f.edges[q]) + int64(f.nPE))
		case s.PE == PEPaper:
			scatter = float64(f.scat[q] + int64(f.nPE))
		default:
			scatter = float64(max(f.latch[q], f.scat[q]) + int64(f.nPE))
		}
		work = max(work, gather, scatter)
	}
	if s.Arch == model.GraVFM {
		for g := 0; g < nF; g++ {
			work = max(work, float64(f.xbar[g]+int64(f.nPE)))
		}
	}
	for a := 0; a < nF; a++ {
		var out float64
		for b := 0; b < nF; b++ {
			w := f.linkWords[a*nF+b]
			out += w
			if p.PairWordsPerCycle > 0 {
				work = max(work, w/p.PairWordsPerCycle)
			}
		}
		if p.IfWordsPerCycle > 0 {
			work = max(work, out/p.IfWordsPerCycle)
		}
		if offchip && p.MemWordsPerCycle > 0 {
			work = max(work, float64(f.memWords[a])/p.MemWordsPerCycle)
		}
	}
	// Fill and drain: apply and scatter kernels, memory, link, gather and
	// the barrier marker's trip.
	lat := int64(p.ApplyLatency + p.ScatterLatency + p.GatherLatency + 4)
	if offchip {
		lat += int64(p.MemLatency)
	}
	if nF > 1 {
		lat += int64(p.LinkLatency)
		if msgs > 0 {
			lat += int64(p.LinkLatency) // the first update's trip, then the barrier's
		}
	}
	if g := f.glob; g != nil {
		// The fold of the partials follows the last marker; the fold of
		// the lanes overlaps the scatter of the last updates (cycle detail:
		// about 48 cycles per superstep for f32 sums on 2 x 4 PEs).
		lat += g.foldDelay(f.s.FPGAs * f.s.PEs)
	}
	if msgs == 0 {
		return sweep + lat
	}
	t := sweep + int64(math.Ceil(work))
	if s.Arch == model.GraVFM && nF > 1 {
		// The crossbars and links run during the sweep too; their fluid
		// estimate replaces the crossbar and link bounds when longer.
		rxCap := float64(LinkRxFIFODepth) + math.Ceil(2*float64(p.LinkLatency)*p.PairWordsPerCycle/max(p.UpdateWords, 1e-9))
		t = max(t, fluidNetwork(p, f.localUpd, f.share, sweep, rxCap))
	}
	return t + lat
}

func (f *fastModel) run(ctx context.Context) (*kernel.Result, error) {
	return kernel.Run(ctx, f.s.Kernel, f.s.Graph, kernel.RunOptions{Senders: f.superstep})
}

func (f *fastModel) result(ref *kernel.Result) *Result {
	r := &Result{Arch: f.s.Arch, Mem: f.s.Mem, FPGAs: f.s.FPGAs, PEs: f.s.PEs, Cycles: f.cycles, Messages: f.messages,
		Supersteps: len(f.steps), PerSuperstep: f.steps, PerPE: f.perPE, States: ref.States, Fields: ref.Fields}
	nF := f.s.FPGAs
	for a := 0; a < nF; a++ {
		for b := 0; b < nF; b++ {
			if a == b {
				continue
			}
			w := f.linkTotal[a*nF+b]
			u := 0.0
			if f.p.PairWordsPerCycle > 0 && f.cycles > 0 {
				u = w / float64(f.cycles) / f.p.PairWordsPerCycle
			}
			r.Links = append(r.Links, LinkStats{From: a, To: b, Words: w, Utilisation: u})
		}
	}
	for q := range r.PerPE {
		st := &r.PerPE[q]
		used := st.Apply + st.Busy + st.Hazard
		if used < f.cycles {
			st.Barrier = f.cycles - used
		}
	}
	return r
}
