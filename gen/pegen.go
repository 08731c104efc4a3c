package gen

import (
	"bytes"
	"fmt"
	"text/template"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// peField is one field of a packed bus: its name, width and bit offset.
type peField struct {
	Name       string
	Width, Off int
}

// peData feeds the PE template.
type peData struct {
	Kernel                 string
	VID, UPD, MSG, ST, ED  int // widths: vertex id, update, message, state, edge data
	UPDW, MSGW, EDW        int // bus widths (at least 1)
	Update, Message, State []peField
	Edge                   []peField
	HandWritten            bool
	HazardSlots            int
	GatherLatency          int    // cycles of the generated gather kernel (not HandWritten)
	OffChip                bool   // edges in off-chip memory, read through the PE's memory port
	Load                   bool   // tables written and states read through the table port
	LDA, LDW               string // the table port's widths, from the other parameters
}

// PEOptions select a variant of the PE.
type PEOptions struct {
	// OffChip: the edges live in off-chip memory, read through the PE's
	// edge memory port.
	OffChip bool
	// Load: the PE's tables have no initial images; a Vitis kernel writes
	// them through the table port before a run and reads the vertex states
	// back after it (the module header gives the protocol).
	Load bool
}

func fieldsOf(l kernel.Layout, ts []kernel.Type) ([]peField, int) {
	total := 0
	for _, t := range ts {
		total += t.Width
	}
	var fs []peField
	off := total
	for i, f := range l {
		off -= ts[i].Width
		fs = append(fs, peField{Name: f.Name, Width: ts[i].Width, Off: off})
	}
	return fs, total
}

// GeneratePE generates the processing element of a bound kernel: the
// input FIFO, barrier counter, scatter unit with its edge-index and edge
// memories, the scatter kernel, the message FIFO, the gather unit with its
// hazard detector, the vertex-state memory, the apply sweep with the apply
// kernel, and the update queue. It mirrors the simulator's PE (sim/doc.go).
// With offChip the edges live in off-chip memory: the scatter unit requests
// the words of each list through the PE's memory port, with requests in
// flight, and unpacks the responses (the module header gives the protocol).
func GeneratePE(k *kernel.Kernel, offChip bool) (string, error) {
	return GeneratePEFor(k, PEOptions{OffChip: offChip})
}

// GeneratePEFor generates the PE variant that o selects.
func GeneratePEFor(k *kernel.Kernel, o PEOptions) (string, error) {
	c := k.Checked
	s := k.Spec
	d := peData{Kernel: s.Name, VID: c.VertexIDBits,
		HandWritten: len(s.Verilog) == 3, HazardSlots: 32, GatherLatency: c.Gather.Latency(), OffChip: o.OffChip, Load: o.Load}
	if !d.HandWritten && d.GatherLatency < 1 {
		return "", fmt.Errorf("gen: gather kernel of latency %d; a generated kernel has an output register", d.GatherLatency)
	}
	d.Update, d.UPD = fieldsOf(s.Update, c.UpdateT)
	d.Message, d.MSG = fieldsOf(s.Message, c.MessageT)
	d.State, d.ST = fieldsOf(s.Vertex, c.VertexT)
	if len(s.Edge) > 0 {
		d.Edge, d.ED = fieldsOf(s.Edge[:1], c.EdgeT[:1])
	}
	d.UPDW, d.MSGW, d.EDW = max(d.UPD, 1), max(d.MSG, 1), max(d.ED, 1)
	if o.Load {
		d.LDA, d.LDW = tablePortWidths(d)
	}
	var b bytes.Buffer
	if err := peTemplate.Execute(&b, d); err != nil {
		return "", err
	}
	return b.String(), nil
}

var peTemplate = template.Must(template.New("pe").Funcs(template.FuncMap{
	"hi": func(f peField) int { return f.Off + f.Width - 1 },
}).Parse(peTemplateText))

// tablePortWidths are the table port's widths as expressions of the PE's
// parameters: the widest index (the edge index has an entry per vertex of
// the graph, block-RAM edges one per edge) and the widest word of the edge
// index, the edges or id table, the vertex info and the vertex state.
func tablePortWidths(d peData) (lda, ldw string) {
	vmax := func(a, b string) string { return fmt.Sprintf("((%s) > (%s) ? (%s) : (%s))", a, b, a, b) }
	vid := fmt.Sprint(d.VID)
	vw := "LW + " + vid + " + 32"
	st := fmt.Sprint(d.ST)
	if d.OffChip {
		// The id table's words (VID bits) are narrower than the vertex info's.
		return vid, vmax(vmax("MA + EA + 32", vw), st)
	}
	ew := vid + " + LA"
	if d.ED > 0 {
		ew += fmt.Sprintf(" + %d", d.ED)
	}
	return vmax("EA", vid), vmax(vmax("2 * EA + 32", ew), vmax(vw, st))
}
