package explorer

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gravf-tui/gravf-tui/design"
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

// reads says which kinds of cell above a cell read the input of, without
// its result: the model cell predicts on the partition cell's partitioner
// but partitions each design point itself.
var reads = map[Kind][]Kind{
	KindModel: {KindPartition},
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

// Platform picks the board and the design point: the options of
// design.Options, whose tags are the cell's keys. FPGAs or PEs of 0 ask
// the optimiser to choose.
type Platform design.Options

// Kernel picks the vertex program and its parameter values, and may change
// field widths of its layouts ("vertex.label" = "16"); see design.Kernel.
type Kernel design.Kernel

// Dataset is a generator spec (uniform:v=...,d=...) or a graph file; see
// design.Dataset.
type Dataset design.Dataset

// Partition picks how vertices are spread over the PEs; see
// design.Partition.
type Partition design.Partition

// Options returns the cell as the design options it is, for their methods
// (SetKey, Args, LoadBoard).
func (p *Platform) Options() *design.Options { return (*design.Options)(p) }

// Choice returns the cell as the kernel choice it is.
func (k *Kernel) Choice() *design.Kernel { return (*design.Kernel)(k) }

// Source returns the cell as the dataset it is.
func (d *Dataset) Source() *design.Dataset { return (*design.Dataset)(d) }

// Method returns the cell as the partition options it is.
func (p *Partition) Method() *design.Partition { return (*design.Partition)(p) }

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
	Simulate bool       `toml:"simulate" json:"simulate"`
	Detail   sim.Detail `toml:"detail" json:"detail"`
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
	Detail    sim.Detail `toml:"detail" json:"detail"`
	Seed      uint64     `toml:"seed" json:"seed"`
	MaxCycles int64      `toml:"max_cycles" json:"max_cycles"`
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
		p := Platform(design.DefaultOptions())
		return &p, nil
	case KindKernel:
		c := Kernel(design.DefaultKernel())
		return &c, nil
	case KindDataset:
		d := Dataset(design.DefaultDataset())
		return &d, nil
	case KindPartition:
		p := Partition(design.DefaultPartition())
		return &p, nil
	case KindModel:
		return &Model{Latency: true}, nil
	case KindSweep:
		return &Sweep{Grid: "fpgas=1..4,pes=1..16", Detail: sim.Fast, Cost: "fpgas"}, nil
	case KindSimulate:
		return &Simulate{Detail: sim.Fast, Seed: 1}, nil
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
func (p *Platform) Check() (string, error) { return p.Options().Check() }

// Check implements Input.
func (k *Kernel) Check() (string, error) { return k.Choice().Check() }

// Check implements Input.
func (d *Dataset) Check() (string, error) { return d.Source().Check() }

// Check implements Input.
func (p *Partition) Check() (string, error) { return p.Method().Check() }

// Check implements Input.
func (*Model) Check() (string, error) { return "", nil }

// Check implements Input.
func (s *Sweep) Check() (string, error) {
	if _, err := ParseGrid(s.Grid); err != nil {
		return "grid", err
	}
	if err := s.Detail.UnmarshalText([]byte(s.Detail)); err != nil {
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
	if err := s.Detail.UnmarshalText([]byte(s.Detail)); err != nil {
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
