package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// Arch selects the architecture being modelled; the names are the
// hardware contract's (package arch).
type Arch = arch.Arch

// Architectures.
const (
	// GraVFM broadcasts updates; every PE scatters its local edges.
	GraVFM = arch.GraVFM
	// GraVF stores full edge lists at the owner and sends unicast messages.
	GraVF = arch.GraVF
)

// ParseArch parses a CLI or notebook value.
func ParseArch(s string) (Arch, error) { return arch.ParseArch(s) }

// MemKind says where the edge lists live.
type MemKind = arch.MemKind

// Edge storage kinds.
const (
	OffChip = arch.OffChip
	BRAM    = arch.BRAM
)

// ParseMemKind parses a CLI or notebook value.
func ParseMemKind(s string) (MemKind, error) { return arch.ParseMemKind(s) }

// Limit names, as the JSON output and the TUI spell them.
const (
	LimitPE  = "pe"
	LimitMem = "mem"
	LimitIf  = "if"
	LimitNet = "net"
)

// Platform is what the model needs to know about a multi-FPGA platform.
// All bandwidths are per direction, in bit/s.
type Platform struct {
	Name    string
	ClockHz float64
	// MemBitsPerSec is BW_mem: the off-chip edge memory bandwidth per FPGA
	// (the sustained figure where one was measured).
	MemBitsPerSec float64
	// MemWordBits is m_memword, the access granularity.
	MemWordBits int
	// MemCapacityBits is the off-chip memory per FPGA.
	MemCapacityBits float64
	// OnChipBits is M_board: block RAM (and UltraRAM) per FPGA that can hold
	// vertex state, the update queue and, in BRAM mode, the edges.
	OnChipBits float64
	// IfBitsPerSec is the per-FPGA network-interface bandwidth BW_if when
	// every partner is busy; PairBitsPerSec limits one FPGA pair (0: no
	// per-pair limit). The usable BW_if with nF FPGAs is
	// min(IfBitsPerSec, (nF-1)*PairBitsPerSec).
	IfBitsPerSec, PairBitsPerSec float64
	// IfFunc, when set, replaces the two figures above: the interface
	// bandwidth per group (FPGA, or node when hierarchical) for nF FPGAs.
	IfFunc func(nF int) float64
	// GroupsFunc, when set, maps nF to the number of groups the network
	// formulas count (nodes of a hierarchical network).
	GroupsFunc func(nF int) int
	// NetBitsPerSec is BW_net, the whole network's bandwidth; 0 means it
	// never binds.
	NetBitsPerSec float64
	// LinkWordBits is the link's transfer word: an update occupies whole
	// words unless packing is on.
	LinkWordBits                  int
	MaxFPGAs                      int
	MaxPEs                        int // PEs that fit one FPGA
	MaxPEsReason                  string
	LinkLatencySec, MemLatencySec float64
	// MemRequestsInFlight is the number of outstanding edge-memory reads
	// a PE may have (the prediction's off-chip scatter).
	MemRequestsInFlight int
	CPE                 map[string]float64
	DefaultCPE          float64
	DefaultCPESource    string
}

// BWIf returns the usable per-group interface bandwidth with nF FPGAs.
func (p *Platform) BWIf(nF int) float64 {
	if p.IfFunc != nil {
		return p.IfFunc(nF)
	}
	bw := p.IfBitsPerSec
	if p.PairBitsPerSec > 0 && nF > 1 {
		bw = math.Min(bw, float64(nF-1)*p.PairBitsPerSec)
	}
	return bw
}

// Workload is what the model needs to know about the kernel and the graph.
type Workload struct {
	Kernel string
	// CPE is the PE's cycles per edge; CPESource says where it came from.
	CPE       float64
	CPESource string
	Sizes     kernel.Sizes
	// Vertices and Arcs are V and the stored arcs (E in the formulas; every
	// arc carries one message when its source sends).
	Vertices int
	Arcs     int64
	// Degrees holds the out-degree histogram as (degree, count) pairs, for
	// the filter estimate; nil disables the filter estimate.
	Degrees [][2]int64
	// Supersteps, when known (from the BSP reference engine), feed the
	// latency-aware prediction.
	Supersteps []kernel.Superstep
	// PE is the PE design whose scatter and hazard detector the prediction
	// follows ("" is the generated PE).
	PE PEDesign
	// Latency holds the kernels' pipeline depths, HandWritten whether the
	// kernel brings its own Verilog (then the generated PE keeps the
	// paper's hazard detector).
	Latency     KernelLatency
	HandWritten bool
	// Profiles, when set, gives the prediction the partition and the
	// senders of every superstep (see Profiles); Ctx cancels the
	// partitioning that a first prediction of a design point needs.
	Profiles *Profiles
	Ctx      context.Context

	// spreads memoises the degree-histogram sums, which dominate the cost
	// of an evaluation; sweeps share one Workload between goroutines, and
	// copies of a workload (WithProfiles) share it too. NewWorkload sets
	// it; without, the sums are not memoised.
	spreads *spreadMemo
}

