package explorer

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/sim"
)

// Kind names a cell type. The notebook file spells it in every cell's
// `kind` key.
type Kind string

// The cell kinds, in the order a notebook usually lists them.
const (
	KindPlatform  Kind = "platform"
	KindKernel    Kind = "kernel"
	KindDataset   Kind = "dataset"
	KindPartition Kind = "partition"
	KindModel     Kind = "model"
	KindSweep     Kind = "sweep"
	KindSimulate  Kind = "simulate"
	KindTrace     Kind = "trace"
	KindExport    Kind = "export"
	KindNotes     Kind = "notes"
)

// Kinds lists every cell kind in menu order.
var Kinds = []Kind{KindPlatform, KindKernel, KindDataset, KindPartition, KindModel, KindSweep, KindSimulate, KindTrace, KindExport, KindNotes}

// deps says which kinds of cell above a cell its result depends on. The
// latest cell of each such kind above it supplies the value; a dataset
// depends on the kernel only through whether the kernel has edge data.
var deps = map[Kind][]Kind{
	KindPlatform:  nil,
	KindKernel:    nil,
	KindDataset:   {KindKernel},
	KindPartition: {KindPlatform, KindKernel, KindDataset},
	KindModel:     {KindPlatform, KindKernel, KindDataset},
	KindSweep:     {KindPlatform, KindKernel, KindDataset, KindPartition},
	KindSimulate:  {KindPlatform, KindKernel, KindDataset, KindPartition},
	KindTrace:     {KindSimulate},
	KindExport:    {KindPlatform, KindKernel, KindDataset, KindPartition},
	KindNotes:     nil,
}

// required are the dependencies a cell cannot do without; the others fall
// back to defaults (greedy partitioning; a trace cell with its own file).
var required = map[Kind][]Kind{
	KindDataset:   nil,
	KindPartition: {KindPlatform, KindKernel, KindDataset},
	KindModel:     {KindPlatform, KindKernel, KindDataset},
	KindSweep:     {KindPlatform, KindKernel, KindDataset},
	KindSimulate:  {KindPlatform, KindKernel, KindDataset},
	KindExport:    {KindPlatform, KindKernel, KindDataset},
}

// Expensive reports whether a cell of kind k runs only on demand: the TUI
// re-evaluates the other kinds on every edit.
func Expensive(k Kind) bool {
	return k == KindSimulate || k == KindExport || k == KindSweep
}

// Input is the editable part of a cell. Each kind has its own type; the
// notebook file holds exactly the fields of that type.
type Input interface {
	// Kind names the cell type.
	Kind() Kind
	// Check validates the values that can be checked without loading
	// anything, so that a form can show the error on each keystroke. It
	// returns the offending key with the error.
	Check() (key string, err error)
}

// Platform picks the board and the design point. FPGAs or PEs of 0 ask
// the optimiser to choose.
type Platform struct {
	// Board is a built-in board name or a board .toml file (relative to
	// the notebook).
	Board string `toml:"board" json:"board"`
	FPGAs int    `toml:"fpgas" json:"fpgas"`
	PEs   int    `toml:"pes" json:"pes"`
	// Arch is gravf-m or gravf; Mem is offchip or bram.
	Arch string `toml:"arch" json:"arch"`
	Mem  string `toml:"mem" json:"mem"`
	// PE is the PE design: generated (what the export builds) or paper
	// (the published PE, whose measured cycles per edge the boards hold).
	PE      string `toml:"pe" json:"pe"`
	Packing bool   `toml:"packing" json:"packing"`
	Filter  bool   `toml:"filter" json:"filter"`
	// CPE overrides the PE's cycles per edge (0: the board's figure).
	CPE float64 `toml:"cpe" json:"cpe"`
	// Set overrides board parameters by the names of BoardParams.
	Set map[string]float64 `toml:"set" json:"set"`
}

// Kernel picks the vertex program and its parameter values, and may change
// field widths of its layouts ("vertex.label" = "16").
type Kernel struct {
	// Kernel is a built-in name or a folder with kernel.toml.
	Kernel string            `toml:"kernel" json:"kernel"`
	Params map[string]string `toml:"params" json:"params"`
	Widths map[string]string `toml:"widths" json:"widths"`
}

