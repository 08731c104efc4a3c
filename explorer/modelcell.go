package explorer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/diskcache"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/teps"
)

// ModelOutput is the model cell's result, and `gravf-tui model --json`:
// the chosen (or given) design point with its four limits and their bound
// T_sys, the prediction beside it (Prediction: what the partition, the
// reference run's supersteps, the lockstep broadcast, the hazards, the
// sweeps and the barriers leave of the bound, with where the time goes),
// the curves the optimiser walked (each point with T_sys and the
// prediction), GraVF against GraVF-M, and the recommendations in words.
// A front end shows TSys and Prediction.TEPS side by side.
type ModelOutput struct {
	Board            string            `json:"board"`
	Kernel           string            `json:"kernel"`
	Graph            string            `json:"graph"`
	Vertices         int               `json:"vertices"`
	Arcs             int64             `json:"arcs"`
	Degree           float64           `json:"degree"`
	FPGAs            int               `json:"fpgas"`
	PEs              int               `json:"pes"`
	Arch             model.Arch        `json:"arch"`
	Mem              model.MemKind     `json:"mem"`
	PE               model.PEDesign    `json:"pe"`
	Packing          bool              `json:"packing"`
	Filter           bool              `json:"filter"`
	CPE              float64           `json:"cpe"`
	CPESource        string            `json:"cpe_source"`
	Limits           model.Limits      `json:"limits"`
	TSys             float64           `json:"tsys"`
	Binding          string            `json:"binding"`
	Reasons          map[string]string `json:"reasons"`
	Sizes            SizesOutput       `json:"sizes"`
	MemDetail        *model.MemDetail  `json:"mem_detail,omitempty"`
	Capacity         model.Capacity    `json:"capacity"`
	Curve            []model.Point     `json:"curve"`
	PECurve          []model.Point     `json:"pe_curve"`
	Why              []string          `json:"why"`
	Other            *OtherArch        `json:"other_arch,omitempty"`
	PredictedSeconds *float64          `json:"predicted_seconds"`
	// Prediction is the prediction at the design point (nil without the
	// reference run); ChosenBy says what the optimiser maximised
	// ("prediction" or "tsys").
	Prediction *model.Prediction `json:"prediction,omitempty"`
	ChosenBy   string            `json:"chosen_by"`
	Supersteps int               `json:"supersteps,omitempty"`
	// Recommendations explain the choice and what would move the binding
	// limit, in plain words (see Recommend).
	Recommendations []string `json:"recommendations"`
	Note            string   `json:"note"`

	result model.Result
}

// SizesOutput are the kernel's sizes as the model uses them.
type SizesOutput struct {
	VertexIDBits int        `json:"vertexidsize"`
	Vertex       int        `json:"m_vertex"`
	Update       float64    `json:"m_update"`
	Message      float64    `json:"m_message"`
	Edge         int        `json:"m_edge"`
	MemWord      int        `json:"m_memword"`
	UpdateWire   model.Wire `json:"m_update_wire"`
	MessageWire  model.Wire `json:"m_message_wire"`
}

// OtherArch is the other architecture at the same design point.
type OtherArch struct {
	Arch    model.Arch   `json:"arch"`
	Limits  model.Limits `json:"limits"`
	TSys    float64      `json:"tsys"`
	Binding string       `json:"binding"`
}

// LatencyNote says what the four limits leave out.
const LatencyNote = "T_sys, the minimum of the four limits, is a bound: it assumes every PE and link carries its mean share and ignores latency. The prediction follows the partition through every superstep of the reference run (the most loaded PE, the lockstep broadcast, gather hazards, the links' flow, the apply sweeps and t_sync) and is never above T_sys."

// UsageError marks an error in what the user asked for (a design that
// does not fit, more PEs than the board allows), as opposed to a failure
// of the tool; the CLI exits 2 on it.
type UsageError struct{ Err error }

// Error implements error.
func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e UsageError) Unwrap() error { return e.Err }

// EvaluateModel runs the optimiser (or evaluates the fixed point cfg), the
// other architecture for comparison, the prediction (when ps, the
// reference run's activity with its profiles, is given; see
// NewPredictionProfiles) and the recommendations. The optimiser chooses on
// the prediction when there is one. The PE design sets the cycles per edge
// (see model.Platform.CPEFor); cpe > 0 overrides it. ctx cancels the
// partitioning the prediction needs.
func EvaluateModel(ctx context.Context, p *model.Platform, k *kernel.Kernel, g *graph.Graph, cfg model.Config, pe model.PEDesign, cpe float64, ps *model.Profiles) (*ModelOutput, error) {
	return evaluateModel(ctx, p, k, g, cfg, pe, cpe, ps, nil)
}