// spreadMemo holds spread(n) in a table of float64 bits, 0 until computed
// (a sum of positive terms, or 0 when nothing is counted, which is cheap to
// recompute). Readers load the table and one entry atomically, without a
// lock, since every point of a sweep reads it twice; writers take the lock
// and grow the table by doubling, so that a stale table only costs a
// recomputation.
type spreadMemo struct {
	mu    sync.Mutex
	table atomic.Pointer[[]atomic.Uint64]
}

func (m *spreadMemo) get(n int) (float64, bool) {
	t := m.table.Load()
	if t == nil || n >= len(*t) {
		return 0, false
	}
	b := (*t)[n].Load()
	return math.Float64frombits(b), b != 0
}

func (m *spreadMemo) put(n int, v float64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.table.Load()
	if t == nil || n >= len(*t) {
		size := 64
		if t != nil {
			size = len(*t)
		}
		for size <= n {
			size *= 2
		}
		grown := make([]atomic.Uint64, size)
		if t != nil {
			for i := range *t {
				grown[i].Store((*t)[i].Load())
			}
		}
		t = &grown
		m.table.Store(t)
	}
	(*t)[n].Store(math.Float64bits(v))
}

// WithProfiles returns a copy of the workload with other profiles, and
// the supersteps of their activity; nil profiles give the workload as the
// four limits see it, without supersteps, so that the optimiser chooses
// on T_sys.
func (w *Workload) WithProfiles(ps *Profiles) *Workload {
	v := *w
	v.Profiles, v.Supersteps = nil, nil
	if ps != nil {
		v.Attach(ps)
	}
	return &v
}

// KernelLatency is the pipeline depth of each kernel in cycles.
type KernelLatency struct {
	Gather, Apply, Scatter int
}

func (w *Workload) context() context.Context {
	if w.Ctx != nil {
		return w.Ctx
	}
	return context.Background()
}

// maxSpreadMemo bounds the memoised group counts; larger n are computed
// each time.
const maxSpreadMemo = 1 << 16

// spread returns the expected number of non-empty groups, summed over all
// vertices, when every vertex's out-neighbours fall at random into n
// groups: sum over v of n * (1 - (1-1/n)^deg(v)). It is memoised per n.
func (w *Workload) spread(n int) float64 {
	m := w.spreads
	if m != nil && n >= 0 {
		if v, ok := m.get(n); ok {
			return v
		}
	}
	q := 1 - 1/float64(n)
	sum := 0.0
	for _, dc := range w.Degrees {
		if dc[0] > 0 {
			sum += float64(dc[1]) * float64(n) * (1 - math.Pow(q, float64(dc[0])))
		}
	}
	if m != nil && n >= 0 && n < maxSpreadMemo {
		m.put(n, sum)
	}
	return sum
}

// Degree returns d = E/V.
func (w *Workload) Degree() float64 {
	if w.Vertices == 0 {
		return 0
	}
	return float64(w.Arcs) / float64(w.Vertices)
}

// Config is one design point.
type Config struct {
	FPGAs, PEs int
	Arch       Arch
	Mem        MemKind
	// Packing packs several updates into one link word.
	Packing bool
	// Filter sends an update only to FPGAs that hold neighbours of its
	// vertex (GraVF-M only).
	Filter bool
}

// Wire describes on-wire sizes.
type Wire struct {
	// Bits is the item on the wire (arch.WireBits): the header, a vertex
	// id and the payload.
	Bits int `json:"bits"`
	// Unpacked is Bits rounded up to whole link words.
	Unpacked float64 `json:"unpacked"`
	// Packed is the link word divided by the number that fit in it.
	Packed float64 `json:"packed"`
	// Used is the size the model used (Packed or Unpacked).
	Used float64 `json:"used"`
}

