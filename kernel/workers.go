package kernel

import (
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/gravf-tui/gravf-tui/graph"
)

// engine is one reference run's workers and the vertex ranges they own.
type engine struct {
	k       *Kernel
	g       *graph.Graph
	nf, nu  int
	fields  []field
	workers []*worker
	// fold is the gather in the form pull runs (nil: always push), with
	// the message of every vertex, in 32-bit words where it fits.
	fold    *pullFold
	dense32 []uint32
	dense64 []uint64
	// pullChunks are the pieces the pull's workers take in turn (bounds;
	// nil with one worker).
	pullChunks []uint32
	// Globals (kernels that have any): ng fields; global is what apply
	// reads this superstep, contrib every vertex's contribution of the
	// last apply sweep (ng values per vertex), folded in vertex order.
	ng              int
	global, contrib []uint64
}

// worker owns the vertices [lo, hi): it applies them and gathers the
// messages sent to them.
type worker struct {
	lo, hi uint32
	b      batch
	c      *Ctx
	unit   uint64 // the edge value of a graph without weights (UnitEdge)
	vals   []uint64
	ids    []uint32
	// The outcome of the last apply sweep of the range: the senders, their
	// updates, their messages (kernels whose scatter runs once per sender)
	// and the sum of their out-degrees.
	senders  []uint32
	updates  []uint64
	messages []uint64
	msgs     int64
}

// minVerticesPerWorker keeps small graphs on one goroutine, where starting
// more costs more than it saves.
var minVerticesPerWorker = 1 << 14

func newEngine(k *Kernel, g *graph.Graph) *engine {
	n := g.NumVertices()
	e := &engine{k: k, g: g, nf: len(k.Checked.VertexT), nu: len(k.Checked.UpdateT)}
	for _, t := range k.Checked.VertexT {
		e.fields = append(e.fields, newField(t, n))
	}
	if !g.Directed && k.ScatterPerSender() {
		e.fold = recogniseFold(k.Checked.Gather)
	}
	if e.ng = len(k.Checked.GlobalT); e.ng > 0 {
		e.global = k.GlobalIdentity()
		e.contrib = make([]uint64, n*e.ng)
		for v := range n {
			copy(e.contrib[v*e.ng:], e.global)
		}
	}
	nw := max(1, min(runtime.GOMAXPROCS(0), 8, n/minVerticesPerWorker))
	// Ranges of about equal arc counts: gather work follows the arcs.
	bounds := arcRanges(g, nw)
	for j := range nw {
		e.workers = append(e.workers, newWorker(e, bounds[j], bounds[j+1]))
	}
	if e.fold != nil && nw > 1 {
		e.pullChunks = arcRanges(g, nw*pullChunksPerWorker)
	}
	return e
}

// pullChunksPerWorker is how many pieces of about equal arc counts the
// pull splits the vertices into per worker: the workers take them in turn,
// so that a worker the machine holds up delays its piece, not its share.
const pullChunksPerWorker = 16

// arcRanges cuts the vertices into parts ranges of about equal arc counts
// (parts+1 bounds).
func arcRanges(g *graph.Graph, parts int) []uint32 {
	n, arcs := g.NumVertices(), g.NumArcs()
	bounds := make([]uint32, parts+1)
	lo := 0
	for j := 1; j <= parts; j++ {
		hi := n
		if j < parts {
			target := uint32(int64(arcs) * int64(j) / int64(parts))
			hi = max(lo, sort.Search(n, func(v int) bool { return g.Offsets[v] >= target }))
		}
		bounds[j] = uint32(hi)
		lo = hi
	}
	return bounds
}

// setStates copies states (nf values per vertex, as Result.States holds
// them) into the fields; states reads them back.
func (e *engine) setStates(states []uint64) {
	for v := range e.g.NumVertices() {
		for i, f := range e.fields {
			f.set(v, states[v*e.nf+i])
		}
	}
}

func (e *engine) states(out []uint64) {
	for v := range e.g.NumVertices() {
		for i, f := range e.fields {
			out[v*e.nf+i] = f.get(v)
		}
	}
}