// NewPredictionProfiles runs the BSP reference engine once (or reads its
// activity from store, nil for none; see model.ReferenceActivity) and
// returns its activity with the profiles the prediction needs,
// partitioned by method (with METIS's ufactor and seed).
func NewPredictionProfiles(ctx context.Context, k *kernel.Kernel, g *graph.Graph, part graph.PartitionOptions, store *diskcache.Store) (*model.Profiles, error) {
	act, err := model.ReferenceActivity(ctx, k, g, kernel.RunOptions{}, store)
	if err != nil {
		return nil, err
	}
	return model.NewProfiles(g, act, part), nil
}

func evaluateModel(ctx context.Context, p *model.Platform, k *kernel.Kernel, g *graph.Graph, cfg model.Config, pe model.PEDesign, cpe float64, ps *model.Profiles, degrees [][2]int64) (*ModelOutput, error) {
	w := newWorkload(p, k, g, pe, cpe, degrees)
	// The optimiser's and the recommendations' profiles, one after the
	// other, share the memory of their lists.
	w.Ctx = model.WithListReuse(ctx)
	if ps != nil {
		w.Attach(ps)
	}
	if p.MaxPEs > 0 && cfg.PEs > p.MaxPEs {
		return nil, UsageError{&FieldError{Kind: KindPlatform, Key: "pes", Msg: fmt.Sprintf("at most %d PEs fit one FPGA of %s (%s)", p.MaxPEs, p.Name, p.MaxPEsReason),
			Err: fmt.Errorf("pes %d: at most %d PEs fit one FPGA of %s (%s)", cfg.PEs, p.MaxPEs, p.Name, p.MaxPEsReason)}}
	}
	if p.MaxFPGAs > 0 && cfg.FPGAs > p.MaxFPGAs {
		return nil, UsageError{&FieldError{Kind: KindPlatform, Key: "fpgas", Msg: fmt.Sprintf("%s has at most %d FPGAs", p.Name, p.MaxFPGAs),
			Err: fmt.Errorf("fpgas %d: %s has at most %d FPGAs", cfg.FPGAs, p.Name, p.MaxFPGAs)}}
	}
	ch, err := model.Optimise(p, w, cfg)
	if err != nil {
		if errors.Is(err, model.ErrCapacity) {
			return nil, UsageError{err}
		}
		return nil, err
	}
	b := ch.Best
	if cfg.FPGAs > 0 {
		// The curve over nF at the chosen nP, for the chart, even when nF
		// is fixed.
		full := cfg
		full.FPGAs, full.PEs = 0, b.PEs
		if fc, err := model.Optimise(p, w, full); err == nil || len(fc.Curve) > 0 {
			ch.Curve = fc.Curve
		}
		if err := markNeighbours(ctx, p, w, cfg, b, ch.Curve); err != nil {
			return nil, err
		}
	}
	out := &ModelOutput{
		Board: p.Name, Kernel: k.Spec.Name, Graph: g.Name, Vertices: g.NumVertices(), Arcs: int64(g.NumArcs()), Degree: w.Degree(),
		FPGAs: b.FPGAs, PEs: b.PEs, Arch: b.Arch, Mem: b.Mem, PE: pe, Packing: b.Packing, Filter: b.Filter,
		CPE: b.CPE, CPESource: b.CPESource, Limits: b.Limits, TSys: b.TSys, Binding: b.Binding, Reasons: b.Reasons,
		Sizes: SizesOutput{VertexIDBits: w.Sizes.VertexIDBits, Vertex: b.Sizes.Vertex, Update: b.Sizes.Update.Used, Message: b.Sizes.Message.Used,
			Edge: b.Sizes.Edge, MemWord: b.Sizes.MemWord, UpdateWire: b.Sizes.Update, MessageWire: b.Sizes.Message},
		MemDetail: b.MemDetail, Capacity: b.Capacity, Curve: ch.Curve, PECurve: ch.PECurve, Why: ch.Why, Note: LatencyNote,
		result: b,
	}
	other := b.Config
	other.Arch = model.GraVF
	if b.Arch == model.GraVF {
		other.Arch = model.GraVFM
	}
	if r, err := model.Evaluate(p, w, other); err == nil || errors.Is(err, model.ErrCapacity) {
		out.Other = &OtherArch{Arch: r.Arch, Limits: r.Limits, TSys: r.TSys, Binding: r.Binding}
	}
	out.ChosenBy = ch.By
	if ps != nil {
		pr := ch.Prediction
		if pr == nil || ch.Best.FPGAs != b.FPGAs || ch.Best.PEs != b.PEs {
			x, err := model.PredictContext(ctx, p, w, b)
			if err != nil {
				return nil, err
			}
			pr = &x
		}
		out.Prediction = pr
		out.PredictedSeconds = &pr.Seconds
		out.Supersteps = len(w.Supersteps)
	}
	out.Recommendations = Recommend(p, w, cfg, ch)
	return out, nil
}

