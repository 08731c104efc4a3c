package model

import (
	"context"
	"encoding/json"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// activityKind is the cache folder of reference runs; activityLayout, the
// key's first field, names the layout of encodeActivity, so that a new
// layout is a new key.
const (
	activityKind   = "activity"
	activityLayout = "activity v1"
)

// ReferenceActivity returns the activity of the BSP reference run of k on
// g: derived from the graph when k's send reads only the superstep
// (deriveActivity: one pass over the vertices, not worth a cache entry),
// else read from store when it holds one for this graph, kernel and
// superstep limit, else recorded (RecordActivity) and stored. The
// activity remembers store and its key, so that the profiles made of it
// (NewProfiles) are cached too. opt.Progress and opt.Senders see every
// superstep either way. A nil store records without a cache; a run that
// fails (a superstep limit reached) is never stored.
func ReferenceActivity(ctx context.Context, k *kernel.Kernel, g *graph.Graph, opt kernel.RunOptions, store *diskcache.Store) (*Activity, error) {
	var key diskcache.Key
	if store != nil {
		var err error
		if key, err = activityKey(k, g, opt.MaxSupersteps); err != nil {
			store = nil // a kernel the key cannot describe is not cached
		}
	}
	if a, ok := deriveActivity(ctx, k, g, opt.MaxSupersteps); ok {
		if store != nil {
			a.store, a.key = store, key
		}
		a.replay(opt)
		return a, nil
	}
	if data, ok := store.Get(activityKind, key); ok {
		if a, err := decodeActivity(data, g); err == nil {
			a.store, a.key = store, key
			a.replay(opt)
			return a, nil
		}
	}
	a, _, err := RecordActivity(ctx, k, g, opt)
	if err != nil {
		return nil, err
	}
	if store != nil {
		_ = store.Put(activityKind, key, encodeActivity(a))
		a.store, a.key = store, key
	}
	return a, nil
}

// deriveActivity returns the activity of a kernel whose send reads only
// the superstep (kernel.SendsBySuperstep) without running it: every
// vertex sends in the supersteps in which it says so, up to the first in
// which it does not, which is the run's last (as the engine's run ends
// after the first superstep without a sender), and those supersteps share
// one set. It reports false for any other kernel, for a run that would
// reach the superstep limit, which the engine reports as its error, and
// once ctx is cancelled (a limit of millions of supersteps takes a second
// per million to reach).
func deriveActivity(ctx context.Context, k *kernel.Kernel, g *graph.Graph, maxSupersteps int) (*Activity, bool) {
	sends, ok := k.SendsBySuperstep()
	if !ok {
		return nil, false
	}
	n := g.NumVertices()
	if maxSupersteps <= 0 {
		maxSupersteps = kernel.DefaultMaxSupersteps(n)
	}
	last := 0 // the first superstep in which no vertex sends
	for n > 0 && sends(last) {
		if last++; last == maxSupersteps || last%(1<<12) == 0 && ctx.Err() != nil {
			return nil, false
		}
	}
	a := NewActivity()
	if last > 0 {
		all := make([]uint32, n)
		var m int64
		for v := range all {
			all[v] = uint32(v)
			m += int64(g.OutDegree(uint32(v)))
		}
		a.Sets = [][]uint32{all}
		for range last {
			a.Steps = append(a.Steps, ActiveStep{Set: 0, Active: n, Messages: m})
		}
	}
	a.Steps = append(a.Steps, ActiveStep{Set: -1})
	return a, true
}

// activityKey hashes what a reference run depends on: the graph's
// structure and how its weights read, the bound kernel (its spec as
// checked, with the parameters' values), and the superstep limit.
func activityKey(k *kernel.Kernel, g *graph.Graph, maxSupersteps int) (diskcache.Key, error) {
	spec := *k.Spec
	spec.File, spec.Doc = "", "" // names and prose do not change a run
	kj, err := json.Marshal(struct {
		Spec     *kernel.Spec
		Checked  *kernel.Checked
		Vertices int
	}{&spec, k.Checked, k.Vertices})
	if err != nil {
		return diskcache.Key{}, err
	}
	sum := g.SHA256()
	h := diskcache.NewKeyHash(activityLayout).Bytes(sum[:]).Bytes(kj).Int(int64(maxSupersteps))
	if g.FloatWeights {
		h.String("float weights")
	}
	return h.Sum(), nil
}

// replay calls opt's callbacks as the reference run would have.
func (a *Activity) replay(opt kernel.RunOptions) {
	for i, s := range a.Steps {
		if opt.Senders != nil {
			var set []uint32
			if s.Set >= 0 {
				set = a.Sets[s.Set]
			}
			opt.Senders(i, set)
		}
		if opt.Progress != nil {
			opt.Progress(kernel.Superstep{Index: i, Active: s.Active, Messages: s.Messages})
		}
	}
}

// encodeActivity writes the sets (ascending vertices as gaps) and every
// step's set; the counts are the graph's and are derived again.
func encodeActivity(a *Activity) []byte {
	var e encoder
	e.uint(uint64(len(a.Sets)))
	for _, s := range a.Sets {
		e.uint(uint64(len(s)))
		prev := int64(-1)
		for _, v := range s {
			e.uint(uint64(int64(v) - prev - 1))
			prev = int64(v)
		}
	}
	e.uint(uint64(len(a.Steps)))
	for _, s := range a.Steps {
		e.int(int64(s.Set))
	}
	return e.b
}

// decodeActivity reads encodeActivity's form for graph g, checking every
// vertex and set index, and derives the counts from g's degrees.
func decodeActivity(data []byte, g *graph.Graph) (*Activity, error) {
	d := decoder{b: data}
	nv := int64(g.NumVertices())
	a := NewActivity()
	a.Sets = make([][]uint32, d.count(1))
	msgs := make([]int64, len(a.Sets))
	for i := range a.Sets {
		set := make([]uint32, d.count(1))
		if len(set) == 0 {
			d.fail() // Record keeps no empty set
		}
		prev := int64(-1)
		for j := range set {
			gap := d.uint()
			if gap >= uint64(nv) || prev+1+int64(gap) >= nv {
				d.fail()
				break
			}
			prev += 1 + int64(gap)
			set[j] = uint32(prev)
			msgs[i] += int64(g.OutDegree(set[j]))
		}
		a.Sets[i] = set
	}
	a.Steps = make([]ActiveStep, d.count(1))
	for i := range a.Steps {
		set := int(d.intIn(-1, int64(len(a.Sets))-1))
		st := ActiveStep{Set: set}
		if d.err == nil && set >= 0 {
			st.Active, st.Messages = len(a.Sets[set]), msgs[set]
		}
		a.Steps[i] = st
	}
	if err := d.end(); err != nil {
		return nil, err
	}
	return a, nil
}
