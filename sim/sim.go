package sim

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// Detail selects the level of detail.
type Detail string

// Levels of detail.
const (
	// Cycle steps every component every cycle; the generated RTL agrees
	// with it.
	Cycle Detail = "cycle"
	// Fast uses coarse events: whole edge lists, skipped idle cycles,
	// per-superstep phases. It is what sweeps and the TUI use.
	Fast Detail = "fast"
)

// ParseDetail parses a CLI value.
func ParseDetail(s string) (Detail, error) {
	switch strings.ToLower(s) {
	case "", "fast":
		return Fast, nil
	case "cycle":
		return Cycle, nil
	}
	return "", fmt.Errorf("unknown detail %q (valid: fast, cycle)", s)
}

// UnmarshalText reads a notebook, JSON or flag value with ParseDetail.
func (d *Detail) UnmarshalText(b []byte) error {
	v, err := ParseDetail(string(b))
	if err == nil {
		*d = v
	}
	return err
}

// Memory kinds, as the hardware contract names them.
const (
	MemOffChip = arch.OffChip
	MemBRAM    = arch.BRAM
)

// Progress reports a running simulation.
type Progress struct {
	Cycle     int64
	Superstep int
}

// Setup is everything one run needs.
type Setup struct {
	Board  *boards.Board
	Kernel *kernel.Kernel
	Graph  *graph.Graph
	FPGAs  int
	PEs    int
	Arch   arch.Arch
	Mem    arch.MemKind
	// Partitioner and its options (METIS needs gpmetis).
	Partitioner graph.Partitioner
	UFactor     int
	Packing     bool
	Filter      bool
	Seed        uint64
	Detail      Detail
	// PE is the processing element's micro-architecture: PEGenerated (the
	// default, "") or PEPaper.
	PE PEDesign
	// ModelTSys is the analytical model's T_sys for this configuration,
	// which the caller supplies (the simulator does not depend on the
	// model); Run reports it in the result with Efficiency = TEPS /
	// ModelTSys. 0: none.
	ModelTSys float64
	// ModelPredictedTEPS is the model's prediction for this configuration
	// (model.PredictFor: the partition, the reference run's supersteps,
	// the lockstep broadcast, hazards, links, sweeps and t_sync), which the
	// caller supplies likewise; Run reports it with PredictedRatio = TEPS /
	// ModelPredictedTEPS. 0: none.
	ModelPredictedTEPS float64
	// MaxCycles stops a run at this many simulated cycles (0: no limit
	// besides the deadlock detector).
	MaxCycles int64
	// MaxSupersteps stops a run whose kernel has not converged after this
	// many supersteps, at every level of detail (0:
	// kernel.DefaultMaxSupersteps, as the reference engine).
	MaxSupersteps int
	Progress      func(Progress)
	// Listener observes the run (trace recording).
	Listener Listener
	// Cores is how many cores may step a run's FPGAs, at either level of
	// detail (0: GOMAXPROCS). A caller that runs simulations side by side
	// gives each one, so that no run's helpers spin on a core another
	// run needs. The result is the same for any number.
	Cores int

	partition *graph.Partition
}

// Listener observes a cycle-level run; trace recording is one.
type Listener interface {
	// Cycle is called at the end of every simulated cycle.
	Cycle(v View)
}

// View is what a listener may read of a running machine.
type View interface {
	Now() int64
	Superstep() int
	PEStats() []PEStats
	LinkWords() []float64
}

// PEStats is the cycle breakdown of one PE: every cycle of the run is
// counted in exactly one of the cause fields.
type PEStats struct {
	Busy     int64 `json:"busy"`     // gathered a message
	Apply    int64 `json:"apply"`    // swept a vertex through apply
	Hazard   int64 `json:"hazard"`   // gather stalled on a vertex in flight, or flushing
	Scatter  int64 `json:"scatter"`  // scatter looked up a list or filled the kernel pipeline
	Memory   int64 `json:"memory"`   // waited for off-chip edge words
	Crossbar int64 `json:"crossbar"` // the lockstep broadcast was blocked by a full PE
	Network  int64 `json:"network"`  // waited for updates on the links
	Barrier  int64 `json:"barrier"`  // waited for other PEs' barriers
	Done     int64 `json:"done"`     // terminated, waiting for the others

	Messages int64 `json:"messages"`
	MemWords int64 `json:"mem_words"`
}

