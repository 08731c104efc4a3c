package graph

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// An unweighted R-MAT graph is built in the array its draws are made
// into: the draws, two words each, take as many words as the arcs of the
// symmetric CSR (one per end of every edge), so the lists are made in
// place and the drawn edge list and the CSR are never held side by side.
// A Builder holds the draws and, beside them, an array of half the arcs
// while it files them (1.5 times the CSR's arcs at its peak); here the
// peak is the arcs and offsets plus one count per vertex and core and
// two more per vertex.
//
//  1. draw: every core draws its range of draws into the array, each
//     draw as (key, entry): the smaller end and the larger when
//     undirected, source and target when directed; while a chunk is in
//     cache it counts its draws by the key's top bits;
//  2. group: the draws are grouped by key in place, by an American flag
//     sort (McIlroy, Bostic and McIlroy, "Engineering radix sort", 1993)
//     on the key's top 8 bits, one pass on one core whose 256 bucket
//     frontiers stay in cache, then on the other bits inside every
//     bucket, the buckets shared out to every core, each counting its
//     keys first;
//  3. compact: the entries are packed to the front, one word each, self-
//     loops dropped, each key's after the previous key's (every write is
//     behind every unread draw); directed, they are the lists;
//     undirected, the lower-part entries each vertex gets from the others
//     are counted (one per edge whose larger end it is), which gives the
//     offsets, and from the last vertex back to the first each key's
//     entries move up to the upper part of its list, which starts at or
//     after where they are, so again nothing unread is overwritten;
//  4. fill (undirected): walking the vertices in ascending order, each u
//     sorts its upper part in place and appends u to the lower part of
//     every neighbour in it, so that every list comes out sorted (see
//     buildSymmetric); a directed graph's lists are sorted in place;
//  5. the duplicates are dropped in place (dedupLists).
//
// Grouping moves every draw twice at addresses that stay in cache, where
// filing each draw into its list at once missed the caches at every
// write. Every part writes at positions fixed by the counts, so the graph
// is the one a single goroutine makes. A weighted spec goes through the
// Builder (rmatEdges): its weights would have to move with the draws.

// rmatChunk is the number of R-MAT draws a goroutine makes at a time, and
// counts while they are in the first-level cache. Draw i always uses the
// outputs i·p .. i·p+p-1 of the topology stream (p outputs per draw), and
// each part starts its own copy of the stream at its first draw by jumping
// ahead, so the graph does not depend on the chunk size or the number of
// parts (TestGenerateParallelUnchanged).
var rmatChunk = 1 << 10

// rmatBuild is the state of one R-MAT generation in place.
type rmatBuild struct {
	d      *rmatDrawer
	start  u128 // the topology stream's state before draw 0
	n, m   int
	lower  bool  // undirected: lower parts are filled after the upper ones
	bounds []int // part k makes draws [bounds[k], bounds[k+1])
	a      []uint32
	lb     uint       // a key's low bits, by which the second pass groups
	size   [][]uint32 // size[k][b] counts part k's draws in bucket b (the key's high bits)
	// keys[v] counts the draws filed under v (self-loops included), then
	// the entries v keeps, then where v's upper part starts.
	keys []uint32
	// off holds where each vertex's packed entries start, then the CSR's
	// offsets.
	off []uint32
	// cnt[k][v] counts the lower-part entries part k's vertices give v,
	// then holds where part k writes the next (undirected).
	cnt   [][]uint32
	loops int
	watch *watch
}

// genRMAT generates the CSR graph of an unweighted R-MAT spec in place
// (see above).
func genRMAT(s GenSpec, w *watch) (*Graph, error) {
	m := s.EdgeFactor << s.Scale
	r := &rmatBuild{d: newRMATDrawer(s), start: u128{s.Seed, genStreamTopology},
		n: s.numVertices(), m: m, lower: !s.Directed, watch: w}
	parts := csrParts(2 * m)
	r.bounds = splitEven(m, parts)
	hb := uint(0)
	for 1<<hb < r.n {
		hb++
	}
	// The first pass groups by the key's top 8 bits on one core: 256
	// bucket frontiers stay in the first-level cache (at scale 20 it
	// took 0.16 s against 0.22 s with 1024); the second, on every core,
	// by the rest.
	r.lb = max(hb, 8) - 8
	if !r.draw(parts) {
		return nil, w.err
	}
	// Grouping counts every draw twice, filling or sorting every arc
	// once (the arcs are at most two per draw).
	c := &crew{w: w, stage: "building the adjacency lists", total: 4 * int64(m)}
	if !c.w.at(c.stage, 0, c.total) || !r.group(c, parts) {
		return nil, w.err
	}
	r.compact()
	ubounds := splitByOffsets(r.off, parts)
	if r.lower && !r.countLower(c, ubounds) {
		return nil, w.err
	}
	if !r.layout() {
		return nil, fmt.Errorf("graph %s: %d edges exceed the 32-bit arc range", s.String(), m)
	}
	adj := r.a[:r.off[r.n]]
	r.a = nil
	c.total = 2*int64(m) + int64(len(adj))
	var ok bool
	if r.lower {
		r.expand(adj)
		ok = c.run(parts, func(k int) { r.fillLower(k, c, ubounds, adj) })
	} else {
		ok = c.run(parts, func(k int) { r.sortLists(k, c, splitByOffsets(r.off, parts), adj) })
	}
	if !ok {
		return nil, w.err
	}
	g := &Graph{Directed: s.Directed, Offsets: r.off, SelfLoops: r.loops}
	var wt []uint32
	g.Duplicates = dedupLists(r.off, &adj, &wt)
	if r.lower {
		g.Duplicates /= 2
	}
	g.Adj = adj
	return g, nil
}

