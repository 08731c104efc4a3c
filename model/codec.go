package model

import (
	"encoding/binary"
	"errors"
	"math"
)

// encoder appends the cache's binary forms: varints for integers, the
// IEEE bits for floats, so that a decoded value is the encoded one.
type encoder struct{ b []byte }

func (e *encoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }
func (e *encoder) int(v int64)   { e.b = binary.AppendVarint(e.b, v) }
func (e *encoder) float(f float64) {
	e.b = binary.LittleEndian.AppendUint64(e.b, math.Float64bits(f))
}
func (e *encoder) bool(v bool) {
	if v {
		e.uint(1)
	} else {
		e.uint(0)
	}
}
func (e *encoder) bytes(p []byte) {
	e.uint(uint64(len(p)))
	e.b = append(e.b, p...)
}

// errCorrupt is a decoder's error for anything it cannot read back.
var errCorrupt = errors.New("corrupt cache entry")

// decoder reads what encoder wrote; the first failure sticks, and every
// later read returns zero, so a caller checks err once at the end.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail() { d.err, d.b = errCorrupt, nil }

func (d *decoder) uint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) int() int64 {
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) float() float64 {
	if len(d.b) < 8 {
		d.fail()
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(d.b))
	d.b = d.b[8:]
	return v
}

func (d *decoder) bool() bool {
	switch d.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail()
	return false
}

// intIn reads an int in [lo, hi].
func (d *decoder) intIn(lo, hi int64) int64 {
	v := d.int()
	if v < lo || v > hi {
		d.fail()
		return 0
	}
	return v
}

// count reads the length of a list whose items take at least per bytes
// each, failing when the rest of the input cannot hold that many: a
// corrupt length never makes a large allocation.
func (d *decoder) count(per int) int {
	n := d.uint()
	if n > uint64(len(d.b)/per) {
		d.fail()
		return 0
	}
	return int(n)
}

func (d *decoder) bytes() []byte {
	n := d.count(1)
	p := d.b[:n]
	d.b = d.b[n:]
	return p
}

// end fails unless the input is used up.
func (d *decoder) end() error {
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	return d.err
}