func wire(bits, word int, packing bool) Wire {
	w := Wire{Bits: bits, Unpacked: arch.LinkBits(bits, word, false), Packed: arch.LinkBits(bits, word, true)}
	w.Used = w.Unpacked
	if packing {
		w.Used = w.Packed
	}
	return w
}

// Sizes are the bit sizes the limits use.
type Sizes struct {
	Vertex  int  `json:"m_vertex"`
	Update  Wire `json:"m_update"`
	Message Wire `json:"m_message"`
	Edge    int  `json:"m_edge"`
	MemWord int  `json:"m_memword"`
}

// Limits are the four bounds in TEPS; nil where a limit does not apply.
type Limits struct {
	PE  *float64 `json:"pe"`
	Mem *float64 `json:"mem"`
	If  *float64 `json:"if"`
	Net *float64 `json:"net"`
}

// Each calls f for every limit that applies, in the fixed order pe, mem,
// if, net.
func (l Limits) Each(f func(name string, teps float64)) {
	for _, x := range []struct {
		n string
		v *float64
	}{{LimitPE, l.PE}, {LimitMem, l.Mem}, {LimitIf, l.If}, {LimitNet, l.Net}} {
		if x.v != nil {
			f(x.n, *x.v)
		}
	}
}

// min returns the smallest limit and its name (+Inf and "" when none
// applies); ties go to the first in Each's order.
func (l Limits) min() (float64, string) {
	best, name := math.Inf(1), ""
	for i, v := range [...]*float64{l.PE, l.Mem, l.If, l.Net} {
		if v != nil && *v < best {
			best, name = *v, limitNames[i]
		}
	}
	return best, name
}

// limitNames are the limits' names in Each's order.
var limitNames = [...]string{LimitPE, LimitMem, LimitIf, LimitNet}

// Get returns a limit by name.
func (l Limits) Get(name string) (float64, bool) {
	var p *float64
	switch name {
	case LimitPE:
		p = l.PE
	case LimitMem:
		p = l.Mem
	case LimitIf:
		p = l.If
	case LimitNet:
		p = l.Net
	}
	if p == nil {
		return 0, false
	}
	return *p, true
}

// Result is one evaluated design point.
type Result struct {
	Config  Config  `json:"-"`
	FPGAs   int     `json:"fpgas"`
	PEs     int     `json:"pes"`
	Arch    Arch    `json:"arch"`
	Mem     MemKind `json:"mem"`
	Packing bool    `json:"packing"`
	Filter  bool    `json:"filter"`
	Limits  Limits  `json:"limits"`
	// TSys is min of the limits, in TEPS.
	TSys    float64 `json:"tsys"`
	Binding string  `json:"binding"`
	// Reasons explain each limit in words, by limit name.
	Reasons map[string]string `json:"reasons"`
	Sizes   Sizes             `json:"sizes"`
	// RemoteCopies is the number of remote FPGAs one update (GraVF-M) or the
	// share of messages (GraVF, as copies per message) goes to.
	RemoteCopies float64  `json:"remote_copies"`
	Capacity     Capacity `json:"capacity"`
	// MemDetail breaks the memory limit down (nil without off-chip edges).
	MemDetail *MemDetail `json:"mem_detail,omitempty"`
	CPE       float64    `json:"cpe"`
	CPESource string     `json:"cpe_source"`
}

// Capacity reports the storage checks.
type Capacity struct {
	// VertexBitsPerFPGA is the vertex state plus the update queue per FPGA.
	VertexBitsPerFPGA float64 `json:"vertex_bits_per_fpga"`
	// EdgeBitsPerFPGA is the edge storage (edges and edge index) per FPGA.
	EdgeBitsPerFPGA float64 `json:"edge_bits_per_fpga"`
	OnChipBits      float64 `json:"onchip_bits"`
	OffChipBits     float64 `json:"offchip_bits"`
	// MinFPGAs is the fewest FPGAs whose memories hold the graph.
	MinFPGAs int    `json:"min_fpgas"`
	Fits     bool   `json:"fits"`
	Problem  string `json:"problem,omitempty"`
}

// ErrCapacity marks a configuration whose data does not fit.
var ErrCapacity = errors.New("does not fit")

// resultStore holds what a Result points to, in one allocation: an
// evaluation in a sweep allocates nothing else.
type resultStore struct {
	limits [4]float64 // pe, mem, if, net
	mem    MemDetail
}

