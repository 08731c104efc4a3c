package graph

import (
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"sort"
	"sync"
)

// EdgeLayout is the GraVF-M edge storage (SPEC §2): every PE holds, for
// every vertex u of the graph, the subset of u's out-neighbours that live on
// that PE. Updates are broadcast, and each PE scatters u's update over its
// own subset only. The simulator, the BSP engine and the memory images of the
// generator all read edges through it.
//
// Storing V offsets per PE would cost V*nPE words, most of them pointing at
// empty lists. Instead each adjacency list is reordered, grouped by the PE of
// the destination (ascending PE, neighbours ascending inside a group), and
// each vertex keeps a short list of runs (pe, end): one per PE that holds at
// least one of its neighbours. The memory is then 4 bytes per arc plus
// 6 bytes per run plus 4 bytes per vertex, independent of the PE count.
//
// An EdgeLayout is immutable and safe for concurrent use.
type EdgeLayout struct {
	numPE   int
	runOff  []uint32 // V+1: the runs of u are runOff[u]:runOff[u+1]
	runPE   []uint16 // global PE of each run, ascending within a vertex
	runEnd  []uint32 // end of each run in adj; it starts where the previous run ends
	adj     []uint32 // the arcs, grouped by vertex, then by destination PE
	weights []uint32 // parallel to adj, nil when unweighted
	// local replaces adj in a layout of local indexes (NewLocalLayoutOf):
	// each arc's target as its index on its PE (Partition.Local).
	local []uint16

	edgesPerPE []int
	indexPerPE []int

	byPEOnce   sync.Once
	byPEOff    []uint32 // numPE+1: runs of each PE are byPERun[byPEOff[pe]:byPEOff[pe+1]]
	byPERun    []uint32 // run indices, ascending vertex within a PE
	byPEVertex []uint32 // the vertex of each entry of byPERun
}

// NewEdgeLayout builds the GraVF-M edge storage of g for partition p. It
// runs on all CPUs (the result does not depend on how many). p must be a
// partition of g; a partition of another graph is a programming error and
// panics.
func NewEdgeLayout(g *Graph, p *Partition) *EdgeLayout {
	return NewEdgeLayoutOf(g, p, 0, p.NumPEs())
}

// NewEdgeLayoutOf is NewEdgeLayout restricted to the arcs whose target
// lives on a global PE in [lo, hi) (one FPGA's, say): the lists of those
// PEs are the whole layout's, and the other PEs hold none. It takes the
// arcs of those PEs only, without a copy of g restricted to them.
func NewEdgeLayoutOf(g *Graph, p *Partition, lo, hi int) *EdgeLayout {
	return newEdgeLayout(g, p, lo, hi, false)
}

// NewLocalLayoutOf is NewEdgeLayoutOf holding each arc's target as its
// local index on its PE, in 16 bits, instead of its 32-bit vertex id:
// what the PEs' edge memories hold, in half the memory. Its lists are
// read with LocalIndexes; Run, Local, ForEachPE and ForEachVertex give
// no neighbours. It returns nil when a PE of [lo, hi) holds more
// vertices than 16 bits can index.
func NewLocalLayoutOf(g *Graph, p *Partition, lo, hi int) *EdgeLayout {
	for pe := max(lo, 0); pe < min(hi, p.NumPEs()); pe++ {
		if len(p.Members[pe]) > 1<<16 {
			return nil
		}
	}
	return newEdgeLayout(g, p, lo, hi, true)
}

