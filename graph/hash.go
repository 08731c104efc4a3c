package graph

import (
	"crypto/sha256"
	"encoding/binary"
)

// SHA256 hashes the graph's structure (the CSR arrays and the weights):
// every entry as 4 little-endian bytes, gathered in a buffer so the hash
// sees large writes (a write per entry cost more than the hashing of a
// large graph). An export's manifest names its graph by it, and the
// prediction's cache keys what it derived from a graph by it; how the
// weights' bits are read (FloatWeights) is not part of it.
func (g *Graph) SHA256() [sha256.Size]byte {
	h := sha256.New()
	buf := make([]byte, 0, 1<<16)
	put := func(xs []uint32) {
		for _, x := range xs {
			buf = binary.LittleEndian.AppendUint32(buf, x)
			if len(buf) == cap(buf) {
				h.Write(buf)
				buf = buf[:0]
			}
		}
	}
	put(g.Offsets)
	put(g.Adj)
	put(g.Weights)
	h.Write(buf)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
}
