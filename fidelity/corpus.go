package fidelity

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
)

// Point is one design point of the corpus: a kernel on a graph, on a
// system of FPGAs x PEs of one board, with one architecture, edge memory
// and PE design. The partitioner is greedy-edge and the update filter is
// on, as `gravf-tui sim` defaults.
type Point struct {
	Kernel string `json:"kernel"`
	// Graph is a generator spec, or (Dataset) a file of the dataset
	// folder read with Format.
	Graph    string       `json:"graph"`
	Dataset  bool         `json:"dataset,omitempty"`
	Format   graph.Format `json:"format,omitempty"`
	Directed bool         `json:"directed,omitempty"`
	// Class is the graph class the summary groups by.
	Class string         `json:"class"`
	Board string         `json:"board"`
	FPGAs int            `json:"fpgas"`
	PEs   int            `json:"pes"`
	Arch  model.Arch     `json:"arch"`
	Mem   model.MemKind  `json:"mem"`
	PE    model.PEDesign `json:"pe"`
	// MemPeak, when set, overrides the board's edge memory bandwidth
	// (memory.peak_gib_s, GiB/s per FPGA), as `--set` does.
	MemPeak float64 `json:"mem_peak_gib_s,omitempty"`
	// CI marks the points of the subset that `go test ./fidelity` runs.
	CI bool `json:"ci,omitempty"`
	// Why says what the point stresses.
	Why string `json:"why,omitempty"`
}

// Name identifies the point in tables: kernel, graph, design.
func (p Point) Name() string {
	g := p.Graph
	if p.Directed {
		g += " (directed)"
	}
	s := fmt.Sprintf("%s %s %dx%d %s %s", p.Kernel, g, p.FPGAs, p.PEs, p.Mem, p.Arch)
	if p.PE == model.PEPaper {
		s += " paper-PE"
	}
	if p.Board != "ac510" {
		s += " " + p.Board
	}
	if p.MemPeak > 0 {
		s += fmt.Sprintf(" memory.peak_gib_s=%g", p.MemPeak)
	}
	return s
}

// Graph classes.
const (
	ClassRMAT       = "rmat"             // R-MAT with Graph500's scrambled ids
	ClassRMATPlain  = "rmat-unscrambled" // classic R-MAT, hubs at low ids
	ClassUniform    = "uniform"
	ClassGrid       = "grid"
	ClassLayered    = "layered"
	ClassSocial     = "social"   // friendship and vote networks
	ClassCollab     = "collab"   // co-authorship and citation
	ClassP2P        = "p2p"      // peer-to-peer overlay
	ClassRoad       = "road"     // road and power networks: long diameter
	ClassGraph500   = "graph500" // the original GraVF code base's Kronecker graphs
	ClassKarate     = "tiny"     // Zachary's karate club
	classUnassigned = ""
)

// Classes lists the graph classes in the order summaries show them.
var Classes = []string{ClassRMAT, ClassRMATPlain, ClassUniform, ClassGrid, ClassLayered, ClassSocial, ClassCollab, ClassP2P, ClassRoad, ClassGraph500, ClassKarate}

// dataset is one file of the dataset folder.
type dataset struct {
	file     string
	class    string
	format   graph.Format
	directed bool // the file's arcs are directed (the corpus symmetrises them, as sim does by default)
}

// datasets are the public graphs of the dataset folder (the Graphalytics
// validation graphs aside); formats as docs/../SOURCES.md describes them.
var datasets = []dataset{
	{"karate.mtx", ClassKarate, graph.FormatAuto, false},
	{"facebook_combined.txt", ClassSocial, graph.FormatAuto, false},
	{"MIT8.edgelist", ClassSocial, graph.FormatAuto, false},
	{"wiki-Vote.txt", ClassSocial, graph.FormatAuto, true},
	{"astro-ph.graph", ClassCollab, graph.FormatAuto, false},
	{"fpgagraphlib-GRCite.graph", ClassCollab, graph.FormatEdgeList, false},
	{"p2p-Gnutella08.txt", ClassP2P, graph.FormatAuto, true},
	{"power.graph", ClassRoad, graph.FormatAuto, false},
	{"rome99.gr", ClassRoad, graph.FormatAuto, true},
	{"luxembourg_osm.mtx", ClassRoad, graph.FormatEdgeList, false},
	{"fpgagraphlib-s13e16.graph", ClassGraph500, graph.FormatEdgeList, false},
	{"fpgagraphlib-s14e16.graph", ClassGraph500, graph.FormatEdgeList, false},
}

