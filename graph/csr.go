package graph

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
)

// The CSR arrays are built by counting sorts instead of one scatter and a
// comparison sort of every list. A directed graph takes two: the first
// files each arc s->t under its target t (the in-lists, in any order), the
// second walks the targets in ascending order and appends t to the
// out-list of every s filed under it, so that every out-list comes out
// sorted with its duplicates adjacent. An undirected graph takes one and a
// half (buildSymmetric): each edge is filed once, under its smaller end,
// and each vertex's list is then its smaller neighbours followed by its
// larger ones, both sorted, the second a local sort of what was filed
// under it, the first filled by walking the vertices in ascending order.
// That moves each arc once at random instead of twice, the cost of a build
// (a random write misses the caches), and needs half an array of arcs
// while it runs instead of a whole one.
// Each pass is a scatter over flat arrays, split across the cores, each
// goroutine with its own per-vertex write positions (the prefix of the
// earlier goroutines' counts), so that the result is the one a single
// goroutine would make.

// csrParts is the number of goroutines a build of arcs arcs uses: each
// holds a per-vertex position array, so small graphs use one.
func csrParts(arcs int) int {
	return max(1, min(runtime.GOMAXPROCS(0), 8, arcs/(1<<16)))
}

// crew runs one stage of a build on several goroutines and shares its
// progress: only goroutine 0, which is the caller's, reports to the watch
// (a watch is not safe for concurrent use); the others stop at its word.
type crew struct {
	w     *watch
	stage string
	total int64
	done  atomic.Int64
	stop  atomic.Bool
}

// run calls fn(k) for k in [0, parts), fn(0) on the calling goroutine, and
// waits for all; it reports false when the watch stopped the stage.
func (c *crew) run(parts int, fn func(k int)) bool {
	var wg sync.WaitGroup
	for k := 1; k < parts; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(k)
		}()
	}
	fn(0)
	wg.Wait()
	return !c.stop.Load()
}

// step records that goroutine k did n more units; it reports whether to go
// on.
func (c *crew) step(k, n int) bool {
	d := c.done.Add(int64(n))
	if k == 0 && !c.w.at(c.stage, min(d, c.total), c.total) {
		c.stop.Store(true)
	}
	return !c.stop.Load()
}

// splitEven cuts [0, n) into parts ranges of about equal length.
func splitEven(n, parts int) []int {
	bounds := make([]int, parts+1)
	for k := range bounds {
		bounds[k] = int(int64(n) * int64(k) / int64(parts))
	}
	return bounds
}

// splitByOffsets cuts the vertex range into parts ranges of about equal
// arc counts under the offsets off.
func splitByOffsets(off []uint32, parts int) []int {
	n := len(off) - 1
	bounds := make([]int, parts+1)
	v := 0
	for k := 1; k < parts; k++ {
		target := uint32(int64(off[n]) * int64(k) / int64(parts))
		for v < n && off[v] < target {
			v++
		}
		bounds[k] = v
	}
	bounds[parts] = n
	return bounds
}

// csrBuild is the state of one Build: the per-goroutine position arrays
// and the progress of the stage.
type csrBuild struct {
	n, parts int
	pos      [][]uint32
	crew     *crew
}

// positions turns per-goroutine counts into write positions: goroutine k
// writes vertex v's entries from off[v] plus the counts of goroutines
// before it. It fills off (n+1 entries) and reports false when the total
// exceeds the 32-bit arc range.
func (c *csrBuild) positions(off []uint32) bool {
	total := uint64(0)
	for v := range c.n {
		off[v] = uint32(total)
		for k := range c.parts {
			x := c.pos[k][v]
			c.pos[k][v] = uint32(total)
			total += uint64(x)
		}
		if total > math.MaxUint32 {
			return false
		}
	}
	off[c.n] = uint32(total)
	return true
}

func (c *csrBuild) clearCounts() {
	for _, p := range c.pos {
		clear(p)
	}
}

