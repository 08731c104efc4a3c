package sim

import (
	"context"
	"errors"
	"math"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// fastRounds is what both fast models keep of the reference engine's
// supersteps: each round's senders by PE (roundSenders), how many rounds
// have arrived, and per round the count of senders and messages and the
// cycle the first PE began its apply sweep.
type fastRounds struct {
	part     *graph.Partition
	senders  map[int][][]uint32
	known    int
	starts   []int64
	active   []int64
	messages []int64
	finished int // PEs that have terminated
	// The delays of a kernel's globals (see globals): the fold of a PE's
	// lanes holds its barrier marker (mark), the fold of every PE's
	// partial holds the next apply sweep (fold); zero without globals.
	mark, fold int64
}

func newFastRounds(s *Setup) fastRounds {
	fr := fastRounds{part: s.partition, senders: map[int][][]uint32{}, starts: []int64{0}}
	if g := newGlobals(s.Kernel, len(s.partition.Members)); g != nil {
		fr.mark, fr.fold = g.markerDelay(), g.foldDelay(len(s.partition.Members))
	}
	return fr
}

// roundSenders is one round's senders as the update queues read them:
// byPE[pe] holds the local indices of PE pe's senders, ascending (every
// PE sweeps its vertices in that order), all in one array; messages is
// the sum of their out-degrees.
type roundSenders struct {
	byPE     [][]uint32
	active   int
	messages int64
}

// newRoundSenders sorts the reference engine's senders of a round
// (ascending ids, so each PE's are in local order) by PE. It runs on the
// engine's goroutine and is the only copy of its senders that the timing
// keeps (the engine reuses its array in the next superstep).
func newRoundSenders(part *graph.Partition, g *graph.Graph, senders []uint32) roundSenders {
	nPE := len(part.Members)
	at := make([]int, nPE+1)
	for _, u := range senders {
		at[part.PE[u]+1]++
	}
	for pe := range nPE {
		at[pe+1] += at[pe]
	}
	local := make([]uint32, len(senders))
	rs := roundSenders{byPE: make([][]uint32, nPE), active: len(senders)}
	for pe := range nPE {
		rs.byPE[pe] = local[at[pe]:at[pe]:at[pe+1]]
	}
	for _, u := range senders {
		pe := part.PE[u]
		rs.byPE[pe] = append(rs.byPE[pe], part.Local[u])
		rs.messages += int64(g.OutDegree(u))
	}
	return rs
}

// add stores round r's senders and forgets rounds no PE can still need.
func (fr *fastRounds) add(r int, rs roundSenders) {
	fr.senders[r] = rs.byPE
	fr.known = r + 1
	fr.active = append(fr.active, int64(rs.active))
	fr.messages = append(fr.messages, rs.messages)
	for k := range fr.senders {
		if k < r-2 {
			delete(fr.senders, k)
		}
	}
}

// fill gives the update queue of PE pe its round's senders once they have
// arrived; it reports whether the queue has them.
func (fr *fastRounds) fill(u *fxQueue, pe int) bool {
	if u.known {
		return true
	}
	byPE, ok := fr.senders[u.round]
	if !ok {
		return false
	}
	u.known, u.local, u.pos = true, byPE[pe], 0
	u.setHead()
	return true
}

// started records that a PE began round r's apply sweep in cycle at, and
// returns the PE's update queue for the round (ready once filled).
func (fr *fastRounds) started(r, pe int, at int64, p *Params) fxQueue {
	fr.began(r, at)
	return fr.queue(r, pe, at, p)
}

// began records that some PE began round r's apply sweep in cycle at.
func (fr *fastRounds) began(r int, at int64) {
	for len(fr.starts) <= r {
		fr.starts = append(fr.starts, math.MaxInt64)
	}
	fr.starts[r] = min(fr.starts[r], at)
}

// queue returns PE pe's update queue for round r, whose sweep began in
// cycle at (ready once filled).
func (fr *fastRounds) queue(r, pe int, at int64, p *Params) fxQueue {
	m := fr.part.Members[pe]
	return fxQueue{round: r, applyAt: at, barrier: true, vertices: m, members: len(m), al: int64(p.ApplyLatency), mark: fr.mark, pe: pe}
}

// firstQueue is PE pe's update queue for round 0, whose sweep starts in
// cycle 0.
func (fr *fastRounds) firstQueue(pe int, p *Params) fxQueue { return fr.queue(0, pe, -1, p) }

// steps lists the supersteps of a fast run of the given cycles: superstep
// i starts with the first PE's apply sweep of round i and lasts until the
// next starts (the last until the end of the run).
func (fr *fastRounds) steps(r *Result) {
	for i := range fr.active {
		st := Superstep{Index: i, Active: fr.active[i], Messages: fr.messages[i], Start: r.Cycles}
		if i < len(fr.starts) {
			st.Start = min(fr.starts[i], r.Cycles)
		}
		r.PerSuperstep = append(r.PerSuperstep, st)
		r.Messages += st.Messages
	}
	for i := range r.PerSuperstep {
		end := r.Cycles
		if i+1 < len(r.PerSuperstep) {
			end = r.PerSuperstep[i+1].Start
		}
		r.PerSuperstep[i].Cycles = end - r.PerSuperstep[i].Start
	}
	r.Supersteps = len(r.PerSuperstep)
}

// runReference runs the reference engine on its own goroutine, a superstep
// or two ahead of the timing, which step consumes in order (its first
// error stops the engine); the timing depends only on that order, so a
// run is the same on one core or two. finish runs after the last
// superstep.
func runReference(ctx context.Context, s *Setup, step func(r int, rs roundSenders) error, finish func() error) (*kernel.Result, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type round struct {
		r       int
		senders roundSenders
	}
	rounds := make(chan round, 2)
	type outcome struct {
		ref *kernel.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		ref, err := kernel.Run(ctx, s.Kernel, s.Graph, kernel.RunOptions{Senders: func(r int, senders []uint32) {
			select {
			case rounds <- round{r, newRoundSenders(s.partition, s.Graph, senders)}:
			case <-ctx.Done():
			}
		}, MaxSupersteps: s.maxSupersteps()})
		close(rounds)
		done <- outcome{ref, err}
	}()
	var stepErr error
	for rd := range rounds {
		if stepErr == nil {
			if stepErr = step(rd.r, rd.senders); stepErr != nil {
				cancel() // the engine stops at its next superstep
			}
		}
	}
	out := <-done
	var le *kernel.LimitError
	switch {
	case stepErr != nil:
		return nil, stepErr
	case errors.As(out.err, &le):
		// Stopped at the superstep limit: deliver what the last superstep
		// sent, with no senders after it, and return the partial result
		// with the limit error.
		if err := step(le.Limit, newRoundSenders(s.partition, s.Graph, nil)); err != nil {
			return nil, err
		}
	case out.err != nil:
		return nil, out.err
	}
	if err := finish(); err != nil {
		return nil, err
	}
	return out.ref, out.err
}

// allDone reports whether every PE has terminated.
func (fr *fastRounds) allDone() bool { return fr.finished == len(fr.part.Members) }

// check is what both fast models do on every step of their loops: stop
// at the cycle limit, and every 65,536 steps look for cancellation and
// report progress.
func (fr *fastRounds) check(ctx context.Context, s *Setup, iter int, now int64) error {
	if iter&0xFFFF == 0 {
		if err := ctx.Err(); err != nil {
			return &StopError{Reason: StopInterrupted, Cycle: now, Superstep: len(fr.starts) - 1, Err: err}
		}
		if s.Progress != nil {
			s.Progress(Progress{Cycle: now, Superstep: len(fr.starts) - 1})
		}
	}
	if s.MaxCycles > 0 && now >= s.MaxCycles {
		return &StopError{Reason: StopCycleLimit, Limit: s.MaxCycles, Cycle: now, Superstep: len(fr.starts) - 1}
	}
	return nil
}

// fastStats is a PE's cycle breakdown at fast detail: the causes it
// follows (busy, apply, hazard), the cycles after it terminated, and the
// rest as waiting on barriers.
func fastStats(msgs, apply, stalls, words, doneAt, cycles int64) PEStats {
	st := PEStats{Busy: msgs, Messages: msgs, Apply: apply, Hazard: stalls, MemWords: words, Done: cycles - 1 - doneAt}
	if used := st.Apply + st.Busy + st.Hazard + st.Done; used < cycles {
		st.Barrier = cycles - used
	}
	return st
}
