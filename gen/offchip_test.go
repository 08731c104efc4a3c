package gen

import (
	"bytes"
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
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
	ims, w, err := BuildImages(k, g, p, true)
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
	brd, _ := boards.Get("ac510")
	m, err := OffChipFor(brd, k)
	if err != nil {
		t.Fatal(err)
	}
	prm, _ := sim.NewParams(brd, k, false)
	if m.EdgesPerWord() != prm.EdgesPerWord || m.Latency != prm.MemLatency || m.InFlight != prm.InFlight {
		t.Fatalf("off-chip memory %+v differs from the simulator's %+v", m, prm)
	}
	mems, err := LayOutOffChip(ims, &w, nP, m)
	if err != nil {
		t.Fatal(err)
	}
	epw := m.EdgesPerWord()
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
	if 1<<w.MemAddr < max(len(mems[0].Words), len(mems[1].Words)) || w.IndexBits != w.MemAddr+w.ListLen+32 {
		t.Fatalf("widths %+v for %d and %d words", w, len(mems[0].Words), len(mems[1].Words))
	}
	// The image: word 0 of FPGA 0, slot by slot.
	var buf bytes.Buffer
	if err := mems[0].WriteHex(&buf, w, m); err != nil {
		t.Fatal(err)
	}
	line := strings.SplitN(buf.String(), "\n", 2)[0]
	if len(line) != m.WordBits/4 {
		t.Fatalf("word %q: %d digits, want %d", line, len(line), m.WordBits/4)
	}
	word, _ := new(big.Int).SetString(line, 16)
	for i, ed := range mems[0].Words[0] {
		slot := new(big.Int).Rsh(word, uint(i*m.SlotBits)).Uint64() & (1<<uint(m.SlotBits) - 1)
		if slot>>uint(w.EdgeData) != uint64(ed.Local) || slot&(1<<uint(w.EdgeData)-1) != ed.Data {
			t.Fatalf("slot %d = %x, want local %d weight %d", i, slot, ed.Local, ed.Data)
		}
	}
}

func TestLayOutOffChipErrors(t *testing.T) {
	ims := []PEImages{{}, {}}
	w := Widths{Local: 10, EdgeData: 16}
	for _, c := range []struct {
		m    OffChip
		pes  int
		want string
	}{
		{OffChip{WordBits: 128, SlotBits: 16, Latency: 1, InFlight: 4, WordsPerCycle: 1}, 1, "do not fit a 16-bit edge slot"},
		{OffChip{WordBits: 16, SlotBits: 32, Latency: 1, InFlight: 4, WordsPerCycle: 1}, 1, "does not fit the 16-bit memory word"},
		{OffChip{WordBits: 128, SlotBits: 32, Latency: 1, InFlight: 0, WordsPerCycle: 1}, 1, "at least one request"},
		{OffChip{WordBits: 128, SlotBits: 32, Latency: 1, InFlight: 4, WordsPerCycle: 0}, 1, "bandwidth"},
		{OffChip{WordBits: 128, SlotBits: 32, Latency: 1, InFlight: 4, WordsPerCycle: 1}, 3, "do not fill FPGAs of 3"},
	} {
		if _, err := LayOutOffChip(ims, &w, c.pes, c.m); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error containing %q", c.m, err, c.want)
		}
	}
}