// buildCSR makes g's Offsets, Adj and Weights from b's edges, dropping
// self-loops (when the edges may hold them) and duplicates (keeping the
// smallest weight).
func (b *Builder) buildCSR(g *Graph) error {
	if !b.directed {
		return b.buildSymmetric(g)
	}
	edges := len(b.e) / 2
	parts := csrParts(edges)
	c := b.newCSRBuild(parts)
	ebounds := splitEven(edges, parts)
	in, tmp, tmpW, err := b.fileEdges(g, c, ebounds, false)
	if err != nil {
		return err
	}
	arcs := int(in[b.n])
	// The edge pairs are read: the weights take the place of the
	// edges' weights.
	adj := make([]uint32, arcs)
	var wt []uint32
	if b.weighted {
		wt = reuse(b.w, arcs)
	}
	b.e, b.w = nil, nil
	off := make([]uint32, b.n+1)
	tbounds := splitByOffsets(in, parts)
	c.clearCounts()
	if !c.crew.run(parts, func(k int) { c.countSources(k, in, tmp, tbounds) }) {
		return b.watch.err
	}
	c.positions(off)
	if !c.crew.run(parts, func(k int) { c.fileBySource(k, in, tmp, tmpW, tbounds, adj, wt) }) {
		return b.watch.err
	}
	c.pos = nil
	g.Duplicates = dedupLists(off, &adj, &wt)
	g.Offsets, g.Adj, g.Weights = off, adj, wt
	return nil
}

// newCSRBuild starts a build of the builder's edges in parts pieces.
func (b *Builder) newCSRBuild(parts int) *csrBuild {
	return &csrBuild{n: b.n, parts: parts, pos: make([][]uint32, parts),
		crew: &crew{w: b.watch, stage: "building the adjacency lists", total: int64(2 * len(b.e))}}
}

// fileEdges is the first pass of both builds, on every core: count the
// entries each part of the edges files per vertex (filedUnder; lower for
// the undirected build), lay the counts out as offsets and file every
// entry and weight at them.
func (b *Builder) fileEdges(g *Graph, c *csrBuild, ebounds []int, lower bool) (off, dst, dstW []uint32, err error) {
	if !c.start() {
		return nil, nil, nil, b.watch.err
	}
	loops := make([]int, c.parts)
	if !c.crew.run(c.parts, func(k int) { loops[k] = c.countFiled(k, b.e, ebounds, lower) }) {
		return nil, nil, nil, b.watch.err
	}
	for _, l := range loops {
		b.selfLoops += l
	}
	off = make([]uint32, b.n+1)
	if !c.positions(off) {
		return nil, nil, nil, fmt.Errorf("graph %s: %d edges exceed the 32-bit arc range", g.Name, len(b.e)/2)
	}
	dst = make([]uint32, off[b.n])
	if b.weighted {
		dstW = make([]uint32, off[b.n])
	}
	if !c.crew.run(c.parts, func(k int) { c.fileFiled(k, b.e, b.w, ebounds, dst, dstW, lower) }) {
		return nil, nil, nil, b.watch.err
	}
	return off, dst, dstW, nil
}

// start reports the stage at once and makes the per-goroutine position
// arrays: the workers' own reports count from what all of them did and are
// spaced in time, so the first may come after the stage is over.
func (c *csrBuild) start() bool {
	if !c.crew.w.at(c.crew.stage, 0, c.crew.total) {
		return false
	}
	for k := range c.pos {
		c.pos[k] = make([]uint32, c.n)
	}
	return true
}