// Superstep is one superstep of a run.
type Superstep struct {
	Index    int   `json:"superstep"`
	Start    int64 `json:"start_cycle"`
	Cycles   int64 `json:"cycles"`
	Active   int64 `json:"active"`
	Messages int64 `json:"messages"`
}

// Result is what a run measured.
type Result struct {
	Arch       arch.Arch    `json:"arch"`
	Mem        arch.MemKind `json:"mem"`
	Detail     Detail       `json:"detail"`
	PE         PEDesign     `json:"pe"`
	FPGAs      int          `json:"fpgas"`
	PEs        int          `json:"pes"`
	Cycles     int64        `json:"cycles"`
	Seconds    float64      `json:"seconds"`
	Messages   int64        `json:"messages"`
	TEPS       float64      `json:"teps"`
	Supersteps int          `json:"supersteps"`
	// PerSuperstep lists every superstep.
	PerSuperstep []Superstep `json:"per_superstep"`
	// PerPE is the stall breakdown of every PE; Stalls sums it.
	PerPE  []PEStats `json:"per_pe"`
	Stalls PEStats   `json:"stalls"`
	// Links lists the utilisation of every link (words sent / cycles /
	// words per cycle of the pair).
	Links []LinkStats `json:"links"`
	// ModelTSys is the model's T_sys for the same configuration
	// (Setup.ModelTSys), and Efficiency = TEPS / ModelTSys.
	ModelTSys  float64 `json:"model_tsys"`
	Efficiency float64 `json:"efficiency"`
	// ModelPredictedTEPS is the model's prediction for the same design
	// (Setup.ModelPredictedTEPS), 0 without one; PredictedRatio = TEPS /
	// ModelPredictedTEPS.
	ModelPredictedTEPS float64 `json:"model_predicted_teps"`
	PredictedRatio     float64 `json:"predicted_ratio,omitempty"`
	// ResultSHA256 is the SHA-256 of the final states as `gravf-tui ref`
	// writes them, and ResultOrder the order in which each vertex's
	// messages were gathered: OrderReference (fast detail: the states are
	// the reference engine's, so the hash is ref's) or OrderArrival (cycle
	// detail: the machine's arrival order; integer gathers such as min and
	// sums give ref's states all the same, f32 sums round differently, so
	// PR's hash differs from ref's while its states agree within 1e-4).
	ResultSHA256 string        `json:"result_sha256"`
	ResultOrder  string        `json:"result_order"`
	Wall         time.Duration `json:"-"`
	WallSeconds  float64       `json:"wall_seconds"`
	Params       Params        `json:"params"`
	// Stopped says why a partial result stopped early (StopSuperstepLimit,
	// StopCycleLimit, StopInterrupted); empty for a run that converged.
	Stopped string `json:"stopped,omitempty"`

	States []uint64 `json:"-"`
	Fields int      `json:"-"`
}

// Gather orders of Result.ResultOrder.
const (
	OrderReference = "reference"
	OrderArrival   = "arrival"
)

// LinkStats is one direction of one FPGA pair.
type LinkStats struct {
	From        int     `json:"from"`
	To          int     `json:"to"`
	Words       float64 `json:"words"`
	Utilisation float64 `json:"utilisation"`
}

// applyDefaults fills what a setup leaves empty (GraVF-M, off-chip edges,
// fast detail, the greedy partitioner, the generated PE), for Run and for
// the trace header alike.
func (s *Setup) applyDefaults() error {
	if s.Arch == "" {
		s.Arch = arch.GraVFM
	}
	if s.Mem == "" {
		s.Mem = arch.OffChip
	}
	if s.Detail == "" {
		s.Detail = Fast
	}
	if s.Partitioner == "" {
		s.Partitioner = graph.Greedy
	}
	switch s.PE {
	case "":
		s.PE = PEGenerated
	case PEGenerated, PEPaper:
	default:
		return fmt.Errorf("unknown PE design %q (valid: %s, %s)", s.PE, PEGenerated, PEPaper)
	}
	return nil
}

