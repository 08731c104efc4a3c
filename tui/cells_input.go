package tui

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/model"
	"github.com/gravf-tui/gravf-tui/samples"
	"github.com/gravf-tui/gravf-tui/sim"
)

// newCell returns the model of a cell kind.
func newCell(sh *shared, k explorer.Kind, index int) cellModel {
	b := newBase(sh, k)
	b.index = index
	var c cellModel
	switch k {
	case explorer.KindPlatform:
		c = &platformCell{cellBase: b}
	case explorer.KindKernel:
		c = &kernelCell{cellBase: b}
	case explorer.KindDataset:
		c = &datasetCell{cellBase: b}
	case explorer.KindPartition:
		c = &partitionCell{cellBase: b}
	case explorer.KindModel:
		c = &modelCell{cellBase: b}
	case explorer.KindSweep:
		c = &sweepCell{cellBase: b}
	case explorer.KindSimulate:
		c = &simulateCell{cellBase: b}
	case explorer.KindTrace:
		c = &traceCell{cellBase: b, speed: 1}
	case explorer.KindExport:
		c = &exportCell{cellBase: b}
	default:
		c = &notesCell{cellBase: b}
	}
	c.base().self = c
	return c
}

// --- platform -----------------------------------------------------------------

// platformCell picks the board, overrides its parameters and sets nF and
// nP (or leaves them to the optimiser).
type platformCell struct{ cellBase }

func plat(in explorer.Input) *explorer.Platform { return in.(*explorer.Platform) }

// Update implements cellModel.
func (c *platformCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *platformCell) View() string { return c.render() }

func (c *platformCell) cellKeys() []key.Binding { return nil }

func (c *platformCell) fields() []field {
	po, _ := c.good.(*explorer.PlatformOutput)
	fs := []field{
		choiceField("board", "board", boards.Names(), func(in explorer.Input) *string { return &plat(in).Board }),
		numField("fpgas", "fpgas (nF)", "auto", func(in explorer.Input) *int { return &plat(in).FPGAs }),
		numField("pes", "pes (nP per FPGA)", "auto", func(in explorer.Input) *int { return &plat(in).PEs }),
		enumField("arch", "arch", []string{string(model.GraVFM), string(model.GraVF)}, func(in explorer.Input) *model.Arch { return &plat(in).Arch }),
		enumField("mem", "mem (edges)", []string{string(model.OffChip), string(model.BRAM)}, func(in explorer.Input) *model.MemKind { return &plat(in).Mem }),
		enumField("pe", "PE", []string{string(model.PEGenerated), string(model.PEPaper)}, func(in explorer.Input) *model.PEDesign { return &plat(in).PE }),
		boolField("packing", "packing", func(in explorer.Input) *bool { return &plat(in).Packing }),
		boolField("filter", "filter", func(in explorer.Input) *bool { return &plat(in).Filter }),
		numField("cpe", "cpe", "board figure", func(in explorer.Input) *float64 { return &plat(in).CPE }),
	}
	for _, bp := range explorer.BoardParams {
		f := setField(bp)
		if po != nil {
			for _, pv := range po.Params {
				if pv.Name == bp.Name && !pv.Overridden {
					f.placeholder = strconv.FormatFloat(pv.Value, 'g', -1, 64)
				}
			}
		}
		fs = append(fs, f)
	}
	return fs
}

// setField edits one board parameter override: empty text means the
// board's own figure.
func setField(bp explorer.BoardParam) field {
	hint := bp.Doc
	if bp.Unit != "" {
		hint = bp.Unit + " · " + hint
	}
	return field{key: "set." + bp.Name, label: bp.Name, kind: fText, hint: hint,
		get: func(in explorer.Input) string {
			if v, ok := plat(in).Set[bp.Name]; ok {
				return strconv.FormatFloat(v, 'g', -1, 64)
			}
			return ""
		},
		set: func(in explorer.Input, s string) error {
			p := plat(in)
			s = strings.TrimSpace(s)
			if s == "" {
				delete(p.Set, bp.Name)
				return nil
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return fmt.Errorf("%s: %q is not a number", bp.Name, s)
			}
			if p.Set == nil {
				p.Set = map[string]float64{}
			}
			p.Set[bp.Name] = v
			return nil
		}}
}

