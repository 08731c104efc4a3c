package bench

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/gravf-tui/gravf-tui/graph"
)

// Options select and configure a run.
type Options struct {
	// Only keeps the groups whose name is listed (see Groups); empty runs
	// every group except the large one.
	Only []string
	// Large adds the large group (fast detail on R-MAT scale 24, minutes
	// and gigabytes).
	Large bool
	// Repeats is how many times each side of a comparison is timed
	// (default 5; groups whose single run takes minutes use fewer).
	Repeats int
	// Self is the gravf-tui binary, which the memory rows run as a child
	// process to measure a command's peak resident memory.
	Self string
	// Python is the interpreter with numpy and scipy (default
	// /usr/bin/python3, Debian's, where python3-scipy installs them).
	Python string
	// Work is the scratch folder for graph files and exported projects;
	// empty uses a temporary folder that is removed afterwards.
	Work string
	// Log receives a line per step, so that a long run shows where it is.
	Log io.Writer
	// Revision names the code measured in the report (default: the VCS
	// revision the binary was built with, where the build recorded it).
	Revision string
	// Baseline is an earlier report whose figures each row is printed
	// beside (nil: the embedded baseline.json).
	Baseline *Report
}

// Report is the outcome of a run.
type Report struct {
	// Revision names the code measured (git describe of the module, or
	// what the caller set).
	Revision string `json:"revision"`
	Go       string `json:"go"`
	CPUs     int    `json:"cpus"`
	// Load is the machine's 1-minute load average when the run started.
	Load    float64   `json:"load"`
	Started time.Time `json:"started"`
	Rows    []Row     `json:"rows"`
}

// Row is one line of the results table.
type Row struct {
	// ID names the row across runs (the baseline is matched by it).
	ID string `json:"id"`
	// What says what is measured, in the table's words.
	What string `json:"what"`
	// Value is the headline figure (the median of the samples for times)
	// in Unit.
	Value float64 `json:"value"`
	Unit  string  `json:"unit"`
	// Samples are the individual measurements behind Value, in run order.
	Samples []float64 `json:"samples,omitempty"`
	// Peer is what the peer took for the same work, when there is one.
	Peer *Peer `json:"peer,omitempty"`
	// Target is the figure to reach and whether Value reaches it.
	Target *Target `json:"target,omitempty"`
	// Notes hold secondary figures (compile time, agreement checks).
	Notes []string `json:"notes,omitempty"`
}

// Peer is the other side of a comparison.
type Peer struct {
	Name    string    `json:"name"`
	Value   float64   `json:"value"`
	Unit    string    `json:"unit"`
	Samples []float64 `json:"samples,omitempty"`
	// Speedup is the peer's median time over ours: above 1, ours is faster.
	Speedup float64 `json:"speedup"`
}

// Target is a row's goal.
type Target struct {
	Text string `json:"text"`
	Met  bool   `json:"met"`
}

//go:embed baseline.json
var baselineJSON []byte

// Baseline returns the embedded report measured before the performance
// work; rows print their figure beside it.
func Baseline() (*Report, error) {
	var r Report
	if err := json.Unmarshal(baselineJSON, &r); err != nil {
		return nil, fmt.Errorf("bench: embedded baseline.json: %w", err)
	}
	return &r, nil
}

// Find returns the row with the given id, or nil.
func (r *Report) Find(id string) *Row {
	if r == nil {
		return nil
	}
	for i := range r.Rows {
		if r.Rows[i].ID == id {
			return &r.Rows[i]
		}
	}
	return nil
}

// group is a set of rows measured together because they share their
// setup (a graph, an exported project).
type group struct {
	name, doc string
	large     bool
	run       func(ctx context.Context, e *env) ([]Row, error)
}

// groups lists every group in the order a run measures them.
var groups = []group{
	{name: "model", doc: "one model evaluation and a 64 x 64 x 4 sweep", run: modelRows},
	// memory comes before the groups that load large graphs in this
	// process: a child's peak includes the high-water mark of the process
	// it was started from (the kernel counts the parent's pages it shared
	// until exec), which freeing memory does not lower.
	{name: "memory", doc: "peak memory of loading, of the simulator and of the edge-list reader on a repeated line", run: memoryRows},
	{name: "graph", doc: "R-MAT generation and edge-list reading against numpy and scipy", run: graphRows},
	{name: "ref", doc: "the reference engine against scipy on R-MAT scale 20", run: refRows},
	{name: "export", doc: "export of R-MAT scale 18 for 4 x 9 off-chip against the disk", run: exportRows},
	{name: "command", doc: "the model command on R-MAT scale 20, latency-aware prediction included", run: commandRows},
	{name: "simrate", doc: "simulated messages per second on R-MAT scale 18, 4 x 9", run: simRateRows},
	{name: "verilator", doc: "cycle and fast detail against Verilator on the same exported designs", run: verilatorRows},
	{name: "large", doc: "fast detail on R-MAT scale 24 (about 537 M arcs): time and peak memory", large: true, run: largeRows},
}