// Dataset is a generator spec (uniform:v=...,d=...) or a graph file.
type Dataset struct {
	Graph    string `toml:"graph" json:"graph"`
	Format   string `toml:"format" json:"format"`
	Directed bool   `toml:"directed" json:"directed"`
	// RandomWeights gives unweighted graphs seeded weights in [1, N].
	RandomWeights uint32 `toml:"random_weights" json:"random_weights"`
	WeightSeed    uint64 `toml:"weight_seed" json:"weight_seed"`
}

// Partition picks how vertices are spread over the PEs.
type Partition struct {
	Partitioner string `toml:"partitioner" json:"partitioner"`
	// UFactor and Seed configure METIS.
	UFactor int    `toml:"ufactor" json:"ufactor"`
	Seed    uint64 `toml:"seed" json:"seed"`
}

// Model evaluates the analytical model and the optimiser.
type Model struct {
	// Latency adds the latency-aware prediction (runs the reference
	// engine once per kernel and dataset).
	Latency bool `toml:"latency" json:"latency"`
}

// Sweep evaluates a grid of design points (see ParseGrid for the syntax).
type Sweep struct {
	Grid string `toml:"grid" json:"grid"`
	// Simulate runs the simulator on every point besides the model.
	Simulate bool   `toml:"simulate" json:"simulate"`
	Detail   string `toml:"detail" json:"detail"`
	// Cost is the Pareto front's cost axis: fpgas, pes or price.
	Cost string `toml:"cost" json:"cost"`
	// Workers bounds parallel simulations (0: one per core).
	Workers int `toml:"workers" json:"workers"`
	// Shard evaluates only a slice of the grid, "i/n" (see ParseShard);
	// empty for the whole grid.
	Shard string `toml:"shard" json:"shard"`
}

// Simulate runs the event-driven simulator on the design point.
type Simulate struct {
	Detail    string `toml:"detail" json:"detail"`
	Seed      uint64 `toml:"seed" json:"seed"`
	MaxCycles int64  `toml:"max_cycles" json:"max_cycles"`
	// Trace, when set, records the run to this file (relative to the
	// notebook).
	Trace string `toml:"trace" json:"trace"`
}

// Trace opens a recorded trace: File, or the trace of the simulate cell
// above when File is empty. Superstep selects the superstep shown.
type Trace struct {
	File      string `toml:"file" json:"file"`
	Superstep int    `toml:"superstep" json:"superstep"`
}

// Export writes the Verilog project of the design point.
type Export struct {
	// Out is the project folder (relative to the notebook).
	Out   string `toml:"out" json:"out"`
	Force bool   `toml:"force" json:"force"`
	// RunSim runs `make sim` in the project after writing it.
	RunSim bool `toml:"run_sim" json:"run_sim"`
}

// Notes is free text.
type Notes struct {
	Text string `toml:"text" json:"text"`
}

// Kind implements Input.
func (*Platform) Kind() Kind { return KindPlatform }

// Kind implements Input.
func (*Kernel) Kind() Kind { return KindKernel }

// Kind implements Input.
func (*Dataset) Kind() Kind { return KindDataset }

// Kind implements Input.
func (*Partition) Kind() Kind { return KindPartition }

// Kind implements Input.
func (*Model) Kind() Kind { return KindModel }

// Kind implements Input.
func (*Sweep) Kind() Kind { return KindSweep }

// Kind implements Input.
func (*Simulate) Kind() Kind { return KindSimulate }

// Kind implements Input.
func (*Trace) Kind() Kind { return KindTrace }

// Kind implements Input.
func (*Export) Kind() Kind { return KindExport }

// Kind implements Input.
func (*Notes) Kind() Kind { return KindNotes }

// NewInput returns the default input of a kind: what a new cell starts
// with and what a notebook file's missing keys mean.
func NewInput(k Kind) (Input, error) {
	switch k {
	case KindPlatform:
		return &Platform{Board: "ac510", Arch: string(model.GraVFM), Mem: string(model.OffChip), PE: string(model.PEGenerated), Filter: true}, nil
	case KindKernel:
		return &Kernel{Kernel: "wcc"}, nil
	case KindDataset:
		return &Dataset{Graph: "uniform:v=65536,d=32,seed=1", Format: "auto", WeightSeed: 1}, nil
	case KindPartition:
		return &Partition{Partitioner: string(graph.Greedy)}, nil
	case KindModel:
		return &Model{Latency: true}, nil
	case KindSweep:
		return &Sweep{Grid: "fpgas=1..4,pes=1..16", Detail: string(sim.Fast), Cost: "fpgas"}, nil
	case KindSimulate:
		return &Simulate{Detail: string(sim.Fast), Seed: 1}, nil
	case KindTrace:
		return &Trace{}, nil
	case KindExport:
		return &Export{Out: "gravf-project"}, nil
	case KindNotes:
		return &Notes{}, nil
	}
	return nil, fmt.Errorf("unknown cell kind %q (want one of %s)", k, kindList())
}

