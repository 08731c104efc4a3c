package gen

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/model"
)

var update = flag.Bool("update", false, "rewrite the golden export projects under testdata/export")

// goldenTools replaces the installed tools' versions in the golden
// projects' manifests, so that the comparison does not depend on them.
var goldenTools = map[string]string{"iverilog": "pinned", "verilator": "pinned", "yosys": "pinned"}

// goldenProjects are small exported projects kept byte for byte under
// testdata/export/<name>: together they cover hand-written and generated
// (f32) kernels, edge data, one and several FPGAs, and edges in block RAM
// and off-chip. The graphs are generated, so the goldens need no dataset.
var goldenProjects = []struct {
	name, kernel, graph string
	nF, nP              int
	mem                 model.MemKind
}{
	// WCC with its hand-written Verilog kernels, 2 x 2, block RAM, on a
	// small R-MAT graph.
	{"wcc-bram-2x2", "wcc", "rmat:scale=5,ef=3,seed=1", 2, 2, model.BRAM},
	// PageRank: generated kernels with f32 units, 3 x 1, block RAM.
	{"pr-bram-3x1", "pr", "uniform:v=24,d=3,seed=2", 3, 1, model.BRAM},
	// BFS with its edges in the board's off-chip memory, 2 x 2.
	{"bfs-offchip-2x2", "bfs", "uniform:v=40,d=4,seed=3", 2, 2, model.OffChip},
	// SSSP (edge weights) on one FPGA of 3 PEs, block RAM.
	{"sssp-bram-1x3", "sssp", "grid:rows=5,cols=5,seed=4,maxw=9", 1, 3, model.BRAM},
}

// TestExportGolden exports the golden projects and compares every file
// byte for byte with testdata/export; `go test ./gen -run Golden -update`
// rewrites them. A difference is either a bug or an intended change of the
// generated project, which the golden diff then shows.
func TestExportGolden(t *testing.T) {
	brd, err := boards.Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range goldenProjects {
		t.Run(c.name, func(t *testing.T) {
			k, g := loadSample(t, c.kernel, c.graph, "")
			dir := filepath.Join(t.TempDir(), c.name)
			_, err := Export(context.Background(), ExportOptions{Board: brd, Kernel: k, Graph: g, FPGAs: c.nF, PEs: c.nP,
				Filter: true, Mem: c.mem, Dir: dir, Version: "golden", ToolVersions: goldenTools})
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "export", c.name)
			if *update {
				if err := os.RemoveAll(golden); err != nil {
					t.Fatal(err)
				}
				if err := os.CopyFS(golden, os.DirFS(dir)); err != nil {
					t.Fatal(err)
				}
				return
			}
			compareTrees(t, golden, dir)
		})
	}
}

// TestExportGoldenRuns runs the testbench of every golden project in
// Icarus and compares its result line (cycles and messages) with
// testdata/export/<name>.result, so that a change of the RTL shows what it
// does to the cycle count beside its diff; -update rewrites the files.
func TestExportGoldenRuns(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	for _, c := range goldenProjects {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), c.name)
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "export", c.name))); err != nil {
				t.Fatal(err)
			}
			got := lastLine(make_(t, dir, "sim")) + "\n"
			if !strings.HasPrefix(got, "RESULT PASS") {
				t.Fatalf("make sim: %s", got)
			}
			file := filepath.Join("testdata", "export", c.name+".result")
			if *update {
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("make sim: %s, the golden result: %s", strings.TrimSpace(got), strings.TrimSpace(string(want)))
			}
		})
	}
}

// compareTrees reports every file that differs between the golden folder
// and the exported one, or exists in only one of them.
func compareTrees(t *testing.T, golden, got string) {
	t.Helper()
	want, have := treeFiles(t, golden), treeFiles(t, got)
	for _, p := range want {
		if !slices.Contains(have, p) {
			t.Errorf("%s: missing from the export", p)
		}
	}
	for _, p := range have {
		if !slices.Contains(want, p) {
			t.Errorf("%s: not in the golden project (run with -update if intended)", p)
			continue
		}
		w, err := os.ReadFile(filepath.Join(golden, p))
		if err != nil {
			t.Fatal(err)
		}
		h, err := os.ReadFile(filepath.Join(got, p))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w, h) {
			t.Errorf("%s differs from the golden file (run with -update if intended):\n%s", p, firstDiff(string(w), string(h)))
		}
	}
}

func treeFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// firstDiff shows the first line at which two texts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\n  golden: %s\n  export: %s", i+1, a, b)
		}
	}
	return "(line endings)"
}
