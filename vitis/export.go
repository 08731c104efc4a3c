package vitis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/gen"
	"github.com/gravf-tui/gravf-tui/internal/escape"
)

// Manifest is a Vitis project's manifest.json: the plain export's fields
// and what is particular to the kernels.
type Manifest struct {
	gen.Manifest
	Target string        `json:"target"`
	Vitis  VitisManifest `json:"vitis"`
}

// VitisManifest describes the kernels, their buffers and the expected
// final state buffers.
type VitisManifest struct {
	Platform  string          `json:"platform"`
	DataBits  int             `json:"axi_data_bits"`
	LinkBits  int             `json:"link_stream_bits,omitempty"`
	Credits   int             `json:"link_credits,omitempty"`
	Kernels   []KernelEntry   `json:"kernels"`
	Registers []RegisterEntry `json:"registers"`
}

// KernelEntry is one FPGA's kernel.
type KernelEntry struct {
	Name    string        `json:"name"`
	FPGA    int           `json:"fpga"`
	SLR     int           `json:"slr"`
	Buffers []BufferEntry `json:"buffers"`
	// StateSHA is the SHA-256 of the state buffer after a correct run (an
	// exact result for integer kernels; f32 fields may differ in their
	// last bits, which the checks allow).
	StateSHA string `json:"expected_state_sha256"`
}

// BufferEntry is one host buffer.
type BufferEntry struct {
	Arg   string `json:"arg"`
	File  string `json:"file"`
	Bank  string `json:"bank"`
	Bytes int    `json:"bytes"`
}

// RegisterEntry is one register of the control port.
type RegisterEntry struct {
	Name   string `json:"name"`
	Offset string `json:"offset"`
	Bytes  int    `json:"bytes"`
	Kind   string `json:"kind"`
	Value  string `json:"value,omitempty"`
}

// project is an export being assembled.
type project struct {
	o      gen.ExportOptions
	pl     Platform
	sys    *gen.System
	m      *Manifest
	tops   []*kernelTop
	files  map[string]string
	link   int // link latency, cycles
	exact  bool
	module string // the kernel's name as a Verilog identifier part
}

var identifier = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// Export writes a Vitis project for an Alveo board: one RTL kernel per
// FPGA with its kernel.xml and package_xo script, v++ link configurations
// for hardware emulation and for the cards, the XRT host program, the
// buffers it loads, a testbench of the kernels with AXI memory models and
// protocol checkers, and a README. Like gen.Export it writes into a
// temporary folder renamed into place.
func Export(ctx context.Context, o gen.ExportOptions) (*Manifest, error) {
	if o.Dir == "" {
		return nil, errors.New("export: no output folder")
	}
	if err := CheckTarget(o.Board.Name, o.Kernel.Spec.Ident(), o.FPGAs); err != nil {
		return nil, err
	}
	pl, _ := PlatformFor(o.Board.Name)
	replace, err := gen.CheckOutputDir(o.Dir, o.Force)
	if err != nil {
		return nil, err
	}
	if _, err := escape.Yosys(o.Board.FPGA.Family); err != nil {
		return nil, fmt.Errorf("export: board %s: fpga.family: %w", o.Board.Name, err)
	}
	sys, gm, err := gen.Prepare(ctx, o, true)
	if err != nil {
		return nil, err
	}
	o.Mem = arch.MemKind(gm.Mem)
	p := &project{o: o, pl: pl, sys: sys, files: map[string]string{}, link: gm.LinkCycles, module: o.Kernel.Spec.Ident(),
		m: &Manifest{Manifest: *gm, Target: "vitis"}}
	p.exact = true
	for _, t := range o.Kernel.Checked.VertexT {
		if t.Float {
			p.exact = false
		}
	}
	if err := p.plan(); err != nil {
		return nil, err
	}
	if err := p.checkCapacity(); err != nil {
		return nil, err
	}
	if err := p.checkOnChip(); err != nil {
		return nil, err
	}
	p.writeFiles()
	return p.m, p.commit(ctx, replace)
}

// CheckTarget tells whether a design can be a Vitis export: an Alveo board
// with a known platform, a kernel name that can name a Vitis kernel (the
// kernel's Spec.Ident: pr-graphalytics becomes pr_graphalytics), and
// at most one FPGA more than the card has QSFP28 cages (every FPGA talks
// to every other over a cable of its own).
func CheckTarget(board, kernelName string, fpgas int) error {
	pl, err := PlatformFor(board)
	if err != nil {
		return err
	}
	if !identifier.MatchString(kernelName) {
		return fmt.Errorf("--target vitis: kernel name %q is not an identifier, as Vitis kernel names must be", kernelName)
	}
	if max := len(pl.QSFP) + 1; fpgas > max {
		return fmt.Errorf("--target vitis: %d FPGAs: each FPGA talks to every other over its own QSFP28 cage, and a %s card has %d, so at most %d FPGAs",
			fpgas, board, len(pl.QSFP), max)
	}
	return nil
}

