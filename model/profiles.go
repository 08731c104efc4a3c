package model

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/gravf-tui/gravf-tui/graph"
)

// Profiles computes the profile of every design point of one graph and
// one activity on demand and keeps it: the prediction needs one per
// (nF, nP, design), the optimiser and the sweeps ask for the same ones
// again and again, and a keystroke that changes a bandwidth or the clock
// must not recompute any. It is safe for concurrent use; concurrent
// requests for the same profile compute it once.
type Profiles struct {
	g    *graph.Graph
	act  *Activity
	part graph.PartitionOptions // FPGAs and PEs are set per request
	// cachedOnly makes Get fail with ErrNotCached instead of computing.
	cachedOnly bool
	shared     *profilesState
}

// profilesState is what Profiles and its views share.
type profilesState struct {
	mu       sync.Mutex
	profiles map[profileKey]*profileEntry
	// parts keeps the most recent partitions (each costs about 10 bytes
	// per vertex), so that the variants of one design point (memory,
	// filter, PE design) partition once.
	parts []*graph.Partition
	// family holds the profiles of the same activity under every
	// partitioner (With).
	family *family
	// busiest holds, per partition (nF, nP), the fewest cycles of each
	// sender set's busiest PE (see busiest).
	busiest map[[2]int][]int64
}

type family struct {
	mu sync.Mutex
	m  map[graph.PartitionOptions]*Profiles
}

// ErrNotCached is Get's error for a profile that a cached-only view
// (CachedOnly) would have to compute.
var ErrNotCached = errors.New("profile not computed yet")

type profileKey struct {
	nF, nP int
	opt    ProfileOptions
}

type profileEntry struct {
	done chan struct{}
	p    *Profile
	err  error
}

// keptPartitions is how many partitions Profiles keeps.
const keptPartitions = 4

// NewProfiles prepares the profiles of activity act on graph g, with
// graphs partitioned as part says (its FPGAs and PEs are ignored).
func NewProfiles(g *graph.Graph, act *Activity, part graph.PartitionOptions) *Profiles {
	part.FPGAs, part.PEs = 0, 0
	fam := &family{m: map[graph.PartitionOptions]*Profiles{}}
	ps := &Profiles{g: g, act: act, part: part, shared: &profilesState{profiles: map[profileKey]*profileEntry{}, family: fam}}
	fam.m[part] = ps
	return ps
}

// CachedOnly returns a view of the same profiles whose Get never
// computes: it fails with ErrNotCached for a profile not computed yet. A
// front end uses it to tell whether an evaluation is quick.
func (ps *Profiles) CachedOnly() *Profiles {
	v := *ps
	v.cachedOnly = true
	return &v
}

// Activity returns the activity the profiles describe.
func (ps *Profiles) Activity() *Activity { return ps.act }

// Partitioner returns the partitioning method.
func (ps *Profiles) Partitioner() graph.Partitioner {
	if ps.part.Method == "" {
		return graph.Greedy
	}
	return ps.part.Method
}

// With returns the profiles of the same graph and activity under another
// partitioner; asking twice returns the same profiles.
func (ps *Profiles) With(method graph.Partitioner) *Profiles {
	o := ps.part
	o.Method = method
	fam := ps.shared.family
	fam.mu.Lock()
	defer fam.mu.Unlock()
	sib, ok := fam.m[o]
	if !ok {
		sib = &Profiles{g: ps.g, act: ps.act, part: o, shared: &profilesState{profiles: map[profileKey]*profileEntry{}, family: fam}}
		fam.m[o] = sib
	}
	if ps.cachedOnly {
		return sib.CachedOnly()
	}
	return sib
}

