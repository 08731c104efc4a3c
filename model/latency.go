package model

import (
	"context"
	"fmt"
	"math"
)

// Prediction is the model's estimate of the run time of the reference
// run's supersteps on a design, as opposed to T_sys, the paper's bound.
// The four limits assume that every unit of a kind carries the same share
// of the work and that supersteps are long; in practice one PE holds more
// edges than the mean in a superstep, the lockstep broadcast of GraVF-M
// lets the busiest PE of an FPGA hold every other, hubs stall gather, and
// every superstep pays an apply sweep and the barrier. The prediction adds
// these, superstep by superstep, from the partition and the reference
// run's senders (see Profile); it is never above T_sys, because no
// superstep is predicted faster than its messages at T_sys.
type Prediction struct {
	// Seconds is the predicted run time; TEPS = messages / Seconds.
	Seconds float64 `json:"predicted_seconds"`
	TEPS    float64 `json:"teps"`
	// BandwidthSeconds is messages / T_sys: what the four limits predict.
	BandwidthSeconds float64 `json:"bandwidth_seconds"`
	// SyncSeconds is t_sync, the fill, drain and barrier latency of one
	// superstep that carries messages.
	SyncSeconds float64 `json:"t_sync_seconds"`
	// SweepSeconds is the apply sweep of one superstep: the local
	// vertices of the PE with the most.
	SweepSeconds float64 `json:"sweep_seconds"`
	// LatencyBoundSupersteps counts the supersteps in which the sweep and
	// t_sync take longer than the work.
	LatencyBoundSupersteps int `json:"latency_bound_supersteps"`
	// Partitioner is the partitioner whose partition the prediction
	// used; empty when there was none and every PE was assumed to carry
	// the mean.
	Partitioner string `json:"partitioner,omitempty"`
	// Binding is the mechanism that costs the most time beyond the
	// balanced edges (a Mech* name).
	Binding string `json:"binding"`
	// Breakdown says where the time goes: every mechanism's seconds over
	// the run, in the fixed order of Mechanisms; they sum to Seconds.
	Breakdown []MechTime `json:"breakdown"`
	// Supersteps breaks every superstep down the same way, in cycles.
	Supersteps []StepTime `json:"per_superstep"`
	// Imbalance describes the superstep in which the most loaded PE
	// costs the most time (nil when no PE carries more than the mean).
	Imbalance *Imbalance `json:"imbalance,omitempty"`
}

// Mechanisms of the prediction, as the JSON output names them.
const (
	// MechEdges: every PE gathers one message per cycle and carries the
	// mean share of the superstep's messages.
	MechEdges = "edges"
	// MechImbalance: the most loaded PE gathers more than the mean.
	MechImbalance = "imbalance"
	// MechHazards: gather stalls on messages for a vertex still in the
	// gather kernel (hubs, and the f32 adder's latency).
	MechHazards = "hazards"
	// MechLookups: a PE's scatter takes one cycle per update it sees and
	// per barrier marker, or per memory word, more than its edges (short
	// lists on many PEs); GraVF: a PE's own lists.
	MechLookups = "lookups"
	// MechLockstep: the crossbar waits for the PE whose input FIFO is full.
	MechLockstep = "lockstep"
	// MechMemory and MechNetwork: an FPGA's edge memory, or its links,
	// take longer than its PEs.
	MechMemory  = "memory"
	MechNetwork = "network"
	// MechSweep: the apply sweep of every superstep.
	MechSweep = "sweep"
	// MechSync: filling and draining the pipelines, the link latency and
	// the barrier of every superstep.
	MechSync = "sync"
	// MechLimits: the four limits' T_sys is slower still (a limit the
	// mechanisms above do not see, such as the network limit of a
	// hierarchical network).
	MechLimits = "limits"
)

// Mechanisms lists the mechanisms in the order of the breakdown.
var Mechanisms = []string{MechEdges, MechImbalance, MechHazards, MechLookups, MechLockstep, MechMemory, MechNetwork, MechSweep, MechSync, MechLimits}

