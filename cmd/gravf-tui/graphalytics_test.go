package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/datasets"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

// graphalyticsCase is one LDBC Graphalytics validation: a kernel on one of
// the benchmark's graphs against its reference output.
type graphalyticsCase struct {
	algo, kernel string
	graph        string // under graphalytics/: the adjacency file or the .e file
	format       string
	directed     bool
	params       []string
	want         string // the reference output
	verilator    bool   // also run the RTL in Verilator (one graph per algorithm in CI)
}

// graphalyticsCases are every graph of the validation set for each of the
// four algorithms, with the roots and iterations their outputs were made
// with (SOURCES.md: BFS and SSSP from vertex 1, or 2 where the graph has no
// 1; PageRank 2 iterations on the example graphs). WCC on a directed graph
// is weak: its arcs are read symmetrised.
var graphalyticsCases = []graphalyticsCase{
	{"BFS", "bfs-depth", "example/example-directed-input", "adj", true, []string{"root=1"}, "example/example-directed-BFS", true},
	{"BFS", "bfs-depth", "example/example-undirected-input", "adj", false, []string{"root=2"}, "example/example-undirected-BFS", false},
	{"BFS", "bfs-depth", "bfs/dir-input", "adj", true, []string{"root=1"}, "bfs/dir-output", false},
	{"WCC", "wcc", "example/example-directed-input", "adj", false, nil, "example/example-directed-WCC", true},
	{"WCC", "wcc", "example/example-undirected-input", "adj", false, nil, "example/example-undirected-WCC", false},
	{"WCC", "wcc", "wcc/undir-input", "adj", false, nil, "wcc/undir-output", false},
	{"SSSP", "sssp-f32", "example/example-directed.e", "ve", true, []string{"root=1"}, "example/example-directed-SSSP", true},
	{"SSSP", "sssp-f32", "example/example-undirected.e", "ve", false, []string{"root=2"}, "example/example-undirected-SSSP", false},
	{"SSSP", "sssp-f32", "sssp/dir-input.e", "ve", true, []string{"root=1"}, "sssp/dir-output", false},
	{"SSSP", "sssp-f32", "sssp/undir-input.e", "ve", false, []string{"root=1"}, "sssp/undir-output", false},
	{"PR", "pr-graphalytics", "example/example-directed-input", "adj", true, []string{"iterations=2"}, "example/example-directed-PR", true},
	{"PR", "pr-graphalytics", "example/example-undirected-input", "adj", false, []string{"iterations=2"}, "example/example-undirected-PR", false},
}

func (c graphalyticsCase) name() string {
	return c.algo + "/" + strings.ReplaceAll(c.graph, "/", "_")
}

// TestGraphalytics checks BFS, WCC, SSSP and PageRank against the
// benchmark's reference outputs on every validation graph: the reference
// engine through `ref --out-format graphalytics`, the simulator at both
// levels of detail (on 2 FPGAs x 2 PEs), and the exported RTL in Icarus
// (and, for one graph per algorithm, in Verilator), whose testbench checks
// every final state against the reference engine's; with GRAVF_LARGE set
// (make check-large) every graph runs in Verilator too. BFS is exact, WCC
// exact up to a renaming of the components, SSSP and PageRank within the
// benchmark's relative tolerance of 1e-4.
func TestGraphalytics(t *testing.T) {
	dir := filepath.Join(datasets.Dir(t), "graphalytics")
	seen := map[string]bool{}
	for _, c := range graphalyticsCases {
		seen[c.algo] = true
		t.Run(c.name(), func(t *testing.T) {
			want := readGraphalytics(t, filepath.Join(dir, c.want))
			args := []string{"--kernel", c.kernel, "--graph", filepath.Join(dir, c.graph), "--format", c.format}
			if c.directed {
				args = append(args, "--directed")
			}
			for _, p := range c.params {
				args = append(args, "--param", p)
			}
			out, _, err := runCLI(t, append(append([]string{"ref", "-q", "--out-format", "graphalytics"}, args...), "--out", "-")...)
			if err != nil {
				t.Fatal(err)
			}
			checkGraphalytics(t, c.algo, "ref", parseGraphalytics(t, "ref", out), want)
			for _, detail := range []sim.Detail{sim.Cycle, sim.Fast} {
				got := simGraphalytics(t, c, filepath.Join(dir, c.graph), detail)
				checkGraphalytics(t, c.algo, "sim "+string(detail), got, want)
			}
			rtlArgs := append(args, "--fpgas", "2", "--pes", "2", "--board", "ac510", "--mem", "bram")
			testenv.NeedTool(t, "iverilog")
			cycles, messages, starts := rtlRun(t, "sim", rtlArgs...)
			cmp := compareWithSim(t, cycles, messages, starts, 2000, rtlArgs...)
			t.Logf("%s: %s", c.name(), cmp)
			if abs(cmp.diff) > 0.05 {
				t.Errorf("RTL and simulator differ by %+.1f %% in total", 100*cmp.diff)
			}
			if c.verilator || os.Getenv("GRAVF_LARGE") != "" {
				testenv.NeedTool(t, "verilator")
				rtlRun(t, "sim-verilator", rtlArgs...)
			}
		})
	}
	if len(seen) != 4 {
		t.Errorf("algorithms checked: %v", seen)
	}
}

