package vitis

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/bits"
	"strings"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/gen"
)

// A table is one of a PE's on-chip memories as the kernel's table port
// numbers them (ld_table).
type table int

const (
	tIndex    table = iota // edge index: every vertex of the graph
	tEdges                 // edges (block RAM) or the id table (off-chip)
	tVertices              // vertex info: filter mask, global id, degree
	tState                 // vertex state
)

// segment is one table of one PE inside a host buffer: Count entries in
// slots of 1<<SlotLog2 bits, from beat Beat of buffer Buf on (the layout
// gravf_vitis_loader and gravf_vitis_writer read and write).
type segment struct {
	PE       int // local PE
	Table    table
	Buf      int // 0: the image buffer, 1: the state buffer
	Beat     int
	Count    int
	Width    int // bits of an entry
	SlotLog2 int
}

// buffer is one host buffer of an FPGA: its argument name, its bank, and
// its contents (little-endian beats of DW bits).
type buffer struct {
	Name string
	Arg  string // kernel argument
	Port string // AXI4 master it is read through
	Bank int
	Data []byte
}

// edgePort is one AXI4 master shared by a group of PEs for their edge
// reads: PEs First..First+Lanes-1, reading words FirstWord.. of the
// FPGA's edge image, which its buffer holds from byte 0.
type edgePort struct {
	First, Lanes int
	FirstWord    int
	Buf          buffer
}

// fpgaPlan is everything the kernel top of one FPGA is built from.
type fpgaPlan struct {
	Index     int
	PEs       int
	DW        int // AXI4 data bits of every master
	Load      []segment
	Store     []segment
	Image     buffer
	State     buffer
	Expected  buffer // the state buffer after a correct run
	Edges     []edgePort
	LDA, LDW  int // the PEs' table port widths
	StateHash string
}

// slotLog2 is the slot of an entry of w bits: the next power of two, at
// least a byte.
func slotLog2(w int) int {
	if w <= 8 {
		return 3
	}
	return bits.Len(uint(w - 1))
}

// tableWidths are the entry widths of the four tables (index, edges or
// ids, vertices, state) for the system's widths.
func tableWidths(w arch.Words, offChip bool) [4]int {
	edges := w.Edge.Width()
	if offChip {
		edges = w.ID.Width()
	}
	return [4]int{w.Index.Width(), edges, w.VertexInfo.Width(), w.State.Width()}
}