// MechTime is one mechanism's share of the run time.
type MechTime struct {
	Mechanism string  `json:"mechanism"`
	Seconds   float64 `json:"seconds"`
	Fraction  float64 `json:"fraction"`
}

// StepTime is one superstep of the prediction, in cycles; the mechanism
// fields sum to Cycles.
type StepTime struct {
	Superstep int     `json:"superstep"`
	Messages  int64   `json:"messages"`
	Cycles    float64 `json:"cycles"`
	Edges     float64 `json:"edges"`
	Imbalance float64 `json:"imbalance"`
	Hazards   float64 `json:"hazards"`
	Lookups   float64 `json:"lookups"`
	Lockstep  float64 `json:"lockstep"`
	Memory    float64 `json:"memory"`
	Network   float64 `json:"network"`
	Sweep     float64 `json:"sweep"`
	Sync      float64 `json:"sync"`
	Limits    float64 `json:"limits"`
	// MaxEdgesPE is the PE that gathers the most messages (-1: none) and
	// MaxEdgesRatio its messages over the mean.
	MaxEdgesPE    int     `json:"max_edges_pe"`
	MaxEdgesRatio float64 `json:"max_edges_ratio"`
}

// Imbalance is the superstep in which the most loaded PE costs the most.
type Imbalance struct {
	Superstep int `json:"superstep"`
	// PE is the global index; FPGA and Local locate it.
	PE    int `json:"pe"`
	FPGA  int `json:"fpga"`
	Local int `json:"local_pe"`
	// Ratio is the PE's messages over the mean of all PEs.
	Ratio float64 `json:"ratio"`
	// Seconds is the time the imbalance costs over the whole run.
	Seconds float64 `json:"seconds"`
	// Fraction is Seconds over the predicted run time.
	Fraction float64 `json:"fraction"`
}

// SyncCycles returns t_sync in cycles for a configuration: the kernels'
// pipelines (apply, scatter, gather), the four FIFO and register stages an
// update and the barrier marker pass between them, the edge memory's
// latency when memory is true (edges off chip, a superstep that reads
// them, and a profile that did not follow the words through the memory
// already), and, with more than one FPGA, one link traversal: the barrier
// marker's behind the last update.
func (p *Platform) SyncCycles(w *Workload, c Config, memory bool) float64 {
	return p.syncCycles(w, c, memory, true)
}

// syncCycles is SyncCycles with the link's latency left out unless link
// is true (a profile whose recursion delivers remote items late already).
func (p *Platform) syncCycles(w *Workload, c Config, memory, link bool) float64 {
	t := float64(w.Latency.Apply + w.Latency.Scatter + w.Latency.Gather + 4)
	if memory && c.Mem != BRAM {
		t += math.Round(p.MemLatencySec * p.ClockHz)
	}
	if c.FPGAs > 1 && link {
		t += math.Round(p.LinkLatencySec * p.ClockHz)
	}
	return t
}

// SyncSeconds returns t_sync for a superstep that carries messages.
func (p *Platform) SyncSeconds(w *Workload, c Config) float64 {
	return p.SyncCycles(w, c, true) / p.ClockHz
}

// ProfileFor returns the profile options of a design point: the design
// choices of c and w and the board figures the recursion needs in cycles.
func (p *Platform) ProfileFor(w *Workload, c Config) ProfileOptions {
	o := ProfileOptions{Arch: c.Arch, Mem: c.Mem, PE: w.PE, Filter: c.Filter && c.Arch == GraVFM,
		Hazard: HazardFor(w.PE, w.Latency.Gather, w.HandWritten), ScatterLatency: w.Latency.Scatter}
	if o.PE == "" {
		o.PE = PEGenerated
	}
	if c.Arch != GraVF && c.FPGAs > 1 {
		o.LinkLatency = int(math.Round(p.LinkLatencySec * p.ClockHz))
	}
	if c.Mem == OffChip {
		o.EdgesPerWord = max(p.MemWordBits/EdgeSlotBits(w.Sizes.Edge), 1)
		o.InFlight = max(p.MemRequestsInFlight, 1)
		o.MemLatency = int(math.Round(p.MemLatencySec * p.ClockHz))
	}
	return o
}