// wireSizes returns the on-wire update and message sizes: the hardware
// contract's link items (arch.WireBits), in link words.
func (p *Platform) wireSizes(w *Workload, c Config) Sizes {
	s := w.Sizes
	update, message := arch.WireBits(s)
	return Sizes{
		Vertex:  s.Vertex,
		Update:  wire(update, p.LinkWordBits, c.Packing),
		Message: wire(message, p.LinkWordBits, c.Packing),
		Edge:    s.Edge,
		MemWord: p.MemWordBits,
	}
}

// remoteTargets estimates the number of remote FPGAs (or nodes) an update
// must reach with the filter on: a vertex of degree k whose neighbours are
// spread at random over n groups has a neighbour in a given other group
// with probability 1-(1-1/n)^k.
func (w *Workload) remoteTargets(n int) float64 {
	if n <= 1 {
		return 0
	}
	if len(w.Degrees) == 0 || w.Vertices == 0 {
		return float64(n - 1)
	}
	// spread counts the vertex's own group too; scale to the n-1 others.
	return w.spread(n) * float64(n-1) / float64(n) / float64(w.Vertices)
}

// CheckDesign is the one check that a design point can be built on the
// platform: at least one and at most MaxFPGAs FPGAs, at most MaxPEs PEs per
// FPGA, the vertex state and update queue (and edges in BRAM) in the
// on-chip memory, the edges and the edge index in the edge memory. The
// model (Evaluate), and the command line and the notebooks before they
// simulate or export, all call it; capacity problems wrap ErrCapacity.
func CheckDesign(p *Platform, w *Workload, c Config) error {
	if err := p.checkCounts(c); err != nil {
		return err
	}
	c = c.withDefaults()
	if cp := p.capacity(w, c, p.wireSizes(w, c)); !cp.Fits {
		return fmt.Errorf("%w: %s", ErrCapacity, cp.Problem)
	}
	return nil
}

// checkCounts checks the numbers of FPGAs and PEs.
func (p *Platform) checkCounts(c Config) error {
	if c.FPGAs < 1 || c.PEs < 1 {
		return fmt.Errorf("need at least 1 FPGA and 1 PE, got %d x %d", c.FPGAs, c.PEs)
	}
	if p.MaxFPGAs > 0 && c.FPGAs > p.MaxFPGAs {
		return fmt.Errorf("%d FPGAs requested; %s has %d", c.FPGAs, p.Name, p.MaxFPGAs)
	}
	if p.MaxPEs > 0 && c.PEs > p.MaxPEs {
		return fmt.Errorf("%d PEs per FPGA requested; at most %d fit (%s)", c.PEs, p.MaxPEs, p.MaxPEsReason)
	}
	return nil
}

// withDefaults fills the architecture (GraVF-M) and the edge memory
// (off-chip) when unset.
func (c Config) withDefaults() Config {
	if c.Arch == "" {
		c.Arch = GraVFM
	}
	if c.Mem == "" {
		c.Mem = OffChip
	}
	return c
}

// Evaluate computes every limit for one configuration. It fails for an
// impossible configuration (no FPGAs, more PEs than fit, more FPGAs than
// the platform has) and, with ErrCapacity, when the data does not fit
// (CheckDesign); the result is filled in then too.
func Evaluate(p *Platform, w *Workload, c Config) (Result, error) { return evaluate(p, w, c, true) }

// EvaluateLimits is Evaluate without the words of Result.Reasons (nil):
// formatting them costs several times the arithmetic, so sweeps and
// searches call it for every point and Evaluate for the points they show.
func EvaluateLimits(p *Platform, w *Workload, c Config) (Result, error) {
	return evaluate(p, w, c, false)
}

