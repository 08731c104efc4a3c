package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/spf13/cobra"
)

// modelFlags are the design-point flags shared by model, sim and export.
type modelFlags struct {
	board, mem, arch string
	fpgas, pes       int
	packing, filter  bool
	cpe              float64
}

func (f *modelFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.board, "board", "ac510", "board: a built-in name (see `gravf-tui boards`) or a board .toml file")
	cmd.Flags().IntVar(&f.fpgas, "fpgas", 0, "number of FPGAs (0: let the optimiser choose)")
	cmd.Flags().IntVar(&f.pes, "pes", 0, "PEs per FPGA (0: let the optimiser choose)")
	cmd.Flags().StringVar(&f.arch, "arch", "gravf-m", "architecture: gravf-m or gravf (the unicast baseline)")
	cmd.Flags().StringVar(&f.mem, "mem", "offchip", "edge storage: offchip or bram")
	cmd.Flags().BoolVar(&f.packing, "packing", false, "pack several updates into one link word")
	cmd.Flags().BoolVar(&f.filter, "filter", true, "send updates only to FPGAs that hold neighbours (GraVF-M)")
	cmd.Flags().Float64Var(&f.cpe, "cpe", 0, "PE cycles per edge (0: the board's measured figure for the kernel, else an estimate)")
}

// config turns the flags into a model configuration.
func (f *modelFlags) config() (model.Config, error) {
	arch, err := model.ParseArch(f.arch)
	if err != nil {
		return model.Config{}, usageError{err}
	}
	mem, err := model.ParseMemKind(f.mem)
	if err != nil {
		return model.Config{}, usageError{err}
	}
	if f.fpgas < 0 || f.pes < 0 {
		return model.Config{}, usagef("--fpgas and --pes must not be negative")
	}
	return model.Config{FPGAs: f.fpgas, PEs: f.pes, Arch: arch, Mem: mem, Packing: f.packing, Filter: f.filter}, nil
}

// platform loads the board and builds the model's platform.
func (f *modelFlags) platform(cost *kernel.PECost) (*boards.Board, *model.Platform, error) {
	b, err := boards.Load(f.board)
	if err != nil {
		return nil, nil, usageError{err}
	}
	p, err := model.FromBoardKernel(b, "", cost)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return b, p, nil
}

// modelJSON is the stable, scriptable output of `gravf-tui model --json`.
type modelJSON struct {
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
	Packing          bool              `json:"packing"`
	Filter           bool              `json:"filter"`
	CPE              float64           `json:"cpe"`
	CPESource        string            `json:"cpe_source"`
	Limits           model.Limits      `json:"limits"`
	TSys             float64           `json:"tsys"`
	Binding          string            `json:"binding"`
	Reasons          map[string]string `json:"reasons"`
	Sizes            sizesJSON         `json:"sizes"`
	MemDetail        *model.MemDetail  `json:"mem_detail,omitempty"`
	Capacity         model.Capacity    `json:"capacity"`
	Curve            []model.Point     `json:"curve"`
	PECurve          []model.Point     `json:"pe_curve"`
	Why              []string          `json:"why"`
	Other            *otherArchJSON    `json:"other_arch,omitempty"`
	PredictedSeconds *float64          `json:"predicted_seconds"`
	Prediction       *model.Prediction `json:"prediction,omitempty"`
	Supersteps       int               `json:"supersteps,omitempty"`
	Note             string            `json:"note"`
}

type sizesJSON struct {
	VertexIDBits int        `json:"vertexidsize"`
	Vertex       int        `json:"m_vertex"`
	Update       float64    `json:"m_update"`
	Message      float64    `json:"m_message"`
	Edge         int        `json:"m_edge"`
	MemWord      int        `json:"m_memword"`
	UpdateWire   model.Wire `json:"m_update_wire"`
	MessageWire  model.Wire `json:"m_message_wire"`
}

type otherArchJSON struct {
	Arch    model.Arch   `json:"arch"`
	Limits  model.Limits `json:"limits"`
	TSys    float64      `json:"tsys"`
	Binding string       `json:"binding"`
}

