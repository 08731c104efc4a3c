package gen

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

var resultLine = regexp.MustCompile(`RESULT PASS cycles=(\d+)`)

// benchProject exports a 2 x 2 BFS system on an R-MAT graph of 16384
// vertices (about 260,000 arcs) and returns its folder.
func benchProject(b *testing.B, mem model.MemKind) (string, *boards.Board, *kernel.Kernel, *graph.Graph) {
	b.Helper()
	g, err := graph.Load("rmat:scale=14,ef=8,seed=1", graph.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	spec, _ := samples.Kernel("bfs")
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices(), Params: map[string]string{"root": "0"}})
	if err != nil {
		b.Fatal(err)
	}
	brd, _ := boards.Get("ac510")
	dir := filepath.Join(b.TempDir(), "proj")
	if _, err := Export(context.Background(), ExportOptions{Board: brd, Kernel: k, Graph: g, FPGAs: 2, PEs: 2, Filter: true, Mem: mem, Dir: dir}); err != nil {
		b.Fatal(err)
	}
	return dir, brd, k, g
}

// BenchmarkRTLSimulation reports simulated cycles per wall-clock second
// of an exported design under Verilator (the compiled model only, built
// before the timer starts) and Icarus, and of the cycle-level event
// simulator on the same configuration, for both edge memories.
func BenchmarkRTLSimulation(b *testing.B) {
	for _, mem := range []model.MemKind{model.BRAM, model.OffChip} {
		dir, brd, k, g := benchProject(b, mem)
		b.Run(string(mem)+"/verilator", func(b *testing.B) {
			testenv.NeedTool(b, "verilator")
			build := exec.Command("make", "-s", "sim-verilator")
			build.Dir = dir
			if out, err := build.CombinedOutput(); err != nil {
				b.Fatalf("make sim-verilator: %v\n%s", err, out)
			}
			b.ResetTimer()
			runRTL(b, dir, filepath.Join(dir, "build", "verilator", "tb_system"))
		})
		b.Run(string(mem)+"/icarus", func(b *testing.B) {
			testenv.NeedTool(b, "iverilog")
			build := exec.Command("make", "-s", "build/sim.vvp")
			build.Dir = dir
			if out, err := build.CombinedOutput(); err != nil {
				b.Fatalf("make build/sim.vvp: %v\n%s", err, out)
			}
			b.ResetTimer()
			runRTL(b, dir, testenv.NeedTool(b, "vvp"), "-n", "build/sim.vvp")
		})
		b.Run(string(mem)+"/sim-cycle", func(b *testing.B) {
			var cycles int64
			for i := 0; i < b.N; i++ {
				r, err := sim.Run(context.Background(), &sim.Setup{Board: brd, Kernel: k, Graph: g, FPGAs: 2, PEs: 2,
					Mem: mem, Filter: true, Detail: sim.Cycle})
				if err != nil {
					b.Fatal(err)
				}
				cycles += r.Cycles
			}
			b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
		})
	}
}

// runRTL runs a built testbench b.N times and reports its cycles per
// second.
func runRTL(b *testing.B, dir, prog string, args ...string) {
	b.Helper()
	var cycles int64
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(prog, args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		m := resultLine.FindSubmatch(out)
		if err != nil || m == nil {
			b.Fatalf("%s: %v\n%s", prog, err, out)
		}
		n, _ := strconv.ParseInt(string(m[1]), 10, 64)
		cycles += n
	}
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
}

// BenchmarkYosysPerPE synthesises FPGA 0 of 1 x 4 systems (WCC and
// PageRank, both edge memories) with yosys and reports the wall time per
// PE.
func BenchmarkYosysPerPE(b *testing.B) {
	testenv.NeedTool(b, "yosys")
	g, err := graph.Load("uniform:v=1024,d=8,seed=1", graph.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	brd, _ := boards.Get("ac510")
	const pes = 4
	for _, name := range []string{"wcc", "pr"} {
		spec, _ := samples.Kernel(name)
		k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices()})
		if err != nil {
			b.Fatal(err)
		}
		for _, mem := range []model.MemKind{model.BRAM, model.OffChip} {
			d, err := arch.Derive(brd, k, arch.Options{FPGAs: 1, PEs: pes, Mem: mem})
			if err != nil {
				b.Fatal(err)
			}
			s, err := GenerateSystem(context.Background(), SystemOptions{Design: d, Kernel: k, Graph: g, Filter: true})
			if err != nil {
				b.Fatal(err)
			}
			b.Run(name+"/"+string(mem), func(b *testing.B) {
				var pe Resources
				for i := 0; i < b.N; i++ {
					if _, pe, err = Estimate(context.Background(), s, brd.FPGA.Family); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N*pes), "s/PE")
				b.ReportMetric(float64(pe.LUT), "LUT/PE")
				b.ReportMetric(float64(pe.FF), "FF/PE")
				b.ReportMetric(pe.BRAM36, "BRAM36/PE")
			})
		}
	}
}

