package gen

import (
	"bytes"
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// TestLayOutOffChip: every list starts on a word of its FPGA's memory,
// fills the simulator's edges per word in order, and the image holds each
// edge's local index and weight in its slot.
func TestLayOutOffChip(t *testing.T) {
	g, err := graph.Load("grid:rows=9,cols=9,seed=3,maxw=40", graph.ReadOptions{Weighted: true})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := samples.Kernel("sssp")
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: map[string]string{"root": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	const nF, nP = 2, 3
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: nF, PEs: nP, Method: graph.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	brd, _ := boards.Get("ac510")
	d, err := arch.Derive(brd, k, arch.Options{FPGAs: nF, PEs: nP, Mem: arch.OffChip})
	if err != nil {
		t.Fatal(err)
	}
	ims, ext, err := BuildImages(d, k, g, p, true)
	if err != nil {
		t.Fatal(err)
	}
	// The lists as block RAM holds them, before the layout rewrites the index.
	lists := make([][][]EdgeEntry, len(ims))
	for pe, im := range ims {
		for _, e := range im.Index {
			lists[pe] = append(lists[pe], im.Edges[e.Start:e.Start+e.Len])
		}
	}
	m := d.EdgeMemory
	mems, words, err := LayOutOffChip(ims, nP, m)
	if err != nil {
		t.Fatal(err)
	}
	ext.MaxWords = words
	w := d.Words(ext)
	epw := m.EdgesPerWord
	for pe, im := range ims {
		em := mems[pe/nP]
		for u, e := range im.Index {
			want := lists[pe][u]
			if e.Len != uint32(len(want)) {
				t.Fatalf("PE %d vertex %d: length %d, want %d", pe, u, e.Len, len(want))
			}
			for i, ed := range want {
				word := em.Words[int(e.Start)+i/epw]
				if len(word) > epw || word[i%epw] != ed {
					t.Fatalf("PE %d vertex %d edge %d: not in slot %d of word %d", pe, u, i, i%epw, int(e.Start)+i/epw)
				}
			}
		}
	}
	if 1<<w.MemAddrBits < max(len(mems[0].Words), len(mems[1].Words)) || w.Index.Width() != w.MemAddrBits+w.ListLenBits+arch.DegreeBits {
		t.Fatalf("widths %+v for %d and %d words", w, len(mems[0].Words), len(mems[1].Words))
	}
	// The image: word 0 of FPGA 0, slot by slot.
	var buf bytes.Buffer
	if err := mems[0].WriteHex(&buf, w); err != nil {
		t.Fatal(err)
	}
	line := strings.SplitN(buf.String(), "\n", 2)[0]
	if len(line) != m.WordBits/4 {
		t.Fatalf("word %q: %d digits, want %d", line, len(line), m.WordBits/4)
	}
	word, _ := new(big.Int).SetString(line, 16)
	for i, ed := range mems[0].Words[0] {
		slot := new(big.Int).Rsh(word, uint(i*m.SlotBits)).Uint64() & (1<<uint(m.SlotBits) - 1)
		ed0 := d.EdgeData.Width()
		if slot>>uint(ed0) != uint64(ed.Local) || slot&(1<<uint(ed0)-1) != ed.Data {
			t.Fatalf("slot %d = %x, want local %d weight %d", i, slot, ed.Local, ed.Data)
		}
	}
}

func TestLayOutOffChipErrors(t *testing.T) {
	ims := []PEImages{{}, {}}
	for _, c := range []struct {
		m    *arch.EdgeMemory
		pes  int
		want string
	}{
		{memory(16, 32, 1, 4, 1), 1, "does not fit the 16-bit memory word"},
		{memory(128, 32, 1, 0, 1), 1, "at least one request"},
		{memory(128, 32, 1, 4, 0), 1, "bandwidth"},
		{memory(128, 32, 0, 4, 1), 1, "latency"},
		{memory(128, 32, 1, 4, 1), 3, "do not fill FPGAs of 3"},
	} {
		if _, _, err := LayOutOffChip(ims, c.pes, *c.m); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error containing %q", c.m, err, c.want)
		}
	}
	// A slot too small for a local index and the edge data.
	w := arch.Words{LocalBits: 10, Slot: arch.Layout{Fields: []arch.Field{{Name: "local", Width: 10}, {Name: "weight", Width: 16}}}}
	if err := w.CheckSlot(*memory(128, 16, 1, 4, 1)); err == nil || !strings.Contains(err.Error(), "do not fit a 16-bit edge slot") {
		t.Errorf("a 26-bit slot in 16 bits: %v", err)
	}
}