// newEdgeLayout builds the layout of NewEdgeLayoutOf, of local indexes
// (NewLocalLayoutOf) when local.
func newEdgeLayout(g *Graph, p *Partition, lo, hi int, local bool) *EdgeLayout {
	n := g.NumVertices()
	if len(p.PE) != n {
		panic(fmt.Sprintf("graph: NewEdgeLayout: partition of %d vertices for a graph of %d", len(p.PE), n))
	}
	nPE := p.NumPEs()
	lo, hi = max(lo, 0), min(hi, nPE)
	l := &EdgeLayout{numPE: nPE, runOff: make([]uint32, n+1)}

	// Split the vertices into chunks of about equal arc counts. A first
	// pass counts every vertex's runs (the distinct PEs of its
	// neighbours) and every chunk's arcs, so the runs and arcs are written
	// in place by the second, which reorders the arcs: no per-worker lists
	// to grow and copy, which took as much memory again as the runs
	// themselves.
	const minArcsPerWorker = 1 << 16
	workers := min(runtime.GOMAXPROCS(0), len(g.Adj)/minArcsPerWorker+1)
	bounds := arcChunks(g, workers)
	at := make([]uint32, workers+1) // where each chunk's arcs start
	parallel := func(work func(k int, cnt []uint32)) {
		var wg sync.WaitGroup
		for k := range workers {
			wg.Go(func() { work(k, make([]uint32, nPE)) })
		}
		wg.Wait()
	}
	sel := peRange{uint16(lo), uint32(hi - lo)}
	parallel(func(k int, cnt []uint32) { at[k+1] = l.countRuns(g, p, sel, bounds[k], bounds[k+1], cnt) })
	for k := range workers {
		at[k+1] += at[k]
	}
	for u := range n {
		l.runOff[u+1] += l.runOff[u]
	}
	total := int(l.runOff[n])
	l.runPE = make([]uint16, total)
	l.runEnd = make([]uint32, total)
	if local {
		l.local = make([]uint16, at[workers])
	} else {
		l.adj = make([]uint32, at[workers])
	}
	if g.Weights != nil {
		l.weights = make([]uint32, at[workers])
	}
	parallel(func(k int, cnt []uint32) { l.placeRuns(g, p, sel, bounds[k], bounds[k+1], at[k], cnt) })
	l.countPerPE()
	return l
}

// peRange selects the global PEs [lo, lo+n).
type peRange struct {
	lo uint16
	n  uint32
}

func (r peRange) has(pe uint16) bool { return uint32(pe-r.lo) < r.n }

// arcChunks splits the vertices into workers chunks of about equal arc
// counts: chunk k is vertices [bounds[k], bounds[k+1]).
func arcChunks(g *Graph, workers int) []int {
	n, arcs := g.NumVertices(), len(g.Adj)
	bounds := make([]int, workers+1)
	bounds[workers] = n
	for k := 1; k < workers; k++ {
		target := uint32(uint64(arcs) * uint64(k) / uint64(workers))
		bounds[k] = max(bounds[k-1], sort.Search(n, func(v int) bool { return g.Offsets[v] >= target }))
	}
	return bounds
}

// countRuns is the first pass over vertices [lo, hi): each vertex's
// number of runs (distinct PEs of sel among its neighbours) into
// runOff[u+1]; it returns the arcs to sel's PEs. cnt, one entry per PE,
// holds 1 + the last vertex that saw the PE, so that nothing is reset
// between vertices.
func (l *EdgeLayout) countRuns(g *Graph, p *Partition, sel peRange, lo, hi int, cnt []uint32) uint32 {
	arcs := uint32(0)
	for u := lo; u < hi; u++ {
		runs, stamp := uint32(0), uint32(u)+1
		for _, v := range g.Adj[g.Offsets[u]:g.Offsets[u+1]] {
			pe := p.PE[v]
			if !sel.has(pe) {
				continue
			}
			if cnt[pe] != stamp {
				cnt[pe] = stamp
				runs++
			}
			arcs++
		}
		l.runOff[u+1] = runs
	}
	return arcs
}