// EdgeSlotBits is the power of two (at least 8) that holds an edge of
// edgeBits: off-chip edges are stored in such slots, several to a word.
func EdgeSlotBits(edgeBits int) int {
	s := 8
	for s < edgeBits {
		s *= 2
	}
	return s
}

// Predict computes the prediction for an evaluated design point. It
// returns false when the workload has no superstep counts. With a
// workload's Profiles it sees the partition and the senders of every
// superstep; without, every PE is taken to carry the mean (the
// balanced-load reading of the same mechanisms).
func Predict(p *Platform, w *Workload, r Result) (Prediction, bool) {
	pr, err := PredictContext(w.context(), p, w, r)
	return pr, err == nil
}

// PredictContext is Predict with a context that can cancel the
// partitioning the first prediction of a design point needs; it fails
// when the workload has no supersteps, when T_sys is not finite, or when
// the partition cannot be made.
func PredictContext(ctx context.Context, p *Platform, w *Workload, r Result) (Prediction, error) {
	if r.TSys <= 0 || math.IsInf(r.TSys, 1) || p.ClockHz <= 0 {
		return Prediction{}, fmt.Errorf("no finite T_sys to predict from")
	}
	c := r.Config
	if c.Arch == "" {
		c.Arch = GraVFM
	}
	if c.Mem == "" {
		c.Mem = OffChip
	}
	var prof *Profile
	if w.Profiles != nil {
		var err error
		if prof, err = w.Profiles.Get(ctx, c.FPGAs, c.PEs, p.ProfileFor(w, c)); err != nil {
			return Prediction{}, err
		}
	} else if len(w.Supersteps) > 0 {
		prof = balancedProfile(w, c)
	} else {
		return Prediction{}, fmt.Errorf("no supersteps to predict")
	}
	pr := compose(p, w, c, r.TSys, prof)
	if w.Profiles != nil {
		pr.Partitioner = string(w.Profiles.Partitioner())
	}
	return pr, nil
}

// balancedProfile is the profile of a perfectly balanced partition: every
// PE carries the mean of every superstep's messages, every FPGA the mean
// of its updates, and the lists are as long as the mean degree.
func balancedProfile(w *Workload, c Config) *Profile {
	nPE := float64(c.FPGAs * c.PEs)
	pr := &Profile{FPGAs: c.FPGAs, PEs: c.PEs, Sweep: int64(math.Ceil(float64(w.Vertices)/nPE)) + 1}
	for _, s := range w.Supersteps {
		mean := float64(s.Messages) / nPE
		st := StepWork{Messages: s.Messages, MaxEdges: int64(math.Ceil(mean)), MeanEdges: mean,
			Gather: mean, Scatter: mean, End: float64(pr.Sweep) + mean, MaxEdgesPE: -1, GatherPE: -1}
		pr.Steps = append(pr.Steps, st)
	}
	return pr
}

