package graph

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/membudget"
)

// TestTooLargeFailsEarly is issue 16 item 10: a generator or a file that
// would not fit the memory the process may use fails before anything is
// allocated, with a message naming what and how much.
func TestTooLargeFailsEarly(t *testing.T) {
	t.Setenv(membudget.Env, "100MiB")
	for _, spec := range []string{"rmat:scale=26,ef=16", "uniform:v=10000000,d=100", "grid:rows=10000,cols=10000"} {
		_, err := Load(spec, ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), "needs about") || !strings.Contains(err.Error(), "100.0 MiB left by GRAVF_MAX_MEMORY") {
			t.Errorf("%s: err = %v", spec, err)
		}
	}
	// Small graphs are not affected.
	if _, err := Load("rmat:scale=10", ReadOptions{}); err != nil {
		t.Fatal(err)
	}
	// A file is judged by its size.
	t.Setenv(membudget.Env, "1MiB")
	f := filepath.Join(t.TempDir(), "big.txt")
	os.WriteFile(f, []byte(strings.Repeat("1 2\n", 100000)), 0o644)
	if _, err := Load(f, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "reading "+f) {
		t.Fatalf("file: err = %v", err)
	}
}

// TestMemoryEstimateBoundsMeasured keeps the estimate honest: it must not
// be below what the Builder is measured to hold (its slices' capacities
// and the CSR arrays), or a graph that cannot fit would be let through.
func TestMemoryEstimateBoundsMeasured(t *testing.T) {
	for _, spec := range []string{"uniform:v=20000,d=16", "uniform:v=20000,d=16,directed=true", "uniform:v=20000,d=16,maxw=9", "rmat:scale=14,ef=16", "line:n=50000", "grid:rows=200,cols=200"} {
		s, err := ParseSpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Load(spec, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// What survives the build: offsets, arcs and weights.
		csr := uint64(4*len(g.Offsets) + 4*len(g.Adj) + 4*len(g.Weights))
		if est := s.Gen.memoryEstimate(); est < csr {
			t.Errorf("%s: estimate %d below the CSR arrays alone (%d)", spec, est, csr)
		}
	}
}

// BenchmarkGenerateMemory reports the bytes allocated per drawn edge by
// generation, beside the constant the memory check assumes at the peak
// (allocation counts every slice the builder grows and drops, so it is at
// least the peak).
func BenchmarkGenerateMemory(b *testing.B) {
	for _, spec := range []string{"uniform:v=200000,d=32", "uniform:v=200000,d=32,directed=true", "rmat:scale=17,ef=16"} {
		b.Run(spec, func(b *testing.B) {
			s, _ := ParseSpec(spec)
			est := float64(s.Gen.memoryEstimate())
			b.ReportAllocs()
			var ms0, ms1 runtimeMem
			ms0.read()
			for i := 0; i < b.N; i++ {
				if _, err := Generate(s.Gen); err != nil {
					b.Fatal(err)
				}
			}
			ms1.read()
			b.ReportMetric(float64(ms1.total-ms0.total)/float64(b.N)/est, "alloc/estimate")
		})
	}
}

type runtimeMem struct{ total uint64 }

func (m *runtimeMem) read() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m.total = ms.TotalAlloc
}
