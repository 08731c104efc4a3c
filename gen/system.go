package gen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
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
// The memory images and the expected states are not held: WriteFile
// writes them from the partition and the edge layout as it goes (their
// text is tens of times the graph's CSR).
type System struct {
	// Files are the text files (RTL, testbench, scripts); Paths and
	// WriteFile also cover the streamed images.
	Files    map[string]string
	Expected *kernel.Result
	Part     *graph.Partition
	Design   *arch.Design
	// Extent is how much the PEs hold, and Words the layouts of their
	// memory words at that extent.
	Extent arch.Extent
	Words  arch.Words
	// Memories are the off-chip edge memories' contents, one per FPGA
	// (off-chip designs), and Images the PEs' tables, by global PE
	// (off-chip: the edge index's starts are word addresses in the FPGA's
	// edge memory), for tops that load them from elsewhere than the images
	// (SystemOptions.Load; see PEParams). Both are nil otherwise.
	Memories []EdgeMemory
	Images   []PEImages

	tables *tables
	// expected, when set, holds Expected's final states packed (see
	// packExpected).
	expected *packedStates
	streams  map[string]stream
	dropped  bool // dropShared was called
}

// stream is a file written as the project is: an image or the expected
// states.
type stream struct {
	write func(io.Writer) error
	// lists is the FPGA whose edge lists the file reads (-1: none).
	lists int
}

// MemoryWords is the number of words in FPGA f's off-chip edge memory.
func (s *System) MemoryWords(f int) int { return s.tables.fpgaWords(f) }

// WriteFile writes the file at path p (one of Paths) to w.
func (s *System) WriteFile(w io.Writer, p string) error {
	if st, ok := s.streams[p]; ok {
		if s.dropped && st.lists < 0 {
			return fmt.Errorf("gen: %s read tables dropped after the first group was written", p)
		}
		return st.write(w)
	}
	c, ok := s.Files[p]
	if !ok {
		return fmt.Errorf("gen: no file %s in the system", p)
	}
	_, err := io.WriteString(w, c)
	return err
}

// Content returns the text of the file at path p, streamed images
// included (for tests and small designs: an image of a large graph is
// large).
func (s *System) Content(p string) (string, error) {
	var b strings.Builder
	err := s.WriteFile(&b, p)
	return b.String(), err
}

// OffChip reports whether the design keeps its edges in off-chip memory.
func (s *System) OffChip() bool { return s.Design.Mem == arch.OffChip }

// Paths returns the file paths, streamed images included, in a stable
// order.
func (s *System) Paths() []string {
	var p []string
	for f := range s.Files {
		p = append(p, f)
	}
	for f := range s.streams {
		p = append(p, f)
	}
	sort.Strings(p)
	return p
}

