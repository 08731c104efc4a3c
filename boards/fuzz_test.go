package boards

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// FuzzParse feeds Parse arbitrary files, seeded with the built-in boards
// and some broken ones. Parse must not panic nor take more than the
// budget of one input; a rejected file must get located errors; an
// accepted board must satisfy what the model relies on.
func FuzzParse(f *testing.F) {
	for _, n := range Names() {
		src, err := Source(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
		f.Add(bytes.Replace(src, []byte("[[memory]]"), []byte("[memory]"), 1))
		f.Add(bytes.Replace(src, []byte("topology = "), []byte("topology = 1 #"), 1))
	}
	f.Add([]byte("name = \"x\"\nfpga.lut = 1\n[[memory]]\nword_bits = 0\n"))
	f.Add([]byte("memory = [{name = \"a\"}, 3]\npe.cpe = {wcc = nan}\n"))
	f.Add([]byte("[a.b.c]\n[[a.b]]\n"))
	f.Add([]byte(strings.Repeat("a.", 4000) + "a = 1\n"))
	f.Add([]byte("[pe.cpe]\n" + strings.Repeat("wcc = 1\n", 3)))
	f.Fuzz(func(t *testing.T, data []byte) {
		var b *Board
		var err error
		testenv.WithinBudget(t, len(data), func() { b, err = Parse("fuzz.toml", data) })
		if err != nil {
			var l ErrorList
			if !errors.As(err, &l) || len(l) == 0 {
				t.Fatalf("error %T is not a non-empty ErrorList: %v", err, err)
			}
			lines := bytes.Count(data, []byte("\n")) + 1
			for _, e := range l {
				if e.File != "fuzz.toml" || e.Line < 0 || e.Line > lines || e.Msg == "" {
					t.Fatalf("bad error %+v (file has %d lines)", e, lines)
				}
				if !strings.HasPrefix(e.Error(), "fuzz.toml") {
					t.Fatalf("error %q does not name the file", e.Error())
				}
			}
			return
		}
		if err := b.Validate(); err != nil {
			t.Fatalf("Parse accepted a board that Validate rejects: %v", err)
		}
		finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
		if !(b.ClockHz() > 0) || !finite(b.ClockHz()) || b.MaxFPGAs < 1 || b.MaxPEs() < 1 || len(b.Memory) == 0 {
			t.Fatalf("clock %v Hz, %d FPGAs, %d PEs, %d memories", b.ClockHz(), b.MaxFPGAs, b.MaxPEs(), len(b.Memory))
		}
		for i := range b.Memory {
			m := &b.Memory[i]
			if bw := m.BitsPerSecond(); !(bw > 0) || !finite(bw) || bw > m.PeakBitsPerSecond() || m.WordBits%8 != 0 || m.WordBits < 8 {
				t.Fatalf("memory %+v: BW_mem %v", *m, bw)
			}
		}
		if bw := b.NetworkBitsPerSecond(); bw < 0 || !finite(bw) {
			t.Fatalf("BW_net %v", bw)
		}
		if b.Network.FPGAsPerNode < 1 {
			t.Fatalf("fpgas_per_node %d", b.Network.FPGAsPerNode)
		}
		for nF := 1; nF <= min(b.MaxFPGAs, 64); nF++ {
			bw := b.InterfaceBitsPerSecond(nF)
			node := b.NodeInterfaceBitsPerSecond(nF)
			if !finite(bw) || bw < 0 || !finite(node) || node < 0 {
				t.Fatalf("nF=%d: BW_if %v, node %v", nF, bw, node)
			}
			if nF >= 2 && !(bw > 0) {
				t.Fatalf("nF=%d: BW_if %v with a network of %d FPGAs", nF, bw, b.MaxFPGAs)
			}
			if nodes := b.Nodes(nF); nodes < 1 || nodes > nF {
				t.Fatalf("Nodes(%d) = %d", nF, nodes)
			}
		}
		for _, k := range b.CPEKernels() {
			if c, ok := b.CPE(k); !ok || !(c >= 1) {
				t.Fatalf("CPE(%s) = %v", k, c)
			}
		}
	})
}
