package model

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/gravf-tui/gravf-tui/graph"
)

// FIFO depths of the generated design, as the simulator and the RTL build
// it.
const (
	// InFIFODepth is the depth of a PE's input FIFO, which the crossbar
	// writes in lockstep.
	InFIFODepth = 8
	// MsgFIFODepth is the depth of the FIFO between scatter and gather;
	// the scatter kernel's pipeline stages add to its slots.
	MsgFIFODepth = 8
)

// ProfileOptions are the design choices that decide how the work of a
// superstep spreads over the units; none of them is a bandwidth or the
// clock, so one profile serves every board speed.
type ProfileOptions struct {
	Arch   Arch
	Mem    MemKind
	PE     PEDesign
	Filter bool
	Hazard Hazard
	// ScatterLatency is the scatter kernel's depth in cycles.
	ScatterLatency int
	// Off-chip edges: edges per memory word, requests in flight per PE and
	// the memory's latency in cycles, which decide how far a PE's scatter
	// runs ahead of its edge stream.
	EdgesPerWord, InFlight, MemLatency int
	// LinkLatency is the links' one-way latency in cycles (GraVF-M on
	// several FPGAs: a remote update reaches a crossbar that much after
	// its sweep queued it).
	LinkLatency int
}

// Profile is the work of every unit of one partitioned design in every
// superstep of a reference run, in cycles and items: what the prediction
// needs beyond the four limits' averages. It is computed once per
// (graph, kernel, partition, design) and is independent of the board's
// clock and bandwidths, which Predict applies.
type Profile struct {
	FPGAs, PEs int
	Options    ProfileOptions
	// Sweep is the longest apply sweep: the local vertices of the PE with
	// the most, plus the barrier marker it queues behind them; SweepPE is
	// that PE.
	Sweep   int64
	SweepPE int
	// Steps holds one entry per superstep of the activity; supersteps
	// with the same senders share their work.
	Steps []StepWork
	// MemoryIn says that End includes the edge memory's latency (the
	// lockstep recursion with edges off chip follows every word through
	// the memory), which t_sync then leaves out; LinkIn likewise for the
	// link latency (the recursion delivers remote items and barrier
	// markers that much late).
	MemoryIn, LinkIn bool
}

// StepWork is one superstep's work. Cycles count from the start of the
// superstep's apply sweeps.
type StepWork struct {
	Messages int64 `json:"messages"`
	// MaxEdges is the number of messages the most loaded PE gathers,
	// MaxEdgesPE that PE (global index, -1 when none) and MeanEdges the
	// mean over all PEs.
	MaxEdges   int64   `json:"max_edges"`
	MaxEdgesPE int     `json:"max_edges_pe"`
	MeanEdges  float64 `json:"mean_edges"`
	// Gather is the longest a PE's gather is busy, one cycle per message
	// plus its hazard stalls, and GatherPE that PE; Hazard is the stall
	// part.
	Gather   float64 `json:"gather"`
	GatherPE int     `json:"gather_pe"`
	Hazard   float64 `json:"hazard"`
	// Scatter is the longest a PE's scatter is busy on its own: one
	// lookup per item it takes (updates and barrier markers), one request
	// per memory word, one edge per cycle (the paper's PE: a lookup and
	// then the walk).
	Scatter float64 `json:"scatter"`
	// Crossbar is the most items one FPGA's crossbar moves (updates and
	// barrier markers; GraVF: the most messages for one PE).
	Crossbar int64 `json:"crossbar"`
	// End is the cycle at which the last PE has gathered its last
	// message, from the lockstep recursion (GraVF-M) or each PE on its own
	// (GraVF); EndFPGA is the FPGA that finishes last.
	End     float64 `json:"end"`
	EndFPGA int     `json:"end_fpga"`
	// LinkItems is the most updates (GraVF: messages and barrier
	// markers) one FPGA pair carries, IfItems the most one FPGA sends in
	// all.
	LinkItems int64 `json:"link_items"`
	IfItems   int64 `json:"if_items"`
	// MemWords is the most edge-memory words one FPGA reads (off-chip).
	MemWords int64 `json:"mem_words"`
	// Set is the activity's sender set (-1: none); supersteps of the same
	// set share everything else.
	Set int `json:"set"`
	// PerFPGA holds every FPGA's share, for the network flow.
	PerFPGA []FPGAWork `json:"-"`
}

