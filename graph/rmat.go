package graph

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// rmatDrawer draws R-MAT edges: ef·2^scale of them for a spec. Level k
// of a draw (from the most significant bit) takes 32 random bits,
// compared with fixed-point thresholds: the low half of a PCG output for
// even k, the high half for odd k, so one output serves two levels. The
// comparisons are branch-free: for r, t < 2^63, (t-1-r)>>63 is 1 exactly
// when r >= t; the quadrant q = [r >= a] + [r >= a+b] + [r >= a+b+c] gives
// the source bit q>>1 and the target bit q&1.
type rmatDrawer struct {
	pairs         int
	odd           bool
	perDraw       uint64 // PCG outputs per draw
	tA, tAB, tABC uint64 // thresholds minus one; a zero threshold wraps, which still gives 1
	perm          []uint32
}

func newRMATDrawer(s GenSpec) *rmatDrawer {
	fix := func(p float64) uint64 { return uint64(math.Round(p * (1 << 32))) }
	d := &rmatDrawer{pairs: s.Scale / 2, odd: s.Scale%2 == 1,
		tA: fix(s.A) - 1, tAB: fix(s.A+s.B) - 1, tABC: fix(s.A+s.B+s.C) - 1}
	d.perDraw = uint64(d.pairs)
	if d.odd {
		d.perDraw++
	}
	if s.Scramble {
		n := 1 << s.Scale
		d.perm = make([]uint32, n)
		for i := range d.perm {
			d.perm[i] = uint32(i)
		}
		pr := rand.NewPCG(s.Seed, genStreamScramble)
		for i := n - 1; i > 0; i-- {
			j := pcgBounded(pr, uint64(i)+1)
			d.perm[i], d.perm[j] = d.perm[j], d.perm[i]
		}
	}
	return d
}

// draw fills e with len(e)/2 draws (source, target pairs) from the PCG
// stream whose state is st and returns the state after them. The generator is math/rand/v2's PCG written out
// with its state in registers (TestPCGStep checks that the outputs are the
// same); the permutation is applied in a second loop, whose loads are
// independent, so that the processor overlaps their cache misses.
func (d *rmatDrawer) draw(st u128, e []uint32) u128 {
	tA, tAB, tABC, pairs := d.tA, d.tAB, d.tABC, d.pairs
	hi, lo := st.hi, st.lo
	for i := 0; i+1 < len(e); i += 2 {
		var u, v uint64
		for range pairs {
			var x uint64
			hi, lo, x = pcgStep(hi, lo)
			l, h := x&0xffffffff, x>>32
			// The quadrant q is the sum of three monotone indicators, so
			// q>>1 is the middle one and q&1 their parity.
			a1, b1, c1 := (tA-l)>>63, (tAB-l)>>63, (tABC-l)>>63
			a2, b2, c2 := (tA-h)>>63, (tAB-h)>>63, (tABC-h)>>63
			u = u<<2 | b1<<1 | b2
			v = v<<2 | (a1^b1^c1)<<1 | a2 ^ b2 ^ c2
		}
		if d.odd {
			var x uint64
			hi, lo, x = pcgStep(hi, lo)
			l := x & 0xffffffff
			u = u<<1 | (tAB-l)>>63
			v = v<<1 | ((tA-l)^(tAB-l)^(tABC-l))>>63
		}
		e[i], e[i+1] = uint32(u), uint32(v)
	}
	if perm := d.perm; perm != nil {
		for i, x := range e {
			e[i] = perm[x]
		}
	}
	return u128{hi, lo}
}

// pcgStep advances the PCG state hi, lo by one step and returns the new
// state and its output, exactly as math/rand/v2's (*PCG).Uint64.
func pcgStep(hi, lo uint64) (nhi, nlo, out uint64) {
	h, l := bits.Mul64(lo, pcgMulLo)
	h += hi*pcgMulLo + lo*pcgMulHi
	l, c := bits.Add64(l, pcgIncLo, 0)
	h, _ = bits.Add64(h, pcgIncHi, c)
	// DXSM output: double xorshift multiply.
	const cheapMul = 0xda942042e4dd58b5
	x := h ^ h>>32
	x *= cheapMul
	x ^= x >> 48
	x *= l | 1
	return h, l, x
}

// The 128-bit LCG constants of math/rand/v2's PCG: state = state·mul + inc.
const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407
)

// u128 is an unsigned 128-bit number modulo 2^128.
type u128 struct{ hi, lo uint64 }

func (a u128) mul(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	return u128{hi + a.hi*b.lo + a.lo*b.hi, lo}
}

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// pcgJump returns the PCG state k steps after st in O(log k) steps (Brown,
// "Random number generation with arbitrary strides", 1994: the k-fold LCG
// step is again an LCG step, whose multiplier and increment are composed by
// squaring). TestPCGJump checks it against stepping.
func pcgJump(st u128, k uint64) u128 {
	accMul, accAdd := u128{0, 1}, u128{}
	curMul, curAdd := u128{pcgMulHi, pcgMulLo}, u128{pcgIncHi, pcgIncLo}
	for ; k > 0; k >>= 1 {
		if k&1 == 1 {
			accMul = accMul.mul(curMul)
			accAdd = accAdd.mul(curMul).add(curAdd)
		}
		curAdd = curMul.add(u128{0, 1}).mul(curAdd)
		curMul = curMul.mul(curMul)
	}
	return accMul.mul(st).add(accAdd)
}