func (c *platformCell) output(out explorer.Output, w int) []string {
	o := out.(*explorer.PlatformOutput)
	th := c.sh.th
	auto := func(n int) string {
		if n == 0 {
			return "auto"
		}
		return strconv.Itoa(n)
	}
	var lines []string
	lines = append(lines, wrap(fmt.Sprintf("%s: %s", th.bold.Render(o.Board), o.Title), w)...)
	price := ""
	if o.PriceUSD > 0 {
		price = fmt.Sprintf(" · $%.0f per FPGA", o.PriceUSD)
	}
	lines = append(lines, wrapDots(fmt.Sprintf("%s · %.1f MHz · up to %d FPGAs × %d PEs%s", o.Part, o.ClockMHz, o.MaxFPGAs, o.MaxPEs, price), w)...)
	lines = append(lines, wrapDots(fmt.Sprintf("design: %s FPGAs × %s PEs · %s · %s · %s PE · packing %s · filter %s",
		auto(o.Config.FPGAs), auto(o.Config.PEs), o.Config.Arch, edgesText(o.Config.Mem), o.PE, onOff(o.Config.Packing), onOff(o.Config.Filter)), w)...)
	// The parameters in as many columns as fit.
	var cells []string
	for _, p := range o.Params {
		v := strconv.FormatFloat(p.Value, 'g', 6, 64) + " " + p.Unit
		s := padRight(p.Name, 24) + padLeft(v, 14)
		if p.Overridden {
			s = th.accent.Render(s + " *")
		} else {
			s += "  "
		}
		cells = append(cells, s)
	}
	cols := max(1, w/42)
	rows := (len(cells) + cols - 1) / cols
	for r := range rows {
		var parts []string
		for col := range cols {
			if i := col*rows + r; i < len(cells) {
				parts = append(parts, padRight(cells[i], 40))
			}
		}
		lines = append(lines, truncate(strings.Join(parts, "  "), w))
	}
	if slices.ContainsFunc(o.Params, func(p explorer.ParamValue) bool { return p.Overridden }) {
		lines = append(lines, th.dim.Render("* set in this cell (empty the field to use the board's figure)"))
	}
	return lines
}

// --- kernel -------------------------------------------------------------------

// kernelCell picks the vertex program, its parameters and field widths.
type kernelCell struct{ cellBase }

func kern(in explorer.Input) *explorer.Kernel { return in.(*explorer.Kernel) }

// Update implements cellModel.
func (c *kernelCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *kernelCell) View() string { return c.render() }

func (c *kernelCell) cellKeys() []key.Binding { return []key.Binding{c.sh.keys.EditKernel} }

