package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIDSorter checks the radix sort against slices.Sort on lists short
// and long, of ids with random, shared and constant digits, for id bounds
// that take one, two and three passes.
func TestIDSorter(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 1000, 1 << 11, 1<<11 + 1, 1 << 20, 1<<24 + 7, 1 << 32} {
		s := newIDSorter(n)
		for _, size := range []int{0, 1, 5, s.min() - 1, s.min(), 1000, 70000} {
			for _, kind := range []string{"random", "shared high digits", "constant", "sorted", "reversed"} {
				l := make([]uint32, size)
				for i := range l {
					switch kind {
					case "random":
						l[i] = uint32(r.Uint64N(uint64(n)))
					case "shared high digits":
						l[i] = uint32(n-1)&^0x3ff | uint32(r.IntN(min(n, 1024)))
						l[i] = min(l[i], uint32(n-1))
					case "constant":
						l[i] = uint32(n - 1)
					case "sorted", "reversed":
						l[i] = uint32(uint64(i) * uint64(n) / uint64(size))
					}
				}
				if kind == "reversed" {
					slices.Reverse(l)
				}
				want := slices.Sorted(slices.Values(l))
				dst := make([]uint32, size)
				s.sortInto(l, dst)
				if !slices.Equal(dst, want) {
					t.Fatalf("n=%d, %d %s ids: not sorted", n, size, kind)
				}
			}
		}
	}
}

// BenchmarkIDSorter compares the radix sort with slices.Sort on lists of
// random ids below 2^20 of the lengths that hold most arcs of R-MAT scale
// 20.
func BenchmarkIDSorter(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, size := range []int{128, 256, 512, 1024, 4096} {
		l := make([]uint32, size)
		for i := range l {
			l[i] = uint32(r.IntN(1 << 20))
		}
		work, dst := make([]uint32, size), make([]uint32, size)
		s := newIDSorter(1 << 20)
		b.Run(fmt.Sprint("radix/", size), func(b *testing.B) {
			for b.Loop() {
				copy(work, l)
				s.sortInto(work, dst)
			}
		})
		b.Run(fmt.Sprint("pdqsort/", size), func(b *testing.B) {
			for b.Loop() {
				copy(work, l)
				slices.Sort(work)
			}
		})
	}
}
