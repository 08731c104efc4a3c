package model

import (
	"context"
	"hash/maphash"
	"slices"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// Activity is what the BSP reference engine did in every superstep, as
// the prediction needs it: which vertices sent an update. The counts of
// kernel.Superstep are not enough once the partition matters: which PE
// holds the edges of this superstep's senders, and which PE receives
// their messages, decides the most loaded PE and the hub hazards.
//
// Sender sets are stored once: PageRank sends from every vertex in every
// superstep but the last, so its thirty supersteps share one set, and
// everything derived from a set (Shape) is computed once per set. An
// Activity depends on the graph and the kernel only, so callers compute
// it once per (graph, kernel) and share it between design points; it is
// read-only once recorded.
type Activity struct {
	// Steps lists every superstep, including the last, silent one.
	Steps []ActiveStep
	// Sets are the distinct sender sets, each in ascending vertex order.
	Sets [][]uint32

	seed  maphash.Seed
	index map[uint64][]int // hash of a set -> indices into Sets; nil: not built

	// store and key, when store is set, say where the activity and its
	// profiles are cached (ReferenceActivity).
	store *diskcache.Store
	key   diskcache.Key
}

// ActiveStep is one superstep of the reference run.
type ActiveStep struct {
	// Set indexes Activity.Sets; -1 when no vertex sent.
	Set int `json:"set"`
	// Active is the number of senders, Messages the traversed edges.
	Active   int   `json:"active"`
	Messages int64 `json:"messages"`
}

// NewActivity returns an empty activity ready to record (its index of
// sets is built by the first Record, so that a decoded activity needs
// none until it records).
func NewActivity() *Activity {
	return &Activity{seed: maphash.MakeSeed()}
}

// Record adds superstep s with its senders (ascending, as
// kernel.RunOptions.Senders delivers them; the slice is copied when it is
// new) and the messages they produce. It fits RunOptions.Senders once the
// graph's degrees are at hand: see Recorder.
func (a *Activity) Record(s int, senders []uint32, messages int64) {
	st := ActiveStep{Set: -1, Active: len(senders), Messages: messages}
	if len(senders) > 0 {
		st.Set = a.intern(senders)
	}
	for len(a.Steps) < s {
		a.Steps = append(a.Steps, ActiveStep{Set: -1})
	}
	a.Steps = append(a.Steps[:s], st)
}

// intern returns the index of an equal stored set, storing a copy when
// there is none.
func (a *Activity) intern(senders []uint32) int {
	if a.index == nil {
		a.index = map[uint64][]int{}
		for i, s := range a.Sets {
			k := a.hash(s)
			a.index[k] = append(a.index[k], i)
		}
	}
	key := a.hash(senders)
	for _, i := range a.index[key] {
		if slices.Equal(a.Sets[i], senders) {
			return i
		}
	}
	a.Sets = append(a.Sets, slices.Clone(senders))
	i := len(a.Sets) - 1
	a.index[key] = append(a.index[key], i)
	return i
}

// hash hashes a sender set under the activity's seed.
func (a *Activity) hash(senders []uint32) uint64 {
	var h maphash.Hash
	h.SetSeed(a.seed)
	buf := make([]byte, 0, 4*256)
	for i, v := range senders {
		buf = append(buf, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		if len(buf) == cap(buf) || i == len(senders)-1 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	return h.Sum64()
}

// Recorder returns a kernel.RunOptions.Senders callback that records into
// a; degree gives a vertex's out-degree (its messages).
func (a *Activity) Recorder(degree func(v uint32) int) func(int, []uint32) {
	return func(s int, senders []uint32) {
		var m int64
		for _, u := range senders {
			m += int64(degree(u))
		}
		a.Record(s, senders, m)
	}
}

// Supersteps returns the per-superstep counts in the reference engine's
// form.
func (a *Activity) Supersteps() []kernel.Superstep {
	out := make([]kernel.Superstep, len(a.Steps))
	for i, s := range a.Steps {
		out[i] = kernel.Superstep{Index: i, Active: s.Active, Messages: s.Messages}
	}
	return out
}

// Messages returns the traversed edges of the whole run.
func (a *Activity) Messages() int64 {
	var m int64
	for _, s := range a.Steps {
		m += s.Messages
	}
	return m
}

// MemoryBytes is the space the stored sets take.
func (a *Activity) MemoryBytes() int {
	n := 0
	for _, s := range a.Sets {
		n += 4 * len(s)
	}
	return n
}

// RecordActivity runs the BSP reference engine on g and records its
// activity; opt's own Senders callback, if any, is called too.
func RecordActivity(ctx context.Context, k *kernel.Kernel, g *graph.Graph, opt kernel.RunOptions) (*Activity, *kernel.Result, error) {
	a := NewActivity()
	rec := a.Recorder(g.OutDegree)
	if next := opt.Senders; next != nil {
		opt.Senders = func(s int, senders []uint32) {
			rec(s, senders)
			next(s, senders)
		}
	} else {
		opt.Senders = rec
	}
	res, err := kernel.Run(ctx, k, g, opt)
	if err != nil {
		return nil, nil, err
	}
	return a, res, nil
}