func evaluate(p *Platform, w *Workload, c Config, reasons bool) (Result, error) {
	if err := p.checkCounts(c); err != nil {
		return Result{}, err
	}
	c = c.withDefaults()
	r := Result{Config: c, FPGAs: c.FPGAs, PEs: c.PEs, Arch: c.Arch, Mem: c.Mem, Packing: c.Packing,
		Filter: c.Filter && c.Arch == GraVFM, CPE: w.CPE, CPESource: w.CPESource}
	if reasons {
		r.Reasons = make(map[string]string, 4)
	}
	r.Sizes = p.wireSizes(w, c)
	st := new(resultStore)
	set := func(l **float64, i int, v float64) {
		st.limits[i] = v
		*l = &st.limits[i]
	}
	nF, nP := float64(c.FPGAs), float64(c.PEs)
	d := w.Degree()
	cpe := w.CPE
	if cpe <= 0 {
		cpe = 1
	}

	// 1. Processing elements.
	lpe := nF * nP * p.ClockHz / cpe
	set(&r.Limits.PE, 0, lpe)
	if reasons {
		r.Reasons[LimitPE] = fmt.Sprintf("%d FPGAs x %d PEs at %.1f MHz, %.2f cycles per edge (%s)", c.FPGAs, c.PEs, p.ClockHz/1e6, cpe, w.CPESource)
	}

	// 2. Off-chip memory, refined for access granularity.
	if c.Mem == OffChip && p.MemBitsPerSec > 0 {
		m := &st.mem
		p.memLimits(w, c, r.Sizes.Edge, m)
		r.MemDetail = m
		set(&r.Limits.Mem, 1, m.Expected)
		if reasons {
			r.Reasons[LimitMem] = fmt.Sprintf("%.1f GiB/s per FPGA; an edge costs %.0f bits of %d-bit words (%d-bit edge, %.2f lists read per edge for this graph; worst case %.0f MTEPS, no granularity %.0f MTEPS)",
				p.MemBitsPerSec/8/(1<<30), m.BitsPerEdge, m.WordBits, r.Sizes.Edge, m.ListsPerEdge, m.WorstCase/1e6, m.Basic/1e6)
		}
	}

	// 3 and 4. Network interface and network.
	// A hierarchical network applies the formulas to nodes (GroupsFunc).
	groups, groupIf, groupNet := c.FPGAs, p.BWIf(c.FPGAs), p.NetBitsPerSec
	unit := "FPGA"
	if p.GroupsFunc != nil {
		groups = p.GroupsFunc(c.FPGAs)
	}
	if groups != c.FPGAs {
		unit = "node"
	}
	if groups > 1 {
		g := float64(groups)
		switch c.Arch {
		case GraVFM:
			mu := r.Sizes.Update.Used
			copies := g - 1
			how := "no filter"
			if r.Filter {
				copies = w.remoteTargets(groups)
				how = "filter"
			}
			r.RemoteCopies = copies
			lif := groupIf / mu * g / copies * d
			set(&r.Limits.If, 2, lif)
			if reasons {
				r.Reasons[LimitIf] = fmt.Sprintf("network interface: each update (%.0f bits on the wire) is sent to %.2f of %d other %ss (%s); d = %.1f; BW_if = %.2f GiB/s",
					mu, copies, groups-1, unit, how, d, groupIf/8/(1<<30))
			}
			if groupNet > 0 {
				lnet := groupNet / (copies * mu) * d
				set(&r.Limits.Net, 3, lnet)
				if reasons {
					r.Reasons[LimitNet] = fmt.Sprintf("network: %.2f copies of every %.0f-bit update share %.2f GiB/s; d = %.1f", copies, mu, groupNet/8/(1<<30), d)
				}
			}
		case GraVF:
			mm := r.Sizes.Message.Used
			remote := (g - 1) / g // share of messages that leave their FPGA
			r.RemoteCopies = remote
			lif := groupIf * g / (remote * mm)
			set(&r.Limits.If, 2, lif)
			if reasons {
				r.Reasons[LimitIf] = fmt.Sprintf("network interface: %.0f %% of the messages (%.0f bits each) leave their %s; BW_if = %.2f GiB/s",
					100*remote, mm, unit, groupIf/8/(1<<30))
			}
			if groupNet > 0 {
				lnet := groupNet / (remote * mm)
				set(&r.Limits.Net, 3, lnet)
				if reasons {
					r.Reasons[LimitNet] = fmt.Sprintf("network: %.0f %% of all %.0f-bit messages share %.2f GiB/s", 100*remote, mm, groupNet/8/(1<<30))
				}
			}
		}
	}

	r.TSys, r.Binding = r.Limits.min()
	r.Capacity = p.capacity(w, c, r.Sizes)
	if !r.Capacity.Fits {
		return r, fmt.Errorf("%w: %s", ErrCapacity, r.Capacity.Problem)
	}
	return r, nil
}

// MemDetail shows the three readings of the memory limit. The paper's
// equation 2 ignores access granularity (Basic). Its refinement assumes the
// worst case: every one of the V x lists edge lists costs one partly
// wasted word (WorstCase; with V/E x lists >= 1, a whole word per edge).
// Expected counts only the lists that are not empty for this graph's
// degrees, since an empty list issues no request; T_sys uses it.
type MemDetail struct {
	Basic        float64 `json:"basic"`
	WorstCase    float64 `json:"worst_case"`
	Expected     float64 `json:"expected"`
	ListsPerEdge float64 `json:"lists_per_edge"`
	BitsPerEdge  float64 `json:"bits_per_edge"`
	WordBits     int     `json:"word_bits"`
}