func newWorker(e *engine, lo, hi uint32) *worker {
	k := e.k
	w := &worker{lo: lo, hi: hi, c: k.NewCtx(), ids: make([]uint32, vbatchSize), unit: UnitEdge(k)}
	nprog := 0
	for _, p := range []*vprogram{k.binit, k.bapply, k.bgather, k.bscatter} {
		if p != nil {
			nprog = max(nprog, len(p.stmts))
		}
	}
	w.vals = make([]uint64, nprog)
	w.b = batch{fields: e.fields, offsets: e.g.Offsets, scalar: w.c}
	if k.bscatter != nil {
		w.b.msg = columns(len(k.Checked.MessageT))
		w.b.edge = columns(len(k.Checked.EdgeT))
	}
	if k.bsenders != nil {
		w.b.update = columns(e.nu)
	}
	return w
}

func columns(n int) [][]uint64 {
	c := make([][]uint64, n)
	for i := range c {
		c[i] = make([]uint64, vbatchSize)
	}
	return c
}

// parallel runs f on every worker and waits for all.
func (e *engine) parallel(f func(w *worker)) {
	if len(e.workers) == 1 {
		f(e.workers[0])
		return
	}
	var wg sync.WaitGroup
	for _, w := range e.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(w)
		}()
	}
	wg.Wait()
}

// ranges calls f with the worker's vertices in batches (w.b.ids, w.b.n).
func (w *worker) ranges(f func()) {
	for v := w.lo; v < w.hi; v += vbatchSize {
		n := int(min(w.hi-v, vbatchSize))
		for k := range n {
			w.ids[k] = v + uint32(k)
		}
		w.b.ids, w.b.n = w.ids[:n], n
		f()
	}
}

// storeStates writes the state assignments of p's last run.
func (w *worker) storeStates(p *vprogram) {
	b := &w.b
	for i, s := range p.stmts {
		if s.kind == TargetState {
			b.fields[s.index].store(b.ids[:b.n], p.col(b, i), w.vals[i])
		}
	}
}

func (w *worker) init(e *engine) {
	w.ranges(func() {
		e.k.binit.run(&w.b, w.vals)
		w.storeStates(e.k.binit)
	})
}

// apply sweeps the range in superstep s and keeps its senders, their
// updates (nu values each) and their out-degrees' sum, and every vertex's
// contributions to the globals.
func (w *worker) apply(e *engine, s int) {
	p := e.k.bapply
	w.c.Superstep = uint64(s)
	copy(w.c.Global, e.global)
	w.senders, w.updates, w.msgs = w.senders[:0], w.updates[:0], 0
	send, upd := -1, make([]int, e.nu)
	for i, st := range p.stmts {
		switch st.kind {
		case TargetSend:
			send = i
		case TargetUpdate:
			upd[st.index] = i
		}
	}
	off := e.g.Offsets
	w.ranges(func() {
		b := &w.b
		p.run(b, w.vals)
		sendCol := p.col(b, send)
		for k, v := range b.ids[:b.n] {
			if sendCol != nil && sendCol[k] == 0 || sendCol == nil && w.vals[send] == 0 {
				continue
			}
			w.senders = append(w.senders, v)
			w.msgs += int64(off[v+1] - off[v])
			for _, i := range upd {
				if col := p.col(b, i); col != nil {
					w.updates = append(w.updates, col[k])
				} else {
					w.updates = append(w.updates, w.vals[i])
				}
			}
		}
		w.storeStates(p)
		w.storeContrib(e, p)
	})
	if e.k.bsenders != nil {
		w.c.Superstep = uint64(s + 1) // scatter runs in the receiving superstep
		w.scatterSenders(e)
	}
}

// storeContrib keeps the contributions of p's last run, per vertex.
func (w *worker) storeContrib(e *engine, p *vprogram) {
	b := &w.b
	for i, s := range p.stmts {
		if s.kind != TargetGlobal {
			continue
		}
		col := p.col(b, i)
		for k, v := range b.ids[:b.n] {
			x := w.vals[i]
			if col != nil {
				x = col[k]
			}
			e.contrib[int(v)*e.ng+s.index] = x
		}
	}
}

