package kernel

// SendsBySuperstep reports whether apply's send reads nothing but the
// superstep, the parameters and constants (directly or through its let
// bindings): every vertex then sends in the same supersteps, whatever its
// state, and sends tells which. PageRank's `send = superstep < iterations`
// is such a kernel; which vertices send in each superstep of its run is
// known without running it, which the model's prediction uses (it needs
// the senders of every superstep, not the states).
func (k *Kernel) SendsBySuperstep() (sends func(superstep int) bool, ok bool) {
	p := k.Checked.Apply
	if p == nil {
		return nil, false
	}
	// The send is judged with the bindings before it.
	lets := map[int]*Node{}
	judged := false
	for _, st := range p.Stmts {
		switch st.Kind {
		case TargetLocal:
			lets[st.Index] = st.Value
		case TargetSend:
			judged, ok = true, bySuperstep(st.Value, lets, map[int]bool{})
		}
	}
	if !judged || !ok {
		return nil, false
	}
	c := k.NewCtx()
	state := make([]uint64, len(k.Checked.VertexT))
	upd := make([]uint64, len(k.Checked.UpdateT))
	return func(s int) bool {
		// Any vertex gives the answer: a zero state and id will do.
		clear(state)
		c.Superstep = uint64(s)
		return k.Apply(c, state, upd)
	}, true
}

// bySuperstep reports whether n reads no input but the superstep, through
// the let bindings lets; seen remembers the bindings already judged, so
// that a chain of bindings each read twice costs its length.
func bySuperstep(n *Node, lets map[int]*Node, seen map[int]bool) bool {
	if n.Op == OpRef {
		switch n.Ref {
		case RefSuperstep:
			return true
		case RefLocal:
			if r, ok := seen[n.Index]; ok {
				return r
			}
			v, ok := lets[n.Index]
			r := ok && bySuperstep(v, lets, seen)
			seen[n.Index] = r
			return r
		}
		return false
	}
	for _, a := range n.Args {
		if !bySuperstep(a, lets, seen) {
			return false
		}
	}
	return true
}
