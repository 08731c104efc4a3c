package graph

import (
	"math/bits"
	"slices"
)

// idSorter sorts lists of vertex ids below a bound by least significant
// digit first radix sort, for the lists long enough that a comparison
// sort's mispredicted branches cost more than a few passes over the list:
// in a scale-20 R-MAT graph more than half of the arcs are in lists of
// hundreds to thousands, where pdqsort makes ten or more comparisons per
// id. The digits are at most radixBits wide, so that a pass's buckets stay
// in the first-level cache. An idSorter is not safe for concurrent use.
type idSorter struct {
	width, passes int
	count         []uint32 // passes × 1<<width bucket counts
}

// radixBits is the widest digit.
const radixBits = 11

// min is the shortest list sorted by digits; a shorter one goes to
// slices.Sort: each pass clears and sums its buckets, which costs as much
// as moving half as many ids (BenchmarkIDSorter).
func (s *idSorter) min() int { return max(64, 1<<(s.width-1)) }

// newIDSorter returns a sorter for ids below n.
func newIDSorter(n int) *idSorter {
	b := max(1, bits.Len(uint(max(n, 1)-1)))
	passes := (b + radixBits - 1) / radixBits
	width := (b + passes - 1) / passes
	return &idSorter{width: width, passes: passes, count: make([]uint32, passes<<width)}
}

// sortInPlace sorts l, through scratch (grown as needed) when it is long
// enough for digits.
func (s *idSorter) sortInPlace(l []uint32, scratch *[]uint32) {
	if len(l) < s.min() {
		slices.Sort(l)
		return
	}
	if cap(*scratch) < len(l) {
		*scratch = make([]uint32, len(l))
	}
	tmp := (*scratch)[:len(l)]
	copy(tmp, l)
	s.sortInto(tmp, l)
}

// sortInto leaves the ids of l, sorted, in dst (of the same length, not
// overlapping l) and l in any order.
func (s *idSorter) sortInto(l, dst []uint32) {
	if len(l) < s.min() {
		slices.Sort(l)
		copy(dst, l)
		return
	}
	w, mask := uint(s.width), uint32(1)<<s.width-1
	clear(s.count)
	for _, x := range l {
		for p := range s.passes {
			s.count[p<<w+int(x>>(uint(p)*w)&mask)]++
		}
	}
	src, out := l, dst
	for p := range s.passes {
		cnt := s.count[p<<w : (p+1)<<w]
		// A digit that every id shares moves nothing.
		if slices.Contains(cnt, uint32(len(l))) {
			continue
		}
		sum := uint32(0)
		for i, c := range cnt {
			cnt[i] = sum
			sum += c
		}
		shift := uint(p) * w
		for _, x := range src {
			d := x >> shift & mask
			out[cnt[d]] = x
			cnt[d]++
		}
		src, out = out, src
	}
	if &src[0] != &dst[0] {
		copy(dst, src)
	}
}