// Kernels are the corpus's kernels.
var Kernels = []string{"wcc", "bfs", "pr", "sssp"}

// design is a system shape without the workload.
type design struct {
	fpgas, pes int
	mem        model.MemKind
	arch       model.Arch
	pe         model.PEDesign
	board      string
}

func (d design) point(k, g, class string) Point {
	return Point{Kernel: k, Graph: g, Class: class, Board: d.board, FPGAs: d.fpgas, PEs: d.pes, Arch: d.arch, Mem: d.mem, PE: d.pe}
}

func (d design) dataset(k string, ds dataset) Point {
	p := d.point(k, ds.file, ds.class)
	p.Dataset, p.Format = true, ds.format
	return p
}

// dm is the common design: GraVF-M, the generated PE, the AC-510.
func dm(nF, nP int, mem model.MemKind) design {
	return design{fpgas: nF, pes: nP, mem: mem, arch: model.GraVFM, pe: model.PEGenerated, board: "ac510"}
}

const (
	bram    = model.BRAM
	offchip = model.OffChip
)

func rmatSpec(scale int, scramble bool) string {
	return fmt.Sprintf("rmat:scale=%d,ef=16,seed=1,scramble=%v", scale, scramble)
}

func rmatClass(scramble bool) string {
	if scramble {
		return ClassRMAT
	}
	return ClassRMATPlain
}

// Corpus returns the fidelity corpus: a designed set of points, not the
// cross product of every axis. Every value of every axis appears (the
// test checks it), and each block below stresses one mechanism of the
// machine; the issue's table is the first block. Points are in a fixed
// order and unique.
func Corpus() []Point {
	var ps []Point
	add := func(why string, ci bool, pts ...Point) {
		for _, p := range pts {
			p.Why, p.CI = why, ci
			ps = append(ps, p)
		}
	}
	// The table of issue 11: where fast detail and the model were furthest
	// off (skewed graphs, 4 x 9, the lockstep broadcast and PR's hazards).
	issue := "the issue's table: a skewed graph at 4 x 9"
	add(issue, true,
		dm(4, 9, bram).point("pr", rmatSpec(12, false), ClassRMATPlain),
		dm(4, 9, offchip).dataset("pr", datasets[1]),
		dm(4, 9, offchip).dataset("pr", datasets[11]),
		dm(4, 9, offchip).dataset("pr", datasets[3]),
		dm(4, 9, bram).point("wcc", rmatSpec(14, false), ClassRMATPlain),
	)
	add(issue, false,
		dm(4, 9, offchip).point("wcc", "rmat:scale=18,ef=16,seed=1,scramble=false", ClassRMATPlain),
		dm(4, 9, offchip).point("pr", "rmat:scale=18,ef=16,seed=1,scramble=false", ClassRMATPlain),
	)
	ps = append(ps, rmatBlock()...)
	ps = append(ps, uniformBlock()...)
	ps = append(ps, datasetBlock()...)
	ps = append(ps, shapeBlock()...)
	ps = append(ps, structuredBlock()...)
	ps = append(ps, baselineBlock()...)
	ps = append(ps, paperPEBlock()...)
	ps = append(ps, boardBlock()...)
	ps = append(ps, bandwidthBlock()...)
	return dedupe(ps)
}

// rmatBlock: every R-MAT scale from 12 to 16, scrambled and not, every
// kernel, at 4 x 9 with both edge memories: the lockstep broadcast behind
// hub lists and the most loaded PE of each superstep.
func rmatBlock() []Point {
	var ps []Point
	for scale := 12; scale <= 16; scale++ {
		for _, scr := range []bool{true, false} {
			for i, k := range Kernels {
				mem := []model.MemKind{bram, offchip}[(i+scale)%2]
				p := dm(4, 9, mem).point(k, rmatSpec(scale, scr), rmatClass(scr))
				p.Why = "R-MAT at 4 x 9: hub lists hold the lockstep broadcast"
				// In CI: WCC and PR at scale 12, and BFS and SSSP off-chip at
				// scale 14, where 9 PEs share the memory's grants.
				p.CI = scale == 12 && (k == "wcc" || k == "pr") || scale == 14 && scr && mem == offchip && (k == "bfs" || k == "sssp")
				ps = append(ps, p)
				q := p
				q.Mem = []model.MemKind{offchip, bram}[(i+scale)%2]
				q.CI = false
				ps = append(ps, q)
			}
		}
	}
	return ps
}

