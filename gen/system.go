package gen

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// SystemOptions describe one generated multi-FPGA system.
type SystemOptions struct {
	// Design is the hardware contract (arch.Derive): FPGAs, PEs per FPGA,
	// where the edges live (with off-chip edges every FPGA top gets an edge
	// memory port per PE, and the testbench a model of Design.EdgeMemory),
	// the link latency of the testbench's link models, FIFO depths and
	// layouts.
	Design *arch.Design
	Kernel *kernel.Kernel
	Graph  *graph.Graph
	// Partitioner (greedy by default).
	Partitioner graph.Partitioner
	Filter      bool
	// Watchdog stops the testbench after this many cycles (0: 10 x the
	// cycles the reference's messages could take on one PE, plus 10^5).
	Watchdog int64
	// Load generates the PEs of a kernel whose tables come from host
	// buffers (a Vitis kernel): the system then holds the kernels, their
	// adapters, the building blocks and the images (System.Images), but no
	// fpga_top, testbench or image files: that kernel's own top and
	// testbench replace them, instantiating gravf_pe with LOAD = 1
	// (System.PEParams).
	Load bool
}

// System is a generated design: files by path relative to the project.
type System struct {
	Files    map[string]string
	Expected *kernel.Result
	Part     *graph.Partition
	Design   *arch.Design
	// Extent is how much the PEs hold, and Words the layouts of their
	// memory words at that extent.
	Extent arch.Extent
	Words  arch.Words
	// Memories are the off-chip edge memories' contents, one per FPGA
	// (off-chip designs).
	Memories []EdgeMemory
	// Images are the PEs' tables, by global PE (off-chip: the edge index's
	// starts are word addresses in the FPGA's edge memory), for tops that
	// load them from elsewhere than the images (see PEParams).
	Images []PEImages
}

// OffChip reports whether the design keeps its edges in off-chip memory.
func (s *System) OffChip() bool { return s.Design.Mem == arch.OffChip }

// Paths returns the file paths in a stable order.
func (s *System) Paths() []string {
	var p []string
	for f := range s.Files {
		p = append(p, f)
	}
	sort.Strings(p)
	return p
}

// RTLFiles returns the synthesizable Verilog files (rtl/), in compile
// order: building blocks, kernels, PE, FPGA tops.
func (s *System) RTLFiles() []string {
	var out []string
	for _, p := range s.Paths() {
		if strings.HasPrefix(p, "rtl/") {
			out = append(out, p)
		}
	}
	return out
}

// TBFiles returns the testbench's Verilog files (tb/): the models of the
// links (and of the edge memory) and the system testbench.
func (s *System) TBFiles() []string {
	var out []string
	for _, p := range s.Paths() {
		if strings.HasPrefix(p, "tb/") && strings.HasSuffix(p, ".v") {
			out = append(out, p)
		}
	}
	return out
}

// GenerateSystem generates the RTL of every FPGA, the memory images and a
// system testbench that joins the FPGAs with link models, runs to
// termination, checks every final vertex state against the BSP reference
// and prints "RESULT PASS cycles=<n> messages=<m>" or "RESULT FAIL ...".
//
// The fixed logic (PE, crossbar, FPGA, FIFOs, RAMs, delay lines) is the
// hand-written Verilog of gen/rtl; what is generated is what depends on the
// kernel and the design point: the kernels, their adapters to the PE's
// packed buses, fpga_top with the design's parameter values, the memory
// images and the testbench.
func GenerateSystem(ctx context.Context, o SystemOptions) (*System, error) {
	k, g, d := o.Kernel, o.Graph, o.Design
	if d == nil {
		return nil, errors.New("gen: no design")
	}
	if d.Arch != arch.GraVFM {
		return nil, fmt.Errorf("gen: the %s architecture is not generated (only %s)", d.Arch, arch.GraVFM)
	}
	if n := d.FPGAs * d.PEs; n > maxPEs {
		return nil, fmt.Errorf("gen: %d PEs; the generated RTL names the memory images of at most %d", n, maxPEs)
	}
	if o.Partitioner == "" {
		o.Partitioner = graph.Greedy
	}
	part, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: d.FPGAs, PEs: d.PEs, Method: o.Partitioner})
	if err != nil {
		return nil, err
	}
	ref, err := kernel.Run(ctx, k, g, kernel.RunOptions{})
	if err != nil {
		return nil, err
	}
	ims, ext, err := BuildImages(d, k, g, part, o.Filter)
	if err != nil {
		return nil, err
	}
	sys := &System{Files: map[string]string{}, Expected: ref, Part: part, Design: d, Images: ims}
	if sys.OffChip() {
		if sys.Memories, ext.MaxWords, err = LayOutOffChip(ims, d.PEs, d.EdgeMemory); err != nil {
			return nil, err
		}
	}
	sys.Extent, sys.Words = ext, d.Words(ext)
	if sys.OffChip() {
		if err := sys.Words.CheckSlot(d.EdgeMemory); err != nil {
			return nil, err
		}
	}
	if err := sys.addRTL(k, ims, !o.Load); err != nil {
		return nil, err
	}
	if o.Load {
		return sys, nil
	}
	if err := sys.addImages(ims); err != nil {
		return nil, err
	}
	sys.Files["tb/gravf_link_model.v"] = testbenchModel("gravf_link_model.v")
	if sys.OffChip() {
		sys.Files["tb/gravf_mem_model.v"] = testbenchModel("gravf_mem_model.v")
	}
	tb, err := testbench(sys, k, o.Watchdog)
	if err != nil {
		return nil, err
	}
	sys.Files["tb/tb_system.v"] = tb
	return sys, nil
}

