package design

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
)

// Options are the platform half of a design point: the board, the figures
// of it a user overrides, and the design on it. A notebook's platform cell
// holds them (its keys are the toml tags), `--json` prints them (the json
// tags) and the design-point flags of the command line set them, so that
// each is decoded and checked once, where it is read. FPGAs or PEs of 0
// ask the optimiser to choose.
type Options struct {
	// Board is a built-in board name or a board .toml file (relative to
	// the notebook or the working folder).
	Board string `toml:"board" json:"board"`
	FPGAs int    `toml:"fpgas" json:"fpgas"`
	PEs   int    `toml:"pes" json:"pes"`
	// Arch is the architecture, Mem where the edges are.
	Arch model.Arch    `toml:"arch" json:"arch"`
	Mem  model.MemKind `toml:"mem" json:"mem"`
	// PE is the PE design: generated (what the export builds) or paper
	// (the published PE, whose measured cycles per edge the boards hold).
	PE      model.PEDesign `toml:"pe" json:"pe"`
	Packing bool           `toml:"packing" json:"packing"`
	Filter  bool           `toml:"filter" json:"filter"`
	// CPE overrides the PE's cycles per edge (0: the board's figure).
	CPE float64 `toml:"cpe" json:"cpe"`
	// Set overrides board figures by the names of boards.Params.
	Set map[string]float64 `toml:"set" json:"set"`
}

// DefaultOptions are what a new platform cell holds and what the flags
// default to: the paper's board, the optimiser's choice of nF and nP,
// GraVF-M with the update filter, edges off-chip, the generated PE.
func DefaultOptions() Options {
	return Options{Board: "ac510", Arch: model.GraVFM, Mem: model.OffChip, PE: model.PEGenerated, Filter: true}
}

// Config is the model's view of the options.
func (o *Options) Config() model.Config {
	return model.Config{FPGAs: o.FPGAs, PEs: o.PEs, Arch: o.Arch, Mem: o.Mem, Packing: o.Packing, Filter: o.Filter}
}

// Check validates what can be checked without loading the board, and
// writes the typed fields in their canonical form (a value set in code,
// such as "" for the default PE, reads as a file would). It returns the
// key at fault with the error: "fpgas", or "set.clock_mhz" for an
// override.
func (o *Options) Check() (string, error) {
	switch {
	case strings.TrimSpace(o.Board) == "":
		return "board", fmt.Errorf("board is empty")
	case o.FPGAs < 0:
		return "fpgas", fmt.Errorf("fpgas must be 0 (auto) or positive, not %d", o.FPGAs)
	case o.PEs < 0:
		return "pes", fmt.Errorf("pes must be 0 (auto) or positive, not %d", o.PEs)
	case o.CPE < 0 || o.CPE != o.CPE:
		return "cpe", fmt.Errorf("cpe must be 0 (board figure) or positive, not %g", o.CPE)
	}
	// Values set in code have not been through UnmarshalText.
	if err := o.Arch.UnmarshalText([]byte(o.Arch)); err != nil {
		return "arch", err
	}
	if err := o.Mem.UnmarshalText([]byte(o.Mem)); err != nil {
		return "mem", err
	}
	if err := o.PE.UnmarshalText([]byte(o.PE)); err != nil {
		return "pe", err
	}
	for _, name := range slices.Sorted(maps.Keys(o.Set)) {
		p, ok := boards.ParamNamed(name)
		if !ok {
			return "set." + name, fmt.Errorf("set: unknown board parameter %q (want one of %s)", name, boards.ParamNames())
		}
		if err := p.Check(o.Set[name]); err != nil {
			return "set." + name, fmt.Errorf("set: %w", err)
		}
	}
	return "", nil
}

// Keys lists what SetKey accepts besides the board figures: the keys of a
// platform cell.
var Keys = []string{"board", "fpgas", "pes", "arch", "mem", "pe", "packing", "filter", "cpe"}

// SetKey sets one option from text, as `--set KEY=VALUE` and a form field
// do: KEY is one of Keys, or a board figure of boards.Params
// (clock_mhz, memory.peak_gib_s; "set." in front is accepted too, as a
// notebook spells it). An empty value for a board figure removes its
// override. The value is checked as the notebook's decoder checks it;
// Check then checks the options as a whole.
func (o *Options) SetKey(key, value string) error {
	value = strings.TrimSpace(value)
	var err error
	switch key {
	case "board":
		o.Board = value
	case "fpgas":
		o.FPGAs, err = count(key, value)
	case "pes":
		o.PEs, err = count(key, value)
	case "arch":
		err = o.Arch.UnmarshalText([]byte(value))
	case "mem":
		err = o.Mem.UnmarshalText([]byte(value))
	case "pe":
		err = o.PE.UnmarshalText([]byte(value))
	case "packing":
		o.Packing, err = flag(key, value)
	case "filter":
		o.Filter, err = flag(key, value)
	case "cpe":
		o.CPE, err = number(key, value)
	default:
		return o.setParam(strings.TrimPrefix(key, "set."), value)
	}
	return err
}

func (o *Options) setParam(name, value string) error {
	p, ok := boards.ParamNamed(name)
	if !ok {
		return fmt.Errorf("unknown key %q (want one of %s, or a board figure: %s)", name, strings.Join(Keys, ", "), boards.ParamNames())
	}
	if value == "" {
		delete(o.Set, name)
		return nil
	}
	v, err := number(name, value)
	if err != nil {
		return err
	}
	if err := p.Check(v); err != nil {
		return err
	}
	if o.Set == nil {
		o.Set = map[string]float64{}
	}
	o.Set[name] = v
	return nil
}