// simGraphalytics simulates a case and returns its output as the
// benchmark writes it.
func simGraphalytics(t *testing.T, c graphalyticsCase, path string, detail sim.Detail) map[uint64]string {
	t.Helper()
	spec, err := samples.Kernel(c.kernel)
	if err != nil {
		t.Fatal(err)
	}
	format, _ := graph.ParseFormat(c.format)
	weighted, float := spec.Weights()
	g, err := graph.ReadFile(path, graph.ReadOptions{Format: format, Directed: c.directed, Weighted: weighted, FloatWeights: float})
	if err != nil {
		t.Fatal(err)
	}
	pm, err := parseParams(c.params)
	if err != nil {
		t.Fatal(err)
	}
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices(), Params: pm, Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	b, err := boards.Load("ac510")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), &sim.Setup{Board: b, Kernel: k, Graph: g, FPGAs: 2, PEs: 2, Filter: true, Detail: detail})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	r := &kernel.Result{Kernel: k, Graph: g, States: res.States, Fields: res.Fields}
	if err := r.WriteGraphalytics(&buf, 0); err != nil {
		t.Fatal(err)
	}
	return parseGraphalytics(t, "sim", buf.String())
}

func readGraphalytics(t *testing.T, path string) map[uint64]string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return parseGraphalytics(t, filepath.Base(path), string(b))
}

// parseGraphalytics reads "vertex value" lines.
func parseGraphalytics(t *testing.T, name, text string) map[uint64]string {
	t.Helper()
	out := map[uint64]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			t.Fatalf("%s:%d: %q is not \"vertex value\"", name, n, sc.Text())
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out[v] = f[1]
	}
	return out
}

// checkGraphalytics compares an output with the reference by the
// benchmark's rule for the algorithm.
func checkGraphalytics(t *testing.T, algo, who string, got, want map[uint64]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d vertices, the reference has %d", who, len(got), len(want))
	}
	rename := map[string]string{} // WCC: our component label -> the reference's
	used := map[string]string{}
	bad := 0
	for v, w := range want {
		g, ok := got[v]
		var why string
		switch {
		case !ok:
			why = "missing"
		case algo == "WCC":
			if r, seen := rename[g]; seen && r != w {
				why = fmt.Sprintf("component %s is %s elsewhere", g, r)
			} else if o, taken := used[w]; taken && o != g {
				why = fmt.Sprintf("the reference's component %s is %s elsewhere", w, o)
			}
			rename[g], used[w] = w, g
		case algo == "BFS":
			if g != w {
				why = "differs"
			}
		default:
			why = closeReal(g, w)
		}
		if why != "" {
			if bad < 5 {
				t.Errorf("%s: vertex %d: %s, want %s: %s", who, v, g, w, why)
			}
			bad++
		}
	}
}