// addRTL adds the synthesizable Verilog: the building blocks, the f32
// library when a generated kernel uses it, the kernels (generated, or the
// user's), their adapters and, with top, fpga_top.
func (s *System) addRTL(k *kernel.Kernel, ims []PEImages, top bool) error {
	names, blocks := BuildingBlocks()
	for _, n := range names {
		s.Files["rtl/"+n] = blocks[n]
	}
	name, d := k.Spec.Ident(), s.Design
	usesLib := false
	for _, prog := range []string{"gather", "apply", "scatter"} {
		if d.HandWritten {
			s.Files[fmt.Sprintf("rtl/%s_%s.v", name, prog)] = k.Spec.Verilog[prog+".v"]
		} else {
			m, err := GenerateKernel(k, prog)
			if err != nil {
				return err
			}
			s.Files["rtl/"+m.Name+".v"] = m.Verilog
			usesLib = usesLib || strings.Contains(m.Verilog, "_unit (")
		}
		a, err := generateAdapter(k, d, prog)
		if err != nil {
			return err
		}
		s.Files["rtl/gravf_"+prog+"_kernel.v"] = a
	}
	if len(k.Spec.Global) > 0 {
		m, err := GenerateCombine(k)
		if err != nil {
			return err
		}
		s.Files["rtl/"+m.Name+".v"] = m.Verilog
		usesLib = usesLib || strings.Contains(m.Verilog, "_unit (")
		a, err := combineAdapter(m, d)
		if err != nil {
			return err
		}
		s.Files["rtl/gravf_combine_kernel.v"] = a
	}
	if usesLib {
		for n, src := range LibraryFiles() {
			s.Files["rtl/"+n] = src
		}
	}
	if !top {
		return nil
	}
	v, err := fpgaTop(s, ims, name)
	if err != nil {
		return err
	}
	s.Files["rtl/fpga_top.v"] = v
	return nil
}

// addImages adds the memory images of every PE ($readmemh, named as
// gravf_fpga reads them), the off-chip memories, and the testbench's
// expected final states.
func (s *System) addImages(ims []PEImages) error {
	w, npe := s.Words, len(ims)
	for i := range ims {
		im := &ims[i]
		images := []struct {
			kind  string
			write func(io.Writer, arch.Words) error
		}{{"index", im.WriteIndex}, {"edges", im.WriteEdges}, {"vertices", im.WriteVertices}, {"state", im.WriteState}}
		if s.OffChip() {
			// The edges are in the FPGA's memory image; the PE keeps the
			// table that maps an edge slot's local index to a global id.
			images[1].kind, images[1].write = "ids", im.WriteIDs
		}
		for _, f := range images {
			var b bytes.Buffer
			if err := f.write(&b, w); err != nil {
				return err
			}
			s.Files[peFile("mem", i, npe, f.kind)] = b.String()
		}
		// Expected final states, one packed word per local vertex.
		var states [][]uint64
		for _, v := range s.Part.Members[i] {
			states = append(states, s.Expected.State(v))
		}
		var b bytes.Buffer
		if err := writeExpected(&b, w, states, max(s.Extent.MaxLocal, 1)); err != nil {
			return err
		}
		s.Files[peFile("tb", i, npe, "expected")] = b.String()
	}
	for i := range s.Memories {
		var b bytes.Buffer
		if err := s.Memories[i].WriteHex(&b, w); err != nil {
			return err
		}
		s.Files[fmt.Sprintf("mem/fpga%d_edges.hex", i)] = b.String()
	}
	return nil
}
