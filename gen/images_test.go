package gen

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

func TestBuildImages(t *testing.T) {
	g, err := graph.Load("grid:rows=6,cols=7,seed=2,maxw=40", graph.ReadOptions{Weighted: true})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := samples.Kernel("sssp")
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices(), Params: map[string]string{"root": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := graph.NewPartition(context.Background(), g, graph.PartitionOptions{FPGAs: 2, PEs: 2, Method: graph.Greedy})
	if err != nil {
		t.Fatal(err)
	}
	d := testDesign(t, k, 2, 2, 1, nil)
	ims, ext, err := BuildImages(d, k, g, p, true)
	if err != nil {
		t.Fatal(err)
	}
	w := d.Words(ext)
	// Every arc appears exactly once, on the PE of its destination, at the
	// place its source's index entry says, with its weight.
	seen := 0
	for pe, im := range ims {
		for u := 0; u < g.NumVertices(); u++ {
			e := im.Index[u]
			if e.Degree != uint32(g.OutDegree(uint32(u))) {
				t.Fatalf("PE %d vertex %d: degree %d", pe, u, e.Degree)
			}
			for i := e.Start; i < e.Start+e.Len; i++ {
				ed := im.Edges[i]
				if int(p.PE[ed.Global]) != pe || p.Local[ed.Global] != ed.Local {
					t.Fatalf("PE %d holds edge %d->%d of PE %d", pe, u, ed.Global, p.PE[ed.Global])
				}
				j := slices.Index(g.Neighbors(uint32(u)), ed.Global)
				if j < 0 || uint64(g.EdgeWeights(uint32(u))[j]) != ed.Data {
					t.Fatalf("edge %d->%d: not an arc, or weight %d", u, ed.Global, ed.Data)
				}
				seen++
			}
		}
		for l, v := range im.Vertices {
			if p.Members[pe][l] != v.Global {
				t.Fatalf("PE %d local %d is %d, want %d", pe, l, v.Global, p.Members[pe][l])
			}
		}
	}
	if seen != g.NumArcs() {
		t.Fatalf("%d edges in the images, %d arcs in the graph", seen, g.NumArcs())
	}
	// The root's initial state: dist 0, active 1 -> 33 bits = 0x000000001.
	var buf bytes.Buffer
	if err := ims[p.PE[3]].WriteState(&buf, w); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if got := lines[p.Local[3]]; got != "000000001" {
		t.Fatalf("root state %q, want 000000001 (dist 0, active 1)", got)
	}
	other := lines[(p.Local[3]+1)%uint32(len(lines))]
	if v, _ := strconv.ParseUint(other, 16, 64); v != (uint64(1)<<32-1)<<1 {
		t.Fatalf("unreached state %q, want dist all ones, active 0", other)
	}
	if w.Edge.Width() != d.VertexIDBits+w.LocalBits+16 {
		t.Fatalf("edge word %s", w.Edge)
	}
}