const latencyNote = "The four limits are bandwidth-only and ignore latency; predicted_seconds adds the barrier latency t_sync of every superstep and the apply sweeps."

func newModelCmd() *cobra.Command {
	var mf modelFlags
	var gf graphFlags
	var kname string
	var params []string
	var asJSON, noLatency bool
	cmd := &cobra.Command{
		Use:   "model --board B --kernel K --graph G [--fpgas N] [--pes N] [--arch gravf-m|gravf] [--json]",
		Short: "Evaluate the analytical performance model and choose nF and nP",
		Long: `model evaluates the four throughput limits of GraVF-M (or GraVF): the PEs,
the off-chip memory, the network interface and the network; T_sys is their
minimum. With --fpgas 0 or --pes 0 it chooses the design as the paper does:
the nF that maximises T_sys at the largest nP that fits, then the fewest PEs
that keep it. The curve over nF is always printed.

` + latencyNote,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := mf.config()
			if err != nil {
				return err
			}
			k, g, err := loadKernelGraph(kname, &gf, params)
			if err != nil {
				return err
			}
			cost := k.Spec.PECost
			if c, ok := cachedPECost(mf.board, k.Spec.Name, g.NumVertices()); ok {
				cost = c // synthesised by export --estimate-only
			}
			_, p, err := mf.platform(cost)
			if err != nil {
				return err
			}
			out, err := evaluateModel(p, k, g, cfg, mf.cpe, !noLatency)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), out)
			}
			printModel(cmd.OutOrStdout(), out)
			return nil
		},
	}
	mf.register(cmd)
	gf.register(cmd)
	cmd.Flags().StringVar(&kname, "kernel", "", "kernel: a built-in name or a folder with kernel.toml")
	cmd.Flags().StringArrayVar(&params, "param", nil, "kernel parameter name=value; repeatable")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON object")
	cmd.Flags().BoolVar(&noLatency, "no-latency", false, "skip the reference run that feeds the latency-aware prediction")
	return cmd
}

// evaluateModel runs the optimiser (or evaluates a fixed point), the other
// architecture for comparison, and the latency-aware prediction.
func evaluateModel(p *model.Platform, k *kernel.Kernel, g *graph.Graph, cfg model.Config, cpe float64, latency bool) (*modelJSON, error) {
	c, src := p.KernelCPE(k.Spec.Name)
	if cpe > 0 {
		c, src = cpe, "given with --cpe"
	}
	var steps []kernel.Superstep
	if latency {
		res, err := kernel.Run(context.Background(), k, g, kernel.RunOptions{})
		if err != nil {
			return nil, err
		}
		steps = res.Supersteps
	}
	w := model.NewWorkload(k, g, c, src, steps)
	if p.MaxPEs > 0 && cfg.PEs > p.MaxPEs {
		return nil, usagef("--pes %d: at most %d PEs fit one FPGA of %s (%s)", cfg.PEs, p.MaxPEs, p.Name, p.MaxPEsReason)
	}
	if p.MaxFPGAs > 0 && cfg.FPGAs > p.MaxFPGAs {
		return nil, usagef("--fpgas %d: %s has at most %d FPGAs", cfg.FPGAs, p.Name, p.MaxFPGAs)
	}
	ch, err := model.Optimise(p, w, cfg)
	if err != nil {
		if errors.Is(err, model.ErrCapacity) {
			return nil, usageError{err}
		}
		return nil, err
	}
	b := ch.Best
	out := &modelJSON{
		Board: p.Name, Kernel: k.Spec.Name, Graph: g.Name, Vertices: g.NumVertices(), Arcs: int64(g.NumArcs()), Degree: w.Degree(),
		FPGAs: b.FPGAs, PEs: b.PEs, Arch: b.Arch, Mem: b.Mem, Packing: b.Packing, Filter: b.Filter,
		CPE: b.CPE, CPESource: b.CPESource, Limits: b.Limits, TSys: b.TSys, Binding: b.Binding, Reasons: b.Reasons,
		Sizes: sizesJSON{VertexIDBits: w.Sizes.VertexIDBits, Vertex: b.Sizes.Vertex, Update: b.Sizes.Update.Used, Message: b.Sizes.Message.Used,
			Edge: b.Sizes.Edge, MemWord: b.Sizes.MemWord, UpdateWire: b.Sizes.Update, MessageWire: b.Sizes.Message},
		MemDetail: b.MemDetail, Capacity: b.Capacity, Curve: ch.Curve, PECurve: ch.PECurve, Why: ch.Why, Note: latencyNote,
	}
	other := b.Config
	other.Arch = model.GraVF
	if b.Arch == model.GraVF {
		other.Arch = model.GraVFM
	}
	if r, err := model.Evaluate(p, w, other); err == nil || errors.Is(err, model.ErrCapacity) {
		out.Other = &otherArchJSON{Arch: r.Arch, Limits: r.Limits, TSys: r.TSys, Binding: r.Binding}
	}
	if pr, ok := model.Predict(p, w, b); ok {
		out.Prediction = &pr
		out.PredictedSeconds = &pr.Seconds
		out.Supersteps = len(steps)
	}
	return out, nil
}

