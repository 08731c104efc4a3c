package fidelity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

// The bounds the corpus is held to (issue 11): fast detail against cycle
// detail in total cycles and in every superstep of at least StepMinCycles
// cycles, and the model's prediction against cycle detail's throughput on
// points that traverse at least ModelMinEdges edges.
const (
	FastTotalBound = 0.05
	FastStepBound  = 0.10
	StepMinCycles  = 1000
	ModelBound     = 0.15
	ModelMinEdges  = 100000
)

// Env is where a measurement finds what a point names.
type Env struct {
	// Datasets is the folder holding the public graph files.
	Datasets string
	// Cores is how many cores each simulation may use (sim.Setup.Cores;
	// 0: all). A pool that measures points side by side gives each one.
	Cores int
}

// Measurement is one point measured at both levels of detail and by the
// model.
type Measurement struct {
	Point    Point  `json:"point"`
	Name     string `json:"name"`
	Graph    string `json:"graph"` // the loaded graph's canonical name
	Vertices int    `json:"vertices"`
	Arcs     int64  `json:"arcs"`
	Messages int64  `json:"messages"` // traversed edges
	// Supersteps is the reference engine's superstep count.
	Supersteps int `json:"supersteps"`

	Cycle int64 `json:"cycle_cycles"`
	Fast  int64 `json:"fast_cycles"`
	// FastErr is fast/cycle - 1 in total cycles.
	FastErr float64 `json:"fast_error"`
	// StepsCompared counts the supersteps of at least StepMinCycles cycles
	// (cycle detail); WorstStep is the one where fast detail is furthest
	// off.
	StepsCompared int       `json:"steps_compared"`
	WorstStep     *StepDiff `json:"worst_step,omitempty"`
	// CycleSteps and FastSteps are every superstep's cycles at both levels.
	CycleSteps []int64 `json:"cycle_supersteps"`
	FastSteps  []int64 `json:"fast_supersteps"`

	CycleTEPS float64 `json:"cycle_teps"`
	FastTEPS  float64 `json:"fast_teps"`
	// TSys is the model's bound; Predicted its prediction (0 when the model
	// has none) and ModelErr predicted/cycle - 1 in throughput.
	TSys      float64 `json:"model_tsys"`
	Predicted float64 `json:"model_predicted_teps"`
	ModelErr  float64 `json:"model_error"`

	CycleSeconds float64 `json:"cycle_wall_seconds"`
	FastSeconds  float64 `json:"fast_wall_seconds"`

	// NoFast says that fast detail was not run (validate --model-only):
	// the fast figures are empty and FastOK holds.
	NoFast bool `json:"no_fast,omitempty"`
	// CycleFrom names the earlier run whose cycle-detail result the
	// measurement reuses (validate --cycle-from); empty when cycle
	// detail ran now.
	CycleFrom string `json:"cycle_from,omitempty"`
	// Prediction is the model's prediction in full (MeasureModel only:
	// the breakdown per superstep, to compare with CycleSteps).
	Prediction *model.Prediction `json:"prediction,omitempty"`
}

// StepDiff is one superstep at both levels of detail.
type StepDiff struct {
	Index int     `json:"superstep"`
	Cycle int64   `json:"cycle_cycles"`
	Fast  int64   `json:"fast_cycles"`
	Err   float64 `json:"error"`
}

// ModelChecked reports whether the point is held to ModelBound.
func (m *Measurement) ModelChecked() bool { return m.Predicted > 0 && m.Messages >= ModelMinEdges }

// FastOK reports whether fast detail is within its bounds on this point.
func (m *Measurement) FastOK() bool {
	if m.NoFast {
		return true
	}
	return math.Abs(m.FastErr) <= FastTotalBound && (m.WorstStep == nil || math.Abs(m.WorstStep.Err) <= FastStepBound)
}

// ModelOK reports whether the model's prediction is within its bound (or
// the point is not held to it) and never above the model's T_sys.
func (m *Measurement) ModelOK() bool {
	if m.Predicted > 0 && m.TSys > 0 && m.Predicted > m.TSys*(1+1e-9) {
		return false
	}
	return !m.ModelChecked() || math.Abs(m.ModelErr) <= ModelBound
}

