package explorer

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/teps"
)

// ModelOutput is the model cell's result, and `gravf-tui model --json`:
// the chosen (or given) design point with its four limits, the curves the
// optimiser walked, GraVF against GraVF-M, the latency-aware prediction and
// the recommendations in words.
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
	Prediction       *model.Prediction `json:"prediction,omitempty"`
	Supersteps       int               `json:"supersteps,omitempty"`
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
const LatencyNote = "The four limits are bandwidth-only and ignore latency; predicted_seconds adds the barrier latency t_sync of every superstep and the apply sweeps."

// UsageError marks an error in what the user asked for (a design that
// does not fit, more PEs than the board allows), as opposed to a failure
// of the tool; the CLI exits 2 on it.
type UsageError struct{ Err error }

// Error implements error.
func (e UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e UsageError) Unwrap() error { return e.Err }

// EvaluateModel runs the optimiser (or evaluates the fixed point cfg), the
// other architecture for comparison, the latency-aware prediction (when
// steps, the reference engine's supersteps, are given) and the
// recommendations. The PE design sets the cycles per edge (see
// model.Platform.CPEFor); cpe > 0 overrides it.
func EvaluateModel(p *model.Platform, k *kernel.Kernel, g *graph.Graph, cfg model.Config, pe model.PEDesign, cpe float64, steps []kernel.Superstep) (*ModelOutput, error) {
	return evaluateModel(p, k, g, cfg, pe, cpe, steps, nil)
}

func evaluateModel(p *model.Platform, k *kernel.Kernel, g *graph.Graph, cfg model.Config, pe model.PEDesign, cpe float64, steps []kernel.Superstep, degrees [][2]int64) (*ModelOutput, error) {
	w := newWorkload(p, k, g, pe, cpe, steps, degrees)
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
	if pr, ok := model.Predict(p, w, b); ok {
		out.Prediction = &pr
		out.PredictedSeconds = &pr.Seconds
		out.Supersteps = len(steps)
	}
	out.Recommendations = Recommend(p, w, cfg, ch)
	return out, nil
}

func newWorkload(p *model.Platform, k *kernel.Kernel, g *graph.Graph, pe model.PEDesign, cpe float64, steps []kernel.Superstep, degrees [][2]int64) *model.Workload {
	c, src := p.CPEFor(k.Spec.Name, pe)
	if cpe > 0 {
		c, src = cpe, "given with cpe"
	}
	w := model.NewWorkload(k, g, c, src, steps)
	if degrees != nil {
		w.Degrees = degrees
	}
	return w
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
	fmt.Fprintf(w, "  %5s %4s %14s  %s\n", "FPGAs", "PEs", "T_sys", "BINDING")
	for _, pt := range m.Curve {
		mark := " "
		if pt.FPGAs == m.FPGAs {
			mark = "*"
		}
		if !pt.Fits {
			fmt.Fprintf(w, "%s %5d %4d %14s  does not fit\n", mark, pt.FPGAs, pt.PEs, "-")
			continue
		}
		fmt.Fprintf(w, "%s %5d %4d %14s  %s\n", mark, pt.FPGAs, pt.PEs, TEPS(pt.TSys), pt.Binding)
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
	if m.Prediction != nil {
		p := m.Prediction
		fmt.Fprintf(w, "\nlatency-aware: %d supersteps take %.3g s (%s); bandwidth alone says %.3g s.\nt_sync %.2f us and an apply sweep of %.2f us per superstep; t_sync exceeds the bandwidth time in %d of them.\n",
			m.Supersteps, p.Seconds, TEPS(p.TEPS), p.BandwidthSeconds, p.SyncSeconds*1e6, p.SweepSeconds*1e6, p.LatencyBoundSupersteps)
	}
	fmt.Fprintf(w, "\n%s\n", LatencyNote)
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