// draw makes every draw into r.a on parts goroutines, each counting its
// draws per bucket (the key's high bits: few enough counts to stay in the
// first-level cache).
func (r *rmatBuild) draw(parts int) bool {
	r.a = make([]uint32, 2*r.m)
	nb := (r.n + 1<<r.lb - 1) >> r.lb
	r.size = make([][]uint32, parts)
	c := &crew{w: r.watch, stage: "drawing edges", total: int64(r.m)}
	if !c.w.at(c.stage, 0, c.total) {
		return false
	}
	lb, lower := r.lb, r.lower
	return c.run(parts, func(k int) {
		size := make([]uint32, nb)
		r.size[k] = size
		drawPart(r.d, r.start, r.a, r.bounds[k], r.bounds[k+1], c, k, func(e []uint32) {
			for j := 0; j+1 < len(e); j += 2 {
				u, v := e[j], e[j+1]
				if lower && u > v {
					e[j], e[j+1] = v, u
					u = v
				}
				size[u>>lb]++
			}
		})
	})
}

// drawPart makes draws [lo, hi) into e (two words each) in chunks of
// rmatChunk, calling each with every chunk as it is drawn (nil: none),
// and reports them to c as part k.
func drawPart(d *rmatDrawer, start u128, e []uint32, lo, hi int, c *crew, k int, each func(e []uint32)) {
	st := pcgJump(start, uint64(lo)*d.perDraw)
	done := 0
	for i := lo; i < hi; i += rmatChunk {
		chunk := e[2*i : 2*min(i+rmatChunk, hi)]
		st = d.draw(st, chunk)
		if each != nil {
			each(chunk)
		}
		if done += len(chunk) / 2; done >= tick || i+rmatChunk >= hi {
			if !c.step(k, done) {
				return
			}
			done = 0
		}
	}
}

// rmatEdges draws a weighted R-MAT spec's edges into the Builder, self-
// loops included (Build drops and counts them); the weights, one per draw
// from their own stream, are drawn on one more goroutine meanwhile, since
// a bounded draw's rejections make their stream positions unknown in
// advance.
func rmatEdges(s GenSpec, b *Builder) {
	m := s.EdgeFactor << s.Scale
	d := newRMATDrawer(s)
	e, wts := make([]uint32, 2*m), make([]uint32, m)
	c := &crew{w: b.watch, stage: "drawing edges", total: int64(m)}
	var wg sync.WaitGroup
	wg.Go(func() {
		w := newGenWeigher(s.Seed, s.MaxWeight)
		for i := range wts {
			if i%tick == 0 && c.stop.Load() {
				return
			}
			wts[i] = w.next()
		}
	})
	parts := max(1, min(csrParts(2*m), (m+rmatChunk-1)/rmatChunk))
	bounds := splitEven(m, parts)
	c.run(parts, func(k int) {
		drawPart(d, u128{s.Seed, genStreamTopology}, e, bounds[k], bounds[k+1], c, k, nil)
	})
	wg.Wait()
	b.e, b.w, b.loops = e, wts, true
}

// group groups the draws by key in place: by the key's high bits on one
// core, then inside every bucket by the low bits, the buckets shared out
// to every core in turn, each counting its keys first (in cache: a
// bucket's keys are 2^lb consecutive vertices).
func (r *rmatBuild) group(c *crew, parts int) bool {
	lb := r.lb
	size := r.size[0]
	for _, x := range r.size[1:] {
		for b, n := range x {
			size[b] += n
		}
	}
	r.size = nil
	nb := len(size)
	start := make([]uint32, nb+1)
	for b, n := range size {
		start[b+1] = start[b] + n
	}
	flagSort(r.a, size, lb, math.MaxUint32, make([]uint32, nb), make([]uint32, nb))
	if !c.step(0, r.m) {
		return false
	}
	r.keys = make([]uint32, r.n)
	var next atomic.Int64
	return c.run(parts, func(k int) {
		frontier, end := make([]uint32, 1<<lb), make([]uint32, 1<<lb)
		for {
			b := int(next.Add(1) - 1)
			if b >= nb {
				return
			}
			lo, hi := start[b], start[b+1]
			a, keys := r.a[2*lo:2*hi], r.keys[b<<lb:min(r.n, (b+1)<<lb)]
			mask := uint32(1)<<lb - 1
			for i := 0; i < len(a); i += 2 {
				keys[a[i]&mask]++
			}
			flagSort(a, keys, 0, mask, frontier, end)
			if !c.step(k, int(hi-lo)) {
				return
			}
		}
	})
}

