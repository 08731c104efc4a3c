package arch

import (
	"fmt"
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
func (l Layout) AppendHex(dst []byte, vals ...uint64) []byte {
	if len(vals) != len(l.Fields) {
		panic(fmt.Sprintf("arch: %d values for the %d fields of the %s", len(vals), len(l.Fields), l.Name))
	}
	var small [4]uint64
	limbs := small[:]
	if n := (l.Width() + 63) / 64; n > len(limbs) {
		limbs = make([]uint64, n)
	}
	clear(limbs)
	bit := 0
	for i := len(l.Fields) - 1; i >= 0; i-- {
		w, v := l.Fields[i].Width, vals[i]
		if w < 64 {
			v &= 1<<uint(w) - 1
		}
		limbs[bit/64] |= v << uint(bit%64)
		if s := bit % 64; s > 0 && s+w > 64 {
			limbs[bit/64+1] |= v >> uint(64-s)
		}
		bit += w
	}
	for d := l.HexDigits() - 1; d >= 0; d-- {
		dst = append(dst, "0123456789abcdef"[limbs[d/16]>>uint(4*(d%16))&15])
	}
	return dst
}

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