// plan builds every FPGA's kernel: the edge ports, the buffers and the
// register map.
func (p *project) plan() error {
	o := p.o
	k := o.Kernel
	dw := o.Board.EdgeMemory().WordBits
	if p.sys.OffChip() {
		dw = p.sys.Design.EdgeMemory.WordBits
	}
	if dw != 256 && dw != 512 {
		return fmt.Errorf("--target vitis: the %s memory's %d-bit words match no AXI4 port width of the kernel (256 or 512)", o.Board.EdgeMemory().Name, dw)
	}
	links := o.FPGAs - 1
	// The crossbar takes items with the mask of remote FPGAs (UW) and
	// writes link items without it (IW): the links carry link items.
	d := p.sys.Design
	bw, uw, iw := d.VertexIDBits+d.PayloadBits(), d.Item.Width(), d.LinkItem.Width()
	credits := linkDepth(p.link)
	p.m.Vitis = VitisManifest{Platform: p.pl.Name, DataBits: dw}
	if links > 0 {
		p.m.Vitis.LinkBits, p.m.Vitis.Credits = streamBits(iw), credits
	}
	for f := 0; f < o.FPGAs; f++ {
		plan, err := planFPGA(p.sys, f, o.PEs, dw, p.edgeGroups())
		if err != nil {
			return err
		}
		t := &kernelTop{Name: kernelName(k, f), Kernel: k, Sys: p.sys, Plan: plan, FPGAs: o.FPGAs, PEs: o.PEs, Links: links,
			UW: uw, IW: iw, BW: bw, TW: streamBits(iw), Credits: credits}
		t.Regs = newRegMap(k, len(plan.Edges), links)
		p.tops = append(p.tops, t)
	}
	for _, a := range p.tops[0].Regs.Args {
		e := RegisterEntry{Name: a.Name, Offset: fmt.Sprintf("0x%02x", a.Offset), Bytes: a.Bytes, Kind: [...]string{"buffer", "scalar", "stream"}[a.Kind]}
		if a.Kind == argScalar {
			e.Value = fmt.Sprint(a.Value)
		}
		if a.Kind == argStream {
			e.Offset = ""
		}
		p.m.Vitis.Registers = append(p.m.Vitis.Registers, e)
	}
	for _, s := range p.tops[0].Regs.Status {
		p.m.Vitis.Registers = append(p.m.Vitis.Registers, RegisterEntry{Name: s.Name, Offset: fmt.Sprintf("0x%03x", s.Offset), Bytes: 4, Kind: "status"})
	}
	return nil
}

// streamBits is the link stream's word: the item and the credit flag, in
// whole bytes.
func streamBits(uw int) int { return (uw + 1 + 7) / 8 * 8 }

// edgeGroups shares the board's banks among the PEs' edge reads: one AXI4
// master per PE while there are banks for them, else consecutive PEs share
// a master. Master i reads bank i+1 (bank 0 holds the image and state
// buffers) and wraps around to bank 0 when the PEs use every bank.
func (p *project) edgeGroups() []portGroup {
	if !p.sys.OffChip() {
		return nil
	}
	n := min(p.o.PEs, p.pl.Banks)
	per := (p.o.PEs + n - 1) / n
	var gs []portGroup
	for first := 0; first < p.o.PEs; first += per {
		gs = append(gs, portGroup{First: first, Lanes: min(per, p.o.PEs-first), Bank: (len(gs) + 1) % p.pl.Banks})
	}
	return gs
}

// checkCapacity holds every buffer to its bank: XRT allocates a buffer
// inside one bank, so a buffer may not exceed a bank, and the buffers of
// one bank together may not exceed it. In hardware emulation every FPGA's
// kernel is on one card, which the emulation configuration checks apart.
func (p *project) checkCapacity() error {
	for _, t := range p.tops {
		used := map[int]int64{}
		for _, b := range t.buffers() {
			size := int64(len(b.Data))
			if size > p.pl.BankBytes {
				return fmt.Errorf("--target vitis: buffer %s of FPGA %d needs %s, more than one %s bank holds (%s); XRT allocates a buffer in one bank. Use more FPGAs or PEs, or a smaller graph",
					b.Arg, t.Plan.Index, sizeText(size), p.pl.Bank, sizeText(p.pl.BankBytes))
			}
			used[b.Bank] += size
			if used[b.Bank] > p.pl.BankBytes {
				return fmt.Errorf("--target vitis: the buffers of FPGA %d in %s need %s, more than the bank's %s", t.Plan.Index, p.pl.BankName(b.Bank), sizeText(used[b.Bank]), sizeText(p.pl.BankBytes))
			}
		}
	}
	return nil
}