// memLimits computes the memory limit three ways into m.
func (p *Platform) memLimits(w *Workload, c Config, edgeBits int, m *MemDetail) {
	nF := float64(c.FPGAs)
	me := float64(edgeBits)
	word := max(p.MemWordBits, edgeBits)
	mw := float64(word)
	lists := 1 // edge lists per vertex
	if c.Arch == GraVFM {
		lists = c.FPGAs * c.PEs
	}
	arcs := float64(max(w.Arcs, 1))
	*m = MemDetail{WordBits: word, Basic: nF * p.MemBitsPerSec / me}
	worst := float64(w.Vertices) / arcs * float64(lists)
	if worst >= 1 {
		m.WorstCase = nF * p.MemBitsPerSec / mw
	} else {
		m.WorstCase = nF * p.MemBitsPerSec / (me + worst*(mw-me))
	}
	// Expected non-empty lists: a vertex of degree k spread over L lists
	// leaves a given list empty with probability (1-1/L)^k.
	nonEmpty := 0.0
	if len(w.Degrees) > 0 {
		nonEmpty = w.spread(lists)
	} else {
		nonEmpty = math.Min(float64(w.Vertices)*float64(lists), arcs)
	}
	m.ListsPerEdge = nonEmpty / arcs
	// Each non-empty list wastes at most one word minus one edge; a list
	// never costs less than its edges.
	m.BitsPerEdge = math.Min(mw, me+m.ListsPerEdge*(mw-me))
	if m.ListsPerEdge < 1 {
		m.BitsPerEdge = me + m.ListsPerEdge*(mw-me)
	}
	m.Expected = nF * p.MemBitsPerSec / m.BitsPerEdge
}

// capacity checks vertex and edge storage for one configuration.
func (p *Platform) capacity(w *Workload, c Config, s Sizes) Capacity {
	nF, nP := float64(c.FPGAs), float64(c.PEs)
	V := float64(w.Vertices)
	cp := Capacity{OnChipBits: p.OnChipBits, OffChipBits: p.MemCapacityBits, Fits: true}
	// Vertex state plus the update queue (one update per vertex at most).
	perVertex := float64(s.Vertex + w.Sizes.Update + w.Sizes.VertexIDBits)
	cp.VertexBitsPerFPGA = V * perVertex / nF
	// Edges plus the edge index: GraVF-M keeps an index entry per vertex of
	// the graph on every PE; GraVF only for its own vertices.
	idxBits := float64(2 * kernel.BitsFor(uint64(w.Arcs)+1))
	edges := float64(w.Arcs) / nF * float64(s.Edge)
	index := V * idxBits / nF
	if c.Arch == GraVFM {
		index = V * nP * idxBits
	}
	cp.EdgeBitsPerFPGA = edges + index
	onchip := cp.VertexBitsPerFPGA
	if c.Mem == BRAM {
		onchip += cp.EdgeBitsPerFPGA
	}
	// The fewest FPGAs that hold the vertex data (the paper's bound).
	if p.OnChipBits > 0 {
		cp.MinFPGAs = int(math.Ceil(V * perVertex / p.OnChipBits))
	}
	cp.MinFPGAs = max(cp.MinFPGAs, 1)
	switch {
	case p.OnChipBits > 0 && onchip > p.OnChipBits:
		cp.Fits = false
		what := "vertex state and update queue"
		if c.Mem == BRAM {
			what += " plus edges in BRAM"
		}
		cp.Problem = fmt.Sprintf("%s need %.1f Mbit per FPGA but %s has %.1f Mbit of on-chip memory", what, onchip/1e6, p.Name, p.OnChipBits/1e6)
		if need := int(math.Ceil(V * perVertex / p.OnChipBits)); c.Mem == OffChip && need > c.FPGAs {
			cp.Problem += fmt.Sprintf("; the vertices need at least %d FPGAs", need)
		}
	case c.Mem == OffChip && p.MemCapacityBits > 0 && cp.EdgeBitsPerFPGA > p.MemCapacityBits:
		cp.Fits = false
		cp.Problem = fmt.Sprintf("edge storage needs %.2f GiB per FPGA but the memory holds %.2f GiB", cp.EdgeBitsPerFPGA/8/(1<<30), p.MemCapacityBits/8/(1<<30))
	}
	return cp
}