// placeRuns is the second pass over vertices [lo, hi), whose arcs to sel's
// PEs start at at: a counting sort per vertex by destination PE, stable,
// so neighbours stay ascending inside a PE, and O(degree + distinct PEs)
// instead of a comparison sort of the list. It writes the runs at
// runOff[u] and the reordered arcs (and weights).
func (l *EdgeLayout) placeRuns(g *Graph, p *Partition, sel peRange, lo, hi int, at uint32, cnt []uint32) {
	var used []uint16 // the PEs touched, to reset them
	for u := lo; u < hi; u++ {
		s, e := g.Offsets[u], g.Offsets[u+1]
		if l.runOff[u] == l.runOff[u+1] {
			continue
		}
		nbrs := g.Adj[s:e]
		used = used[:0]
		for _, v := range nbrs {
			pe := p.PE[v]
			if !sel.has(pe) {
				continue
			}
			if cnt[pe] == 0 {
				used = append(used, pe)
			}
			cnt[pe]++
		}
		if len(used)*8 > int(sel.n) {
			// Dense: collect the PEs in order by scanning.
			used = used[:0]
			for pe, x := range cnt[sel.lo : uint32(sel.lo)+sel.n] {
				if x > 0 {
					used = append(used, sel.lo+uint16(pe))
				}
			}
		} else {
			slices.Sort(used)
		}
		// cnt becomes the next write position of each PE.
		r := l.runOff[u]
		for i, pe := range used {
			size := cnt[pe]
			cnt[pe] = at
			at += size
			l.runPE[r+uint32(i)] = pe
			l.runEnd[r+uint32(i)] = at
		}
		for i, v := range nbrs {
			pe := p.PE[v]
			if !sel.has(pe) {
				continue
			}
			if l.local != nil {
				l.local[cnt[pe]] = uint16(p.Local[v])
			} else {
				l.adj[cnt[pe]] = v
			}
			if l.weights != nil {
				l.weights[cnt[pe]] = g.Weights[s+uint32(i)]
			}
			cnt[pe]++
		}
		for _, pe := range used {
			cnt[pe] = 0
		}
	}
}

// countPerPE totals each PE's edges and index entries (runs).
func (l *EdgeLayout) countPerPE() {
	l.edgesPerPE = make([]int, l.numPE)
	l.indexPerPE = make([]int, l.numPE)
	start := uint32(0)
	for i, pe := range l.runPE {
		l.edgesPerPE[pe] += int(l.runEnd[i] - start)
		l.indexPerPE[pe]++
		start = l.runEnd[i]
	}
}

// NumPEs returns the number of global PEs the layout spreads edges over.
func (l *EdgeLayout) NumPEs() int { return l.numPE }

// NumRuns returns the total number of (vertex, PE) pairs with at least one
// stored edge: the edge-index entries summed over all PEs.
func (l *EdgeLayout) NumRuns() int { return len(l.runPE) }

// Runs returns the range [lo, hi) of run indices of vertex u, for Run. Runs
// are in ascending PE order. Index access lets the simulator keep a cursor
// into a scatter in progress without closures or allocation.
func (l *EdgeLayout) Runs(u uint32) (lo, hi int) {
	return int(l.runOff[u]), int(l.runOff[u+1])
}

// Run returns run i: the PE it belongs to and the neighbours (and weights,
// nil when unweighted) of its vertex stored on that PE. The slices alias the
// layout and must not be modified.
func (l *EdgeLayout) Run(i int) (pe int, nbrs, weights []uint32) {
	start, end := l.runSpan(i)
	if l.weights != nil {
		weights = l.weights[start:end]
	}
	if l.adj != nil {
		nbrs = l.adj[start:end]
	}
	return int(l.runPE[i]), nbrs, weights
}

// runSpan returns where run i's arcs are.
func (l *EdgeLayout) runSpan(i int) (start, end uint32) {
	if i > 0 {
		start = l.runEnd[i-1]
	}
	return start, l.runEnd[i]
}

// LocalIndexes returns u's out-neighbours held by global PE pe as their
// local indexes on pe (ascending), and their weights (nil when
// unweighted), in a layout of local indexes (NewLocalLayoutOf); both are
// nil when pe holds none. It costs a binary search over u's runs.
func (l *EdgeLayout) LocalIndexes(pe int, u uint32) (locals []uint16, weights []uint32) {
	i, ok := l.find(pe, u)
	if !ok || l.local == nil {
		return nil, nil
	}
	start, end := l.runSpan(i)
	if l.weights != nil {
		weights = l.weights[start:end]
	}
	return l.local[start:end], weights
}

// HoldsLocalIndexes reports whether l is a layout of local indexes
// (NewLocalLayoutOf), read with LocalIndexes, rather than of vertex ids.
func (l *EdgeLayout) HoldsLocalIndexes() bool { return l.local != nil }

// ListLen returns the number of u's out-neighbours held by global PE pe,
// in a layout of either kind.
func (l *EdgeLayout) ListLen(pe int, u uint32) int {
	i, ok := l.find(pe, u)
	if !ok {
		return 0
	}
	start, end := l.runSpan(i)
	return int(end - start)
}