func count(key, s string) (int, error) {
	if s == "auto" {
		return 0, nil
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a whole number (0 or auto: the optimiser chooses)", key, s)
	}
	return v, nil
}

func number(key, s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a number", key, s)
	}
	return v, nil
}

func flag(key, s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true", "on", "yes", "1":
		return true, nil
	case "false", "off", "no", "0":
		return false, nil
	}
	return false, fmt.Errorf("%s: %q is not true or false", key, s)
}

// Args writes the options as the command-line flags that set them, the
// ones that differ from DefaultOptions, in a stable order: the headless
// twin of a platform cell ("--board u250 --fpgas 4 --set clock_mhz=200").
func (o *Options) Args() []string {
	d := DefaultOptions()
	var a []string
	add := func(differs bool, key, value string) {
		if differs {
			a = append(a, "--"+key, value)
		}
	}
	add(o.Board != d.Board, "board", o.Board)
	add(o.FPGAs != d.FPGAs, "fpgas", strconv.Itoa(o.FPGAs))
	add(o.PEs != d.PEs, "pes", strconv.Itoa(o.PEs))
	add(o.Arch != d.Arch, "arch", string(o.Arch))
	add(o.Mem != d.Mem, "mem", string(o.Mem))
	add(o.PE != d.PE, "pe", string(o.PE))
	if o.Packing != d.Packing {
		a = append(a, "--packing="+strconv.FormatBool(o.Packing))
	}
	if o.Filter != d.Filter {
		a = append(a, "--filter="+strconv.FormatBool(o.Filter))
	}
	add(o.CPE != d.CPE, "cpe", strconv.FormatFloat(o.CPE, 'g', -1, 64))
	for _, p := range boards.Params {
		if v, ok := o.Set[p.Name]; ok {
			a = append(a, "--set", p.Name+"="+strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	return a
}

// Kernel picks the vertex program and its parameter values, and may
// change field widths of its layouts ("vertex.label" = "16"): a notebook's
// kernel cell, the --kernel, --param and --width flags.
type Kernel struct {
	// Kernel is a built-in name or a folder with kernel.toml.
	Kernel string            `toml:"kernel" json:"kernel"`
	Params map[string]string `toml:"params" json:"params"`
	Widths map[string]string `toml:"widths" json:"widths"`
}

// DefaultKernel is what a new kernel cell holds.
func DefaultKernel() Kernel { return Kernel{Kernel: "wcc"} }

// Layouts lists the layouts a width edit may name.
var Layouts = []string{"vertex", "update", "message", "edge"}

// Check validates what can be checked without loading the kernel.
func (k *Kernel) Check() (string, error) {
	if strings.TrimSpace(k.Kernel) == "" {
		return "kernel", fmt.Errorf("kernel is empty")
	}
	for _, name := range slices.Sorted(maps.Keys(k.Widths)) {
		layout, field, ok := strings.Cut(name, ".")
		if !ok || field == "" || !slices.Contains(Layouts, layout) {
			return "widths." + name, fmt.Errorf("widths: %q is not layout.field (layout vertex, update, message or edge)", name)
		}
		if strings.TrimSpace(k.Widths[name]) == "" {
			return "widths." + name, fmt.Errorf("widths: %s is empty", name)
		}
	}
	return "", nil
}

// Dataset is a generator spec (uniform:v=...,d=...) or a graph file: a
// notebook's dataset cell, the --graph, --format, --directed,
// --random-weights and --weight-seed flags.
type Dataset struct {
	Graph    string       `toml:"graph" json:"graph"`
	Format   graph.Format `toml:"format" json:"format"`
	Directed bool         `toml:"directed" json:"directed"`
	// RandomWeights gives unweighted graphs seeded weights in [1, N].
	RandomWeights uint32 `toml:"random_weights" json:"random_weights"`
	WeightSeed    uint64 `toml:"weight_seed" json:"weight_seed"`
}

// DefaultDataset is what a new dataset cell holds.
func DefaultDataset() Dataset {
	return Dataset{Graph: "uniform:v=65536,d=32,seed=1", Format: graph.FormatAuto, WeightSeed: 1}
}

// Check validates what can be checked without reading the graph, and
// writes the format in its canonical form.
func (d *Dataset) Check() (string, error) {
	if strings.TrimSpace(d.Graph) == "" {
		return "graph", fmt.Errorf("graph is empty")
	}
	if _, err := graph.ParseSpec(d.Graph); err != nil {
		return "graph", err
	}
	if err := d.Format.UnmarshalText([]byte(d.Format)); err != nil {
		return "format", err
	}
	return "", nil
}

// Partition picks how vertices are spread over the FPGAs and PEs: a
// notebook's partition cell, the --partition, --ufactor and --seed flags.
type Partition struct {
	Partitioner graph.Partitioner `toml:"partitioner" json:"partitioner"`
	// UFactor and Seed configure METIS.
	UFactor int    `toml:"ufactor" json:"ufactor"`
	Seed    uint64 `toml:"seed" json:"seed"`
}

// DefaultPartition is what a new partition cell holds, and the partition
// of a design with none.
func DefaultPartition() Partition { return Partition{Partitioner: graph.Greedy} }

// Check validates the partition options, and writes the partitioner in
// its canonical form.
func (p *Partition) Check() (string, error) {
	if err := p.Partitioner.UnmarshalText([]byte(p.Partitioner)); err != nil {
		return "partitioner", err
	}
	if p.UFactor < 0 {
		return "ufactor", fmt.Errorf("ufactor must not be negative")
	}
	return "", nil
}
