package model

import (
	"context"
	"fmt"
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

	mu       sync.Mutex
	profiles map[profileKey]*profileEntry
	// parts keeps the most recent partitions (each costs about 10 bytes
	// per vertex), so that the variants of one design point (memory,
	// filter, PE design) partition once.
	parts []*graph.Partition
}

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
	return &Profiles{g: g, act: act, part: part, profiles: map[profileKey]*profileEntry{}}
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

// With returns profiles of the same graph and activity under another
// partitioner (no profile is shared with ps).
func (ps *Profiles) With(method graph.Partitioner) *Profiles {
	o := ps.part
	o.Method = method
	return NewProfiles(ps.g, ps.act, o)
}

// Get returns the profile of nF x nP PEs under opt, computing it (and the
// partition) the first time.
func (ps *Profiles) Get(ctx context.Context, nF, nP int, opt ProfileOptions) (*Profile, error) {
	key := profileKey{nF, nP, opt}
	ps.mu.Lock()
	e, ok := ps.profiles[key]
	if !ok {
		e = &profileEntry{done: make(chan struct{})}
		ps.profiles[key] = e
	}
	ps.mu.Unlock()
	if ok {
		select {
		case <-e.done:
			return e.p, e.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	part, err := ps.partition(ctx, nF, nP)
	if err == nil {
		e.p, e.err = NewProfile(ps.g, part, ps.act, opt)
	} else {
		e.err = err
	}
	if ctx.Err() != nil {
		// A cancelled computation is not remembered.
		ps.mu.Lock()
		delete(ps.profiles, key)
		ps.mu.Unlock()
	}
	close(e.done)
	return e.p, e.err
}

// partition returns the partition for nF x nP, reusing a recent one.
func (ps *Profiles) partition(ctx context.Context, nF, nP int) (*graph.Partition, error) {
	ps.mu.Lock()
	for _, p := range ps.parts {
		if p.FPGAs == nF && p.PEs == nP {
			ps.mu.Unlock()
			return p, nil
		}
	}
	ps.mu.Unlock()
	o := ps.part
	o.FPGAs, o.PEs = nF, nP
	p, err := graph.NewPartition(ctx, ps.g, o)
	if err != nil {
		return nil, fmt.Errorf("partition for the prediction: %w", err)
	}
	ps.mu.Lock()
	ps.parts = append(ps.parts, p)
	if len(ps.parts) > keptPartitions {
		ps.parts = ps.parts[1:]
	}
	ps.mu.Unlock()
	return p, nil
}

// Len returns the number of profiles computed so far.
func (ps *Profiles) Len() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return len(ps.profiles)
}