// find returns the index of u's run on global PE pe, if it has one: a
// binary search over u's runs.
func (l *EdgeLayout) find(pe int, u uint32) (int, bool) {
	if pe < 0 || pe >= l.numPE {
		return 0, false
	}
	lo, hi := int(l.runOff[u]), int(l.runOff[u+1])
	i, ok := slices.BinarySearch(l.runPE[lo:hi], uint16(pe))
	return lo + i, ok
}

// Local returns the out-neighbours of u held by global PE pe (ascending),
// and their weights (nil when unweighted): what pe scatters when it receives
// u's update. Both are nil when pe holds none. It costs a binary search over
// u's runs.
func (l *EdgeLayout) Local(pe int, u uint32) (nbrs, weights []uint32) {
	i, ok := l.find(pe, u)
	if !ok {
		return nil, nil
	}
	_, nbrs, weights = l.Run(i)
	return nbrs, weights
}

// ForEachPE calls f for every PE that holds neighbours of u, in ascending PE
// order, with those neighbours and their weights (nil when unweighted). It is
// the broadcast of one update: PEs that are skipped would find an empty edge
// list. It does not allocate.
func (l *EdgeLayout) ForEachPE(u uint32, f func(pe int, nbrs, weights []uint32)) {
	lo, hi := l.Runs(u)
	for i := lo; i < hi; i++ {
		f(l.Run(i))
	}
}

// ForEachVertex calls f, in ascending vertex order, for every vertex u that
// has neighbours on global PE pe, with those neighbours and weights. It is
// the view of one PE's memory: its edge index and edge lists, as the
// generator writes them into memory images. The per-PE index is built on the
// first call (4 bytes per run for the run, 4 for the vertex).
func (l *EdgeLayout) ForEachVertex(pe int, f func(u uint32, nbrs, weights []uint32)) {
	l.byPEOnce.Do(l.buildByPE)
	for j := l.byPEOff[pe]; j < l.byPEOff[pe+1]; j++ {
		_, nbrs, weights := l.Run(int(l.byPERun[j]))
		f(l.byPEVertex[j], nbrs, weights)
	}
}

// buildByPE counting-sorts the runs by PE; vertices come out ascending
// because runs are stored in vertex order.
func (l *EdgeLayout) buildByPE() {
	off := make([]uint32, l.numPE+1)
	for pe, c := range l.indexPerPE {
		off[pe+1] = off[pe] + uint32(c)
	}
	pos := slices.Clone(off[:l.numPE])
	run := make([]uint32, len(l.runPE))
	vertex := make([]uint32, len(l.runPE))
	for u := 0; u+1 < len(l.runOff); u++ {
		for i := l.runOff[u]; i < l.runOff[u+1]; i++ {
			pe := l.runPE[i]
			run[pos[pe]] = i
			vertex[pos[pe]] = uint32(u)
			pos[pe]++
		}
	}
	l.byPEOff, l.byPERun, l.byPEVertex = off, run, vertex
}

// EdgesPerPE returns the number of arcs each global PE stores: the arcs
// whose destination lives there. It is the scatter work of a PE in a
// superstep where every vertex sends, and sizes its edge memory. The slice
// is a copy.
func (l *EdgeLayout) EdgesPerPE() []int { return slices.Clone(l.edgesPerPE) }

// IndexEntriesPerPE returns, for each global PE, the number of vertices with
// at least one out-neighbour on it: the entries of that PE's edge index
// (start and length of a local edge list), for memory sizing. Vertices with
// no local neighbour need no entry, which is why the layout stores runs. The
// slice is a copy.
func (l *EdgeLayout) IndexEntriesPerPE() []int { return slices.Clone(l.indexPerPE) }

// MemoryBytes returns the bytes the layout holds (the per-PE index of
// ForEachVertex included once built), for the memory figures of reports.
func (l *EdgeLayout) MemoryBytes() int {
	return 4*(len(l.runOff)+len(l.runEnd)+len(l.adj)+len(l.weights)+len(l.byPEOff)+len(l.byPERun)+len(l.byPEVertex)) +
		2*(len(l.runPE)+len(l.local)) + 16*l.numPE
}

