package arch

import (
	"fmt"
	"slices"
	"strings"
)

// Field is one field of a packed word: its name and width in bits.
type Field struct {
	Name  string
	Width int
}

// Layout is a packed word as an ordered list of fields, the first in the
// most significant bits, as the RTL declares its buses and the memory
// images store their words.
type Layout struct {
	// Name says what the word is, for messages ("edge-index word").
	Name   string
	Fields []Field
}

// Width is the word's width in bits.
func (l Layout) Width() int {
	w := 0
	for _, f := range l.Fields {
		w += f.Width
	}
	return w
}

// Has reports whether the layout has a field of that name.
func (l Layout) Has(name string) bool {
	_, _, ok := l.Find(name)
	return ok
}

// Find returns a field's offset of its least significant bit and its
// width.
func (l Layout) Find(name string) (lsb, width int, ok bool) {
	off := l.Width()
	for _, f := range l.Fields {
		off -= f.Width
		if f.Name == name {
			return off, f.Width, true
		}
	}
	return 0, 0, false
}

// Offsets returns every field's least significant bit, in field order.
func (l Layout) Offsets() []int {
	out := make([]int, len(l.Fields))
	off := l.Width()
	for i, f := range l.Fields {
		off -= f.Width
		out[i] = off
	}
	return out
}

// HexDigits is the number of hex digits of one word in a $readmemh image.
func (l Layout) HexDigits() int { return max((l.Width()+3)/4, 1) }

// AppendHex packs one value per field (each masked to its width) into a
// word and appends it in hex with the word's digits, most significant
// first: one line of a $readmemh image. It is the one place where memory
// words are packed, for words of any width; a field is at most 64 bits.
// It does not allocate for words of up to 256 bits (every image's word
// but the widest off-chip memory words, which AppendMemWord packs).
func (l Layout) AppendHex(dst []byte, vals ...uint64) []byte {
	if len(vals) != len(l.Fields) {
		panic(fmt.Sprintf("arch: %d values for the %d fields of the %s", len(vals), len(l.Fields), l.Name))
	}
	width := l.Width()
	var small [4]uint64
	limbs := small[:]
	if n := (width + 63) / 64; n > len(limbs) {
		limbs = make([]uint64, n)
	}
	bit := 0
	for i := len(l.Fields) - 1; i >= 0; i-- {
		w := l.Fields[i].Width
		OrBits(limbs, bit, vals[i], w)
		bit += w
	}
	return appendHexLimbs(dst, limbs, max((width+3)/4, 1))
}

// appendHexLimbs appends the low digits hex digits of the little-endian
// limbs, most significant first, filled from the least significant end a
// byte (two digits) at a time through a table: no division and no
// per-digit index arithmetic, since it runs for every word of every image.
func appendHexLimbs(dst []byte, limbs []uint64, digits int) []byte {
	n := len(dst)
	dst = slices.Grow(dst, digits)[:n+digits]
	out := dst[n:]
	p := digits
	for _, x := range limbs {
		j := 0
		for ; j < 8 && p >= 2; j++ {
			b := x & 0xff
			out[p-1], out[p-2] = hexPairs[2*b+1], hexPairs[2*b]
			x >>= 8
			p -= 2
		}
		if p == 1 && j < 8 { // an odd digit count ends in this limb
			out[0] = hexDigits[x&15]
			p = 0
		}
		if p == 0 {
			break
		}
	}
	return dst
}

// hexPairs holds the two digits of every byte, "00" to "ff".
var hexPairs = func() string {
	b := make([]byte, 0, 512)
	for i := 0; i < 256; i++ {
		b = append(b, hexDigits[i>>4], hexDigits[i&15])
	}
	return string(b)
}()

const hexDigits = "0123456789abcdef"

// Hex is AppendHex as a string.
func (l Layout) Hex(vals ...uint64) string { return string(l.AppendHex(nil, vals...)) }

// String lists the fields, most significant first: "start:12 len:12 degree:32".
func (l Layout) String() string {
	parts := make([]string, len(l.Fields))
	for i, f := range l.Fields {
		parts[i] = fmt.Sprintf("%s:%d", f.Name, f.Width)
	}
	return strings.Join(parts, " ")
}
