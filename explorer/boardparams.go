package explorer

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/gravf-tui/gravf-tui/boards"
)

// BoardParam is one board figure a platform cell may override. The list is
// short on purpose: these are the figures that move a limit of the model
// (clock, memory, network, PE budget), so that a user can ask "what if the
// links were twice as fast" without writing a board file.
type BoardParam struct {
	// Name is the key in a platform cell's `set` table.
	Name string
	// Unit is shown beside the value.
	Unit string
	// Doc says what the figure is, in a few words.
	Doc string
	// Integer parameters accept whole numbers only.
	Integer bool
	get     func(*boards.Board) float64
	set     func(*boards.Board, float64)
}

// Get reads the parameter from a board.
func (p BoardParam) Get(b *boards.Board) float64 { return p.get(b) }

func (p BoardParam) check(v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("set: %s must be a non-negative number, not %g", p.Name, v)
	}
	if p.Integer && v != math.Trunc(v) {
		return fmt.Errorf("set: %s must be a whole number, not %g", p.Name, v)
	}
	return nil
}

func edgeMem(b *boards.Board) *boards.Memory {
	if len(b.Memory) == 0 {
		return &boards.Memory{}
	}
	return &b.Memory[0]
}

// BoardParams lists the overridable figures in display order.
var BoardParams = []BoardParam{
	{Name: "clock_mhz", Unit: "MHz", Doc: "f_clk of the design",
		get: func(b *boards.Board) float64 { return b.ClockMHz }, set: func(b *boards.Board, v float64) { b.ClockMHz = v }},
	{Name: "max_fpgas", Unit: "", Doc: "FPGAs of the platform", Integer: true,
		get: func(b *boards.Board) float64 { return float64(b.MaxFPGAs) }, set: func(b *boards.Board, v float64) { b.MaxFPGAs = int(v) }},
	{Name: "pe.max_per_fpga", Unit: "", Doc: "PEs per FPGA (0: from the fabric)", Integer: true,
		get: func(b *boards.Board) float64 { return float64(b.PE.MaxPerFPGA) }, set: func(b *boards.Board, v float64) { b.PE.MaxPerFPGA = int(v) }},
	{Name: "memory.peak_gib_s", Unit: "GiB/s", Doc: "edge memory peak bandwidth per FPGA",
		get: func(b *boards.Board) float64 { return edgeMem(b).PeakGiBs }, set: func(b *boards.Board, v float64) { edgeMem(b).PeakGiBs = v }},
	{Name: "memory.sustained_gib_s", Unit: "GiB/s", Doc: "edge memory sustained bandwidth (0: not measured)",
		get: func(b *boards.Board) float64 { return edgeMem(b).SustainedGiBs }, set: func(b *boards.Board, v float64) { edgeMem(b).SustainedGiBs = v }},
	{Name: "memory.word_bits", Unit: "bit", Doc: "edge memory access word", Integer: true,
		get: func(b *boards.Board) float64 { return float64(edgeMem(b).WordBits) }, set: func(b *boards.Board, v float64) { edgeMem(b).WordBits = int(v) }},
	{Name: "memory.latency_ns", Unit: "ns", Doc: "edge memory read latency",
		get: func(b *boards.Board) float64 { return edgeMem(b).LatencyNs }, set: func(b *boards.Board, v float64) { edgeMem(b).LatencyNs = v }},
	{Name: "network.link_gbit_s", Unit: "Gbit/s", Doc: "one link, per direction",
		get: func(b *boards.Board) float64 { return b.Network.LinkGbits }, set: func(b *boards.Board, v float64) { b.Network.LinkGbits = v }},
	{Name: "network.interface_gib_s", Unit: "GiB/s", Doc: "BW_if: all links of one FPGA",
		get: func(b *boards.Board) float64 { return b.Network.InterfaceGiBs }, set: func(b *boards.Board, v float64) { b.Network.InterfaceGiBs = v }},
	{Name: "network.total_gib_s", Unit: "GiB/s", Doc: "BW_net (0: unlimited)",
		get: func(b *boards.Board) float64 { return b.Network.TotalGiBs }, set: func(b *boards.Board, v float64) { b.Network.TotalGiBs = v }},
	{Name: "network.link_word_bits", Unit: "bit", Doc: "link transfer word", Integer: true,
		get: func(b *boards.Board) float64 { return float64(b.Network.LinkWordBits) }, set: func(b *boards.Board, v float64) { b.Network.LinkWordBits = int(v) }},
	{Name: "network.link_latency_ns", Unit: "ns", Doc: "one-way link latency",
		get: func(b *boards.Board) float64 { return b.Network.LinkLatencyNs }, set: func(b *boards.Board, v float64) { b.Network.LinkLatencyNs = v }},
}

// BoardParamNamed finds a parameter by its `set` key.
func BoardParamNamed(name string) (BoardParam, bool) {
	for _, p := range BoardParams {
		if p.Name == name {
			return p, true
		}
	}
	return BoardParam{}, false
}

func boardParamList() string {
	names := make([]string, len(BoardParams))
	for i, p := range BoardParams {
		names[i] = p.Name
	}
	return strings.Join(names, ", ")
}

// applyBoardParams returns a copy of b with the overrides applied and
// validated again, so that an edit that breaks the board (a clock of 0)
// is reported as the board's own error.
func applyBoardParams(b *boards.Board, set map[string]float64) (*boards.Board, error) {
	if len(set) == 0 {
		return b, nil
	}
	c := *b
	c.Memory = append([]boards.Memory(nil), b.Memory...)
	for _, name := range sortedKeys(set) {
		p, ok := BoardParamNamed(name)
		if !ok {
			return nil, &FieldError{Kind: KindPlatform, Key: "set", Err: fmt.Errorf("set: unknown board parameter %q (want one of %s)", name, boardParamList())}
		}
		if err := p.check(set[name]); err != nil {
			return nil, &FieldError{Kind: KindPlatform, Key: "set." + name, Err: err}
		}
		p.set(&c, set[name])
	}
	if err := c.Validate(); err != nil {
		return nil, &FieldError{Kind: KindPlatform, Key: culprit(b, set), Msg: boardProblem(err),
			Err: fmt.Errorf("board %s with the cell's overrides: %w", b.Name, err)}
	}
	return &c, nil
}

// culprit names the override that breaks the board: the first that fails
// validation on its own, else the last one.
func culprit(b *boards.Board, set map[string]float64) string {
	names := sortedKeys(set)
	for _, name := range names {
		c := *b
		c.Memory = append([]boards.Memory(nil), b.Memory...)
		p, _ := BoardParamNamed(name)
		p.set(&c, set[name])
		if c.Validate() != nil {
			return "set." + name
		}
	}
	return "set." + names[len(names)-1]
}

// boardProblem is a board validation error without the file and field it
// names, for display next to the field that set the value.
func boardProblem(err error) string {
	var l boards.ErrorList
	if errors.As(err, &l) && len(l) == 1 {
		return l[0].Msg
	}
	return err.Error()
}