// flagSort groups the draws of a (two words each, the key first) by the
// bucket (key>>shift)&mask, in place, given each bucket's size; frontier
// and end are scratch of len(size) entries. Each draw out of place is
// carried to the next free slot of its bucket and the draw found there
// carried on, until one belongs where the cycle started.
func flagSort(a, size []uint32, shift uint, mask uint32, frontier, end []uint32) {
	at := uint32(0)
	for b, n := range size {
		frontier[b] = at
		at += n
		end[b] = at
	}
	for b := range size {
		for i := frontier[b]; i < end[b]; i = frontier[b] {
			k, e := a[2*i], a[2*i+1]
			for d := int(k >> shift & mask); d != b; d = int(k >> shift & mask) {
				j := frontier[d]
				frontier[d] = j + 1
				k, e, a[2*j], a[2*j+1] = a[2*j], a[2*j+1], k, e
			}
			a[2*i], a[2*i+1] = k, e
			frontier[b] = i + 1
		}
	}
}

// compact packs the grouped draws' entries to the front of r.a, one word
// each, dropping self-loops: key v's start at off[v], the entries kept
// before it, which is where they stay when directed. keys[v] becomes the
// number v keeps.
func (r *rmatBuild) compact() {
	keys, a := r.keys, r.a
	r.off = make([]uint32, r.n+1)
	out, in := uint32(0), uint32(0)
	for v, n := range keys {
		r.off[v] = out
		kept := uint32(0)
		for i := in; i < in+n; i++ {
			if e := a[2*i+1]; e != uint32(v) {
				a[out+kept] = e
				kept++
			}
		}
		r.loops += int(n - kept)
		keys[v] = kept
		in += n
		out += kept
	}
	r.off[r.n] = out
}

// countLower counts, per part k of the vertices (bounds) and vertex v,
// the lower-part entries k's vertices u give v (one per v among u's
// packed entries).
func (r *rmatBuild) countLower(c *crew, bounds []int) bool {
	r.cnt = make([][]uint32, len(bounds)-1)
	return c.run(len(r.cnt), func(k int) {
		cnt := make([]uint32, r.n)
		r.cnt[k] = cnt
		for _, v := range r.a[r.off[bounds[k]]:r.off[bounds[k+1]]] {
			cnt[v]++
		}
	})
}

// layout turns off into the CSR's offsets: vertex v's list is its lower
// part (undirected; its entries counted per part by countLower) and then
// its upper part. keys[v] becomes where the upper part starts, and cnt[k]
// where part k writes v's next lower entry. It reports false when the
// arcs exceed the 32-bit range.
func (r *rmatBuild) layout() bool {
	total := uint64(0)
	for v := range r.n {
		r.off[v] = uint32(total)
		for _, x := range r.cnt {
			n := x[v]
			x[v] = uint32(total)
			total += uint64(n)
		}
		kept := r.keys[v]
		r.keys[v] = uint32(total)
		total += uint64(kept)
		if total > math.MaxUint32 {
			return false
		}
	}
	r.off[r.n] = uint32(total)
	return true
}

// expand moves every vertex's packed entries up to its upper part, from
// the last vertex back: each upper part starts at or after where its
// entries are, and after the entries of every vertex before it.
func (r *rmatBuild) expand(adj []uint32) {
	in := uint32(0)
	for v := range r.n {
		in += r.off[v+1] - r.keys[v]
	}
	for v := r.n - 1; v >= 0; v-- {
		n := r.off[v+1] - r.keys[v]
		in -= n
		copy(adj[r.keys[v]:r.off[v+1]], adj[in:in+n])
	}
}

// sortLists sorts the lists of part k's vertices in place.
func (r *rmatBuild) sortLists(k int, c *crew, bounds []int, adj []uint32) {
	ids := newIDSorter(r.n)
	var scratch []uint32
	done := 0
	for u := bounds[k]; u < bounds[k+1]; u++ {
		s, e := r.off[u], r.off[u+1]
		ids.sortInPlace(adj[s:e], &scratch)
		if done += int(e - s); done >= tick {
			if !c.step(k, done) {
				return
			}
			done = 0
		}
	}
}

// fillLower walks part k's vertices u in ascending order: it sorts u's
// upper part in place and appends u to the lower part of every vertex in
// it, at the part's write positions.
func (r *rmatBuild) fillLower(k int, c *crew, bounds []int, adj []uint32) {
	pos := r.cnt[k]
	ids := newIDSorter(r.n)
	var scratch []uint32
	done := 0
	for u := bounds[k]; u < bounds[k+1]; u++ {
		l := adj[r.keys[u]:r.off[u+1]]
		ids.sortInPlace(l, &scratch)
		for _, v := range l {
			p := pos[v]
			adj[p] = uint32(u)
			pos[v] = p + 1
		}
		if done += 2 * len(l); done >= tick {
			if !c.step(k, done) {
				return
			}
			done = 0
		}
	}
}