// planFPGA lays out the host buffers of FPGA f and the segments the
// loader and writer walk. DW is the AXI data width.
func planFPGA(sys *gen.System, f, pes, dw int, ports []portGroup) (*fpgaPlan, error) {
	off := sys.OffChip()
	widths := tableWidths(sys.Words, off)
	for t, wd := range widths {
		if 1<<slotLog2(wd) > dw {
			return nil, fmt.Errorf("vitis: a %s entry of %d bits is wider than the %d-bit memory port", tableName(table(t), off), wd, dw)
		}
	}
	p := &fpgaPlan{Index: f, PEs: pes, DW: dw}
	// The PEs' table port: the widest table index (the edge index has one
	// entry per vertex of the graph, block-RAM edges one per edge) and word.
	p.LDA, p.LDW = sys.Words.TablePort()
	img := newPacker(dw)
	state := newPacker(dw)
	expected := newPacker(dw)
	for l := 0; l < pes; l++ {
		g := f*pes + l
		im := &sys.Images[g]
		for _, t := range []table{tIndex, tEdges, tVertices} {
			vals := tableValues(im, t, sys.Words, off)
			p.Load = append(p.Load, img.segment(l, t, 0, widths[t], vals))
		}
		p.Load = append(p.Load, state.segment(l, tState, 1, widths[tState], hexValues(im.State)))
		// The expected final states, packed as the PE stores them.
		var fin []*big.Int
		for _, v := range sys.Part.Members[g] {
			fin = append(fin, hexValue(sys.Words.State.Hex(sys.Expected.State(v)...)))
		}
		p.Store = append(p.Store, expected.segment(l, tState, 1, widths[tState], fin))
	}
	p.Image = buffer{Name: fmt.Sprintf("fpga%d_image", f), Arg: "image", Port: "m_axi_image", Bank: 0, Data: img.bytes()}
	p.State = buffer{Name: fmt.Sprintf("fpga%d_state", f), Arg: "state", Port: "m_axi_image", Bank: 0, Data: state.bytes()}
	p.Expected = buffer{Name: fmt.Sprintf("fpga%d_expected", f), Data: expected.bytes()}
	sum := sha256.Sum256(p.Expected.Data)
	p.StateHash = hex.EncodeToString(sum[:])
	if off {
		if err := p.planEdges(sys, f, pes, ports); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// portGroup is a group of PEs sharing one edge port, and its bank.
type portGroup struct{ First, Lanes, Bank int }

// planEdges cuts FPGA f's edge image into one buffer per edge port: each
// PE's lists follow the previous PE's (gen.LayOutOffChip), so a group of
// consecutive PEs reads a contiguous range of words.
func (p *fpgaPlan) planEdges(sys *gen.System, f, pes int, groups []portGroup) error {
	epw := sys.Design.EdgeMemory.EdgesPerWord
	// The first word of every local PE's lists.
	starts := make([]int, pes+1)
	for l := 0; l < pes; l++ {
		words := 0
		for _, e := range sys.Images[f*pes+l].Index {
			words += (int(e.Len) + epw - 1) / epw
		}
		starts[l+1] = starts[l] + words
	}
	var all strings.Builder
	if err := sys.Memories[f].WriteHex(&all, sys.Words); err != nil {
		return err
	}
	words := strings.Fields(all.String())
	if len(sys.Memories[f].Words) == 0 {
		words = nil
	}
	if len(words) != starts[pes] {
		return fmt.Errorf("vitis: FPGA %d's edge image has %d words, its PEs' lists %d", f, len(words), starts[pes])
	}
	for i, g := range groups {
		lo, hi := starts[g.First], starts[g.First+g.Lanes]
		pk := newPacker(sys.Design.EdgeMemory.WordBits)
		for _, w := range words[lo:hi] {
			pk.beat(hexValue(w))
		}
		if hi == lo {
			pk.beat(new(big.Int)) // a buffer of one zero word: XRT does not allocate empty buffers
		}
		p.Edges = append(p.Edges, edgePort{First: g.First, Lanes: g.Lanes, FirstWord: lo,
			Buf: buffer{Name: fmt.Sprintf("fpga%d_edges%d", f, i), Arg: fmt.Sprintf("edges%d", i), Port: fmt.Sprintf("m_axi_edges%d", i), Bank: g.Bank, Data: pk.bytes()}})
	}
	return nil
}

func tableName(t table, offChip bool) string {
	switch t {
	case tIndex:
		return "edge-index"
	case tEdges:
		if offChip {
			return "id-table"
		}
		return "edge"
	case tVertices:
		return "vertex-info"
	}
	return "vertex-state"
}

// tableValues are the entries of one of a PE's tables, as the plain
// export's $readmemh images hold them.
func tableValues(im *gen.PEImages, t table, w arch.Words, offChip bool) []*big.Int {
	var b strings.Builder
	var err error
	switch t {
	case tIndex:
		err = im.WriteIndex(&b, w)
	case tEdges:
		if offChip {
			err = im.WriteIDs(&b, w)
		} else {
			err = im.WriteEdges(&b, w)
		}
	case tVertices:
		err = im.WriteVertices(&b, w)
	}
	if err != nil {
		panic(err) // a strings.Builder does not fail
	}
	vals := hexValues(strings.Fields(b.String()))
	// The images hold one dummy word for an empty table: the loader writes none.
	switch {
	case t == tEdges && !offChip && len(im.Edges) == 0, t != tIndex && len(im.Vertices) == 0:
		vals = nil
	}
	return vals
}

func hexValues(hs []string) []*big.Int {
	out := make([]*big.Int, len(hs))
	for i, h := range hs {
		out[i] = hexValue(h)
	}
	return out
}

func hexValue(h string) *big.Int {
	v, ok := new(big.Int).SetString(h, 16)
	if !ok {
		panic("vitis: bad hex word " + h) // written by gen, always hex
	}
	return v
}

// packer builds a buffer beat by beat.
type packer struct {
	dw    int
	beats []*big.Int
}

func newPacker(dw int) *packer { return &packer{dw: dw} }

func (p *packer) beat(v *big.Int) { p.beats = append(p.beats, v) }

// segment appends a segment of entries of w bits at the next beat.
func (p *packer) segment(pe int, t table, buf, w int, vals []*big.Int) segment {
	s := segment{PE: pe, Table: t, Buf: buf, Beat: len(p.beats), Count: len(vals), Width: w, SlotLog2: slotLog2(w)}
	epb := p.dw >> s.SlotLog2
	for i := 0; i < len(vals); i += epb {
		b := new(big.Int)
		for j := min(i+epb, len(vals)) - 1; j >= i; j-- {
			b.Lsh(b, uint(1<<s.SlotLog2))
			b.Or(b, vals[j])
		}
		p.beat(b)
	}
	return s
}

// bytes is the buffer's contents: every beat little-endian; a buffer of
// no beats holds one zero beat, as XRT does not allocate empty buffers.
func (p *packer) bytes() []byte {
	n := p.dw / 8
	out := make([]byte, 0, max(len(p.beats), 1)*n)
	for _, b := range p.beats {
		be := b.FillBytes(make([]byte, n))
		for i := n - 1; i >= 0; i-- {
			out = append(out, be[i])
		}
	}
	if len(p.beats) == 0 {
		out = append(out, make([]byte, n)...)
	}
	return out
}

// hexImage writes a buffer as $readmemh lines, one beat each, most
// significant digit first: the testbench's memory models and the host
// program read the same file.
func hexImage(data []byte, dw int) string {
	n := dw / 8
	var b strings.Builder
	for i := 0; i < len(data); i += n {
		beat := data[i : i+n]
		for j := n - 1; j >= 0; j-- {
			fmt.Fprintf(&b, "%02x", beat[j])
		}
		b.WriteByte('\n')
	}
	return b.String()
}
