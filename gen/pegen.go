package gen

import (
	"bytes"
	"fmt"
	"text/template"

	"github.com/gravf-tui/gravf-tui/arch"
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
	GatherLatency          int  // cycles of the generated gather kernel (not HandWritten)
	OffChip                bool // edges in off-chip memory, read through the PE's memory port
	// FIFO depths (arch).
	InDepth, KinDepth, KinRoom, MsgDepth, SideDepth, OrderExtra, QueueExtra int
}

func fieldsOf(l arch.Layout) ([]peField, int) {
	var fs []peField
	for i, off := range l.Offsets() {
		fs = append(fs, peField{Name: l.Fields[i].Name, Width: l.Fields[i].Width, Off: off})
	}
	return fs, l.Width()
}

// GeneratePE generates the processing element of a bound kernel for a
// design: the input FIFO, barrier counter, scatter unit with its
// edge-index and edge memories, the scatter kernel, the message FIFO, the
// gather unit with its hazard detector, the vertex-state memory, the apply
// sweep with the apply kernel, and the update queue. It mirrors the
// simulator's PE (sim/doc.go). With off-chip edges the scatter unit
// requests the words of each list through the PE's memory port, with
// requests in flight, and unpacks the responses (the module header gives
// the protocol).
func GeneratePE(k *kernel.Kernel, d *arch.Design, w arch.Words) (string, error) {
	p := peData{Kernel: k.Spec.Name, VID: d.VertexIDBits,
		HandWritten: d.HandWritten, HazardSlots: arch.HazardSlots, GatherLatency: d.Latency.Gather, OffChip: d.Mem == arch.OffChip,
		InDepth: arch.InputFIFODepth, KinDepth: arch.KernelInputFIFODepth, KinRoom: arch.KernelInputFIFODepth - arch.KernelInputSlack,
		MsgDepth: arch.MessageFIFODepth, SideDepth: arch.SideFIFODepth, OrderExtra: arch.OrderFIFOExtra, QueueExtra: arch.UpdateQueueExtra}
	if !p.HandWritten && p.GatherLatency < 1 {
		return "", fmt.Errorf("gen: gather kernel of latency %d; a generated kernel has an output register", p.GatherLatency)
	}
	p.Update, p.UPD = fieldsOf(d.Update)
	p.Message, p.MSG = fieldsOf(d.Message)
	p.State, p.ST = fieldsOf(w.State)
	p.Edge, p.ED = fieldsOf(d.EdgeData)
	p.UPDW, p.MSGW, p.EDW = max(p.UPD, 1), max(p.MSG, 1), max(p.ED, 1)
	var b bytes.Buffer
	if err := peTemplate.Execute(&b, p); err != nil {
		return "", err
	}
	return b.String(), nil
}

var peTemplate = template.Must(template.New("pe").Funcs(template.FuncMap{
	"hi": func(f peField) int { return f.Off + f.Width - 1 },
}).Parse(peTemplateText))