// FPGAWork is one FPGA's work in a superstep.
type FPGAWork struct {
	// Local counts the updates its PEs issue (GraVF: messages its PEs
	// send), Need[g] those of them FPGA g needs.
	Local int64
	Need  []int64
	// Items is what its crossbar moves and End the cycle its last PE is
	// done.
	Items int64
	End   float64
}

// NewProfile computes the profile of activity act on graph g partitioned
// by part.
func NewProfile(g *graph.Graph, part *graph.Partition, act *Activity, opt ProfileOptions) (*Profile, error) {
	return newProfile(context.Background(), g, part, act, opt, nil)
}

// newProfile is NewProfile with a context that cancels it between two
// sender sets, and report, when not nil, called (one call at a time) with
// the sender sets done so far.
func newProfile(ctx context.Context, g *graph.Graph, part *graph.Partition, act *Activity, opt ProfileOptions, report func(done, total int)) (*Profile, error) {
	if part.NumPEs() < 1 || len(part.PE) != g.NumVertices() {
		return nil, fmt.Errorf("profile: partition of %d vertices for a graph of %d", len(part.PE), g.NumVertices())
	}
	if opt.Arch == "" {
		opt.Arch = GraVFM
	}
	if opt.Mem == "" {
		opt.Mem = OffChip
	}
	opt.EdgesPerWord = max(opt.EdgesPerWord, 1)
	opt.InFlight = max(opt.InFlight, 1)
	pr := &Profile{FPGAs: part.FPGAs, PEs: part.PEs, Options: opt, MemoryIn: opt.Arch == GraVFM && opt.Mem == OffChip,
		LinkIn: opt.Arch == GraVFM && part.FPGAs > 1}
	for q, m := range part.Members {
		if n := int64(len(m)) + 1; n > pr.Sweep {
			pr.Sweep, pr.SweepPE = n, q
		}
	}
	var lists *peLists
	if opt.Arch != GraVF {
		lists = newPELists(g, part, opt.Hazard, takeListBuffers(ctx))
	}
	bySet, silent, err := profileSets(ctx, g, part, act, opt, lists, report)
	lists.release(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range act.Steps {
		if s.Set < 0 {
			pr.Steps = append(pr.Steps, silent)
			continue
		}
		pr.Steps = append(pr.Steps, bySet[s.Set])
	}
	return pr, nil
}

// profileSets computes the work of every sender set of act, and of a
// superstep in which no vertex sends, on every core: the sets are
// independent, so the result does not depend on which core computes
// which.
func profileSets(ctx context.Context, g *graph.Graph, part *graph.Partition, act *Activity, opt ProfileOptions, lists *peLists, report func(done, total int)) ([]StepWork, StepWork, error) {
	bySet := make([]StepWork, len(act.Sets))
	var silent StepWork
	var mu sync.Mutex
	done := 0
	finished := func() {
		if report != nil {
			mu.Lock()
			done++
			report(done, len(act.Sets))
			mu.Unlock()
		}
	}
	// Fewer sets than cores leave cores to each set's recursion.
	cores := max(1, runtime.GOMAXPROCS(0)/max(len(act.Sets), 1))
	inPieces(runtime.GOMAXPROCS(0), len(act.Sets)+1, func(take func() (int, bool)) {
		w := newProfiler(g, part, opt, lists, cores)
		for i, ok := take(); ok && ctx.Err() == nil; i, ok = take() {
			if i == len(act.Sets) {
				silent = w.silent()
				silent.Set = -1
				continue
			}
			bySet[i] = w.step(act.Sets[i])
			bySet[i].Set = i
			finished()
		}
	})
	return bySet, silent, ctx.Err()
}

// profiler holds the scratch space of one profile computation.
type profiler struct {
	g    *graph.Graph
	part *graph.Partition
	opt  ProfileOptions
	nPE  int
	nF   int

	recv    []int64  // per vertex: messages received in this superstep
	touched []uint32 // vertices with recv > 0
	edges   []int64  // per PE: messages gathered
	stall   []float64
	scatter []float64 // per PE: cycles its scatter is busy on its own
	words   []int64   // per PE: memory words
	xbar    []int64   // per FPGA: crossbar items
	link    []int64   // per FPGA pair a*nF+b: items
	local   []int64   // per FPGA: updates (GraVF: messages) it issues
	end     []float64 // per FPGA: the cycle its last PE is done

	lk    *lockstep // GraVF-M only
	lists *peLists  // GraVF-M only
	// cores is how many cores one superstep's recursion may use.
	cores int
}

func newProfiler(g *graph.Graph, part *graph.Partition, opt ProfileOptions, lists *peLists, cores int) *profiler {
	nPE := part.NumPEs()
	w := &profiler{g: g, part: part, opt: opt, nPE: nPE, nF: part.FPGAs, lists: lists, cores: cores,
		edges: make([]int64, nPE), stall: make([]float64, nPE),
		scatter: make([]float64, nPE), words: make([]int64, nPE),
		xbar: make([]int64, part.FPGAs), local: make([]int64, part.FPGAs), link: make([]int64, part.FPGAs*part.FPGAs), end: make([]float64, part.FPGAs)}
	if opt.Arch != GraVF {
		w.lk = newLockstep(w)
	} else {
		w.recv = make([]int64, g.NumVertices())
	}
	return w
}

// step computes the work of one superstep whose senders are given.
func (w *profiler) step(senders []uint32) StepWork {
	w.reset()
	if w.opt.Arch == GraVF {
		w.receive(senders)
		w.unicast(senders)
	} else {
		w.lk.run(senders) // counts every PE's messages as it walks them
	}
	return w.collect()
}

// silent is a superstep in which no vertex sends: the sweeps and the
// barrier markers only.
func (w *profiler) silent() StepWork {
	w.reset()
	if w.opt.Arch != GraVF {
		w.lk.run(nil)
	} else {
		w.unicast(nil)
	}
	return w.collect()
}

func (w *profiler) reset() {
	for _, v := range w.touched {
		w.recv[v] = 0
	}
	w.touched = w.touched[:0]
	clear(w.edges)
	clear(w.stall)
	clear(w.scatter)
	clear(w.words)
	clear(w.xbar)
	clear(w.link)
	clear(w.local)
	clear(w.end)
}

// receive counts the messages every vertex and every PE receives.
func (w *profiler) receive(senders []uint32) {
	g, pe := w.g, w.part.PE
	for _, u := range senders {
		for _, v := range g.Neighbors(u) {
			if w.recv[v] == 0 {
				w.touched = append(w.touched, v)
			}
			w.recv[v]++
			w.edges[pe[v]]++
		}
	}
}

// collect turns the per-unit counts into the superstep's maxima.
func (w *profiler) collect() StepWork {
	st := StepWork{MaxEdgesPE: -1, GatherPE: -1}
	for q := 0; q < w.nPE; q++ {
		e := w.edges[q]
		st.Messages += e
		if e > st.MaxEdges {
			st.MaxEdges, st.MaxEdgesPE = e, q
		}
		if gt := float64(e) + w.stall[q]; gt > st.Gather {
			st.Gather, st.GatherPE, st.Hazard = gt, q, w.stall[q]
		}
		st.Scatter = max(st.Scatter, w.scatter[q])
	}
	st.MeanEdges = float64(st.Messages) / float64(w.nPE)
	nF, nP := w.nF, w.part.PEs
	for a := 0; a < nF; a++ {
		var out, mw int64
		for b := 0; b < nF; b++ {
			if a != b {
				out += w.link[a*nF+b]
				st.LinkItems = max(st.LinkItems, w.link[a*nF+b])
			}
		}
		for l := 0; l < nP; l++ {
			mw += w.words[a*nP+l]
		}
		st.IfItems = max(st.IfItems, out)
		st.Crossbar = max(st.Crossbar, w.xbar[a])
		if w.opt.Mem == OffChip {
			st.MemWords = max(st.MemWords, mw)
		}
		if w.end[a] > st.End {
			st.End, st.EndFPGA = w.end[a], a
		}
		fw := FPGAWork{Local: w.local[a], Need: make([]int64, nF), Items: w.xbar[a], End: w.end[a]}
		copy(fw.Need, w.link[a*nF:a*nF+nF])
		st.PerFPGA = append(st.PerFPGA, fw)
	}
	return st
}

// unicast accounts for a GraVF superstep: every PE scatters the full
// lists of its own senders and sends one message per edge, through the
// crossbar's output for the destination's PE, to that PE's gather; with
// one queue per output, a PE waits only for its own work. Gather starts
// after the PE's sweep and stalls on hazards, taken at random order.
func (w *profiler) unicast(senders []uint32) {
	g, pe, nP := w.g, w.part.PE, w.part.PEs
	epw := int64(w.opt.EdgesPerWord)
	req := make([]float64, w.nPE)
	out := make([]float64, w.nPE)
	for _, u := range senders {
		q := int(pe[u])
		home := q / nP
		nbrs := g.Neighbors(u)
		n := int64(len(nbrs))
		words := (n + epw - 1) / epw
		w.words[q] += words
		out[q] += float64(n)
		w.local[home] += n
		switch {
		case w.opt.Mem == OffChip:
			req[q] += float64(max(1, words)) // the request stage
		case w.opt.PE == PEPaper:
			req[q] += float64(1 + n)
		default:
			req[q] += float64(max(1, n)) // lookups overlap the walk
		}
		for _, v := range nbrs {
			if f := int(pe[v]) / nP; f != home {
				w.link[home*w.nF+f]++
			}
		}
	}
	// After its last message every PE sends a barrier marker to every PE:
	// nP x nP markers cross each FPGA pair, in the same words as a
	// message.
	for a := 0; a < w.nF; a++ {
		for b := 0; b < w.nF; b++ {
			if a != b {
				w.link[a*w.nF+b] += int64(nP * nP)
			}
		}
	}
	rate := w.hazardRates()
	for q := 0; q < w.nPE; q++ {
		// Every PE sends a barrier marker to every PE, one per cycle.
		w.scatter[q] = max(req[q], out[q]) + float64(w.nPE)
		w.stall[q] = float64(w.edges[q]) * (rate[q] - 1)
		f := q / nP
		w.xbar[f] = max(w.xbar[f], w.edges[q]+int64(w.nPE))
		gather := float64(len(w.part.Members[q])+1) + float64(w.edges[q]) + w.stall[q]
		w.end[f] = max(w.end[f], w.scatter[q], gather)
	}
}

// hazardRates returns every PE's cycles per gathered message from the
// messages that fall on each of its detector slots (GraVF, whose messages
// reach a PE from every PE's scatter, in an order taken as random).
func (w *profiler) hazardRates() []float64 {
	h := w.opt.Hazard
	rate := make([]float64, w.nPE)
	for q := range rate {
		rate[q] = 1
	}
	if h.Hold <= 1 {
		return rate
	}
	byPE := make([][]uint32, w.nPE)
	for _, v := range w.touched {
		q := w.part.PE[v]
		byPE[q] = append(byPE[q], v)
	}
	for q, vs := range byPE {
		if len(vs) == 0 {
			continue
		}
		var counts []int64
		if h.Slots == 0 {
			for _, v := range vs {
				counts = append(counts, w.recv[v])
			}
		} else {
			counts = make([]int64, h.slotsFor(len(w.part.Members[q])))
			for _, v := range vs {
				counts[int(w.part.Local[v])%len(counts)] += w.recv[v]
			}
		}
		rate[q] = 1 + h.stallPerMessage(counts, uint64(q))
	}
	return rate
}