// compose turns a profile into time with the platform's clock and
// bandwidths, superstep by superstep.
func compose(p *Platform, w *Workload, c Config, tsys float64, prof *Profile) Prediction {
	f := p.ClockHz
	wordBits := float64(max(p.LinkWordBits, 8))
	sz := p.wireSizes(w, c)
	item := sz.Update.Used / wordBits
	if c.Arch == GraVF {
		item = sz.Message.Used / wordBits
	}
	pairWords := p.PairBitsPerSec / f / wordBits
	ifWords := p.IfBitsPerSec / f / wordBits
	if ifWords <= 0 {
		ifWords = p.BWIf(c.FPGAs) / f / wordBits
	}
	// In items per cycle, as the links' token buckets pass them.
	pairRate, ifRate := bucketRate(pairWords, item), bucketRate(ifWords, item)
	// The edge memory grants whole words (MemGrants), as the links'
	// buckets pass whole items.
	memWords := NewMemGrants(p.MemBitsPerSec / f / float64(max(p.MemWordBits, 1))).Rate()
	nPE := float64(c.FPGAs * c.PEs)
	pr := Prediction{SweepSeconds: float64(prof.Sweep) / f, SyncSeconds: p.syncCycles(w, c, !prof.MemoryIn, true) / f}
	// The recursion's ends include the link latency when prof.LinkIn; the
	// links' own bounds then include it too.
	linkLat := math.Round(p.LinkLatencySec * f)
	lat := 0.0
	if prof.LinkIn {
		lat = linkLat
	}
	var total StepTime
	var msgs int64
	worst := -1.0
	flows := map[int]float64{} // the network flow of each sender set
	for i, s := range prof.Steps {
		st := StepTime{Superstep: i, Messages: s.Messages, MaxEdgesPE: s.MaxEdgesPE, Sync: p.syncCycles(w, c, s.Messages > 0 && !prof.MemoryIn, !prof.LinkIn)}
		if s.MeanEdges > 0 {
			st.MaxEdgesRatio = float64(s.MaxEdges) / s.MeanEdges
		}
		// The chain of ever longer readings of the superstep's work: the
		// mean load, the most loaded PE, its hazards, the lookups and the
		// crossbar, then the recursion's end, whose excess is charged to
		// the sweep (up to its length) and then to the lockstep.
		c0 := float64(s.Messages) / nPE
		c1 := max(c0, float64(s.MaxEdges))
		c2 := max(c1, s.Gather)
		c3 := max(c2, s.Scatter, float64(s.Crossbar))
		end := max(c3, s.End, float64(prof.Sweep))
		sweep := min(end-c3, float64(prof.Sweep))
		var mem, net float64
		if c.Mem == OffChip && memWords > 0 {
			mem = float64(s.MemWords) / memWords
		}
		if c.FPGAs > 1 {
			if pairRate > 0 {
				net = float64(s.LinkItems)/pairRate + lat
			}
			if ifRate > 0 {
				net = max(net, float64(s.IfItems)/ifRate+lat)
			}
		}
		if c.FPGAs > 1 && c.Arch == GraVFM && s.Messages > 0 && pairRate > 0 && ifRate > 0 {
			flow, ok := flows[s.Set]
			if !ok {
				flow = netFlowOf(s, float64(prof.Sweep), pairRate, ifRate, linkLat, lat).cycles()
				flows[s.Set] = flow
			}
			// The barrier marker follows the last update over the link,
			// whose latency t_sync counts unless the recursion did.
			net = max(net, flow-linkLat+lat)
		}
		c5 := max(end, mem, net)
		st.Edges, st.Imbalance, st.Hazards, st.Lookups = c0, c1-c0, c2-c1, c3-c2
		// The link latency the recursion's end includes is t_sync's, as
		// without it.
		link := min(end-c3-sweep, lat)
		st.Sweep, st.Lockstep = sweep, end-c3-sweep-link
		if mem >= net {
			st.Memory = c5 - end
		} else {
			st.Network = c5 - end
		}
		cyc := c5 + st.Sync
		st.Sync += link
		if c3 < st.Sweep+st.Sync {
			pr.LatencyBoundSupersteps++
		}
		// Never faster than the bound.
		if floor := float64(s.Messages) / tsys * f; floor > cyc {
			st.Limits = floor - cyc
			cyc = floor
		}
		st.Cycles = cyc
		pr.BandwidthSeconds += float64(s.Messages) / tsys
		msgs += s.Messages
		if cost := st.Imbalance; cost > worst && s.MaxEdgesPE >= 0 {
			worst = cost
			pr.Imbalance = &Imbalance{Superstep: i, PE: s.MaxEdgesPE, FPGA: s.MaxEdgesPE / c.PEs, Local: s.MaxEdgesPE % c.PEs, Ratio: st.MaxEdgesRatio}
		}
		total.add(st)
		pr.Supersteps = append(pr.Supersteps, st)
	}
	pr.Seconds = total.Cycles / f
	if pr.Seconds > 0 {
		pr.TEPS = float64(msgs) / pr.Seconds
	}
	pr.Breakdown = total.mechanisms(f, pr.Seconds)
	pr.Binding = binding(pr.Breakdown)
	if pr.Imbalance != nil {
		pr.Imbalance.Seconds = total.Imbalance / f
		if pr.Seconds > 0 {
			pr.Imbalance.Fraction = pr.Imbalance.Seconds / pr.Seconds
		}
		if total.Imbalance <= 0 {
			pr.Imbalance = nil
		}
	}
	return pr
}