// foldGlobals reduces the contributions of the last apply sweep in vertex
// order, whatever the number of workers (an f32 sum depends on the
// order), into what the next apply sweep reads.
func (e *engine) foldGlobals() {
	if e.ng == 0 {
		return
	}
	copy(e.global, e.k.identity)
	for v := 0; v < len(e.contrib); v += e.ng {
		e.k.Reduce(e.global, e.contrib[v:v+e.ng])
	}
}

// saturated sums the workers' counts of satadd sums that did not fit.
func (e *engine) saturated() int64 {
	var n int64
	for _, w := range e.workers {
		n += w.c.Saturated
	}
	return n
}

// scatterSenders computes the message of every sender of the last apply
// sweep, in batches, for kernels whose scatter runs once per sender.
func (w *worker) scatterSenders(e *engine) {
	p, nu, nm := e.k.bsenders, e.nu, len(e.k.Checked.MessageT)
	w.messages = slices.Grow(w.messages[:0], len(w.senders)*nm)[:len(w.senders)*nm]
	b := &w.b
	for j := 0; j < len(w.senders); j += vbatchSize {
		end := min(len(w.senders), j+vbatchSize)
		b.ids, b.n = w.senders[j:end], end-j
		for f, col := range b.update {
			for x := range b.n {
				col[x] = w.updates[(j+x)*nu+f]
			}
		}
		p.run(b, w.vals)
		for i, st := range p.stmts {
			if st.kind != TargetMessage {
				continue
			}
			col := p.col(b, i)
			for x := range b.n {
				if col != nil {
					w.messages[(j+x)*nm+st.index] = col[x]
				} else {
					w.messages[(j+x)*nm+st.index] = w.vals[i]
				}
			}
		}
	}
}

// scatterGather delivers the updates of senders (in superstep s, the one
// receiving them) to the worker's vertices.
func (w *worker) scatterGather(e *engine, s int, senders []uint32, updates, messages []uint64) {
	k, g, nu, nm := e.k, e.g, e.nu, len(e.k.Checked.MessageT)
	c := w.c
	c.Superstep = uint64(s)
	for i, u := range senders {
		nbrs := g.Neighbors(u)
		a, z := 0, len(nbrs)
		if w.lo > 0 {
			a = lowerBound(nbrs, w.lo)
		}
		if int(w.hi) < g.NumVertices() {
			z = a + lowerBound(nbrs[a:], w.hi)
		}
		if a == z {
			continue
		}
		c.Update = updates[i*nu : i*nu+nu]
		c.Sender = uint64(u)
		c.Degree = uint64(g.OutDegree(u))
		switch {
		case k.scatterCopy:
			c.Msg = c.Update
		case k.scatterPerSender:
			c.Msg = messages[i*nm : i*nm+nm]
		}
		ws := g.EdgeWeights(u)
		for j := a; j < z; j += vbatchSize {
			end := min(z, j+vbatchSize)
			w.b.ids, w.b.n = nbrs[j:end], end-j
			if k.bscatter != nil {
				w.scatterEdges(k.bscatter, ws, j, end)
			}
			k.bgather.run(&w.b, w.vals)
			w.storeStates(k.bgather)
		}
	}
}

// lowerBound returns the index of the first element of the sorted xs that
// is at least x.
func lowerBound(xs []uint32, x uint32) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xs[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// scatterEdges computes the messages of the edges [j, end) of the current
// sender into the batch's message columns.
func (w *worker) scatterEdges(p *vprogram, ws []uint32, j, end int) {
	b := &w.b
	if len(b.edge) > 0 {
		e0 := b.edge[0][:b.n]
		for x := range e0 {
			if ws != nil {
				e0[x] = uint64(ws[j+x])
			} else {
				e0[x] = w.unit
			}
		}
	}
	p.run(b, w.vals)
	for i, st := range p.stmts {
		if st.kind != TargetMessage {
			continue
		}
		out := b.msg[st.index][:b.n]
		if col := p.col(b, i); col != nil {
			copy(out, col)
		} else {
			for x := range out {
				out[x] = w.vals[i]
			}
		}
	}
}
