package arch

// The memory images pack fields at their widths, least significant bit
// first, into little-endian 64-bit limbs: bit b of the stream is bit b%64
// of limb b/64. OrBits and ReadBits are that packing's two directions,
// for the images' words and for anything else held at field widths (the
// export's expected states).

// OrBits ors the low w bits of v (w at most 64) into limbs at bit offset
// at; a field may straddle two limbs.
func OrBits(limbs []uint64, at int, v uint64, w int) {
	if w <= 0 {
		return
	}
	if w < 64 {
		v &= 1<<uint(w) - 1
	}
	limbs[at/64] |= v << uint(at%64)
	if s := at % 64; s > 0 && s+w > 64 {
		limbs[at/64+1] |= v >> uint(64-s)
	}
}

// ReadBits reads the w bits (at most 64) at bit offset at of limbs, the
// inverse of OrBits on zeroed limbs.
func ReadBits(limbs []uint64, at, w int) uint64 {
	if w <= 0 {
		return 0
	}
	s := uint(at % 64)
	x := limbs[at/64] >> s
	if s > 0 && int(s)+w > 64 {
		x |= limbs[at/64+1] << (64 - s)
	}
	if w < 64 {
		x &= 1<<uint(w) - 1
	}
	return x
}