// checkOnChip holds the PEs' tables to the FPGA's block RAM and UltraRAM:
// the kernel keeps every PE's edge index (an entry per vertex of the
// graph), edges or id table, vertex info and states on chip.
func (p *project) checkOnChip() error {
	widths := tableWidths(p.sys.Words, p.sys.OffChip())
	limit := p.o.Board.VertexMemoryBits()
	for _, t := range p.tops {
		var total int64
		var per [4]int64
		for _, s := range t.Plan.Load {
			n := int64(max(s.Count, 1)) * int64(widths[s.Table])
			per[s.Table] += n
			total += n
		}
		if total > limit {
			return fmt.Errorf("--target vitis: the PEs of FPGA %d need %s of on-chip tables (edge index %s, %s %s, vertex info %s, states %s), more than the %s of block RAM and UltraRAM on %s; use more FPGAs or a smaller graph",
				t.Plan.Index, bitsText(total), bitsText(per[tIndex]), tableName(tEdges, p.sys.OffChip()), bitsText(per[tEdges]),
				bitsText(per[tVertices]), bitsText(per[tState]), bitsText(limit), p.o.Board.FPGA.Part)
		}
	}
	return nil
}

func bitsText(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f Mbit", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f Kbit", float64(n)/(1<<10))
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}

// buffers are the FPGA's host buffers in argument order.
func (t *kernelTop) buffers() []buffer {
	bs := []buffer{t.Plan.Image, t.Plan.State}
	for _, e := range t.Plan.Edges {
		bs = append(bs, e.Buf)
	}
	return bs
}

// writeFiles assembles the project's files.
func (p *project) writeFiles() {
	for _, f := range p.sys.RTLFiles() {
		p.files[f] = p.sys.Files[f]
	}
	names, src := RTLFiles()
	for _, n := range names {
		p.files["rtl/"+n] = src[n]
	}
	names, src = TBFiles()
	for _, n := range names {
		p.files["tb/"+n] = src[n]
	}
	for _, t := range p.tops {
		p.files["rtl/"+t.Name+".v"] = t.verilog()
		entry := KernelEntry{Name: t.Name, FPGA: t.Plan.Index, SLR: p.pl.SLROf(0), StateSHA: t.Plan.StateHash}
		for _, b := range append(t.buffers(), t.Plan.Expected) {
			file := "buffers/" + b.Name + ".hex"
			p.files[file] = hexImage(b.Data, t.Plan.DW)
			if b.Arg != "" {
				entry.Buffers = append(entry.Buffers, BufferEntry{Arg: b.Arg, File: file, Bank: p.pl.BankName(b.Bank), Bytes: len(b.Data)})
			}
		}
		p.m.Vitis.Kernels = append(p.m.Vitis.Kernels, entry)
		p.files["kernels/"+t.Name+"/kernel.xml"] = t.kernelXML()
	}
	p.files["tb/tb_vitis.v"] = p.testbench()
	for _, t := range p.tops {
		p.files["scripts/package_"+t.Name+".tcl"] = p.packageScript(t)
		p.files["scripts/synth_"+t.Name+".ys"] = p.synthScript(t)
		p.files[fmt.Sprintf("scripts/link_fpga%d.cfg", t.Plan.Index)] = p.linkConfig(t)
	}
	p.files["scripts/link_emu.cfg"] = p.emuConfig()
	if len(p.tops) > 1 {
		lk := p.linkKernel()
		p.files["rtl/"+lk+".v"] = p.linkTop()
		p.files["ip/"+auroraModule+".v"] = auroraStub()
		p.files["scripts/aurora_ip.tcl"] = p.auroraIPScript()
		p.files["scripts/package_"+lk+".tcl"] = p.linkPackageScript()
		p.files["scripts/synth_"+lk+".ys"] = p.linkSynthScript()
		p.files["constraints/"+lk+".xdc"] = p.linkConstraints()
		p.files["cluster.json"] = p.clusterJSON()
	}
	p.files["host/gravf_host.cpp"] = hostSource("gravf_host.cpp")
	p.files["host/sha256.hpp"] = hostSource("sha256.hpp")
	p.files["host/design.h"] = p.designHeader()
	p.files["Makefile"] = p.makefile()
	p.files["README.md"] = p.readme()
}

// rtlFiles are the synthesizable files, in compile order.
func (p *project) rtlFiles() []string {
	var out []string
	for f := range p.files {
		if strings.HasPrefix(f, "rtl/") {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// tbFiles are the testbench's Verilog files.
func (p *project) tbFiles() []string {
	var out []string
	for f := range p.files {
		if strings.HasPrefix(f, "tb/") && strings.HasSuffix(f, ".v") {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// commit writes the manifest and every file into a temporary folder
// beside the project's and renames it into place.
func (p *project) commit(ctx context.Context, replace bool) error {
	var paths []string
	for f := range p.files {
		paths = append(paths, f)
	}
	paths = append(paths, "manifest.json")
	sort.Strings(paths)
	p.m.Files = paths
	mj, err := json.MarshalIndent(p.m, "", "  ")
	if err != nil {
		return err
	}
	p.files["manifest.json"] = string(mj) + "\n"
	return gen.WriteProject(ctx, p.o.Dir, replace, paths, p.files)
}
