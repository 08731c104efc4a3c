package sim_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// TestDatasetsMatchReference runs every sample kernel on every public
// dataset at cycle detail and checks the final states against the BSP
// reference: the SHA-256 of the result TSV for integer kernels, 1e-4
// relative for PageRank. FPGA counts, architectures and memory kinds
// rotate so that each appears many times without the full cross product.
func TestDatasetsMatchReference(t *testing.T) {
	dir := datasets.Dir(t)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	formats := map[string]graph.Format{"fpgagraphlib-GRCite.graph": graph.FormatEdgeList, "fpgagraphlib-s13e16.graph": graph.FormatEdgeList,
		"fpgagraphlib-s14e16.graph": graph.FormatEdgeList, "luxembourg_osm.mtx": graph.FormatEdgeList}
	directed := map[string]bool{"wiki-Vote.txt": true, "p2p-Gnutella08.txt": true, "rome99.gr": true}
	configs := []struct {
		nF, nP int
		arch   model.Arch
		mem    model.MemKind
	}{{1, 4, model.GraVFM, model.BRAM}, {2, 3, model.GraVF, model.OffChip}, {4, 9, model.GraVFM, model.OffChip},
		{4, 2, model.GraVF, model.BRAM}, {2, 9, model.GraVFM, model.BRAM}, {1, 2, model.GraVF, model.OffChip}}
	i := 0
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || filepath.Ext(name) == ".md" {
			continue
		}
		for _, k := range []string{"wcc", "bfs", "sssp", "sswp", "pr", "pr-graphalytics"} {
			c := configs[i%len(configs)]
			i++
			if name == "luxembourg_osm.mtx" {
				// 1,300 supersteps of apply sweeps: only the widest system.
				c.nF, c.nP = 4, 9
			}
			t.Run(fmt.Sprintf("%s/%s/%dx%d/%s/%s", name, k, c.nF, c.nP, c.arch, c.mem), func(t *testing.T) {
				if testing.Short() && name == "luxembourg_osm.mtx" {
					t.Skip("long")
				}
				fx := load(t, k, filepath.Join(dir, name), graph.ReadOptions{Format: formats[name], Directed: directed[name]})
				res, err := sim.Run(context.Background(), &sim.Setup{Board: board(t, "ac510"), Kernel: fx.k, Graph: fx.g,
					FPGAs: c.nF, PEs: c.nP, Arch: c.arch, Mem: c.mem, Filter: true, Detail: sim.Cycle})
				if err != nil {
					t.Fatal(err)
				}
				if res.Messages != fx.ref.Messages {
					t.Fatalf("messages %d, reference %d", res.Messages, fx.ref.Messages)
				}
				if !strings.HasPrefix(k, "pr") {
					if res.ResultSHA256 != fx.sha {
						t.Fatal("result hash differs from the reference")
					}
					return
				}
				if worst := worstRelative(fx.ref.States, res.States); worst > 1e-4 {
					t.Fatalf("PageRank: worst relative error %.3g > 1e-4", worst)
				}
			})
		}
	}
}