func kindList() string {
	s := make([]string, len(Kinds))
	for i, k := range Kinds {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

// Check implements Input.
func (p *Platform) Check() (string, error) {
	switch {
	case strings.TrimSpace(p.Board) == "":
		return "board", fmt.Errorf("board is empty")
	case p.FPGAs < 0:
		return "fpgas", fmt.Errorf("fpgas must be 0 (auto) or positive, not %d", p.FPGAs)
	case p.PEs < 0:
		return "pes", fmt.Errorf("pes must be 0 (auto) or positive, not %d", p.PEs)
	case p.CPE < 0:
		return "cpe", fmt.Errorf("cpe must be 0 (board figure) or positive, not %g", p.CPE)
	}
	if _, err := model.ParseArch(p.Arch); err != nil {
		return "arch", err
	}
	if _, err := model.ParseMemKind(p.Mem); err != nil {
		return "mem", err
	}
	if _, err := model.ParsePEDesign(p.PE); err != nil {
		return "pe", err
	}
	for _, name := range sortedKeys(p.Set) {
		bp, ok := BoardParamNamed(name)
		if !ok {
			return "set." + name, fmt.Errorf("set: unknown board parameter %q (want one of %s)", name, boards.ParamNames())
		}
		if err := bp.Check(p.Set[name]); err != nil {
			return "set." + name, fmt.Errorf("set: %w", err)
		}
	}
	return "", nil
}

// Check implements Input.
func (k *Kernel) Check() (string, error) {
	if strings.TrimSpace(k.Kernel) == "" {
		return "kernel", fmt.Errorf("kernel is empty")
	}
	for _, name := range sortedKeys(k.Widths) {
		layout, field, ok := strings.Cut(name, ".")
		if !ok || field == "" || !slices.Contains([]string{"vertex", "update", "message", "edge"}, layout) {
			return "widths." + name, fmt.Errorf("widths: %q is not layout.field (layout vertex, update, message or edge)", name)
		}
		if strings.TrimSpace(k.Widths[name]) == "" {
			return "widths." + name, fmt.Errorf("widths: %s is empty", name)
		}
	}
	return "", nil
}

// Check implements Input.
func (d *Dataset) Check() (string, error) {
	if strings.TrimSpace(d.Graph) == "" {
		return "graph", fmt.Errorf("graph is empty")
	}
	if _, err := graph.ParseFormat(d.Format); err != nil {
		return "format", err
	}
	return "", nil
}

// Check implements Input.
func (p *Partition) Check() (string, error) {
	if _, err := graph.ParsePartitioner(p.Partitioner); err != nil {
		return "partitioner", err
	}
	if p.UFactor < 0 {
		return "ufactor", fmt.Errorf("ufactor must not be negative")
	}
	return "", nil
}

// Check implements Input.
func (*Model) Check() (string, error) { return "", nil }

// Check implements Input.
func (s *Sweep) Check() (string, error) {
	if _, err := ParseGrid(s.Grid); err != nil {
		return "grid", err
	}
	if _, err := sim.ParseDetail(s.Detail); err != nil {
		return "detail", err
	}
	if _, err := parseCost(s.Cost); err != nil {
		return "cost", err
	}
	if s.Workers < 0 {
		return "workers", fmt.Errorf("workers must not be negative")
	}
	if _, err := ParseShard(s.Shard); err != nil {
		return "shard", err
	}
	return "", nil
}

// Check implements Input.
func (s *Simulate) Check() (string, error) {
	if _, err := sim.ParseDetail(s.Detail); err != nil {
		return "detail", err
	}
	if s.MaxCycles < 0 {
		return "max_cycles", fmt.Errorf("max_cycles must not be negative")
	}
	return "", nil
}

// Check implements Input.
func (t *Trace) Check() (string, error) {
	if t.Superstep < 0 {
		return "superstep", fmt.Errorf("superstep must not be negative")
	}
	return "", nil
}

// Check implements Input.
func (e *Export) Check() (string, error) {
	if strings.TrimSpace(e.Out) == "" {
		return "out", fmt.Errorf("out is empty")
	}
	return "", nil
}

// Check implements Input.
func (*Notes) Check() (string, error) { return "", nil }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