// bucketRate returns the items of cost words that a link of rate words
// per cycle passes per cycle when it never runs dry. Its token bucket
// holds at most one cycle's words (or one item's, when an item is
// larger): a saturated link starts every cycle with rate words and sends
// floor(rate/cost) items, the fraction lost; a link slower than an item
// sends one every ceil(cost/rate) cycles.
func bucketRate(rate, cost float64) float64 {
	if rate <= 0 || cost <= 0 {
		return rate / max(cost, 1e-9)
	}
	if rate >= cost {
		return math.Floor(rate/cost + 1e-9)
	}
	return 1 / math.Ceil(cost/rate-1e-9)
}

// netFlowOf sets up the network flow of a superstep with links of pair
// and iface updates per cycle and latency cycles; inEnd is the part of
// the link latency that the recursion's ends include.
func netFlowOf(s StepWork, sweep, pair, iface, latency, inEnd float64) *netFlow {
	n := &netFlow{sweep: sweep, pair: pair, iface: iface, latency: latency,
		rxCap: LinkRxFIFODepth + math.Ceil(2*latency*pair)}
	for _, fw := range s.PerFPGA {
		n.local = append(n.local, float64(fw.Local))
		need := make([]float64, len(fw.Need))
		for g, x := range fw.Need {
			need[g] = float64(x)
		}
		n.need = append(n.need, need)
		n.rate = append(n.rate, min(1, float64(fw.Items)/max(fw.End-inEnd, 1)))
	}
	return n
}

func (t *StepTime) add(s StepTime) {
	t.Messages += s.Messages
	t.Cycles += s.Cycles
	t.Edges += s.Edges
	t.Imbalance += s.Imbalance
	t.Hazards += s.Hazards
	t.Lookups += s.Lookups
	t.Lockstep += s.Lockstep
	t.Memory += s.Memory
	t.Network += s.Network
	t.Sweep += s.Sweep
	t.Sync += s.Sync
	t.Limits += s.Limits
}

// mechanisms lists the cycles of t per mechanism, in seconds.
func (t *StepTime) mechanisms(f, total float64) []MechTime {
	vals := []float64{t.Edges, t.Imbalance, t.Hazards, t.Lookups, t.Lockstep, t.Memory, t.Network, t.Sweep, t.Sync, t.Limits}
	out := make([]MechTime, len(vals))
	for i, v := range vals {
		out[i] = MechTime{Mechanism: Mechanisms[i], Seconds: v / f}
		if total > 0 {
			out[i].Fraction = v / f / total
		}
	}
	return out
}

// binding returns the mechanism with the most time besides the balanced
// edges.
func binding(b []MechTime) string {
	best, name := 0.0, MechEdges
	for _, m := range b {
		if m.Mechanism != MechEdges && m.Seconds > best {
			best, name = m.Seconds, m.Mechanism
		}
	}
	return name
}

// MechTitle names a mechanism in words.
func MechTitle(m string) string {
	switch m {
	case MechEdges:
		return "the edges at the mean load"
	case MechImbalance:
		return "the most loaded PE"
	case MechHazards:
		return "gather hazards"
	case MechLookups:
		return "lookups of short lists"
	case MechLockstep:
		return "the lockstep broadcast"
	case MechMemory:
		return "the edge memory"
	case MechNetwork:
		return "the links"
	case MechSweep:
		return "the apply sweeps"
	case MechSync:
		return "the barriers (t_sync)"
	case MechLimits:
		return "the four limits"
	}
	return m
}

