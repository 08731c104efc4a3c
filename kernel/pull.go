package kernel

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

// pullRange gathers the destinations [lo, hi) from the senders flagged in
// sent, whose messages are in msgs (one value per vertex).
func (f *pullFold) pullRange(e *engine, lo, hi uint32, sent []bool, msgs []uint64) {
	g, st := e.g, e.fields[f.field]
	for v := lo; v < hi; v++ {
		nbrs := g.Adj[g.Offsets[v]:g.Offsets[v+1]]
		acc := st.get(int(v))
		switch {
		case f.float:
			// op is + (recogniseFold): float32 rounding at every step, as
			// the closures do.
			a := f32(acc)
			for _, u := range nbrs {
				if sent[u] {
					a += f32(msgs[u])
				}
			}
			acc = bits(a)
		case f.op == OpAdd:
			for _, u := range nbrs {
				if sent[u] {
					acc = (acc + msgs[u]) & f.mask
				}
			}
		case f.op == OpMin:
			for _, u := range nbrs {
				if sent[u] {
					acc = min(acc, msgs[u])
				}
			}
		default:
			for _, u := range nbrs {
				if sent[u] {
					acc = max(acc, msgs[u])
				}
			}
		}
		st.set(int(v), acc)
	}
}

// pull gathers the superstep's messages by pulling, on every worker.
func (e *engine) pull(senders []uint32, updates, messages []uint64) {
	f := e.fold
	if e.sent == nil {
		n := e.g.NumVertices()
		e.sent, e.msgDense = make([]bool, n), make([]uint64, n)
	}
	vals, stride := messages, len(e.k.Checked.MessageT)
	if e.k.scatterCopy {
		vals, stride = updates, e.nu
	}
	for i, u := range senders {
		e.sent[u] = true
		e.msgDense[u] = vals[i*stride+f.msg]
	}
	e.parallel(func(w *worker) { f.pullRange(e, w.lo, w.hi, e.sent, e.msgDense) })
	for _, u := range senders {
		e.sent[u] = false
	}
}