// BenchmarkExport times the export of WCC on R-MAT scale 16 (about 2 M
// arcs), 4 x 9 with edges off-chip and 2 x 4 in block RAM, the graph and
// its reference run outside the timer, and reports the megabytes written
// per second and the bytes of memory allocated per arc (the images are
// streamed, so this stays near the partition's and the layout's).
// GRAVF_BENCH_GRAPH overrides the graph (the figure is for
// rmat:scale=18,ef=16).
func BenchmarkExport(b *testing.B) {
	spec := os.Getenv("GRAVF_BENCH_GRAPH")
	if spec == "" {
		spec = "rmat:scale=16,ef=16,seed=1"
	}
	g, k, brd := wccBench(b, spec)
	for _, c := range benchDesigns {
		b.Run(fmt.Sprintf("%dx%d-%s", c.nF, c.nP, c.mem), func(b *testing.B) {
			var written int64
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				dir := filepath.Join(b.TempDir(), "proj")
				if _, err := Export(context.Background(), ExportOptions{Board: brd, Kernel: k, Graph: g, FPGAs: c.nF, PEs: c.nP, Filter: true, Mem: c.mem, Dir: dir,
					ToolVersions: map[string]string{"iverilog": "pinned"}}); err != nil {
					b.Fatal(err)
				}
				written += dirSize(b, dir)
			}
			b.ReportMetric(float64(written)/1e6/b.Elapsed().Seconds(), "MB/s")
		})
	}
}

func dirSize(b *testing.B, dir string) int64 {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		n += info.Size()
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// BenchmarkImages writes every memory image and expected-state file of a
// WCC system on R-MAT scale 16, 4 x 9 with edges off-chip and 2 x 4 in
// block RAM, to io.Discard group by group (System.WriteGroups, one FPGA's
// lists at a time, as the export does but on one core and without the
// disk), and reports the lines written per second and the bytes
// allocated: the hex encoding and the walk over the lists, which the
// export's figure hides behind the reference run and the file system.
func BenchmarkImages(b *testing.B) {
	g, k, brd := wccBench(b, "rmat:scale=16,ef=16,seed=1")
	for _, c := range benchDesigns {
		d, err := arch.Derive(brd, k, arch.Options{FPGAs: c.nF, PEs: c.nP, Mem: c.mem})
		if err != nil {
			b.Fatal(err)
		}
		sys, err := GenerateSystem(context.Background(), SystemOptions{Design: d, Kernel: k, Graph: g, Filter: true})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%dx%d-%s", c.nF, c.nP, c.mem), func(b *testing.B) {
			var lines lineCounter
			b.ReportAllocs()
			for b.Loop() {
				for _, grp := range sys.WriteGroups() {
					for _, p := range grp {
						if _, ok := sys.streams[p]; ok {
							if err := sys.WriteFile(&lines, p); err != nil {
								b.Fatal(err)
							}
						}
					}
				}
			}
			b.ReportMetric(float64(lines)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

// lineCounter counts the lines written to it.
type lineCounter int64

func (c *lineCounter) Write(p []byte) (int, error) {
	*c += lineCounter(bytes.Count(p, []byte{'\n'}))
	return len(p), nil
}

// benchDesigns are the systems the export benchmarks write: the issue's
// 4 x 9 with edges off-chip and a 2 x 4 in block RAM.
var benchDesigns = []struct {
	nF, nP int
	mem    arch.MemKind
}{{4, 9, arch.OffChip}, {2, 4, arch.BRAM}}

// wccBench loads the graph of spec with WCC bound to it, on the AC-510.
func wccBench(b *testing.B, spec string) (*graph.Graph, *kernel.Kernel, *boards.Board) {
	g, err := graph.Load(spec, graph.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	s, _ := samples.Kernel("wcc")
	k, err := s.Bind(kernel.Env{Vertices: g.NumVertices()})
	if err != nil {
		b.Fatal(err)
	}
	brd, _ := boards.Get("ac510")
	return g, k, brd
}