// ceiling returns a throughput the prediction at r cannot exceed, from
// the reference run's counts alone (no partition, no profile), so that
// the optimiser computes profiles only for the points that may win. In
// every superstep the prediction charges at least the mean messages per
// PE, the items of the busiest crossbar (GraVF-M: every FPGA moves the
// updates of its own PEs and every PE's barrier marker; GraVF: the
// messages of the busiest output and the markers), the apply sweep of
// the PE with the most vertices (at least V / nPE of them), the mean
// sweep and then the mean messages (a PE gathers after its sweep), t_sync
// without the memory's latency, and never less than T_sys allows. It
// returns T_sys when the workload has no profiles (a balanced prediction
// costs no more than this).
func ceiling(p *Platform, w *Workload, r Result) float64 { return ceilingWith(p, w, r, 0, nil) }

// PredictionCeiling returns a throughput the prediction at r cannot
// exceed, from the reference run's counts and the partition's fullest and
// busiest PEs: it costs a partition (kept for the profile) and a count of
// the senders' arcs per PE, not a profile, so a caller can tell when a
// profile cannot change its answer. Without profiles it is T_sys. A
// caller that only asks whether the ceiling is at most some throughput
// passes it as enough: the count of arcs is skipped when the fullest PE
// already brings the ceiling that low (0: always counted).
func PredictionCeiling(ctx context.Context, p *Platform, w *Workload, r Result, enough float64) (float64, error) {
	if w.Profiles == nil {
		return ceiling(p, w, r), nil
	}
	most, err := w.Profiles.fullest(ctx, r.FPGAs, r.PEs)
	if err != nil {
		return 0, err
	}
	if c := ceilingWith(p, w, r, most, nil); c <= enough {
		return c, nil
	}
	busiest, err := w.Profiles.busiest(ctx, r.FPGAs, r.PEs)
	if err != nil {
		return 0, err
	}
	var perStep []int64
	if steps := w.Profiles.act.Steps; len(steps) == len(w.Supersteps) {
		perStep = make([]int64, len(steps))
		for i, s := range steps {
			if s.Set >= 0 {
				perStep[i] = busiest[s.Set]
			}
		}
	}
	return ceilingWith(p, w, r, most, perStep), nil
}

// ceilingWith is ceiling with the partition's fullest PE, most vertices
// (0: not known, at least V / nPE), whose sweep every superstep pays, and
// the cycles of every superstep's busiest PE (nil: not known; see
// Profiles.busiest).
func ceilingWith(p *Platform, w *Workload, r Result, most int, busiest []int64) float64 {
	if w.Profiles == nil || len(w.Supersteps) == 0 || r.TSys <= 0 || p.ClockHz <= 0 {
		return r.TSys
	}
	c := r.Config
	if c.Arch == "" {
		c.Arch = GraVFM
	}
	nPE := float64(c.FPGAs * c.PEs)
	sweep := max(math.Ceil(float64(w.Vertices)/nPE), float64(most)) + 1
	sync := p.SyncCycles(w, c, false)
	if c.Arch == GraVFM && c.FPGAs > 1 {
		// The recursion delivers the last remote barrier marker a link
		// latency after the longest sweep, and t_sync leaves it out.
		lat := math.Round(p.LinkLatencySec * p.ClockHz)
		sweep += lat
		sync -= lat
	}
	// Every PE gathers its messages after its own sweep (and its barrier
	// marker), so the last one is done no sooner than the mean sweep plus
	// the mean messages.
	meanSweep := float64(w.Vertices)/nPE + 1
	var cycles float64
	var msgs int64
	for i, s := range w.Supersteps {
		mean := float64(s.Messages) / nPE
		xb := math.Ceil(float64(s.Active)/float64(c.FPGAs)) + nPE
		if c.Arch == GraVF {
			xb = mean + nPE
		}
		cyc := max(mean, xb, sweep, meanSweep+mean)
		if busiest != nil {
			cyc = max(cyc, float64(busiest[i]))
		}
		cyc += sync
		if math.IsInf(r.TSys, 1) {
			cycles += cyc
		} else {
			cycles += max(cyc, float64(s.Messages)/r.TSys*p.ClockHz)
		}
		msgs += s.Messages
	}
	if cycles <= 0 {
		return r.TSys
	}
	return min(r.TSys, float64(msgs)/cycles*p.ClockHz)
}