func teps(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "unbounded"
	case v >= 1e9:
		return fmt.Sprintf("%.3f GTEPS", v/1e9)
	}
	return fmt.Sprintf("%.1f MTEPS", v/1e6)
}

func printModel(w io.Writer, m *modelJSON) {
	fmt.Fprintf(w, "%s on %s: %s (V=%d, %d arcs, d=%.2f)\n", m.Kernel, m.Board, m.Graph, m.Vertices, m.Arcs, m.Degree)
	fmt.Fprintf(w, "design: %d FPGAs x %d PEs, %s, edges %s, packing %v, filter %v, CPE %.2f (%s)\n\n",
		m.FPGAs, m.PEs, m.Arch, m.Mem, m.Packing, m.Filter, m.CPE, m.CPESource)
	fmt.Fprintf(w, "  %-4s %-16s %s\n", "", "LIMIT", "WHY")
	m.Limits.Each(func(name string, v float64) {
		mark := "  "
		if name == m.Binding {
			mark = "=>"
		}
		fmt.Fprintf(w, "%s %-4s %-16s %s\n", mark, name, teps(v), m.Reasons[name])
	})
	for _, n := range []string{model.LimitMem, model.LimitIf, model.LimitNet} {
		if _, ok := m.Limits.Get(n); !ok {
			why := "does not apply"
			switch {
			case n == model.LimitMem && m.Mem == model.BRAM:
				why = "edges in BRAM"
			case n != model.LimitMem && m.FPGAs == 1:
				why = "one FPGA: no network"
			case n == model.LimitNet:
				why = "the network never binds on this board"
			}
			fmt.Fprintf(w, "   %-4s %-16s %s\n", n, "-", why)
		}
	}
	fmt.Fprintf(w, "\nT_sys = %s, bound by %s\n", teps(m.TSys), model.LimitTitle(m.Binding))
	if m.Other != nil {
		fmt.Fprintf(w, "%s at the same point: %s, bound by %s (%s/%s = %.2fx)\n", m.Other.Arch, teps(m.Other.TSys), model.LimitTitle(m.Other.Binding),
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
		fmt.Fprintf(w, "%s %5d %4d %14s  %s\n", mark, pt.FPGAs, pt.PEs, teps(pt.TSys), pt.Binding)
	}
	fmt.Fprintln(w)
	for _, s := range m.Why {
		fmt.Fprintf(w, "- %s\n", s)
	}
	if m.Prediction != nil {
		p := m.Prediction
		fmt.Fprintf(w, "\nlatency-aware: %d supersteps take %.3g s (%s); bandwidth alone says %.3g s.\nt_sync %.2f us and an apply sweep of %.2f us per superstep; t_sync exceeds the bandwidth time in %d of them.\n",
			m.Supersteps, p.Seconds, teps(p.TEPS), p.BandwidthSeconds, p.SyncSeconds*1e6, p.SweepSeconds*1e6, p.LatencyBoundSupersteps)
	}
	fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(latencyNote))
}
