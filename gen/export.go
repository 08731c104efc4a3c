package gen

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/boards"
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/internal/escape"
	"github.com/gravf-tui/gravf-tui/internal/outfile"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// ExportOptions describe a project to write.
type ExportOptions struct {
	Board       *boards.Board
	Kernel      *kernel.Kernel
	Graph       *graph.Graph
	FPGAs, PEs  int
	Partitioner graph.Partitioner
	Filter      bool
	// Mem is where the edge lists live: block RAM ("" or arch.BRAM) or
	// the board's off-chip edge memory (arch.OffChip).
	Mem arch.MemKind
	// Dir is the project folder; it must not exist unless Force.
	Dir   string
	Force bool
	// Version is the generator's version, recorded in the manifest.
	Version string
	// ToolVersions, when set, is recorded in the manifest instead of the
	// versions of the installed iverilog, verilator and yosys (tests pin
	// them so that a project compares byte for byte wherever it is built).
	ToolVersions map[string]string
}

// Manifest is manifest.json: what the project is and what it should
// produce.
type Manifest struct {
	Generator  string            `json:"generator"`
	Board      string            `json:"board"`
	Part       string            `json:"part"`
	Family     string            `json:"family"`
	ClockMHz   float64           `json:"clock_mhz"`
	Kernel     string            `json:"kernel"`
	Params     map[string]string `json:"params"`
	Graph      string            `json:"graph"`
	GraphSHA   string            `json:"graph_sha256"`
	Vertices   int               `json:"vertices"`
	Arcs       int               `json:"arcs"`
	FPGAs      int               `json:"fpgas"`
	PEs        int               `json:"pes_per_fpga"`
	Arch       string            `json:"arch"`
	Mem        string            `json:"edge_memory"`
	Partition  string            `json:"partitioner"`
	Filter     bool              `json:"filter"`
	LinkCycles int               `json:"link_latency_cycles"`
	// OffChip describes the off-chip edge memory (edge_memory "offchip").
	OffChip  *ManifestMemory `json:"offchip_memory,omitempty"`
	Expected struct {
		Messages   int64  `json:"messages"`
		Supersteps int    `json:"supersteps"`
		ResultSHA  string `json:"result_sha256"`
	} `json:"expected"`
	Tools map[string]string `json:"tools"`
	Files []string          `json:"files"`
}

// ManifestMemory is the off-chip edge memory in manifest.json: the
// simulator's figures, which the testbench's memory model uses.
type ManifestMemory struct {
	Memory        string  `json:"memory"`
	WordBits      int     `json:"word_bits"`
	SlotBits      int     `json:"slot_bits"`
	EdgesPerWord  int     `json:"edges_per_word"`
	LatencyCycles int     `json:"latency_cycles"`
	InFlight      int     `json:"requests_in_flight"`
	WordsPerCycle float64 `json:"words_per_cycle"`
	Words         []int   `json:"words_per_fpga"`
}

// GraphSHA256 is the hex form of the graph's hash (graph.Graph.SHA256),
// so a manifest names exactly the graph it was built for.
func GraphSHA256(g *graph.Graph) string {
	sum := g.SHA256()
	return hex.EncodeToString(sum[:])
}

// toolVersion returns the first line a tool prints for --version, or
// "not installed"; recorded in the manifest for reproducibility.
func toolVersion(name string, args ...string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return "not installed"
	}
	out, err := exec.Command(p, args...).CombinedOutput()
	if err != nil && len(out) == 0 {
		return "unknown"
	}
	return strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
}