// Run simulates the setup. It fails on an impossible configuration, on
// cancellation, and with a diagnostic when the machine deadlocks.
func Run(ctx context.Context, s *Setup) (*Result, error) {
	if s.FPGAs < 1 || s.PEs < 1 {
		return nil, fmt.Errorf("need at least one FPGA and one PE, got %d x %d", s.FPGAs, s.PEs)
	}
	if s.Board.MaxFPGAs > 0 && s.FPGAs > s.Board.MaxFPGAs {
		return nil, fmt.Errorf("%d FPGAs requested; %s has %d", s.FPGAs, s.Board.Name, s.Board.MaxFPGAs)
	}
	if err := s.applyDefaults(); err != nil {
		return nil, err
	}
	if s.Detail == Fast && (s.FPGAs > 64 || s.Arch == arch.GraVF && s.PEs+s.FPGAs-1 > 64) {
		// The fast models keep sets of FPGAs (and GraVF's crossbar inputs) in
		// 64-bit words.
		return nil, fmt.Errorf("fast detail simulates up to 64 FPGAs (GraVF: PEs per FPGA + FPGAs - 1 up to 64); %d x %d needs --detail cycle", s.FPGAs, s.PEs)
	}
	if err := kernel.EdgeData(s.Kernel, s.Graph); err != nil {
		return nil, err
	}
	d, err := s.design()
	if err != nil {
		return nil, err
	}
	p := NewParams(d)
	part, err := graph.NewPartition(ctx, s.Graph, graph.PartitionOptions{FPGAs: s.FPGAs, PEs: s.PEs, Method: s.Partitioner, UFactor: s.UFactor, Seed: s.Seed})
	if err != nil {
		return nil, err
	}
	s.partition = part
	collectLarge(s.Graph)
	start := time.Now()
	res, stopped, err := s.simulate(ctx, p)
	if err != nil {
		return nil, err
	}
	res.Detail, res.PE = s.Detail, s.PE
	res.ResultOrder = OrderArrival
	if s.Detail == Fast {
		res.ResultOrder = OrderReference
	}
	res.Wall = time.Since(start)
	res.WallSeconds = res.Wall.Seconds()
	res.Params = p
	if err := finish(s, res); err != nil {
		return nil, err
	}
	if stopped != nil {
		return res, stopped
	}
	return res, nil
}

// simulate runs the level of detail the setup asks for. A run that stops
// early returns its partial result and the *StopError.
func (s *Setup) simulate(ctx context.Context, p Params) (*Result, *StopError, error) {
	if s.Detail == Fast {
		return s.simulateFast(ctx, p)
	}
	var c *core
	var err error
	if s.Arch == arch.GraVF {
		b := newBaseline(s, p)
		collectLarge(s.Graph)
		c, err = &b.core, b.run(ctx)
	} else {
		m := newMachine(s, p)
		collectLarge(s.Graph)
		c, err = &m.core, m.run(ctx)
	}
	var se *StopError
	switch {
	case errors.As(err, &se):
		return c.partialResult(se), se, nil
	case err != nil:
		return nil, nil, err
	}
	return c.result(), nil, nil
}

// simulateFast runs fast detail. At the superstep limit the partial
// result times the supersteps the reference engine ran, their messages
// delivered; at the cycle limit or when interrupted there is no partial
// result (the reference engine runs ahead of the timing, so no states
// match the cycle).
func (s *Setup) simulateFast(ctx context.Context, p Params) (*Result, *StopError, error) {
	var run func(context.Context) (*kernel.Result, error)
	var result func(*kernel.Result) *Result
	var where func() (int64, int) // the cycle and superstep reached
	if s.Arch == arch.GraVFM {
		f := newFastM(ctx, s, p)
		run, result = f.run, f.result
		where = func() (int64, int) { return f.now, len(f.starts) - 1 }
	} else {
		f := newFastG(ctx, s, p)
		run, result = f.run, f.result
		where = func() (int64, int) { return f.now, len(f.starts) - 1 }
	}
	collectLarge(s.Graph)
	ref, err := run(ctx)
	var le *kernel.LimitError
	var se *StopError
	switch {
	case ctx.Err() != nil && err != nil && !errors.As(err, &se):
		// The reference engine saw the cancellation before the timing did.
		now, step := where()
		return nil, nil, &StopError{Reason: StopInterrupted, Cycle: now, Superstep: step, Err: err}
	case errors.As(err, &le) && ref != nil:
		res := result(ref)
		if len(res.PerSuperstep) > le.Limit {
			res.PerSuperstep = res.PerSuperstep[:le.Limit]
			res.Supersteps = le.Limit
		}
		res.Stopped = StopSuperstepLimit
		return res, &StopError{Reason: StopSuperstepLimit, Limit: int64(le.Limit), Cycle: res.Cycles, Superstep: le.Limit - 1, Err: err}, nil
	case err != nil:
		return nil, nil, err
	}
	return result(ref), nil, nil
}