// WriteGroups returns the paths (Paths) in the groups they are written
// in, group after group; the files of a group can be written in parallel
// (WriteFile is safe for concurrent use). A group holds the files that
// read one FPGA's edge lists (the edge indexes of its PEs, their edges or
// its off-chip memory), which are then built once and held only while
// that group is written; the first group holds every other file.
func (s *System) WriteGroups() [][]string {
	groups := make([][]string, 1+s.Design.FPGAs)
	for _, p := range s.Paths() {
		g := 0
		if st, ok := s.streams[p]; ok && st.lists >= 0 {
			g = 1 + st.lists
		}
		groups[g] = append(groups[g], p)
	}
	return groups
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
	// The reference run comes first: its working set and the partition
	// are then never held together.
	collect() // the caller's garbage (a generated graph's temporaries)
	// The run writes its final states (4 MiB for WCC on R-MAT scale 18)
	// after the last superstep's progress; collected there, its garbage is
	// not resident beside them.
	last := func(s kernel.Superstep) {
		if s.Active == 0 {
			collect()
		}
	}
	ref, err := kernel.Run(ctx, k, g, kernel.RunOptions{Progress: last})
	if err != nil {
		return nil, err
	}
	collect() // the reference run's working set
	part, err := graph.NewPartition(ctx, g, graph.PartitionOptions{FPGAs: d.FPGAs, PEs: d.PEs, Method: o.Partitioner})
	if err != nil {
		return nil, err
	}
	t, ext, err := newTables(d, k, g, part, o.Filter)
	if err != nil {
		return nil, err
	}
	sys := &System{Files: map[string]string{}, Expected: ref, Part: part, Design: d, tables: t, streams: map[string]stream{}}
	if o.Load {
		if sys.Images, sys.Memories, err = t.hold(d); err != nil {
			return nil, err
		}
	}
	sys.Extent, sys.Words = ext, d.Words(ext)
	if sys.OffChip() {
		if err := sys.Words.CheckSlot(d.EdgeMemory); err != nil {
			return nil, err
		}
	}
	if err := sys.addRTL(k, !o.Load); err != nil {
		return nil, err
	}
	if o.Load {
		return sys, nil
	}
	sys.addImages()
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

// dropShared lets go of what only the first of WriteGroups' groups reads,
// once it is written: the reference run's final states (the expected-
// state files) and the update filter (the vertex images), a fifth of the
// graph's CSR on R-MAT, so that the groups of the FPGAs' edge lists,
// which hold one FPGA's lists each on top of the graph, do not hold them
// too. The System writes no other file afterwards; its Expected is nil.
func (s *System) dropShared() {
	s.Expected, s.expected, s.tables.flt, s.dropped = nil, nil, nil, true
	collect()
}

// packExpected keeps the expected final states packed at their fields'
// widths (packedStates) instead of the reference run's 64 bits a field,
// once nothing else reads those (Prepare has hashed them into the
// manifest): Expected keeps the run's figures but no States.
func (s *System) packExpected() {
	s.expected = packStates(s.Expected, s.Words.State)
	r := *s.Expected
	r.States = nil
	s.Expected = &r
	collect()
}

// collect runs the collector where a large structure has just died and
// returns the freed pages to the system, so that the next stage starts
// from what is live: Go's collector otherwise lets the heap grow to twice
// what was live at the last collection (the export command tightens
// that, see cmd/gravf-tui), and the pages it frees stay resident until
// its scavenger gets to them, so a stage's arrays of other sizes came on
// top of the last one's (the resident set of the R-MAT scale-18 export
// peaked 1 to 2 MB higher with runtime.GC alone). The heap is mostly
// arrays of integers, which the collector does not scan, so a collection
// costs milliseconds.
func collect() { debug.FreeOSMemory() }

// addRTL adds the synthesizable Verilog: the building blocks, the f32
// library when a generated kernel uses it, the kernels (generated, or the
// user's), their adapters and, with top, fpga_top.
func (s *System) addRTL(k *kernel.Kernel, top bool) error {
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
	v, err := fpgaTop(s, name)
	if err != nil {
		return err
	}
	s.Files["rtl/fpga_top.v"] = v
	return nil
}

// addImages adds the memory images of every PE ($readmemh, named as
// gravf_fpga reads them), the off-chip memories, and the testbench's
// expected final states, each streamed when the project is written.
func (s *System) addImages() {
	t, w, npe := s.tables, s.Words, s.Design.FPGAs*s.Design.PEs
	for i := 0; i < npe; i++ {
		fpga := s.Part.FPGAOfPE(i)
		images := []struct {
			kind  string
			write func(io.Writer, arch.Words, int) error
			lists int
		}{{"index", t.writeIndex, fpga}, {"edges", t.writeEdges, fpga}, {"vertices", t.writeVertices, -1}, {"state", t.writeState, -1}}
		if s.OffChip() {
			// The edges are in the FPGA's memory image; the PE keeps the
			// table that maps an edge slot's local index to a global id.
			images[1].kind, images[1].write, images[1].lists = "ids", t.writeIDs, -1
		}
		for _, f := range images {
			s.streams[peFile("mem", i, npe, f.kind)] = stream{func(wr io.Writer) error { return f.write(wr, w, i) }, f.lists}
		}
		s.streams[peFile("tb", i, npe, "expected")] = stream{func(wr io.Writer) error { return s.writeExpected(wr, i) }, -1}
	}
	if s.OffChip() {
		for f := 0; f < s.Design.FPGAs; f++ {
			s.streams[fmt.Sprintf("mem/fpga%d_edges.hex", f)] = stream{func(wr io.Writer) error { return t.writeMemory(wr, w, f) }, f}
		}
	}
}

// writeExpected writes the testbench's expected final states of PE pe's
// vertices, one packed word per local vertex, padded with zero words to
// the memory's depth.
func (s *System) writeExpected(wr io.Writer, pe int) error {
	w := s.Words
	h := newHexImage(wr, w.State)
	state := make([]uint64, len(w.State.Fields))
	for _, v := range s.Part.Members[pe] {
		if s.expected != nil {
			state = s.expected.state(v, state)
		} else {
			state = s.Expected.State(v)
		}
		h.b = w.State.AppendHex(h.b, state...)
		h.end()
	}
	zero := make([]uint64, len(w.State.Fields))
	for h.n < max(s.Extent.MaxLocal, 1) {
		h.b = w.State.AppendHex(h.b, zero...)
		h.end()
	}
	return h.close()
}