// Export writes a complete project: RTL, memory images, testbench,
// Makefile, scripts, constraints, a FuseSoC core, the manifest and a
// README. It writes into a temporary folder beside Dir and renames it into
// place, so a failure leaves nothing half-written; the same inputs give
// byte-identical files (tool versions aside, which the manifest records).
func Export(ctx context.Context, o ExportOptions) (*Manifest, error) {
	if o.Dir == "" {
		return nil, errors.New("export: no output folder")
	}
	replace, err := CheckOutputDir(o.Dir, o.Force)
	if err != nil {
		return nil, err
	}
	sv, err := newScriptValues(o)
	if err != nil {
		return nil, err
	}
	sys, m, err := Prepare(ctx, o, false)
	if err != nil {
		return nil, err
	}
	sys.packExpected()
	k := o.Kernel
	o.Mem = arch.MemKind(m.Mem)

	files := sys.Files
	project := "gravf_" + k.Spec.Ident()
	if err := sv.checkFiles(sys); err != nil {
		return nil, err
	}
	files["Makefile"] = makefile(sys, o, sv)
	files["scripts/synth.ys"] = synthScript(sys, o, sv)
	for f := 0; f < o.FPGAs; f++ {
		files[fmt.Sprintf("scripts/build_fpga%d.tcl", f)] = vivadoScript(sys, o, sv, f)
	}
	files["constraints/clocks.xdc"] = fmt.Sprintf("# Clock constraint of every FPGA top: f_clk = %.3f MHz on %s.\ncreate_clock -name clk -period %.3f [get_ports clk]\n",
		o.Board.ClockMHz, sv.boardComment, 1000/o.Board.ClockMHz)
	files[project+".core"] = fusesoc(sys, o, sv, project)
	files["README.md"] = projectReadme(sys, o, m)
	paths := append(sys.Paths(), "manifest.json")
	sort.Strings(paths)
	m.Files = paths
	mj, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	files["manifest.json"] = string(mj) + "\n"

	if err := writeProject(ctx, o.Dir, replace, sys.WriteGroups(), sys.WriteFile, sys.dropShared); err != nil {
		return nil, err
	}
	return m, nil
}

// WriteProject writes an export's files into a temporary folder beside
// dir and renames it into place (see outfile.CreateDir), replacing a
// previous export when replace (from CheckOutputDir) is set. Every export
// target writes through it.
func WriteProject(ctx context.Context, dir string, replace bool, paths []string, files map[string]string) error {
	return writeProject(ctx, dir, replace, [][]string{paths}, func(w io.Writer, p string) error {
		_, err := io.WriteString(w, files[p])
		return err
	}, nil)
}