// buildSymmetric is buildCSR for an undirected graph. Vertex v's list is
// its lower part (the neighbours u < v) followed by its upper part (u > v).
// Each edge {u, v} with u < v is filed once, under u (the upper lists up,
// in any order). Walking the vertices in ascending order, each u sorts its
// upper list in place (it is short and now in cache), copies it into its
// upper part, and appends u to the lower part of every neighbour in it: the
// lower parts fill in ascending order, as the upper parts are sorted, and
// each list comes out sorted with its duplicates adjacent.
func (b *Builder) buildSymmetric(g *Graph) error {
	edges := len(b.e) / 2
	parts := csrParts(2 * edges)
	c := b.newCSRBuild(parts)
	ebounds := splitEven(edges, parts)
	upOff, up, upW, err := b.fileEdges(g, c, ebounds, true)
	if err != nil {
		return err
	}
	filed := int(upOff[b.n])
	// The edge pairs are read: the arcs take their place (2 per edge).
	adj := reuse(b.e, 2*filed)
	var wt []uint32
	if b.weighted {
		wt = make([]uint32, 2*filed)
	}
	b.e, b.w = nil, nil
	ubounds := splitByOffsets(upOff, parts)
	c.clearCounts()
	if !c.crew.run(parts, func(k int) { c.countSources(k, upOff, up, ubounds) }) {
		return b.watch.err
	}
	off := make([]uint32, b.n+1)
	if !c.symmetricPositions(off, upOff) {
		return fmt.Errorf("graph %s: %d arcs exceed the 32-bit arc range", g.Name, 2*filed)
	}
	if !c.crew.run(parts, func(k int) { c.fillLower(k, upOff, up, upW, ubounds, off, adj, wt) }) {
		return b.watch.err
	}
	c.pos = nil
	g.Duplicates = dedupLists(off, &adj, &wt) / 2
	g.Offsets, g.Adj, g.Weights = off, adj, wt
	return nil
}

// symmetricPositions lays out every vertex's list, its lower part (counted
// per goroutine into pos) and then its upper part (upOff), and turns the
// counts into write positions. It reports false when the total exceeds the
// 32-bit arc range.
func (c *csrBuild) symmetricPositions(off, upOff []uint32) bool {
	total := uint64(0)
	for v := range c.n {
		off[v] = uint32(total)
		for k := range c.parts {
			x := c.pos[k][v]
			c.pos[k][v] = uint32(total)
			total += uint64(x)
		}
		total += uint64(upOff[v+1] - upOff[v])
		if total > math.MaxUint32 {
			return false
		}
	}
	off[c.n] = uint32(total)
	return true
}

// sortWeighted sorts a neighbour list and its weights together, by
// neighbour (the order of equal neighbours' weights does not matter:
// deduplication keeps the smallest).
func sortWeighted(adj, w []uint32) {
	sort.Sort(weightedList{adj, w})
}

type weightedList struct{ adj, w []uint32 }

func (s weightedList) Len() int           { return len(s.adj) }
func (s weightedList) Less(i, j int) bool { return s.adj[i] < s.adj[j] }
func (s weightedList) Swap(i, j int) {
	s.adj[i], s.adj[j] = s.adj[j], s.adj[i]
	s.w[i], s.w[j] = s.w[j], s.w[i]
}

// reuse returns buf's first n entries when it has them, else a new array
// (never nil, since a weighted graph is told by non-nil Weights).
func reuse(buf []uint32, n int) []uint32 {
	if buf == nil || cap(buf) < n {
		return make([]uint32, n)
	}
	return buf[:n]
}

// filedUnder says where an edge (u, v) is filed and what it files there:
// the directed build files each arc's source under its target, the
// undirected one each edge's larger end under its smaller (lower).
func filedUnder(u, v uint32, lower bool) (key, entry uint32) {
	if lower {
		return min(u, v), max(u, v)
	}
	return v, u
}

// countFiled counts goroutine k's edges by the vertex they are filed
// under into its position array, and returns the self-loops it skipped.
func (c *csrBuild) countFiled(k int, e []uint32, bounds []int, lower bool) int {
	cnt := c.pos[k]
	loops := 0
	for lo := bounds[k]; lo < bounds[k+1]; lo += tick {
		hi := min(lo+tick, bounds[k+1])
		for i := lo; i < hi; i++ {
			u, v := e[2*i], e[2*i+1]
			if u == v {
				loops++
				continue
			}
			key, _ := filedUnder(u, v, lower)
			cnt[key]++
		}
		if !c.crew.step(k, hi-lo) {
			break
		}
	}
	return loops
}

