package arch

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestAppendHex packs random values into layouts of every shape and
// compares the words with big.Int arithmetic.
func TestAppendHex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 2000; n++ {
		var l Layout
		for i := r.IntN(6) + 1; i > 0; i-- {
			l.Fields = append(l.Fields, Field{Name: "f", Width: r.IntN(64) + 1})
		}
		vals := make([]uint64, len(l.Fields))
		want := new(big.Int)
		for i, f := range l.Fields {
			vals[i] = r.Uint64()
			v := new(big.Int).SetUint64(vals[i])
			v.And(v, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(f.Width)), big.NewInt(1)))
			want.Lsh(want, uint(f.Width)).Or(want, v)
		}
		got := l.Hex(vals...)
		if len(got) != l.HexDigits() {
			t.Fatalf("%s: %d digits, want %d", l, len(got), l.HexDigits())
		}
		g, ok := new(big.Int).SetString(got, 16)
		if !ok || g.Cmp(want) != 0 {
			t.Fatalf("%s %x: %s, want %x", l, vals, got, want)
		}
	}
}

func TestLayoutFind(t *testing.T) {
	l := Layout{Name: "edge-index entry", Fields: []Field{{"start", 12}, {"length", 12}, {"degree", 32}}}
	if l.Width() != 56 || l.String() != "start:12 length:12 degree:32" {
		t.Fatalf("%s: %d bits", l, l.Width())
	}
	for _, c := range []struct {
		name     string
		lsb, wid int
	}{{"start", 44, 12}, {"length", 32, 12}, {"degree", 0, 32}} {
		if lsb, w, ok := l.Find(c.name); !ok || lsb != c.lsb || w != c.wid {
			t.Errorf("%s: bit %d, %d wide (%v); want %d, %d", c.name, lsb, w, ok, c.lsb, c.wid)
		}
	}
	if l.Has("none") {
		t.Error("a field that is not there")
	}
	if got := l.Hex(0xabc, 0x5, 0x1f); got != "abc0050000001f" {
		t.Errorf("Hex: %s", got)
	}
}
