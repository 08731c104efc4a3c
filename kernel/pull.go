package kernel

import (
	"math"
	"sync/atomic"
)

// Pull gather. When a kernel's gather folds one message field into one
// state field with +, min or max (PR's sum, for example) and the graph is
// undirected, a superstep in which most arcs carry a message is cheaper
// the other way round: every destination reads its in-neighbours, which
// are its sorted neighbour list, and folds the messages of those that
// sent, in ascending order. That is the order in which push delivers
// them, so the result is the same bit for bit (f32 sums included); the
// memory traffic is that of a sparse matrix-vector product: the neighbour
// lists and the state in order, the messages at random.

// pullFold is a recognised gather: state[field] = state[field] op msg[msg].
type pullFold struct {
	op         Op
	float      bool
	mask       uint64
	field, msg int
}

// pullFraction is the share of the arcs that must carry a message for a
// superstep to gather by pulling (a variable for the tests).
var pullFraction = 1.0 / 3

// recogniseFold reports the gather as a fold, or nil.
func recogniseFold(cp *CheckedProgram) *pullFold {
	if cp == nil || len(cp.Stmts) != 1 || len(cp.Locals) != 0 {
		return nil
	}
	st := cp.Stmts[0]
	n := st.Value
	if st.Kind != TargetState || len(n.Args) != 2 || n.Op != OpAdd && n.Op != OpMin && n.Op != OpMax || n.Type.Float && n.Op != OpAdd {
		return nil // f32 min and max are left to push: their NaN rule takes a side
	}
	a, b := n.Args[0], n.Args[1]
	isState := func(x *Node) bool { return x.Op == OpRef && x.Ref == RefState && x.Index == st.Index }
	isMsg := func(x *Node) bool { return x.Op == OpRef && x.Ref == RefMsg }
	if !isState(a) || !isMsg(b) {
		// msg op state folds the same way: the ops left commute bit for bit.
		if !isState(b) || !isMsg(a) {
			return nil
		}
		a, b = b, a
	}
	if a.Type != n.Type || b.Type != n.Type {
		return nil
	}
	return &pullFold{op: n.Op, float: n.Type.Float, mask: n.Type.Mask(), field: st.Index, msg: b.Index}
}

// apply folds message value m into state value a, as the gather's
// closures do: f32 sums round to float32, integer sums wrap at the field's
// width.
func (f *pullFold) apply(a, m uint64) uint64 {
	switch {
	case f.float:
		return bits(f32(a) + f32(m))
	case f.op == OpAdd:
		return (a + m) & f.mask
	case f.op == OpMin:
		return min(a, m)
	}
	return max(a, m)
}

// identity is the value that leaves the fold's accumulator unchanged, bit
// for bit: a vertex that did not send holds it, so that the pull loops
// fold every neighbour without asking who sent. -0 is the f32 identity
// (x + -0 is x for every x, +0 and -0 included; x + +0 would turn -0 into
// +0).
func (f *pullFold) identity() uint64 {
	switch {
	case f.float:
		return 1 << 31
	case f.op == OpMin:
		return f.mask
	}
	return 0 // + and max
}

// pullRange gathers the destinations [lo, hi) from the dense messages of
// every vertex (the identity for those that did not send), in 32-bit
// words when the message fits them (f32 always does).
func (f *pullFold) pullRange(e *engine, lo, hi uint32) {
	if e.dense32 != nil {
		if f.float {
			f.pullF32(e, lo, hi, e.dense32)
			return
		}
		pullInts(f, e, lo, hi, e.dense32)
		return
	}
	pullInts(f, e, lo, hi, e.dense64)
}

// pullF32 is the f32 sum: float32 rounding at every step, in neighbour
// order, as the closures do.
func (f *pullFold) pullF32(e *engine, lo, hi uint32, msgs []uint32) {
	g, st := e.g, e.fields[f.field]
	off, adj := g.Offsets, g.Adj
	for v := lo; v < hi; v++ {
		a := f32(st.get(int(v)))
		for _, u := range adj[off[v]:off[v+1]] {
			a += math.Float32frombits(msgs[u])
		}
		st.set(int(v), bits(a))
	}
}

func pullInts[T uint32 | uint64](f *pullFold, e *engine, lo, hi uint32, msgs []T) {
	g, st := e.g, e.fields[f.field]
	off, adj := g.Offsets, g.Adj
	for v := lo; v < hi; v++ {
		nbrs := adj[off[v]:off[v+1]]
		acc := st.get(int(v))
		switch f.op {
		case OpAdd:
			for _, u := range nbrs {
				acc += uint64(msgs[u])
			}
			acc &= f.mask
		case OpMin:
			for _, u := range nbrs {
				acc = min(acc, uint64(msgs[u]))
			}
		default:
			for _, u := range nbrs {
				acc = max(acc, uint64(msgs[u]))
			}
		}
		st.set(int(v), acc)
	}
}

// pull gathers the superstep's messages by pulling, on every worker: each
// first spreads its own senders' messages over its range of the dense
// array, then, once all have, gathers its range.
func (e *engine) pull() {
	f := e.fold
	if e.dense32 == nil && e.dense64 == nil {
		if n := e.g.NumVertices(); e.k.Checked.MessageT[f.msg].Width <= 32 {
			e.dense32 = make([]uint32, n)
		} else {
			e.dense64 = make([]uint64, n)
		}
	}
	id := f.identity()
	e.parallel(func(w *worker) {
		vals, stride := w.messages, len(e.k.Checked.MessageT)
		if e.k.scatterCopy {
			vals, stride = w.updates, e.nu
		}
		if d := e.dense32; d != nil {
			spread(d, w.lo, w.hi, uint32(id), w.senders, vals, stride, f.msg)
		} else {
			spread(e.dense64, w.lo, w.hi, id, w.senders, vals, stride, f.msg)
		}
	})
	if e.pullChunks == nil {
		e.parallel(func(w *worker) { f.pullRange(e, w.lo, w.hi) })
		return
	}
	// Every destination is gathered on its own, so the pieces may go to
	// any worker.
	var next atomic.Int64
	last := int64(len(e.pullChunks) - 1)
	e.parallel(func(*worker) {
		for c := next.Add(1) - 1; c < last; c = next.Add(1) - 1 {
			f.pullRange(e, e.pullChunks[c], e.pullChunks[c+1])
		}
	})
}

// spread fills dense[lo:hi] with the identity, then with the message of
// every sender (all of them in [lo, hi)).
func spread[T uint32 | uint64](dense []T, lo, hi uint32, id T, senders []uint32, vals []uint64, stride, field int) {
	part := dense[lo:hi]
	for i := range part {
		part[i] = id
	}
	for i, u := range senders {
		dense[u] = T(vals[i*stride+field])
	}
}