// collectLargeArcs is the graph size from which a run collects its
// garbage at the two turns of its setup: 4 M arcs, where the edge layout
// alone takes 16 MiB and a collection (the large arrays hold no pointers,
// so it marks little) costs well under a millisecond of the seconds the
// setup takes.
const collectLargeArcs = 1 << 22

// collectLarge runs the garbage collector on a large graph's run, once
// before its setup and once after it. The setup is the run's peak: the
// machine's index of the edges is built from the edge layout, and both are
// live with the graph. Left to itself the collector lets the heap grow to
// twice what was live at its last cycle, so the garbage the caller left
// (the graph build's scratch arrays, a reference run's buffers) sits under
// that peak, and the layout dropped after the setup is reused only after
// the run's first allocations have grown the heap further: on R-MAT scale
// 20 at 4 x 9 that was a third of the peak resident memory.
func collectLarge(g *graph.Graph) {
	if g.NumArcs() >= collectLargeArcs {
		debug.FreeOSMemory()
	}
}

// fillSteps turns superstep counters into the result's list; a superstep
// lasts until the next one starts.
func fillSteps(r *Result, steps []stepStats) {
	for i, st := range steps {
		end := r.Cycles
		if i+1 < len(steps) {
			end = steps[i+1].start
		}
		r.PerSuperstep = append(r.PerSuperstep, Superstep{Index: i, Start: st.start, Cycles: end - st.start, Active: st.active, Messages: st.messages})
		r.Messages += st.messages
	}
	r.Supersteps = len(steps)
}

func linkStats(r *Result, links []*link, pairWords float64) {
	for _, l := range links {
		u := 0.0
		if pairWords > 0 {
			u = l.words / float64(r.Cycles) / pairWords
		}
		r.Links = append(r.Links, LinkStats{From: l.from, To: l.to, Words: l.words, Utilisation: u})
	}
}

// finish fills the derived figures: seconds, TEPS, stall sums, the result
// hash and the comparison with the model's T_sys.
func finish(s *Setup, r *Result) error {
	r.Seconds = float64(r.Cycles) / s.Board.ClockHz()
	if r.Seconds > 0 {
		r.TEPS = float64(r.Messages) / r.Seconds
	}
	for _, st := range r.PerPE {
		r.Stalls.Busy += st.Busy
		r.Stalls.Apply += st.Apply
		r.Stalls.Hazard += st.Hazard
		r.Stalls.Scatter += st.Scatter
		r.Stalls.Memory += st.Memory
		r.Stalls.Crossbar += st.Crossbar
		r.Stalls.Network += st.Network
		r.Stalls.Barrier += st.Barrier
		r.Stalls.Done += st.Done
		r.Stalls.Messages += st.Messages
		r.Stalls.MemWords += st.MemWords
	}
	ref := &kernel.Result{Kernel: s.Kernel, Graph: s.Graph, States: r.States, Fields: r.Fields}
	h := sha256.New()
	if err := ref.WriteTSV(h); err != nil {
		return err
	}
	r.ResultSHA256 = hex.EncodeToString(h.Sum(nil))
	r.ModelPredictedTEPS = s.ModelPredictedTEPS
	if s.ModelPredictedTEPS > 0 {
		r.PredictedRatio = r.TEPS / s.ModelPredictedTEPS
	}
	r.ModelTSys = s.ModelTSys
	if s.ModelTSys > 0 {
		r.Efficiency = r.TEPS / s.ModelTSys
	}
	return nil
}