func newWorkload(p *model.Platform, k *kernel.Kernel, g *graph.Graph, pe model.PEDesign, cpe float64, degrees [][2]int64) *model.Workload {
	c, src := p.CPEFor(k.Spec.Name, pe)
	if cpe > 0 {
		c, src = cpe, "given with cpe"
	}
	w := model.NewWorkload(k, g, c, src, nil)
	w.PE = pe
	if degrees != nil {
		w.Degrees = degrees
	}
	return w
}

// markNeighbours predicts the points of the nF curve next to the given
// design (one FPGA fewer and one more), which the recommendations compare
// with, where the curve's own optimiser chose elsewhere.
func markNeighbours(ctx context.Context, p *model.Platform, w *model.Workload, base model.Config, b model.Result, curve []model.Point) error {
	if w.Profiles == nil {
		return nil
	}
	for i := range curve {
		pt := &curve[i]
		if !pt.Fits || pt.Predicted != nil || pt.PEs != b.PEs || pt.FPGAs < b.FPGAs-1 || pt.FPGAs > b.FPGAs+1 {
			continue
		}
		c := base
		c.FPGAs, c.PEs = pt.FPGAs, pt.PEs
		r, err := model.Evaluate(p, w, c)
		if err != nil {
			continue
		}
		pr, err := model.PredictContext(ctx, p, w, r)
		if err != nil {
			return err
		}
		pt.Predicted, pt.PredictedBinding = &pr.TEPS, pr.Binding
	}
	return nil
}

// predictionCached reports whether model cell i can be evaluated without
// computing a profile: its dependencies have results and a trial run that
// may only use the profiles computed before succeeds (its result is then
// cached, so evaluating the cell costs nothing more). The profiles of a
// large graph take seconds, which a front end must not spend in its
// update loop.
func (nb *Notebook) predictionCached(i int) bool {
	for _, j := range nb.depCells(i) {
		if _, _, ok := nb.Result(j); !ok {
			return false
		}
	}
	job, err := nb.Plan(i)
	if err != nil {
		return false
	}
	job.cachedOnly = true
	_, err = job.Run(context.Background(), nil)
	return !errors.Is(err, model.ErrNotCached)
}

// Result is the evaluated design point.
func (m *ModelOutput) Result() model.Result { return m.result }

// TEPS formats a throughput for people.
func TEPS(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "unbounded"
	case v >= 1e9:
		return fmt.Sprintf("%.3f GTEPS", v/1e9)
	}
	return fmt.Sprintf("%.1f MTEPS", v/1e6)
}

// Text implements Output.
func (m *ModelOutput) Text() string {
	var b strings.Builder
	m.WriteText(&b)
	return b.String()
}