// uniformBlock: the paper's degree sweep (Fig. 9: degrees 2 to 64, 4 x 9,
// HMC) for every kernel, and the calibration graphs of Table 3.
func uniformBlock() []Point {
	var ps []Point
	for _, d := range []int{2, 4, 8, 16, 32, 64} {
		for _, k := range Kernels {
			p := dm(4, 9, offchip).point(k, fmt.Sprintf("uniform:v=8192,d=%d,seed=1", d), ClassUniform)
			p.Why = "degree sweep (Fig. 9): crossbars and links bind at low degree, the PEs at high degree"
			p.CI = (d == 4 || d == 64) && (k == "wcc" || k == "pr")
			ps = append(ps, p)
		}
		q := dm(4, 9, bram).point("wcc", fmt.Sprintf("uniform:v=8192,d=%d,seed=1", d), ClassUniform)
		q.Why = "degree sweep with edges in BRAM"
		ps = append(ps, q)
	}
	for _, k := range []string{"wcc", "bfs"} {
		p := dm(4, 9, offchip).point(k, "uniform:v=32768,d=64,seed=1", ClassUniform)
		p.Why = "Table 3's graph: memory bandwidth and the PEs bind together"
		ps = append(ps, p)
	}
	return ps
}

// datasetBlock: every public graph with every kernel at 4 x 9 (both edge
// memories in turn), and the social graphs at smaller systems.
func datasetBlock() []Point {
	var ps []Point
	for i, ds := range datasets {
		for j, k := range Kernels {
			mem := []model.MemKind{bram, offchip}[(i+j)%2]
			p := dm(4, 9, mem).dataset(k, ds)
			p.Why = "a public graph at 4 x 9"
			p.CI = ds.class != ClassRoad && ds.class != ClassGraph500 && (k == "wcc" || k == "bfs") && mem == bram
			ps = append(ps, p)
		}
	}
	for _, ds := range []dataset{datasets[1], datasets[2], datasets[4]} {
		for _, d := range []design{dm(1, 9, bram), dm(2, 4, offchip), dm(1, 4, offchip), dm(2, 9, bram)} {
			for _, k := range []string{"wcc", "pr"} {
				p := d.dataset(k, ds)
				p.Why = "a social graph on smaller systems"
				p.CI = ds.file == "facebook_combined.txt" && d.fpgas == 2 && d.pes == 4
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// threeGraphs are the shape and baseline blocks' graphs: scale-13 R-MAT
// with scrambled and with classic ids, and a uniform graph of the same
// size and a middling degree.
var threeGraphs = []struct{ spec, class string }{
	{rmatSpec(13, true), ClassRMAT},
	{rmatSpec(13, false), ClassRMATPlain},
	{"uniform:v=8192,d=16,seed=1", ClassUniform},
}

// shapeBlock: every system shape of 1, 2 and 4 FPGAs x 1, 4 and 9 PEs,
// both edge memories, on a skewed and an even graph, WCC and PR: one PE
// (no lockstep), one FPGA (no network), and everything between.
func shapeBlock() []Point {
	var ps []Point
	for _, g := range threeGraphs {
		for _, nF := range []int{1, 2, 4} {
			for _, nP := range []int{1, 4, 9} {
				for _, mem := range []model.MemKind{bram, offchip} {
					for _, k := range []string{"wcc", "pr"} {
						if g.class == ClassUniform && k == "pr" && mem == bram {
							continue
						}
						p := dm(nF, nP, mem).point(k, g.spec, g.class)
						p.Why = "system shapes"
						p.CI = g.class == ClassRMAT && nP == 4 && k == "wcc" || g.class == ClassRMATPlain && nF == 2 && nP == 9 && k == "pr" && mem == bram
						ps = append(ps, p)
					}
				}
			}
		}
	}
	return ps
}

// structuredBlock: grids and the layered graphs of Fig. 10 (BFS from the
// single root, w vertices active per superstep for d+1 supersteps, w x d
// constant): barriers and apply sweeps against little work per superstep.
func structuredBlock() []Point {
	var ps []Point
	for _, l := range []string{"layered:w=16384,d=1,extra=4", "layered:w=1024,d=16,extra=4", "layered:w=64,d=256,extra=4"} {
		for _, k := range []string{"bfs", "wcc"} {
			for _, d := range []design{dm(4, 9, offchip), dm(2, 4, bram)} {
				p := d.point(k, l, ClassLayered)
				p.Why = "layered graph (Fig. 10): barrier latency and apply sweeps"
				p.CI = k == "bfs" && d.fpgas == 4 && l == "layered:w=1024,d=16,extra=4"
				ps = append(ps, p)
			}
		}
	}
	for _, g := range []string{"grid:rows=100,cols=100", "grid:rows=256,cols=256"} {
		for _, k := range Kernels {
			for _, d := range []design{dm(4, 9, bram), dm(1, 4, offchip)} {
				p := d.point(k, g, ClassGrid)
				p.Why = "grid: long diameter, low degree"
				p.CI = g == "grid:rows=100,cols=100" && (k == "sssp" || k == "bfs") && d.fpgas == 4
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// baselineBlock: plain GraVF (unicast messages, full edge lists at the
// owner, a crossbar with virtual output queues) on skewed and even graphs.
func baselineBlock() []Point {
	var ps []Point
	for _, g := range threeGraphs {
		for _, shape := range [][2]int{{4, 9}, {2, 4}, {1, 9}, {1, 1}} {
			for _, mem := range []model.MemKind{bram, offchip} {
				for _, k := range []string{"wcc", "pr", "bfs"} {
					d := dm(shape[0], shape[1], mem)
					d.arch = model.GraVF
					p := d.point(k, g.spec, g.class)
					p.Why = "GraVF baseline"
					p.CI = shape == [2]int{4, 9} && mem == offchip && k != "bfs" && g.class != ClassUniform
					ps = append(ps, p)
				}
			}
		}
	}
	for _, ds := range []dataset{datasets[1], datasets[11], datasets[8]} {
		d := dm(4, 9, bram)
		d.arch = model.GraVF
		for _, k := range []string{"wcc", "pr"} {
			p := d.dataset(k, ds)
			p.Why = "GraVF baseline on a public graph"
			ps = append(ps, p)
		}
	}
	return ps
}

// paperPEBlock: the published PE (one lookup cycle per list, 32 aliased
// hazard flags without a bypass) on the calibration graphs and on skewed
// graphs.
func paperPEBlock() []Point {
	var ps []Point
	pp := func(nF, nP int, mem model.MemKind, arch model.Arch) design {
		d := dm(nF, nP, mem)
		d.pe, d.arch = model.PEPaper, arch
		return d
	}
	for _, k := range []string{"wcc", "bfs", "pr"} {
		for _, g := range []struct{ spec, class string }{
			{"uniform:v=8192,d=64,seed=1", ClassUniform},
			{rmatSpec(13, true), ClassRMAT},
			{rmatSpec(13, false), ClassRMATPlain},
		} {
			for _, d := range []design{pp(4, 9, offchip, model.GraVFM), pp(1, 4, bram, model.GraVFM), pp(2, 9, bram, model.GraVF)} {
				p := d.point(k, g.spec, g.class)
				p.Why = "the paper's PE"
				p.CI = d.fpgas == 4 && (k == "pr" || k == "wcc") && g.class != ClassRMATPlain
				ps = append(ps, p)
			}
		}
	}
	for _, ds := range []dataset{datasets[1], datasets[11]} {
		p := pp(4, 9, offchip, model.GraVFM).dataset("pr", ds)
		p.Why = "the paper's PE on a skewed public graph"
		ps = append(ps, p)
	}
	return ps
}

// boardBlock: the U280 (HBM edge memory, its clock and links) on skewed,
// even and public graphs.
func boardBlock() []Point {
	var ps []Point
	u := func(nF, nP int, mem model.MemKind) design {
		d := dm(nF, nP, mem)
		d.board = "u280"
		return d
	}
	for _, k := range Kernels {
		for _, d := range []design{u(4, 9, offchip), u(2, 9, bram), u(1, 4, offchip)} {
			for _, g := range []struct{ spec, class string }{
				{rmatSpec(14, true), ClassRMAT},
				{rmatSpec(12, false), ClassRMATPlain},
				{"uniform:v=8192,d=32,seed=1", ClassUniform},
			} {
				p := d.point(k, g.spec, g.class)
				p.Why = "the U280"
				p.CI = d.fpgas == 4 && k == "pr" && g.class == ClassRMATPlain || d.fpgas == 2 && k == "wcc" && g.class == ClassRMAT
				ps = append(ps, p)
			}
		}
		p := u(4, 9, offchip).dataset(k, datasets[1])
		p.Why = "the U280 on a public graph"
		ps = append(ps, p)
	}
	return ps
}

// bandwidthBlock: the AC-510 with its edge memory's bandwidth lowered
// (memory.peak_gib_s), where fewer words per cycle than there are PEs
// make the memory bind harder than on the board itself: the PEs meet the
// arbiter's rotation in most cycles, and the model's memory limit meets
// its other limits.
func bandwidthBlock() []Point {
	var ps []Point
	add := func(ci bool, peak float64, p Point) {
		p.MemPeak, p.CI, p.Why = peak, ci, "the memory bandwidth lowered: the PEs contend for words"
		ps = append(ps, p)
	}
	add(false, 10, dm(4, 7, offchip).point("wcc", "uniform:v=8192,d=32,seed=1", ClassUniform))
	add(false, 10, dm(4, 7, offchip).point("wcc", "uniform:v=65536,d=32,seed=1", ClassUniform))
	add(false, 10, dm(4, 7, offchip).point("pr", "uniform:v=8192,d=32,seed=1", ClassUniform))
	add(true, 12, dm(4, 9, offchip).point("bfs", rmatSpec(14, true), ClassRMAT))
	add(false, 8.1, dm(2, 9, offchip).point("sssp", rmatSpec(13, false), ClassRMATPlain))
	add(false, 8.1, dm(4, 4, offchip).dataset("pr", datasets[1]))
	return ps
}

// dedupe drops repeated points (the first occurrence wins, keeping its CI
// mark if any copy has one).
func dedupe(ps []Point) []Point {
	seen := map[string]int{}
	var out []Point
	for _, p := range ps {
		key := p.Name()
		if i, ok := seen[key]; ok {
			out[i].CI = out[i].CI || p.CI
			continue
		}
		seen[key] = len(out)
		out = append(out, p)
	}
	return out
}

// Filter selects a subset of the corpus; an empty list accepts every value.
type Filter struct {
	Kernels, Classes, Boards []string
	// Graphs are generator specs or dataset file names, as points name
	// them (rmat:scale=12,ef=16,seed=1,scramble=true, astro-ph.graph).
	Graphs     []string
	FPGAs, PEs []int
	Mems       []model.MemKind
	Archs      []model.Arch
	PEDesigns  []model.PEDesign
	// CI keeps only the CI subset.
	CI bool
}

// Keep reports whether the filter accepts p.
func (f Filter) Keep(p Point) bool {
	ok := func(list []string, v string) bool {
		return len(list) == 0 || slices.ContainsFunc(list, func(s string) bool { return strings.EqualFold(s, v) })
	}
	return ok(f.Kernels, p.Kernel) && ok(f.Classes, p.Class) && ok(f.Boards, p.Board) && ok(f.Graphs, p.Graph) &&
		(len(f.FPGAs) == 0 || slices.Contains(f.FPGAs, p.FPGAs)) && (len(f.PEs) == 0 || slices.Contains(f.PEs, p.PEs)) &&
		(len(f.Mems) == 0 || slices.Contains(f.Mems, p.Mem)) && (len(f.Archs) == 0 || slices.Contains(f.Archs, p.Arch)) &&
		(len(f.PEDesigns) == 0 || slices.Contains(f.PEDesigns, p.PE)) && (!f.CI || p.CI)
}

// Select returns the points of ps the filter keeps.
func (f Filter) Select(ps []Point) []Point {
	var out []Point
	for _, p := range ps {
		if f.Keep(p) {
			out = append(out, p)
		}
	}
	return out
}