// writeProject writes the files of groups with write (the memory images
// are streamed, not held) into a temporary folder and renames it into
// place, as WriteProject: group after group, the files of a group on
// every core (see System.WriteGroups), calling written (when not nil)
// after the first group. Each file's bytes depend on its path only, so the
// project is the same whatever the order.
func writeProject(ctx context.Context, dir string, replace bool, groups [][]string, write func(w io.Writer, p string) error, written func()) error {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	d, err := outfile.CreateDir(dir)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer d.Discard()
	for i, paths := range groups {
		if err := writeFiles(ctx, d, paths, write); err != nil {
			return err
		}
		if i == 0 && written != nil {
			written()
		}
	}
	if err := d.Commit(replace); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// writeFiles writes the files at paths into d, one worker per core, each
// taking the next file in order. After a failure no file is started; the
// error returned is the first failing file's in paths (every file before
// it was started, and is finished), so it does not depend on timing.
func writeFiles(ctx context.Context, d *outfile.Dir, paths []string, write func(w io.Writer, p string) error) error {
	errs := make([]error, len(paths))
	var next atomic.Int64
	var failed atomic.Bool
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Go(func() {
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(paths) {
					return
				}
				p := paths[i]
				err := ctx.Err()
				if err == nil {
					if err = d.Write(p, 0o644, func(w io.Writer) error { return write(w, p) }); err != nil {
						err = fmt.Errorf("export: %w", err)
					}
				}
				if err != nil {
					errs[i] = err
					failed.Store(true)
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Prepare generates the system of an export and its manifest, without
// the project's scripts and files: Export adds the plain project's, and
// the Vitis target (package vitis) its own, to a system generated with
// load (the PEs' tables written through their table port; see
// SystemOptions.Load).
func Prepare(ctx context.Context, o ExportOptions, load bool) (*System, *Manifest, error) {
	k := o.Kernel
	switch o.Mem {
	case "":
		o.Mem = arch.BRAM
	case arch.BRAM, arch.OffChip:
	default:
		return nil, nil, fmt.Errorf("export: unknown edge memory %q (valid: %s, %s)", o.Mem, arch.BRAM, arch.OffChip)
	}
	d, err := arch.Derive(o.Board, o.Kernel, arch.Options{FPGAs: o.FPGAs, PEs: o.PEs, Mem: o.Mem})
	if err != nil {
		return nil, nil, err
	}
	linkCycles := d.Link.LatencyCycles
	sys, err := GenerateSystem(ctx, SystemOptions{Design: d, Kernel: o.Kernel, Graph: o.Graph, Partitioner: o.Partitioner, Filter: o.Filter, Load: load})
	if err != nil {
		return nil, nil, err
	}
	m := &Manifest{Generator: "gravf-tui " + o.Version, Board: o.Board.Name, Part: o.Board.FPGA.Part, Family: o.Board.FPGA.Family,
		ClockMHz: o.Board.ClockMHz, Kernel: k.Spec.Name, Params: map[string]string{}, Graph: o.Graph.Name, GraphSHA: GraphSHA256(o.Graph),
		Vertices: o.Graph.NumVertices(), Arcs: o.Graph.NumArcs(), FPGAs: o.FPGAs, PEs: o.PEs, Arch: "gravf-m", Mem: string(o.Mem),
		Partition: string(sys.Part.Method), Filter: o.Filter, LinkCycles: linkCycles, Tools: o.ToolVersions}
	if m.Tools == nil {
		m.Tools = map[string]string{
			"iverilog":  toolVersion("iverilog", "-V"),
			"verilator": toolVersion("verilator", "--version"),
			"yosys":     toolVersion("yosys", "-V"),
		}
	}
	if sys.OffChip() {
		em := d.EdgeMemory
		m.OffChip = &ManifestMemory{Memory: em.Memory, WordBits: em.WordBits, SlotBits: em.SlotBits,
			EdgesPerWord: em.EdgesPerWord, LatencyCycles: em.LatencyCycles, InFlight: em.InFlight, WordsPerCycle: em.WordsPerCycle}
		for f := 0; f < o.FPGAs; f++ {
			m.OffChip.Words = append(m.OffChip.Words, sys.MemoryWords(f))
		}
	}
	for n, p := range k.Checked.Params {
		m.Params[n] = fmt.Sprint(p.Bits)
	}
	m.Expected.Messages = sys.Expected.Messages
	m.Expected.Supersteps = len(sys.Expected.Supersteps)
	h := sha256.New()
	if err := sys.Expected.WriteTSV(h); err != nil {
		return nil, nil, err
	}
	m.Expected.ResultSHA = hex.EncodeToString(h.Sum(nil))

	return sys, m, nil
}

func makefile(s *System, o ExportOptions, sv scriptValues) string {
	rtl := strings.Join(s.RTLFiles(), " \\\n      ")
	var b strings.Builder
	fmt.Fprintf(&b, `# Generated by gravf-tui. Targets:
#   make sim            Icarus Verilog: the system testbench, prints RESULT PASS/FAIL
#   make sim-verilator  the same testbench under Verilator
#   make lint           verilator --lint-only -Wall on fpga_top for every FPGA
#   make synth          yosys synth_xilinx -family %[1]s: resources per FPGA
#   make bit            Vivado batch mode: one bitstream per FPGA

RTL = %[2]s
TB  = %[4]s
FPGAS = %[3]s

.PHONY: sim sim-verilator lint synth bit clean

sim: build/sim.vvp
	vvp -n build/sim.vvp | tee build/sim.log
	@grep -q '^RESULT PASS' build/sim.log

build/sim.vvp: $(RTL) $(TB)
	@mkdir -p build
	iverilog -g2005 -s tb_system -o $@ $(RTL) $(TB)

sim-verilator:
	@mkdir -p build
	verilator --binary --timing --timescale 1ns/1ps -Wno-fatal -Wno-lint -Wno-style -Mdir build/verilator --top-module tb_system -o tb_system $(RTL) $(TB)
	build/verilator/tb_system | tee build/sim-verilator.log
	@grep -q '^RESULT PASS' build/sim-verilator.log

lint:
	@for f in $(FPGAS); do echo "verilator --lint-only -Wall --top-module fpga_top -GFPGA=$$f"; verilator --lint-only -Wall --top-module fpga_top -GFPGA=$$f $(RTL) || exit 1; done

synth:
	@mkdir -p build
	yosys -q -l build/synth.log scripts/synth.ys
	@for f in build/fpga*_stat.txt; do echo "== $$f (whole FPGA, submodules included)"; \
	  sed -n '/design hierarchy/,$$p' $$f | grep -E '^ +(Number of cells|LUT|FD|RAMB|DSP|RAM)'; done

bit:
	@for f in $(FPGAS); do vivado -mode batch -source scripts/build_fpga$$f.tcl || exit 1; done

clean:
	rm -rf build
`, sv.familyComment, rtl, seq(o.FPGAs), strings.Join(s.TBFiles(), " "))
	return b.String()
}

func seq(n int) string {
	var s []string
	for i := 0; i < n; i++ {
		s = append(s, fmt.Sprint(i))
	}
	return strings.Join(s, " ")
}

func synthScript(s *System, o ExportOptions, sv scriptValues) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Generated by gravf-tui: out-of-context synthesis of fpga_top for every FPGA on %s (%s).\n", sv.boardComment, sv.partComment)
	for f := 0; f < o.FPGAs; f++ {
		fmt.Fprintf(&b, "\ndesign -reset\n")
		// -defer: elaborate only what fpga_top instantiates, with its
		// parameters (the building blocks' defaults are not a design).
		for _, r := range s.RTLFiles() {
			fmt.Fprintf(&b, "read_verilog -defer %s\n", r)
		}
		fmt.Fprintf(&b, "hierarchy -check -top fpga_top -chparam FPGA %d\nsynth_xilinx -family %s -noiopad -noclkbuf -top fpga_top\ntee -o build/fpga%d_stat.txt stat -top fpga_top\n", f, sv.familyYosys, f)
	}
	return b.String()
}

func vivadoScript(s *System, o ExportOptions, sv scriptValues, f int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Generated by gravf-tui: non-project Vivado build of FPGA %d (%s).\n# Run: vivado -mode batch -source scripts/build_fpga%d.tcl\n\n", f, sv.partComment, f)
	for _, r := range s.RTLFiles() {
		fmt.Fprintf(&b, "read_verilog %s\n", escape.Tcl(r))
	}
	fmt.Fprintf(&b, "read_xdc constraints/clocks.xdc\n")
	fmt.Fprintf(&b, "synth_design -top fpga_top -part %s -generic FPGA=%d\nopt_design\nplace_design\nroute_design\n", sv.partTcl, f)
	fmt.Fprintf(&b, "file mkdir build\nreport_utilization -file build/fpga%d_utilization.rpt\nreport_timing_summary -file build/fpga%d_timing.rpt\nwrite_bitstream -force build/fpga%d.bit\n", f, f, f)
	return b.String()
}

func fusesoc(s *System, o ExportOptions, sv scriptValues, project string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CAPI=2:\n# Generated by gravf-tui.\nname: ::%s:0\ndescription: %s\n\nfilesets:\n  rtl:\n    files:\n", project,
		escape.YAML(fmt.Sprintf("GraVF-M %s on %d x %s", o.Kernel.Spec.Name, o.FPGAs, o.Board.Name)))
	for _, r := range s.RTLFiles() {
		fmt.Fprintf(&b, "      - %s\n", r)
	}
	b.WriteString("    file_type: verilogSource\n  mem:\n    files:\n")
	for _, p := range s.Paths() {
		if strings.HasPrefix(p, "mem/") || strings.HasSuffix(p, "_expected.hex") {
			fmt.Fprintf(&b, "      - %s: {copyto: %s}\n", p, p)
		}
	}
	b.WriteString("    file_type: user\n  tb:\n    files:\n")
	for _, t := range s.TBFiles() {
		fmt.Fprintf(&b, "      - %s\n", t)
	}
	b.WriteString("    file_type: verilogSource\n\ntargets:\n")
	fmt.Fprintf(&b, "  sim:\n    default_tool: icarus\n    filesets: [rtl, mem, tb]\n    toplevel: tb_system\n")
	fmt.Fprintf(&b, "  lint:\n    default_tool: verilator\n    filesets: [rtl, mem]\n    toplevel: fpga_top\n    parameters: [FPGA]\n    tools:\n      verilator:\n        mode: lint-only\n        verilator_options: [-Wall]\n")
	b.WriteString("\nparameters:\n  FPGA:\n    datatype: int\n    default: 0\n    description: which FPGA of the design\n    paramtype: vlogparam\n")
	return b.String()
}

func projectReadme(s *System, o ExportOptions, m *Manifest) string {
	var b strings.Builder
	where := "edges in block RAM"
	if s.OffChip() {
		where = fmt.Sprintf("edges in off-chip memory (%s)", o.Board.EdgeMemory().Name)
	}
	fmt.Fprintf(&b, "# GraVF-M %s on %d x %s\n\nGenerated by gravf-tui for the graph `%s` (V = %d, %d arcs), %d FPGAs x %d PEs, %s, %s partitioning.\n\n",
		o.Kernel.Spec.Name, o.FPGAs, o.Board.Name, o.Graph.Name, o.Graph.NumVertices(), o.Graph.NumArcs(), o.FPGAs, o.PEs, where, s.Part.Method)
	b.WriteString("## Use\n\n```sh\nmake sim            # Icarus: prints RESULT PASS cycles=<n> messages=<m>\nmake sim-verilator  # the same under Verilator\nmake lint           # verilator --lint-only -Wall\nmake synth          # yosys resource estimate per FPGA\nmake bit            # Vivado bitstreams (needs Vivado)\n```\n\n")
	fmt.Fprintf(&b, "The testbench checks every final vertex state against the BSP reference and expects %d messages in %d supersteps (`manifest.json`). Before the result it prints `SUPERSTEP <s> start=<cycle>` as each superstep's first apply sweep begins.\n\n",
		m.Expected.Messages, m.Expected.Supersteps)
	b.WriteString("## Layout\n\n- `rtl/`: one module per file. `fpga_top.v` is the top of every FPGA (parameter `FPGA` selects which; it holds the design's parameter values for the hand-written `gravf_fpga.v`); `gravf_pe.v` a processing element, with `gravf_scatter_bram.v` or `gravf_scatter_offchip.v`, `gravf_barrier_counter.v`, `gravf_hazard.v` and, for kernels with globals, `gravf_globals.v`; `<kernel>_{gather,apply,scatter}.v` the kernels, behind the adapters `gravf_{gather,apply,scatter}_kernel.v` to the PE's packed buses; `gravf_crossbar.v`, `gravf_fifo.v`, `gravf_ram.v`, `gravf_delay.v` building blocks.\n")
	if s.OffChip() {
		b.WriteString("- `mem/`: `$readmemh` images. Per FPGA, `fpga<i>_edges.hex`: the off-chip edge memory (see below). Per PE: edge index (every vertex of the graph: first memory word, length, degree), id table (local index to global id), vertex info (filter mask, global id, degree), initial states.\n")
		b.WriteString("- `tb/`: the system testbench, the link model (latency in cycles from the board), the edge memory model, and the expected states.\n")
	} else {
		b.WriteString("- `mem/`: `$readmemh` images per PE: edge index (every vertex: start, length, degree), edges (global id, local index, data), vertex info (filter mask, global id, degree), initial states.\n")
		b.WriteString("- `tb/`: the system testbench, the link model (latency in cycles from the board), and the expected states.\n")
	}
	b.WriteString("- `scripts/`: `synth.ys` (yosys) and `build_fpga<i>.tcl` (Vivado, non-project).\n- `constraints/clocks.xdc`: the clock at f_clk.\n")
	if o.FPGAs > 1 {
		fmt.Fprintf(&b, "\n## Link ports\n\n`fpga_top` has one send and one receive port per other FPGA (lane j of every `rx_*`/`tx_*` bus is the j-th other FPGA in ascending order), each a valid/ready stream of %d-bit link items (barrier, halt, round, sender, payload). On hardware connect them to the board's FPGA-to-FPGA streams; in simulation `gravf_link_model` delays each item by %d cycles.\n", s.Design.LinkItem.Width(), m.LinkCycles)
	}
	if s.OffChip() {
		mem, w := s.Design.EdgeMemory, s.Words
		fmt.Fprintf(&b, `
## Edge memory ports

`+"`fpga_top`"+` has one read port per PE (lane l of each `+"`mem_*`"+` bus is PE l):

- request: `+"`mem_req_valid`, `mem_req_ready`, `mem_req_addr`"+` (%[1]d bits), the address of a %[2]d-bit word in the FPGA's edge memory;
- response: `+"`mem_resp_valid`, `mem_resp_ready`, `mem_resp_data`"+`, the words in request order.

A PE makes at most one request per cycle and has at most %[3]d outstanding, and `+"`mem_req_valid`"+` does not depend on `+"`mem_req_ready`"+`. Load `+"`mem/fpga<i>_edges.hex`"+` (one word per line, word 0 first) at word address 0 of FPGA i's memory, or add a base address in front of the ports. Each PE's edge lists follow the previous PE's; a list starts on a word boundary and holds %[4]d edges per word in %[5]d-bit slots, the first edge in the least significant slot; a slot holds the neighbour's local index on the PE (%[6]d bits) above the edge data (%[7]d bits).

The PEs share the memory's bandwidth: the memory decides with `+"`mem_req_ready`"+` which requests it accepts. In simulation `+"`gravf_mem_model`"+` answers after %[8]d cycles (the board's latency) and accepts %[9]s words per cycle per FPGA, serving the ports in an order that rotates every cycle, as `+"`gravf-tui sim --mem offchip`"+` does. A memory controller with fewer ports than PEs needs an arbiter in front that returns each port's responses in order.
`, w.MemAddrBits, mem.WordBits, mem.InFlight, mem.EdgesPerWord, mem.SlotBits, w.LocalBits, s.Design.EdgeData.Width(), mem.LatencyCycles, strconv.FormatFloat(mem.WordsPerCycle, 'f', 3, 64))
	}
	b.WriteString(lintWaivers(s))
	return b.String()
}

// lintWaivers lists every Verilator waiver in the project's Verilog (the
// RTL and the testbench models) with the reason its source gives on the
// same line, for the README.
func lintWaivers(s *System) string {
	return LintWaivers(s.Files, append(s.RTLFiles(), s.TBFiles()...), "`fpga_top` for every FPGA")
}

// LintWaivers writes a README's "Lint waivers" section: every Verilator
// waiver in the given files of a project (`/* verilator lint_off RULE */ //
// reason`), with its file and reason; tops says what make lint checks.
func LintWaivers(files map[string]string, paths []string, tops string) string {
	type waiver struct{ file, rule, reason string }
	var ws []waiver
	seen := map[waiver]bool{}
	for _, p := range paths {
		for _, line := range strings.Split(files[p], "\n") {
			rule, reason, ok := parseWaiver(line)
			if !ok {
				continue
			}
			w := waiver{p, rule, reason}
			if !seen[w] {
				seen[w] = true
				ws = append(ws, w)
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## Lint waivers\n\n`make lint` runs `verilator --lint-only -Wall` on %s and is clean; the testbench's models are clean under `-Wall` too. These are all the waivers in `rtl/` and `tb/`, each in the source beside the signals it covers:\n\n| file | warning | reason |\n|---|---|---|\n", tops)
	for _, w := range ws {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", w.file, w.rule, w.reason)
	}
	return b.String()
}

// parseWaiver reads a line "/* verilator lint_off RULE */ // reason".
func parseWaiver(line string) (rule, reason string, ok bool) {
	_, rest, found := strings.Cut(line, "/* verilator lint_off ")
	if !found {
		return "", "", false
	}
	rule, rest, found = strings.Cut(rest, " */")
	if !found {
		return "", "", false
	}
	_, reason, _ = strings.Cut(rest, "//")
	return strings.TrimSpace(rule), strings.TrimSpace(reason), true
}