// WriteText prints the model's answer as `gravf-tui model` does.
func (m *ModelOutput) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s on %s: %s (V=%d, %d arcs, d=%.2f)\n", m.Kernel, m.Board, m.Graph, m.Vertices, m.Arcs, m.Degree)
	fmt.Fprintf(w, "design: %d FPGAs x %d PEs, %s, edges %s, %s PE, packing %v, filter %v, CPE %.2f (%s)\n\n",
		m.FPGAs, m.PEs, m.Arch, m.Mem, m.PE, m.Packing, m.Filter, m.CPE, m.CPESource)
	fmt.Fprintf(w, "  %-4s %-16s %s\n", "", "LIMIT", "WHY")
	m.Limits.Each(func(name string, v float64) {
		mark := "  "
		if name == m.Binding {
			mark = "=>"
		}
		fmt.Fprintf(w, "%s %-4s %-16s %s\n", mark, name, TEPS(v), m.Reasons[name])
	})
	for _, n := range []string{model.LimitMem, model.LimitIf, model.LimitNet} {
		if _, ok := m.Limits.Get(n); !ok {
			fmt.Fprintf(w, "   %-4s %-16s %s\n", n, "-", m.Inapplicable(n))
		}
	}
	fmt.Fprintf(w, "\nT_sys = %s, bound by %s (%s)\n", TEPS(m.TSys), model.LimitTitle(m.Binding), teps.GraVF.Label())
	if m.Other != nil {
		fmt.Fprintf(w, "%s at the same point: %s, bound by %s (%s/%s = %.2fx)\n", m.Other.Arch, TEPS(m.Other.TSys), model.LimitTitle(m.Other.Binding),
			m.Arch, m.Other.Arch, m.TSys/m.Other.TSys)
	}
	fmt.Fprintf(w, "sizes: m_vertex %d, m_update %d bits (%.0f on the wire), m_message %d (%.0f), m_edge %d, m_memword %d\n",
		m.Sizes.Vertex, m.Sizes.UpdateWire.Bits, m.Sizes.Update, m.Sizes.MessageWire.Bits, m.Sizes.Message, m.Sizes.Edge, m.Sizes.MemWord)
	fmt.Fprintf(w, "storage per FPGA: vertices %.1f Mbit of %.1f on chip; edges %.3f GiB\n\n",
		m.Capacity.VertexBitsPerFPGA/1e6, m.Capacity.OnChipBits/1e6, m.Capacity.EdgeBitsPerFPGA/8/(1<<30))
	if m.Prediction != nil {
		fmt.Fprintf(w, "  %5s %4s %14s %-8s %14s  %s\n", "FPGAs", "PEs", "T_sys", "BINDING", "PREDICTED", "COSTLIEST")
	} else {
		fmt.Fprintf(w, "  %5s %4s %14s  %s\n", "FPGAs", "PEs", "T_sys", "BINDING")
	}
	for _, pt := range m.Curve {
		mark := " "
		if pt.FPGAs == m.FPGAs {
			mark = "*"
		}
		switch {
		case !pt.Fits:
			fmt.Fprintf(w, "%s %5d %4d %14s  does not fit\n", mark, pt.FPGAs, pt.PEs, "-")
		case pt.Predicted != nil:
			fmt.Fprintf(w, "%s %5d %4d %14s %-8s %14s  %s\n", mark, pt.FPGAs, pt.PEs, TEPS(pt.TSys), pt.Binding, TEPS(*pt.Predicted), pt.PredictedBinding)
		default:
			fmt.Fprintf(w, "%s %5d %4d %14s  %s\n", mark, pt.FPGAs, pt.PEs, TEPS(pt.TSys), pt.Binding)
		}
	}
	fmt.Fprintln(w)
	for _, s := range m.Why {
		fmt.Fprintf(w, "- %s\n", s)
	}
	if len(m.Recommendations) > 0 {
		fmt.Fprintln(w, "\nrecommendations:")
		for _, s := range m.Recommendations {
			fmt.Fprintf(w, "- %s\n", s)
		}
	}
	if p := m.Prediction; p != nil {
		m.writePrediction(w, p)
	}
	fmt.Fprintf(w, "\n%s\n", LatencyNote)
}

// writePrediction prints the prediction beside the bound and where its
// time goes.
func (m *ModelOutput) writePrediction(w io.Writer, p *model.Prediction) {
	part := "every PE at the mean load"
	if p.Partitioner != "" {
		part = "the " + p.Partitioner + " partition"
	}
	fmt.Fprintf(w, "\nprediction: %s over %d supersteps (%.3g s) on %s; %.2f of T_sys = %s\n",
		TEPS(p.TEPS), m.Supersteps, p.Seconds, part, p.TEPS/m.TSys, TEPS(m.TSys))
	var parts []string
	for _, mt := range p.Breakdown {
		if mt.Fraction >= 0.005 {
			parts = append(parts, fmt.Sprintf("%s %.0f %%", model.MechTitle(mt.Mechanism), 100*mt.Fraction))
		}
	}
	fmt.Fprintf(w, "  where the time goes: %s\n", strings.Join(parts, ", "))
	fmt.Fprintf(w, "  per superstep: an apply sweep of %.2f us, t_sync %.2f us; %d of %d supersteps take longer to sweep and synchronise than to work\n",
		p.SweepSeconds*1e6, p.SyncSeconds*1e6, p.LatencyBoundSupersteps, len(p.Supersteps))
	if im := p.Imbalance; im != nil {
		fmt.Fprintf(w, "  most loaded: PE %d of FPGA %d gathers %.2fx the mean messages in superstep %d; the imbalance costs %.0f %% of the time\n",
			im.Local, im.FPGA, im.Ratio, im.Superstep, 100*im.Fraction)
	}
}

// Inapplicable says why limit n does not apply to this design.
func (m *ModelOutput) Inapplicable(n string) string {
	switch {
	case n == model.LimitMem && m.Mem == model.BRAM:
		return "edges in BRAM"
	case n != model.LimitMem && m.FPGAs == 1:
		return "one FPGA: no network"
	case n == model.LimitNet:
		return "the network never binds on this board"
	}
	return "does not apply"
}