// GraVFEdgesPerPE returns the number of arcs each global PE stores in the
// plain GraVF layout (the baseline): a PE holds the full out-edge lists of
// its own vertices, g.Neighbors(u) for u in p.Members[pe], and sends one
// unicast message per arc. The figure is the out-degree sum of each PE, the
// quantity the greedy partitioner balances.
func (p *Partition) GraVFEdgesPerPE(g *Graph) []int {
	out := make([]int, p.NumPEs())
	for v, pe := range p.PE {
		out[pe] += int(g.Offsets[v+1] - g.Offsets[v])
	}
	return out
}

// Filter is the update filter of GraVF-M (SPEC §2): a |V| x nF bitmap saying
// which FPGAs hold neighbours of each vertex. An FPGA's endpoint does not
// forward an update to a remote FPGA that holds none of the sender's
// neighbours. Without it a broadcast costs nF-1 remote copies per update
// whatever the degree; with it GraVF-M never sends more remote copies than
// GraVF sends remote messages, which matters on sparse graphs (d/nF < 1).
//
// Each vertex has a row of ceil(nF/64) words, so any FPGA count works and a
// row can be written into a memory image as is.
type Filter struct {
	fpgas, words int
	bits         []uint64
	pe           []uint16
	pes          int
}

// NewFilter computes the filter bitmap of g under partition p.
func NewFilter(g *Graph, p *Partition) *Filter {
	n := g.NumVertices()
	if len(p.PE) != n {
		panic(fmt.Sprintf("graph: NewFilter: partition of %d vertices for a graph of %d", len(p.PE), n))
	}
	words := (p.FPGAs + 63) / 64
	f := &Filter{fpgas: p.FPGAs, words: words, bits: make([]uint64, n*words), pe: p.PE, pes: p.PEs}
	for u := range n {
		row := f.bits[u*words : (u+1)*words]
		for _, v := range g.Neighbors(uint32(u)) {
			fp := int(p.PE[v]) / p.PEs
			row[fp>>6] |= 1 << (fp & 63)
		}
	}
	return f
}

// FPGAs returns nF, the number of bits per vertex.
func (f *Filter) FPGAs() int { return f.fpgas }

// Has reports whether FPGA fpga holds at least one out-neighbour of u, that
// is whether u's update must reach it.
func (f *Filter) Has(u uint32, fpga int) bool {
	return f.bits[int(u)*f.words+fpga>>6]>>(fpga&63)&1 != 0
}

// Targets returns the number of remote FPGAs (all but u's own) that need u's
// update: the copies the network carries when u sends.
func (f *Filter) Targets(u uint32) int {
	c := 0
	for _, w := range f.Row(u) {
		c += bits.OnesCount64(w)
	}
	if own := int(f.pe[u]) / f.pes; f.Has(u, own) {
		c--
	}
	return c
}

// Row returns the bitmap row of u, bit i of word i/64 standing for FPGA i,
// for writing filter memory images. It aliases the filter.
func (f *Filter) Row(u uint32) []uint64 {
	return f.bits[int(u)*f.words : (int(u)+1)*f.words]
}