func (c *kernelCell) fields() []field {
	fs := []field{choiceField("kernel", "kernel", samples.KernelNames(), func(in explorer.Input) *string { return &kern(in).Kernel })}
	ko, _ := c.good.(*explorer.KernelOutput)
	if ko == nil {
		return fs
	}
	in := kern(c.input())
	for _, name := range sortedKeys(ko.Params) {
		ph := ko.Params[name]
		if _, set := in.Params[name]; set {
			ph = ""
		}
		fs = append(fs, mapField("params."+name, "param "+name, name, ph, func(in explorer.Input) *map[string]string { return &kern(in).Params }))
	}
	for _, l := range ko.Layouts {
		for _, f := range l.Fields {
			name := l.Name + "." + f.Name
			ph := f.Width
			if _, set := in.Widths[name]; set {
				ph = ""
			}
			fl := mapField("widths."+name, name, name, ph, func(in explorer.Input) *map[string]string { return &kern(in).Widths })
			fl.hint = "width"
			fs = append(fs, fl)
		}
	}
	return fs
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

func (c *kernelCell) output(out explorer.Output, w int) []string {
	o := out.(*explorer.KernelOutput)
	th := c.sh.th
	var lines []string
	lines = append(lines, wrap(th.bold.Render(o.Name)+": "+strings.Join(strings.Fields(o.Doc), " "), w)...)
	lines = append(lines, th.heading.Render("layouts")+th.dim.Render("  field:width, * edited in this cell"))
	for _, l := range o.Layouts {
		var fs []string
		for _, f := range l.Fields {
			s := f.Name + ":" + f.Width
			if f.Edited {
				s = th.accent.Render(s + "*")
			}
			fs = append(fs, s)
		}
		lines = append(lines, joinWrapped(append([]string{padRight(l.Name, 8)}, fs...), "  ", w)...)
	}
	s := o.Sizes
	lines = append(lines, wrapDots(fmt.Sprintf("sizes at 32-bit ids: m_vertex %d · update %d · message %d · m_edge %d bits", s.Vertex, s.Update, s.Message, s.Edge), w)...)
	if len(o.Params) > 0 {
		var ps []string
		for _, k := range sortedKeys(o.Params) {
			ps = append(ps, k+" = "+o.Params[k])
		}
		lines = append(lines, truncate("params: "+strings.Join(ps, " · "), w))
	}
	if len(o.HandWritten) > 0 {
		lines = append(lines, truncate("hand-written Verilog: "+strings.Join(o.HandWritten, ", "), w))
	}
	lines = append(lines, th.heading.Render("behaviour"))
	for _, name := range []string{"init", "gather", "apply", "scatter"} {
		text, ok := o.Programs[name]
		if !ok {
			continue
		}
		lines = append(lines, th.accent.Render(name))
		for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			if strings.TrimSpace(l) == "" {
				continue
			}
			lines = append(lines, truncate("  "+strings.TrimSpace(l), w))
		}
	}
	return lines
}

// --- dataset ------------------------------------------------------------------

// datasetCell names a generated graph or a file.
type datasetCell struct{ cellBase }

func dset(in explorer.Input) *explorer.Dataset { return in.(*explorer.Dataset) }

// Update implements cellModel.
func (c *datasetCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *datasetCell) View() string { return c.render() }

func (c *datasetCell) cellKeys() []key.Binding { return nil }

func (c *datasetCell) fields() []field {
	formats := []string{"auto"}
	for _, f := range graph.Formats {
		formats = append(formats, string(f))
	}
	g := strField("graph", "graph", func(in explorer.Input) *string { return &dset(in).Graph })
	g.hint = "uniform:v=,d=,seed= · rmat:scale=,ef= · layered · line · grid · or a file"
	return []field{
		g,
		enumField("format", "format", formats, func(in explorer.Input) *graph.Format { return &dset(in).Format }),
		boolField("directed", "directed", func(in explorer.Input) *bool { return &dset(in).Directed }),
		numField("random_weights", "random weights up to", "none", func(in explorer.Input) *uint32 { return &dset(in).RandomWeights }),
		numField("weight_seed", "weight seed", "", func(in explorer.Input) *uint64 { return &dset(in).WeightSeed }),
	}
}