// fileFiled writes the entry of each of goroutine k's edges into the list
// of the vertex it is filed under (and its weight into dstW).
func (c *csrBuild) fileFiled(k int, e, w []uint32, bounds []int, dst, dstW []uint32, lower bool) {
	pos := c.pos[k]
	for lo := bounds[k]; lo < bounds[k+1]; lo += tick {
		hi := min(lo+tick, bounds[k+1])
		for i := lo; i < hi; i++ {
			u, v := e[2*i], e[2*i+1]
			if u == v {
				continue
			}
			key, entry := filedUnder(u, v, lower)
			p := pos[key]
			dst[p] = entry
			pos[key] = p + 1
			if dstW != nil {
				dstW[p] = w[i]
			}
		}
		if !c.crew.step(k, hi-lo) {
			return
		}
	}
}

// countSources counts the entries filed under goroutine k's vertices by
// the vertex each entry names: by source for the arcs filed under their
// targets (the directed build), and for the upper lists of the undirected
// build each vertex's share of the lower parts it gets.
func (c *csrBuild) countSources(k int, in, tmp []uint32, bounds []int) {
	cnt := c.pos[k]
	done := 0
	for t := bounds[k]; t < bounds[k+1]; t++ {
		for _, s := range tmp[in[t]:in[t+1]] {
			cnt[s]++
		}
		if done += int(in[t+1] - in[t]); done >= tick {
			if !c.crew.step(k, done) {
				return
			}
			done = 0
		}
	}
}

// fileBySource appends every target of goroutine k's range, in ascending
// order, to the out-lists of its sources.
func (c *csrBuild) fileBySource(k int, in, tmp, tmpW []uint32, bounds []int, adj, wt []uint32) {
	pos := c.pos[k]
	done := 0
	for t := bounds[k]; t < bounds[k+1]; t++ {
		for j := in[t]; j < in[t+1]; j++ {
			s := tmp[j]
			p := pos[s]
			adj[p] = uint32(t)
			pos[s] = p + 1
			if wt != nil {
				wt[p] = tmpW[j]
			}
		}
		if done += int(in[t+1] - in[t]); done >= tick {
			if !c.crew.step(k, done) {
				return
			}
			done = 0
		}
	}
}

// fillLower walks goroutine k's vertices u in ascending order: it sorts u's
// upper list, copies it into the upper part of u's list, and appends u to
// the lower part of every vertex in it.
func (c *csrBuild) fillLower(k int, upOff, up, upW []uint32, bounds []int, off, adj, wt []uint32) {
	pos := c.pos[k]
	ids := newIDSorter(c.n)
	done := 0
	for u := bounds[k]; u < bounds[k+1]; u++ {
		s, e := upOff[u], upOff[u+1]
		at := off[u+1] - (e - s)
		l := adj[at:off[u+1]]
		if upW == nil {
			ids.sortInto(up[s:e], l)
		} else {
			sortWeighted(up[s:e], upW[s:e])
			copy(l, up[s:e])
			copy(wt[at:], upW[s:e])
		}
		for j, v := range l {
			p := pos[v]
			adj[p] = uint32(u)
			pos[v] = p + 1
			if wt != nil {
				wt[p] = upW[int(s)+j]
			}
		}
		if done += int(e - s); done >= tick {
			if !c.crew.step(k, done) {
				return
			}
			done = 0
		}
	}
}

// dedupLists drops the repeated neighbours of every sorted list, keeping
// the smallest weight of each run, compacts the arrays in place and returns
// the number of arcs dropped.
func dedupLists(off []uint32, adjp, wtp *[]uint32) int {
	adj, wt := *adjp, *wtp
	n := len(off) - 1
	out := uint32(0)
	start := uint32(0)
	for v := range n {
		end := off[v+1]
		off[v] = out
		for i := start; i < end; i++ {
			if i > start && adj[i] == adj[i-1] {
				if wt != nil && wt[i] < wt[out-1] {
					wt[out-1] = wt[i]
				}
				continue
			}
			adj[out] = adj[i]
			if wt != nil {
				wt[out] = wt[i]
			}
			out++
		}
		start = end
	}
	off[n] = out
	removed := len(adj) - int(out)
	if removed > 0 {
		*adjp = adj[:out:out]
		if wt != nil {
			*wtp = wt[:out:out]
		}
	}
	return removed
}