// CutStats summarises how a partition cuts a graph and loads the PEs, for a
// superstep in which every vertex sends an update: the traffic figures the
// performance model and the simulator are compared against.
type CutStats struct {
	// FPGAs and PEs (per FPGA) describe the system.
	FPGAs  int         `json:"fpgas"`
	PEs    int         `json:"pes_per_fpga"`
	Method Partitioner `json:"method"`
	// Vertices and Arcs are V and the stored arcs.
	Vertices int `json:"vertices"`
	Arcs     int `json:"arcs"`
	// CrossFPGAArcs counts arcs whose ends are on different FPGAs: the
	// remote messages of GraVF's unicast.
	CrossFPGAArcs int `json:"cross_fpga_arcs"`
	// CrossPEArcs counts arcs whose ends are on different PEs (the cross-FPGA
	// ones included).
	CrossPEArcs int `json:"cross_pe_arcs"`
	// RemoteUpdatesUnfiltered is V*(nF-1): the update copies GraVF-M's
	// broadcast sends to remote FPGAs without the filter.
	RemoteUpdatesUnfiltered int64 `json:"remote_updates_unfiltered"`
	// RemoteUpdatesFiltered is the sum of Filter.Targets: the copies sent
	// with the filter.
	RemoteUpdatesFiltered int64 `json:"remote_updates_filtered"`
	// FilterSaving is 1 - filtered/unfiltered (0 with one FPGA): the share
	// of inter-FPGA update traffic the filter removes.
	FilterSaving float64 `json:"filter_saving"`
	// EdgesPerPEMin, EdgesPerPEMax and EdgesPerPEMean describe the arcs each
	// PE stores and scatters in the GraVF-M layout (EdgeLayout.EdgesPerPE).
	EdgesPerPEMin  int     `json:"edges_per_pe_min"`
	EdgesPerPEMax  int     `json:"edges_per_pe_max"`
	EdgesPerPEMean float64 `json:"edges_per_pe_mean"`
	// EdgeImbalance is max/mean - 1 of the GraVF-M edges per PE: the
	// slowest PE works that much longer than the ideal.
	EdgeImbalance float64 `json:"edge_imbalance"`
	// GraVFEdgeImbalance is max/mean - 1 of the out-degree sums per PE
	// (GraVFEdgesPerPE), the quantity the greedy partitioner balances. For
	// an undirected graph it equals EdgeImbalance.
	GraVFEdgeImbalance float64 `json:"gravf_edge_imbalance"`
	// VerticesPerPEMin and VerticesPerPEMax bound the vertices per PE, which
	// set the apply sweep and the vertex memory.
	VerticesPerPEMin int `json:"vertices_per_pe_min"`
	VerticesPerPEMax int `json:"vertices_per_pe_max"`
}

// ComputeCutStats measures partition p of g. It walks every arc once and
// needs no EdgeLayout or Filter.
func ComputeCutStats(g *Graph, p *Partition) CutStats {
	n := g.NumVertices()
	if len(p.PE) != n {
		panic(fmt.Sprintf("graph: ComputeCutStats: partition of %d vertices for a graph of %d", len(p.PE), n))
	}
	nPE := p.NumPEs()
	s := CutStats{FPGAs: p.FPGAs, PEs: p.PEs, Method: p.Method, Vertices: n, Arcs: len(g.Adj)}
	in := make([]int, nPE)
	row := make([]uint64, (p.FPGAs+63)/64)
	for u := range n {
		pu := p.PE[u]
		fu := int(pu) / p.PEs
		for _, v := range g.Neighbors(uint32(u)) {
			pv := p.PE[v]
			in[pv]++
			if pv == pu {
				continue
			}
			s.CrossPEArcs++
			if fv := int(pv) / p.PEs; fv != fu {
				s.CrossFPGAArcs++
				row[fv>>6] |= 1 << (fv & 63)
			}
		}
		for i, w := range row {
			s.RemoteUpdatesFiltered += int64(bits.OnesCount64(w))
			row[i] = 0
		}
	}
	s.RemoteUpdatesUnfiltered = int64(n) * int64(p.FPGAs-1)
	if s.RemoteUpdatesUnfiltered > 0 {
		s.FilterSaving = 1 - float64(s.RemoteUpdatesFiltered)/float64(s.RemoteUpdatesUnfiltered)
	}
	s.EdgesPerPEMin, s.EdgesPerPEMax = slices.Min(in), slices.Max(in)
	s.EdgesPerPEMean = float64(len(g.Adj)) / float64(nPE)
	s.EdgeImbalance = imbalance(in)
	s.GraVFEdgeImbalance = imbalance(p.GraVFEdgesPerPE(g))
	s.VerticesPerPEMin, s.VerticesPerPEMax = len(p.Members[0]), len(p.Members[0])
	for _, m := range p.Members {
		s.VerticesPerPEMin = min(s.VerticesPerPEMin, len(m))
		s.VerticesPerPEMax = max(s.VerticesPerPEMax, len(m))
	}
	return s
}

// imbalance returns max/mean - 1, or 0 when there is nothing to balance.
func imbalance(x []int) float64 {
	sum := 0
	for _, v := range x {
		sum += v
	}
	if sum == 0 {
		return 0
	}
	return float64(slices.Max(x))*float64(len(x))/float64(sum) - 1
}