func (c *datasetCell) output(out explorer.Output, w int) []string {
	o := out.(*explorer.DatasetOutput)
	s := o.Stats
	th := c.sh.th
	lines := wrap(th.bold.Render(s.Name), w)
	comps := "components"
	if s.Components == 1 {
		comps = "component"
	}
	lines = append(lines, wrapDots(fmt.Sprintf("V %s · E %s (%s arcs) · degree %.2f (min %d, max %s) · %s isolated · %s %s",
		count(int64(s.V)), count(int64(s.E)), count(int64(s.Arcs)), s.AvgDeg, s.MinDeg, count(int64(s.MaxDeg)), count(int64(s.Isolated)), count(int64(s.Components)), comps), w)...)
	if len(s.DegreeHist) > 0 {
		// log scale: a bucket of one vertex still shows.
		var vals []float64
		var labs []string
		for _, b := range s.DegreeHist {
			vals = append(vals, math.Log1p(float64(b.Count)))
			labs = append(labs, shortCount(b.Min))
		}
		cw := max(1, min(5, (w-18)/len(vals)))
		spark := sparkline(vals)
		var wide strings.Builder
		for _, r := range spark {
			wide.WriteString(strings.Repeat(string(r), cw))
		}
		axis := axisLabels(labs, cw)
		// The legend after the bars, or under the axis when it does not fit.
		const legend = "  (vertices per log2 bucket, log scale)"
		hist := "degree histogram " + th.accent.Render(wide.String())
		beside := lipgloss.Width(hist)+lipgloss.Width(legend) <= w
		if beside {
			hist += th.dim.Render(legend)
		}
		lines = append(lines, hist, th.dim.Render("   degree from   ")+axis)
		if !beside {
			lines = append(lines, th.dim.Render(strings.Repeat(" ", 15)+legend))
		}
	}
	if o.File != "" {
		lines = append(lines, truncate("file "+relPath(c.sh.nb, o.File), w))
	}
	return lines
}

// --- partition ----------------------------------------------------------------

// partitionCell chooses how vertices are spread over the PEs.
type partitionCell struct{ cellBase }

func part(in explorer.Input) *explorer.Partition { return in.(*explorer.Partition) }

// Update implements cellModel.
func (c *partitionCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *partitionCell) View() string { return c.render() }

func (c *partitionCell) cellKeys() []key.Binding { return nil }

func (c *partitionCell) fields() []field {
	var ps []string
	for _, p := range graph.Partitioners {
		ps = append(ps, string(p))
	}
	return []field{
		enumField("partitioner", "partitioner", ps, func(in explorer.Input) *graph.Partitioner { return &part(in).Partitioner }),
		numField("ufactor", "METIS ufactor", "default", func(in explorer.Input) *int { return &part(in).UFactor }),
		numField("seed", "METIS seed", "", func(in explorer.Input) *uint64 { return &part(in).Seed }),
	}
}

func (c *partitionCell) output(out explorer.Output, w int) []string {
	o := out.(*explorer.PartitionOutput)
	cs := o.Cut
	th := c.sh.th
	lines := wrap(fmt.Sprintf("%s over %d FPGAs × %d PEs: edges per PE %s..%s, mean %s, imbalance %.2f %%",
		o.Method, o.FPGAs, o.PEs, count(int64(cs.EdgesPerPEMin)), count(int64(cs.EdgesPerPEMax)), count(int64(math.Round(cs.EdgesPerPEMean))), cs.EdgeImbalance*100), w)
	n := len(o.EdgesPerPE)
	if n > 0 {
		avail := w - 10
		cw := max(1, min(3, avail/n))
		vals := make([]float64, n)
		hi := 0.0
		for i, e := range o.EdgesPerPE {
			vals[i] = float64(e)
			hi = max(hi, vals[i])
		}
		if n*cw > avail {
			// More PEs than columns: show each column's busiest PE.
			per := (n + avail - 1) / avail
			var agg []float64
			for i := 0; i < n; i += per {
				agg = append(agg, slices.Max(vals[i:min(n, i+per)]))
			}
			vals, cw = agg, 1
		}
		rows := columns(vals, hi, 4, cw)
		for i, r := range rows {
			lab := "        "
			if i == 0 {
				lab = padLeft(compact(hi), 7) + " "
			}
			if i == len(rows)-1 {
				lab = padLeft("0", 7) + " "
			}
			lines = append(lines, th.dim.Render(lab)+th.accent.Render(r))
		}
		// FPGA labels under their first PE.
		if len(vals) == n {
			axis := []rune(strings.Repeat(" ", n*cw+8))
			for f := range o.FPGAs {
				lab := []rune(fmt.Sprintf("F%d", f))
				at := 8 + f*o.PEs*cw
				if at+len(lab) <= len(axis) {
					copy(axis[at:], lab)
				}
			}
			lines = append(lines, th.dim.Render(strings.TrimRight(string(axis), " ")+"   edges per PE, by FPGA"))
		}
	}
	lines = append(lines, wrap(fmt.Sprintf("cut: %s of %s arcs cross FPGAs (%.1f %%), %s cross PEs",
		count(int64(cs.CrossFPGAArcs)), count(int64(cs.Arcs)), 100*float64(cs.CrossFPGAArcs)/float64(max(1, cs.Arcs)), count(int64(cs.CrossPEArcs))), w)...)
	lines = append(lines, wrap(fmt.Sprintf("filter: saves %.1f %% of remote updates (%s of %s copies sent)",
		100*cs.FilterSaving, count(cs.RemoteUpdatesFiltered), count(cs.RemoteUpdatesUnfiltered)), w)...)
	return lines
}