// Measure loads the point's graph and kernel, runs the reference engine,
// cycle detail, fast detail and the model's prediction, and compares them.
func Measure(ctx context.Context, env Env, p Point) (*Measurement, error) {
	in, err := load(env, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return in.measure(ctx, true)
}

// MeasureCycle is Measure without fast detail: the reference engine,
// cycle detail and the model's prediction.
func MeasureCycle(ctx context.Context, env Env, p Point) (*Measurement, error) {
	in, err := load(env, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	return in.measure(ctx, false)
}

// inputs is a point with its graph, kernel and board loaded.
type inputs struct {
	p     Point
	cores int
	board *boards.Board
	k     *kernel.Kernel
	g     *graph.Graph
}

func load(env Env, p Point) (*inputs, error) {
	b, err := boards.Get(p.Board)
	if err != nil {
		return nil, err
	}
	if p.MemPeak > 0 {
		if b, err = boards.Override(b, map[string]float64{"memory.peak_gib_s": p.MemPeak}); err != nil {
			return nil, err
		}
	}
	spec, err := samples.Kernel(p.Kernel)
	if err != nil {
		return nil, err
	}
	g, err := loadGraph(env, p, len(spec.Edge) > 0)
	if err != nil {
		return nil, err
	}
	params := map[string]string{}
	for _, q := range spec.Params {
		if q.Kind == kernel.ParamVertex {
			// Traversals start at the first vertex of the input's largest
			// component, under its own label: the input's first vertex
			// (vertex 0 of a generated graph) when it is in that
			// component, as on every graph of the corpus but scrambled
			// R-MAT, whose vertex 0 has no edge from scale 15 on.
			params[q.Name] = strconv.FormatUint(g.Label(graph.GiantVertex(g)), 10)
		}
	}
	k, err := spec.Bind(kernel.Env{Vertices: g.NumVertices(), Params: params, Lookup: g.Lookup})
	if err != nil {
		return nil, err
	}
	return &inputs{p: p, cores: env.Cores, board: b, k: k, g: g}, nil
}

// loadGraph reads a dataset file (by name, from env.Datasets) or
// generates a graph spec. Kernels with edge data get seeded random weights
// in [1, 255] where the input has none.
func loadGraph(env Env, p Point, weighted bool) (*graph.Graph, error) {
	opt := graph.ReadOptions{Weighted: weighted, Directed: p.Directed}
	if weighted {
		opt.RandomWeights, opt.Seed = 255, 1
	}
	spec := p.Graph
	if p.Dataset {
		if env.Datasets == "" {
			return nil, errors.New("no dataset folder (set GRAVF_DATASETS or --datasets)")
		}
		file := filepath.Join(env.Datasets, p.Graph)
		if !fileExists(file) && fileExists(file+".gz") {
			file += ".gz" // the repository's shipped copies
		}
		spec = "file:" + file
		opt.Format = p.Format
	}
	return graph.Load(spec, opt)
}

func (in *inputs) setup(d sim.Detail) *sim.Setup {
	p := in.p
	return &sim.Setup{Board: in.board, Kernel: in.k, Graph: in.g, FPGAs: p.FPGAs, PEs: p.PEs, Arch: p.Arch, Mem: p.Mem, PE: p.PE,
		Partitioner: graph.Greedy, Filter: true, Detail: d, Cores: in.cores}
}

func (in *inputs) measure(ctx context.Context, fast bool) (*Measurement, error) {
	p := in.p
	act, pr, err := in.predict(ctx)
	if err != nil {
		return nil, err
	}
	details := []sim.Detail{sim.Cycle}
	if fast {
		details = append(details, sim.Fast)
	}
	var res [2]*sim.Result
	var wall [2]float64
	for i, d := range details {
		start := time.Now()
		s := in.setup(d)
		if d == sim.Cycle {
			// sim reports the bound and the prediction as model_tsys and
			// model_predicted_teps.
			s.ModelTSys, s.ModelPredictedTEPS = in.tsys(), pr.TEPS
		}
		r, err := sim.Run(ctx, s)
		if err != nil {
			return nil, fmt.Errorf("%s: %s detail: %w", p.Name(), d, err)
		}
		res[i], wall[i] = r, time.Since(start).Seconds()
	}
	cyc := res[0]
	m := &Measurement{Point: p, Name: p.Name(), Graph: in.g.Name, Vertices: in.g.NumVertices(), Arcs: int64(in.g.NumArcs()),
		Messages: cyc.Messages, Supersteps: len(act.Steps), Cycle: cyc.Cycles, CycleTEPS: cyc.TEPS, TSys: cyc.ModelTSys,
		CycleSeconds: wall[0], NoFast: !fast}
	if math.IsInf(m.TSys, 0) || math.IsNaN(m.TSys) {
		m.TSys = 0 // no limit binds (JSON has no infinity)
	}
	for _, st := range cyc.PerSuperstep {
		m.CycleSteps = append(m.CycleSteps, st.Cycles)
	}
	if fast {
		f := res[1]
		if f.Messages != cyc.Messages {
			return nil, fmt.Errorf("%s: fast detail counts %d messages, cycle detail %d", p.Name(), f.Messages, cyc.Messages)
		}
		m.Fast, m.FastErr, m.FastTEPS, m.FastSeconds = f.Cycles, rel(float64(f.Cycles), float64(cyc.Cycles)), f.TEPS, wall[1]
		m.compareSteps(cyc.PerSuperstep, f.PerSuperstep)
		for _, st := range f.PerSuperstep {
			m.FastSteps = append(m.FastSteps, st.Cycles)
		}
	}
	if pr := cyc.ModelPredictedTEPS; pr > 0 && cyc.TEPS > 0 {
		m.Predicted = pr
		m.ModelErr = rel(pr, cyc.TEPS)
	}
	return m, nil
}

// predict runs the reference engine and the model's prediction for the
// simulated design, as the model cell computes it: the reference run's
// activity on the partition the simulator makes. A kernel that does not
// converge within the reference run's superstep limit has no prediction
// (TEPS 0).
func (in *inputs) predict(ctx context.Context) (*model.Activity, model.Prediction, error) {
	p := in.p
	act, err := model.ReferenceActivity(ctx, in.k, in.g, kernel.RunOptions{}, diskcache.Open())
	if err != nil {
		return nil, model.Prediction{}, fmt.Errorf("%s: reference: %w", p.Name(), err)
	}
	pr, err := model.PredictFor(ctx, in.board, in.k, in.g, in.config(), p.PE, model.NewProfiles(in.g, act, graph.PartitionOptions{Method: graph.Greedy}))
	if err != nil {
		return nil, model.Prediction{}, fmt.Errorf("%s: model: %w", p.Name(), err)
	}
	return act, pr, nil
}

// config is the point's design for the model.
func (in *inputs) config() model.Config {
	p := in.p
	return model.Config{FPGAs: p.FPGAs, PEs: p.PEs, Arch: p.Arch, Mem: p.Mem, Filter: true}
}

// tsys is the model's T_sys for the point's design, as sim compares with.
func (in *inputs) tsys() float64 {
	return model.TSysFor(in.board, in.k, in.g, in.config(), in.p.PE)
}

// MeasureModel measures the model's prediction of point p against the
// cycle-detail result of an earlier measurement of the same point
// (stored, from a --json run), without simulating: cycle detail is
// deterministic, so its cycles stand as long as the simulator's cycle
// behaviour has not changed since. It fails unless stored is a
// measurement of p (the same design, graph, size, traversed edges and
// supersteps as the reference run gives now). The fast-detail figures of
// stored are dropped (NoFast); CycleFrom names where the cycles came
// from.
func MeasureModel(ctx context.Context, env Env, p Point, stored *Measurement, from string) (*Measurement, error) {
	in, err := load(env, p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	act, pr, err := in.predict(ctx)
	if err != nil {
		return nil, err
	}
	if err := stored.matches(in, act); err != nil {
		return nil, fmt.Errorf("%s: %s: %w", p.Name(), from, err)
	}
	m := &Measurement{Point: p, Name: p.Name(), Graph: in.g.Name, Vertices: in.g.NumVertices(), Arcs: int64(in.g.NumArcs()),
		Messages: stored.Messages, Supersteps: len(act.Steps), Cycle: stored.Cycle, CycleSteps: stored.CycleSteps,
		CycleSeconds: stored.CycleSeconds, NoFast: true, CycleFrom: from, Prediction: &pr}
	m.CycleTEPS = float64(m.Messages) / (float64(m.Cycle) / in.board.ClockHz())
	if t := in.tsys(); !math.IsInf(t, 0) {
		m.TSys = t
	}
	if pr.TEPS > 0 {
		m.Predicted = pr.TEPS
		m.ModelErr = rel(pr.TEPS, m.CycleTEPS)
	}
	return m, nil
}

// matches checks that m measured the point in describes and the graph and
// reference run it loads now.
func (m *Measurement) matches(in *inputs, act *model.Activity) error {
	a, b := m.Point, in.p
	a.Why, b.Why, a.CI, b.CI = "", "", false, false
	switch {
	case a != b:
		return fmt.Errorf("the stored point is %+v, the corpus's %+v", m.Point, in.p)
	case m.Graph != in.g.Name || m.Vertices != in.g.NumVertices() || m.Arcs != int64(in.g.NumArcs()):
		return fmt.Errorf("the stored graph is %s (%d vertices, %d arcs), the corpus's %s (%d, %d)", m.Graph, m.Vertices, m.Arcs, in.g.Name, in.g.NumVertices(), in.g.NumArcs())
	case m.Messages != act.Messages() || m.Supersteps != len(act.Steps):
		return fmt.Errorf("the stored run traverses %d edges in %d supersteps, the reference run now %d in %d", m.Messages, m.Supersteps, act.Messages(), len(act.Steps))
	case m.Cycle <= 0 || len(m.CycleSteps) == 0:
		return errors.New("the stored point has no cycle-detail result")
	}
	return nil
}

// compareSteps finds the superstep of at least StepMinCycles cycles (at
// cycle detail) where fast detail is furthest off.
func (m *Measurement) compareSteps(cyc, fast []sim.Superstep) {
	for i := 0; i < len(cyc) && i < len(fast); i++ {
		c := cyc[i].Cycles
		if c < StepMinCycles {
			continue
		}
		m.StepsCompared++
		d := StepDiff{Index: cyc[i].Index, Cycle: c, Fast: fast[i].Cycles, Err: rel(float64(fast[i].Cycles), float64(c))}
		if m.WorstStep == nil || math.Abs(d.Err) > math.Abs(m.WorstStep.Err) {
			m.WorstStep = &d
		}
	}
}

func rel(got, want float64) float64 {
	if want == 0 {
		return 0
	}
	return got/want - 1
}

// DatasetDir returns the dataset folder: $GRAVF_DATASETS, else the first
// "shared/datasets" found beside the working directory or one of its
// parents, else the repository's own testdata/datasets above the working
// directory (the shipped copies, gzip-compressed, which loadGraph reads as
// they are), else "".
func DatasetDir() string {
	if d := os.Getenv("GRAVF_DATASETS"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	shipped := ""
	for d := wd; ; d = filepath.Dir(d) {
		for _, c := range []string{filepath.Join(d, "shared", "datasets"), filepath.Join(d, "..", "shared", "datasets")} {
			if st, err := os.Stat(c); err == nil && st.IsDir() {
				return c
			}
		}
		if c := filepath.Join(d, "testdata", "datasets"); shipped == "" && fileExists(filepath.Join(d, "go.mod")) && fileExists(filepath.Join(c, "SOURCES.md")) {
			shipped = c
		}
		if filepath.Dir(d) == d {
			return shipped
		}
	}
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