// Groups returns the names and descriptions of the groups, for --help.
func Groups() [][2]string {
	var out [][2]string
	for _, g := range groups {
		out = append(out, [2]string{g.name, g.doc})
	}
	return out
}

// Run measures the selected groups and returns their rows.
func Run(ctx context.Context, opt Options) (*Report, error) {
	if opt.Repeats <= 0 {
		opt.Repeats = 5
	}
	if opt.Python == "" {
		opt.Python = "/usr/bin/python3"
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	for _, name := range opt.Only {
		if !slices.ContainsFunc(groups, func(g group) bool { return g.name == name }) {
			return nil, fmt.Errorf("bench: unknown group %q (known: %s)", name, groupNames())
		}
	}
	e, err := newEnv(opt)
	if err != nil {
		return nil, err
	}
	defer e.close()
	if opt.Revision == "" {
		opt.Revision = revision()
	}
	rep := &Report{Revision: opt.Revision, Go: runtime.Version(), CPUs: runtime.NumCPU(), Load: loadAverage(), Started: time.Now().UTC().Truncate(time.Second)}
	for _, g := range groups {
		if !selected(g, opt) {
			continue
		}
		e.logf("== %s: %s", g.name, g.doc)
		rows, err := g.run(ctx, e)
		if err != nil {
			if ctx.Err() != nil {
				return rep, ctx.Err()
			}
			return rep, fmt.Errorf("bench %s: %w", g.name, err)
		}
		rep.Rows = append(rep.Rows, rows...)
	}
	return rep, nil
}

func selected(g group, opt Options) bool {
	if len(opt.Only) > 0 {
		return slices.Contains(opt.Only, g.name)
	}
	return !g.large || opt.Large
}

func groupNames() string {
	var s []string
	for _, g := range groups {
		s = append(s, g.name)
	}
	return strings.Join(s, ", ")
}

// env is what the groups share: options, the scratch folder, and graphs
// loaded once.
type env struct {
	opt     Options
	work    string
	cleanup bool
	graphs  map[string]*graph.Graph
	csrs    map[string]string
}

func newEnv(opt Options) (*env, error) {
	e := &env{opt: opt, work: opt.Work, graphs: map[string]*graph.Graph{}, csrs: map[string]string{}}
	if e.work == "" {
		d, err := os.MkdirTemp("", "gravf-bench-")
		if err != nil {
			return nil, err
		}
		e.work, e.cleanup = d, true
	} else if err := os.MkdirAll(e.work, 0o755); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *env) close() {
	if e.cleanup {
		os.RemoveAll(e.work)
	}
}

func (e *env) logf(format string, args ...any) {
	fmt.Fprintf(e.opt.Log, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// graph loads a spec once per run.
func (e *env) graph(spec string) (*graph.Graph, error) {
	if g, ok := e.graphs[spec]; ok {
		return g, nil
	}
	e.logf("loading %s", spec)
	g, err := graph.Load(spec, graph.ReadOptions{})
	if err != nil {
		return nil, err
	}
	e.graphs[spec] = g
	return g, nil
}

// csr writes the CSR of a spec's graph for the peers once per run and
// returns its prefix.
func (e *env) csr(spec string) (string, error) {
	if p, ok := e.csrs[spec]; ok {
		return p, nil
	}
	g, err := e.graph(spec)
	if err != nil {
		return "", err
	}
	p := filepath.Join(e.work, fmt.Sprintf("csr%d", len(e.csrs)))
	if err := writeCSR(p, g); err != nil {
		return "", err
	}
	e.csrs[spec] = p
	return p, nil
}

// needSelf fails when the rows that run the binary as a child have no
// binary to run.
func (e *env) needSelf() error {
	if e.opt.Self == "" {
		return errors.New("no gravf-tui binary to run (Options.Self)")
	}
	return nil
}