// Get returns the profile of nF x nP PEs under opt, computing it (and the
// partition) the first time, unless the activity's cache holds it (see
// ReferenceActivity), and then storing it there.
func (ps *Profiles) Get(ctx context.Context, nF, nP int, opt ProfileOptions) (*Profile, error) {
	key := profileKey{nF, nP, opt}
	st := ps.shared
	st.mu.Lock()
	e, ok := st.profiles[key]
	if !ok {
		if ps.cachedOnly {
			st.mu.Unlock()
			return nil, ErrNotCached
		}
		e = &profileEntry{done: make(chan struct{})}
		st.profiles[key] = e
	}
	st.mu.Unlock()
	if ok {
		if ps.cachedOnly {
			select {
			case <-e.done:
				return e.p, e.err
			default:
				return nil, ErrNotCached
			}
		}
		select {
		case <-e.done:
			return e.p, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if p, ok := ps.cachedProfile(nF, nP, opt); ok {
		e.p = p
		close(e.done)
		return e.p, nil
	}
	report := progressOf(ctx)
	pp := ProfileProgress{FPGAs: nF, PEs: nP, Partitioner: ps.Partitioner(), Total: len(ps.act.Sets)}
	if report != nil {
		report(pp)
	}
	part, err := ps.partition(ctx, nF, nP)
	if err == nil {
		var step func(done, total int)
		if report != nil {
			step = func(done, _ int) {
				pp.Done = done
				report(pp)
			}
		}
		e.p, e.err = newProfile(ctx, ps.g, part, ps.act, opt, step)
	} else {
		e.err = err
	}
	if e.err == nil {
		ps.storeProfile(nF, nP, opt, e.p)
	}
	if ctx.Err() != nil {
		// A cancelled computation is not remembered.
		st.mu.Lock()
		delete(st.profiles, key)
		st.mu.Unlock()
	}
	close(e.done)
	return e.p, e.err
}

// partition returns the partition for nF x nP, reusing a recent one.
func (ps *Profiles) partition(ctx context.Context, nF, nP int) (*graph.Partition, error) {
	st := ps.shared
	st.mu.Lock()
	for _, p := range st.parts {
		if p.FPGAs == nF && p.PEs == nP {
			st.mu.Unlock()
			return p, nil
		}
	}
	st.mu.Unlock()
	o := ps.part
	o.FPGAs, o.PEs = nF, nP
	p, err := graph.NewPartition(ctx, ps.g, o)
	if err != nil {
		return nil, fmt.Errorf("partition for the prediction: %w", err)
	}
	ps.Use(p)
	return p, nil
}

// fullest returns the number of vertices of the fullest PE of the
// partition for nF x nP, partitioning (and keeping the partition for the
// profile) when needed: a cheap refinement of the optimiser's ceiling.
func (ps *Profiles) fullest(ctx context.Context, nF, nP int) (int, error) {
	part, err := ps.partition(ctx, nF, nP)
	if err != nil {
		return 0, err
	}
	return fullestPE(part), nil
}

// busiest returns, for every sender set of the activity, the cycles the
// most loaded PE of the partition for nF x nP needs at the least: its
// apply sweep and barrier marker, one cycle per vertex and one more, and
// then one cycle per message it gathers, the arcs from the set's senders
// into its vertices (the recursion starts a PE's gather after its own
// sweep and issues one message per cycle at most). It reads the set's
// arcs once, or, for a set of every vertex of an undirected graph, each
// vertex's degree: a cheap refinement of the ceiling where the partition loads a PE more
// than the mean (greedy-sorted keeps the vertices balanced but not the
// edges: on rmat:scale=20 at 4 x 9 its busiest PE holds 1.43 times the
// mean).
func (ps *Profiles) busiest(ctx context.Context, nF, nP int) ([]int64, error) {
	part, err := ps.partition(ctx, nF, nP)
	if err != nil {
		return nil, err
	}
	st := ps.shared
	st.mu.Lock()
	b, ok := st.busiest[[2]int{nF, nP}]
	st.mu.Unlock()
	if ok {
		return b, nil
	}
	b = make([]int64, len(ps.act.Sets))
	msgs := make([]int64, part.NumPEs())
	for i, set := range ps.act.Sets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		clear(msgs)
		countMessages(ps.g, part, set, msgs)
		for q, m := range part.Members {
			b[i] = max(b[i], int64(len(m))+1+msgs[q])
		}
	}
	st.mu.Lock()
	if st.busiest == nil {
		st.busiest = map[[2]int][]int64{}
	}
	st.busiest[[2]int{nF, nP}] = b
	st.mu.Unlock()
	return b, nil
}

// countMessages adds to msgs[q] the arcs from the senders into PE q's
// vertices.
func countMessages(g *graph.Graph, part *graph.Partition, senders []uint32, msgs []int64) {
	if len(senders) == g.NumVertices() && !g.Directed {
		// Every vertex sends and every arc has its reverse: a vertex
		// receives one message per arc of its own.
		for v, q := range part.PE {
			msgs[q] += int64(g.Offsets[v+1] - g.Offsets[v])
		}
		return
	}
	// Pieces of senders on every core, each counting into its own
	// array; the sums do not depend on who counted what.
	const piece = 1 << 12
	var mu sync.Mutex
	inPieces(runtime.GOMAXPROCS(0), (len(senders)+piece-1)/piece, func(take func() (int, bool)) {
		own := make([]int64, len(msgs))
		for i, ok := take(); ok; i, ok = take() {
			for _, u := range senders[i*piece : min((i+1)*piece, len(senders))] {
				for _, v := range g.Neighbors(u) {
					own[part.PE[v]]++
				}
			}
		}
		mu.Lock()
		for q, n := range own {
			msgs[q] += n
		}
		mu.Unlock()
	})
}

// Use gives the profiles a partition made elsewhere (the simulator's),
// so that they do not make it again; it must be the partition the
// profiles' partitioner makes.
func (ps *Profiles) Use(p *graph.Partition) {
	st := ps.shared
	st.mu.Lock()
	defer st.mu.Unlock()
	st.parts = append(st.parts, p)
	if len(st.parts) > keptPartitions {
		st.parts = st.parts[1:]
	}
}

// Len returns the number of profiles computed so far.
func (ps *Profiles) Len() int {
	ps.shared.mu.Lock()
	defer ps.shared.mu.Unlock()
	return len(ps.shared.profiles)
}

// ProfileProgress is how far the computation of one profile has come:
// its design point and how many of the reference run's distinct sender
// sets (Total) are done (Done; 0 while partitioning).
type ProfileProgress struct {
	FPGAs, PEs  int
	Partitioner graph.Partitioner
	Done, Total int
}

// String says it in words, for a status line.
func (p ProfileProgress) String() string {
	if p.Done == 0 {
		return fmt.Sprintf("prediction: profile of %d FPGAs x %d PEs (%s partition)", p.FPGAs, p.PEs, p.Partitioner)
	}
	return fmt.Sprintf("prediction: profile of %d FPGAs x %d PEs (%s partition), %d of %d sender sets", p.FPGAs, p.PEs, p.Partitioner, p.Done, p.Total)
}

type progressKey struct{}

// WithProfileProgress returns a context under which every profile that
// Profiles.Get computes reports to fn as it goes (the prediction's
// profiles are its long step: a front end shows them). fn is called from
// one goroutine at a time per profile.
func WithProfileProgress(ctx context.Context, fn func(ProfileProgress)) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

func progressOf(ctx context.Context) func(ProfileProgress) {
	fn, _ := ctx.Value(progressKey{}).(func(ProfileProgress))
	return fn
}
