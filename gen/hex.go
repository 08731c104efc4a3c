package gen

import (
	"bufio"
	"io"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// The memory images are megabytes of hex words ($readmemh): each word is
// composed in a few 64-bit limbs and printed digit by digit into a buffered
// writer, never through fmt or big.Int, so that exporting a large graph
// costs about what writing the files does.

// word is a memory word of any width being composed, in 64-bit limbs,
// least significant first.
type word struct{ limbs []uint64 }

// reset clears the word and makes room for bits bits.
func (x *word) reset(bits int) {
	n := max((bits+63)/64, 1)
	if cap(x.limbs) < n {
		x.limbs = make([]uint64, n)
	}
	x.limbs = x.limbs[:n]
	clear(x.limbs)
}

// push shifts the word left by w bits (at most 64) and puts v, masked to w
// bits, in the bits freed: fields pushed first end up most significant.
func (x *word) push(v uint64, w int) {
	if w <= 0 {
		return
	}
	if w < 64 {
		v &= 1<<uint(w) - 1
		for i := len(x.limbs) - 1; i > 0; i-- {
			x.limbs[i] = x.limbs[i]<<uint(w) | x.limbs[i-1]>>uint(64-w)
		}
		x.limbs[0] = x.limbs[0]<<uint(w) | v
		return
	}
	copy(x.limbs[1:], x.limbs[:len(x.limbs)-1])
	x.limbs[0] = v
}

// or sets the bits of v at bit position at (v may straddle two limbs).
func (x *word) or(v uint64, at int) {
	i, s := at/64, uint(at%64)
	x.limbs[i] |= v << s
	if s > 0 && i+1 < len(x.limbs) {
		x.limbs[i+1] |= v >> (64 - s)
	}
}

// appendHex appends the word's lowest digits*4 bits as digits hex digits,
// most significant first.
func (x *word) appendHex(dst []byte, digits int) []byte {
	const hex = "0123456789abcdef"
	for d := digits - 1; d >= 0; d-- {
		b := 4 * d
		dst = append(dst, hex[x.limbs[b/64]>>uint(b%64)&0xF])
	}
	return dst
}

// appendPacked appends the fields vals (of types ts, first field most
// significant) as one word of width bits in hex.
func (x *word) appendPacked(dst []byte, vals []uint64, ts []kernel.Type, width int) []byte {
	sum := 0
	for _, t := range ts {
		sum += t.Width
	}
	digits := max((width+3)/4, (sum+3)/4)
	x.reset(4 * digits)
	for i, t := range ts {
		x.push(vals[i], t.Width)
	}
	return x.appendHex(dst, digits)
}

// appendHexWord appends v as a word of width bits in hex (more digits when
// v does not fit).
func appendHexWord(dst []byte, v uint64, width int) []byte {
	const hex = "0123456789abcdef"
	digits := (width + 3) / 4
	for n := 16; n > digits; n-- {
		if v>>uint(4*(n-1)) != 0 {
			digits = n
			break
		}
	}
	for d := digits - 1; d >= 0; d-- {
		if d >= 16 {
			dst = append(dst, '0')
			continue
		}
		dst = append(dst, hex[v>>uint(4*d)&0xF])
	}
	return dst
}

// lineWriter writes an image line by line through a buffer; the first
// write error is kept and reported by flush.
type lineWriter struct {
	w    *bufio.Writer
	line []byte
	x    word
	err  error
}

func newLineWriter(wr io.Writer) *lineWriter {
	return &lineWriter{w: bufio.NewWriterSize(wr, 1<<16), line: make([]byte, 0, 64)}
}

// end writes the line being composed, with its newline.
func (l *lineWriter) end() {
	l.line = append(l.line, '\n')
	if _, err := l.w.Write(l.line); err != nil && l.err == nil {
		l.err = err
	}
	l.line = l.line[:0]
}

func (l *lineWriter) flush() error {
	if err := l.w.Flush(); err != nil && l.err == nil {
		l.err = err
	}
	return l.err
}
