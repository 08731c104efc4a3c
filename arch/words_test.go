package arch

import (
	"math/rand/v2"
	"testing"
)

// TestAppendMemWord packs random edges into off-chip words of many shapes
// and compares them with the MemWord layout packed field by field through
// AppendHex (unused fields zero, slots from the last down to the first).
func TestAppendMemWord(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := 0; n < 3000; n++ {
		m := EdgeMemory{WordBits: []int{32, 64, 96, 128, 256, 512, 1024, 2048}[r.IntN(8)]}
		m.SlotBits = min(m.WordBits, []int{16, 32, 64, 128}[r.IntN(4)])
		m.EdgesPerWord = m.WordBits / m.SlotBits
		local := r.IntN(min(m.SlotBits, 32)) + 1
		slot := Layout{Name: "edge slot", Fields: []Field{{"local", local}}}
		if data := r.IntN(min(m.SlotBits-local, 64) + 1); data > 0 {
			slot.Fields = append(slot.Fields, Field{"weight", data})
		}
		w := Words{LocalBits: local, Slot: slot, MemWord: memWord(m, slot), memory: m}
		w.memDigits = w.MemWord.HexDigits()
		edges := r.IntN(m.EdgesPerWord) + 1
		locals, datas := make([]uint32, edges), make([]uint64, edges)
		for i := range locals {
			locals[i], datas[i] = r.Uint32(), r.Uint64()
		}
		var vals []uint64
		if m.WordBits > m.EdgesPerWord*m.SlotBits {
			vals = append(vals, 0)
		}
		for i := m.EdgesPerWord - 1; i >= 0; i-- {
			if m.SlotBits > slot.Width() {
				vals = append(vals, 0)
			}
			var l uint32
			var d uint64
			if i < edges {
				l, d = locals[i], datas[i]
			}
			vals = append(vals, uint64(l))
			if len(slot.Fields) > 1 {
				vals = append(vals, d)
			}
		}
		want := w.MemWord.Hex(vals...)
		got := string(w.AppendMemWord([]byte("x"), edges, func(i int) (uint32, uint64) { return locals[i], datas[i] }))
		if got != "x"+want {
			t.Fatalf("%d-bit words of %d-bit slots (%s), %d edges:\n got %s\nwant x%s", m.WordBits, m.SlotBits, slot, edges, got, want)
		}
	}
}

// BenchmarkAppendMemWord packs a full 128-bit word of four edges, the
// AC-510's, as the export does for every word of an edge memory.
func BenchmarkAppendMemWord(b *testing.B) {
	m := EdgeMemory{WordBits: 128, SlotBits: 32, EdgesPerWord: 4}
	slot := Layout{Name: "edge slot", Fields: []Field{{"local", 15}}}
	w := Words{LocalBits: 15, Slot: slot, MemWord: memWord(m, slot), memory: m}
	w.memDigits = w.MemWord.HexDigits()
	locals := []uint32{1, 22, 333, 4444}
	edge := func(i int) (uint32, uint64) { return locals[i], 0 }
	b.ReportAllocs()
	dst := make([]byte, 0, 64)
	for b.Loop() {
		dst = w.AppendMemWord(dst[:0], 4, edge)
	}
}

// BenchmarkAppendHex packs an edge-index entry (three fields, 70 bits).
func BenchmarkAppendHex(b *testing.B) {
	l := Layout{Name: "edge-index entry", Fields: []Field{{"start", 20}, {"length", 18}, {"degree", 32}}}
	b.ReportAllocs()
	dst := make([]byte, 0, 64)
	for b.Loop() {
		dst = l.AppendHex(dst[:0], 12345, 67, 890)
	}
}