// axisLabels lays labels out under columns cw cells wide: each starts at
// its column, and one that would touch the label before it is left out
// (1024 and 2048 never read as 10242048).
func axisLabels(labs []string, cw int) string {
	var b strings.Builder
	end := -2 // the column after the last label written
	for i, l := range labs {
		at := i * cw
		if at < end+1 {
			continue
		}
		b.WriteString(strings.Repeat(" ", at-max(0, end)))
		b.WriteString(l)
		end = at + lipgloss.Width(l)
	}
	return b.String()
}

// shortCount writes a power-of-two bucket bound in a few characters (512,
// 2k, 64k, 1M).
func shortCount(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + "M"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + "k"
	}
	return strconv.Itoa(n)
}

// compact formats a count in a few characters (58.2k, 1.05M).
func compact(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 2, 64) + "M"
	case v >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}

// --- notes --------------------------------------------------------------------

// notesCell is free text.
type notesCell struct{ cellBase }

// Update implements cellModel.
func (c *notesCell) Update(msg tea.Msg) (cellModel, tea.Cmd) { return c, c.update(msg) }

// View implements cellModel.
func (c *notesCell) View() string { return c.render() }

func (c *notesCell) cellKeys() []key.Binding { return nil }

func (c *notesCell) fields() []field {
	f := strField("text", "text", func(in explorer.Input) *string { return &in.(*explorer.Notes).Text })
	f.kind = fMultiline
	return []field{f}
}

func (c *notesCell) output(out explorer.Output, w int) []string {
	text := strings.TrimRight(out.(*explorer.NotesOutput).Notes, "\n")
	if strings.TrimSpace(text) == "" {
		return []string{c.sh.th.dim.Render("(empty: enter the cell to write)")}
	}
	return wrap(reflow(text), w)
}

// reflow joins the lines of each paragraph of notes, as Markdown does,
// so that text broken for one width reads at another; blank lines, and
// lines that start a list item or a heading, keep their breaks.
func reflow(text string) string {
	lines := strings.Split(text, "\n")
	var out []string
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if i == 0 || t == "" || strings.TrimSpace(lines[i-1]) == "" || startsBlock(t) {
			out = append(out, l)
			continue
		}
		out[len(out)-1] = strings.TrimRight(out[len(out)-1], " ") + " " + t
	}
	return strings.Join(out, "\n")
}

// startsBlock reports a line that begins a list item, a numbered item or
// a heading.
func startsBlock(t string) bool {
	if strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") {
		return true
	}
	d := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' })
	return d > 0 && (strings.HasPrefix(t[d:], ". ") || strings.HasPrefix(t[d:], ") "))
}

// simDetails are the simulator's levels of detail, for choice fields.
var simDetails = []string{string(sim.Fast), string(sim.Cycle)}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}