// closeReal compares real values within the benchmark's 1e-4 relative
// tolerance; Infinity only equals Infinity.
func closeReal(got, want string) string {
	a, err1 := strconv.ParseFloat(got, 64)
	b, err2 := strconv.ParseFloat(want, 64)
	switch {
	case err1 != nil || err2 != nil:
		return "not a number"
	case math.IsInf(a, 0) || math.IsInf(b, 0):
		if a != b {
			return "differs"
		}
	case math.Abs(a-b) > 1e-4*math.Abs(b) && math.Abs(a-b) > 1e-12:
		return fmt.Sprintf("relative error %.2g", math.Abs(a-b)/math.Abs(b))
	}
	return ""
}

// globalsKernel exercises every reduction on integer and f32 globals: a WCC
// whose vertices also record, each superstep, how many vertices changed
// label in the last one (sum), the largest and smallest label they hold
// (max, min) and the smallest label as f32 (min over f32).
const globalsKernel = `
name = "wcc-globals"
[layout]
vertex = [["label", "vertexidsize"], ["active", 1], ["changed", 32], ["top", 32], ["low", 32], ["flow", "f32"]]
update = [["label", "vertexidsize"], ["pad", 64], ["pad2", 32], ["fpad", "f32"]]
message = [["label", "vertexidsize"]]
global = [["changed", 32, "sum"], ["top", 32, "max"], ["low", 32, "min"], ["flow", "f32", "min"]]
[code]
init = '''
label  = id
active = 1
'''
gather = '''
label  = min(state.label, msg.label)
active = state.active | (msg.label < state.label)
'''
apply = '''
send           = state.active
update.label   = state.label
update.pad     = 0
update.pad2    = 0
update.fpad    = 0.0
active         = 0
changed        = global.changed
top            = global.top
low            = global.low
flow           = global.flow
global.changed = u32(state.active)
global.top     = u32(state.label)
global.low     = u32(state.label)
global.flow    = f32(state.label)
'''
scatter = '''
label = update.label
'''
`

// TestGlobalsRTL exports a kernel with integer and f32 globals of every
// reduction and runs it in Icarus on one PE and on 2 x 3 PEs: the
// testbench checks every state (which records the globals apply read)
// against the reference engine. The simulator must predict the cycles the
// globals add: it is compared with the RTL for the kernel and for its twin
// without globals, whose difference (the simulator's link model with wide
// updates, +4.5 % on 2 FPGAs) is not the globals'.
func TestGlobalsRTL(t *testing.T) {
	testenv.NeedTool(t, "iverilog")
	twin := globalsKernel
	for _, l := range strings.Split(globalsKernel, "\n") {
		if strings.HasPrefix(l, "global") || strings.Contains(l, "= global.") {
			twin = strings.Replace(twin, l+"\n", "", 1)
		}
	}
	kernels := map[string]string{"wcc-globals": globalsKernel, "wcc-twin": strings.Replace(twin, `"wcc-globals"`, `"wcc-twin"`, 1)}
	dirs := map[string]string{}
	for name, text := range kernels {
		dirs[name] = filepath.Join(t.TempDir(), name)
		if err := os.MkdirAll(dirs[name], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dirs[name], "kernel.toml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, cfg := range [][]string{{"--fpgas", "1", "--pes", "1"}, {"--fpgas", "2", "--pes", "3"}} {
		diff := map[string]float64{}
		for _, name := range []string{"wcc-globals", "wcc-twin"} {
			args := append([]string{"--kernel", dirs[name], "--graph", "rmat:scale=8,ef=4,seed=5", "--board", "ac510", "--mem", "bram"}, cfg...)
			cycles, messages, starts := rtlRun(t, "sim", args...)
			cmp := compareWithSim(t, cycles, messages, starts, 2000, args...)
			t.Logf("%s %v: %s", name, cfg, cmp)
			diff[name] = cmp.diff
		}
		if d := diff["wcc-globals"] - diff["wcc-twin"]; abs(d) > 0.03 {
			t.Errorf("%v: the globals change the RTL's lead over the simulator by %+.1f %%", cfg, 100*d)
		}
	}
}
