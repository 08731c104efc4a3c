package boards

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

func near(got, want, rel float64) bool { return math.Abs(got-want) <= rel*math.Abs(want) }

func gibs(bitsPerSecond float64) float64 { return bitsPerSecond / 8 / GiB }

func TestNames(t *testing.T) {
	names := Names()
	want := []string{"ac510", "f1", "f2", "u250", "u280", "u55c"}
	if !slices.Equal(names, want) {
		t.Fatalf("Names() = %v, want %v", names, want)
	}
}

// TestEmbeddedBoards checks that every built-in board parses, validates,
// carries its file's name, and has the figures of its data sheets.
func TestEmbeddedBoards(t *testing.T) {
	type fig struct {
		part, family               string
		lut, ff, bram36, uram, dsp int
		clockMHz                   float64
		maxFPGAs                   int
		topology                   string
		mem0                       string
		mem0Peak, mem0Sustained    float64
		mem0Bits, mem0Channels     int
		capGiB                     float64
		ifGiBs                     float64
		maxPEs                     int
	}
	tests := map[string]fig{
		"ac510": {"xcku060-ffva1156-2-e", "xcu", 331680, 663360, 1080, 0, 2760, 187.5, 4, "direct", "hmc", 21.7, 8.1, 128, 9, 4, 5.85, 9},
		"u250":  {"xcu250-figd2104-2L-e", "xcup", 1728000, 3456000, 2688, 1280, 12288, 250, 8, "switch", "ddr4", 71.71, 0, 512, 4, 64, 23.28, 56},
		"u280":  {"xcu280-fsvh2892-2L-e", "xcup", 1303680, 2607360, 2016, 960, 9024, 225, 8, "switch", "hbm", 428.4, 395.8, 256, 32, 8, 23.28, 42},
		"u55c":  {"xcu55c-fsvh2892-2L-e", "xcup", 1303680, 2607360, 2016, 960, 9024, 225, 8, "switch", "hbm", 428.4, 0, 256, 32, 16, 23.28, 42},
		"f1":    {"xcvu9p-flgb2104-2-i", "xcup", 1182240, 2364480, 2160, 960, 6840, 250, 8, "hierarchical", "ddr4", 59.6, 0, 512, 4, 64, 11.18, 45},
		"f2":    {"xcvu47p-fsvh2892-2-e", "xcup", 1303680, 2607360, 2016, 960, 9024, 250, 8, "switch", "hbm", 428.4, 0, 256, 32, 16, 14.67, 42},
	}
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			b, err := Get(name)
			if err != nil {
				t.Fatal(err)
			}
			if b.Name != name {
				t.Errorf("name = %q in %s", b.Name, b.File)
			}
			if err := b.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if b.Title == "" || b.Source == "" || b.Doc == "" {
				t.Errorf("title, source and doc must all be set")
			}
			w, ok := tests[name]
			if !ok {
				t.Fatalf("no expected figures for board %s: add them to this test", name)
			}
			f := b.FPGA
			if f.Part != w.part || f.Family != w.family || f.LUT != w.lut || f.FF != w.ff || f.BRAM36 != w.bram36 || f.URAM != w.uram || f.DSP != w.dsp {
				t.Errorf("fpga = %+v, want %s %s %d/%d/%d/%d/%d", f, w.part, w.family, w.lut, w.ff, w.bram36, w.uram, w.dsp)
			}
			if b.ClockMHz != w.clockMHz || b.ClockHz() != w.clockMHz*1e6 {
				t.Errorf("clock %v MHz, %v Hz", b.ClockMHz, b.ClockHz())
			}
			if b.MaxFPGAs != w.maxFPGAs || b.Network.Topology != w.topology {
				t.Errorf("max_fpgas %d topology %s", b.MaxFPGAs, b.Network.Topology)
			}
			m := b.EdgeMemory()
			if m.Name != w.mem0 || m.PeakGiBs != w.mem0Peak || m.SustainedGiBs != w.mem0Sustained ||
				m.WordBits != w.mem0Bits || m.Channels != w.mem0Channels || m.CapacityGiB != w.capGiB {
				t.Errorf("edge memory %+v", *m)
			}
			if b.Network.InterfaceGiBs != w.ifGiBs {
				t.Errorf("interface_gib_s = %v, want %v", b.Network.InterfaceGiBs, w.ifGiBs)
			}
			if got := b.MaxPEs(); got != w.maxPEs {
				t.Errorf("MaxPEs() = %d, want %d", got, w.maxPEs)
			}
			if b.Network.FPGAsPerNode < 1 {
				t.Errorf("fpgas_per_node = %d after Parse, want >= 1", b.Network.FPGAsPerNode)
			}
		})
	}
}

// TestDatasheetConversions pins the unit conversions of the data-sheet
// figures written in GiB/s: 460 GB/s HBM2, 77 GB/s and 38 GB/s DDR4,
// 2 x 100 Gbit/s QSFP28, 12 GB/s PCIe and 4 x 512 bit x 250 MHz.
func TestDatasheetConversions(t *testing.T) {
	tests := []struct {
		board, what string
		gibs        float64
		bytesPerSec float64
	}{
		{"u280", "hbm", 428.4, 460e9},
		{"u280", "ddr4", 35.39, 38e9},
		{"u250", "ddr4", 71.71, 77e9},
		{"f1", "ddr4", 59.6, 4 * 512 / 8 * 250e6},
		{"u250", "interface", 23.28, 2 * 100e9 / 8},
		{"u280", "interface", 23.28, 2 * 100e9 / 8},
		{"f1", "interface", 11.18, 12e9},
		{"u55c", "hbm", 428.4, 460e9},
		{"f2", "hbm", 428.4, 460e9},
		{"f2", "ddr4", 14.9, 512 / 8 * 250e6},
		{"f2", "interface", 14.67, 8 * 16e9 * 128 / 130 / 8},
	}
	for _, tc := range tests {
		b, err := Get(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		var got float64
		if tc.what == "interface" {
			got = b.Network.InterfaceGiBs
		} else {
			m, err := b.MemoryNamed(tc.what)
			if err != nil {
				t.Fatal(err)
			}
			got = m.PeakGiBs
		}
		if want := tc.bytesPerSec / GiB; !near(got, want, 0.001) {
			t.Errorf("%s %s: %v GiB/s, want %.4f (%g B/s)", tc.board, tc.what, got, want, tc.bytesPerSec)
		}
	}
}

// TestClocks holds every built-in board to the clocks it documents: the
// model's clock at most the platform's maximum and, where published
// designs of this kind are known, equal to the clock they closed at; a
// clock above it, or above the maximum, draws a warning, as does a retired
// platform.
func TestClocks(t *testing.T) {
	for _, name := range Names() {
		b, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if b.ClockMaxMHz <= 0 || b.ClockMHz > b.ClockMaxMHz {
			t.Errorf("%s: clock %v MHz, maximum %v", name, b.ClockMHz, b.ClockMaxMHz)
		}
		if b.PublishedClockMHz > 0 && (b.ClockMHz != b.PublishedClockMHz || b.PublishedClockSource == "") {
			t.Errorf("%s: clock %v MHz, published %v (%q)", name, b.ClockMHz, b.PublishedClockMHz, b.PublishedClockSource)
		}
		if w := b.Warnings(); (len(w) != 0) != (name == "f1") {
			t.Errorf("%s: warnings %q", name, w)
		}
	}
	b, _ := Get("u280")
	b.ClockMHz = 250
	if w := b.Warnings(); len(w) != 1 || !strings.Contains(w[0], "f_clk 250 MHz is above the 225 MHz that published designs of this kind closed timing at (ScalaBFS2") {
		t.Errorf("u280 at 250 MHz: %q", w)
	}
	b.ClockMHz = 400
	if w := b.Warnings(); len(w) != 1 || !strings.Contains(w[0], "f_clk 400 MHz is above the 300 MHz the platform offers a design") {
		t.Errorf("u280 at 400 MHz: %q", w)
	}
	f1, _ := Get("f1")
	if w := f1.Warnings(); len(w) != 1 || !strings.Contains(w[0], "f1 is retired: AWS EC2 F1 reached end of life on 20 December 2025") {
		t.Errorf("f1: %q", w)
	}
}

// TestAC510InterfaceBandwidth reproduces the paper's Table 2: the measured
// per-FPGA send = receive bandwidth for 2, 3 and 4 FPGAs. One stream is
// 128 bit x 187.5 MHz = 24 Gbit/s = 3.0 GB/s = 2.79 GiB/s; with one or two
// partners the streams bind, with three the 5.85 GiB/s interface does.
func TestAC510InterfaceBandwidth(t *testing.T) {
	b, err := Get("ac510")
	if err != nil {
		t.Fatal(err)
	}
	stream := 128 * 187.5e6
	if got := b.PairBitsPerSecond(); got != stream {
		t.Errorf("PairBitsPerSecond() = %v, want 128 x 187.5 MHz = %v", got, stream)
	}
	if got := gibs(stream); !near(got, 2.79, 0.01) {
		t.Errorf("one stream = %.4f GiB/s, want 2.79", got)
	}
	for _, tc := range []struct {
		nF   int
		want float64 // GiB/s, paper Table 2
	}{{2, 2.79}, {3, 5.59}, {4, 5.85}} {
		got := gibs(b.InterfaceBitsPerSecond(tc.nF))
		if !near(got, tc.want, 0.01) {
			t.Errorf("BW_if(nF=%d) = %.3f GiB/s, want %.2f within 1%%", tc.nF, got, tc.want)
		}
	}
	if got := b.InterfaceBitsPerSecond(1); got != 0 {
		t.Errorf("BW_if(nF=1) = %v, want 0 (no network)", got)
	}
	if b.NetworkBitsPerSecond() != 0 {
		t.Errorf("BW_net = %v, want 0 (unlimited: never binds on the AC-510)", b.NetworkBitsPerSecond())
	}
	// The paper's other section 6 figures.
	m := b.EdgeMemory()
	// The model uses the peak (model_bandwidth = "peak"): the paper's own
	// throughput read more than the 8.1 GiB/s GUPS figure.
	if !near(m.SustainedGiBs, 8.1, 1e-9) || !near(gibs(m.BitsPerSecond()), 21.7, 1e-9) || !near(gibs(m.PeakBitsPerSecond()), 21.7, 1e-9) {
		t.Errorf("HMC: sustained %.3f GiB/s (want 8.1), BW_mem %.3f GiB/s (want the peak 21.7), peak %.3f", m.SustainedGiBs, gibs(m.BitsPerSecond()), gibs(m.PeakBitsPerSecond()))
	}
	if m.RequestsInFlight != 64 || m.WordBits != 128 {
		t.Errorf("HMC: %d requests in flight, %d-bit words; want 64 and 128", m.RequestsInFlight, m.WordBits)
	}
	for k, want := range map[string]float64{"wcc": 1.05, "bfs": 1.10, "pr": 1.42} {
		if got, ok := b.CPE(k); !ok || got != want {
			t.Errorf("CPE(%s) = %v, %v; want %v", k, got, ok, want)
		}
	}
	if _, ok := b.CPE("sssp"); ok {
		t.Errorf("CPE(sssp) should not be measured")
	}
	if got, want := b.VertexMemoryBits(), int64(1080*36*1024); got != want {
		t.Errorf("M_board = %d bits, want %d (1,080 BRAM36, 38 Mb)", got, want)
	}
}

func TestTopologies(t *testing.T) {
	u250, err := Get("u250")
	if err != nil {
		t.Fatal(err)
	}
	// Through the switch both QSFP28 ports serve any partner.
	for _, nF := range []int{2, 5, 8} {
		if got := gibs(u250.InterfaceBitsPerSecond(nF)); !near(got, 23.28, 1e-9) {
			t.Errorf("u250 BW_if(%d) = %v, want 23.28", nF, got)
		}
	}
	if got := u250.PairBitsPerSecond(); !near(got, 200e9, 0.001) {
		t.Errorf("u250 pair = %v bit/s, want both 100G links", got)
	}
	// A ring of the same cards: each hop delivers an update to one more
	// FPGA, so BW_if is min(interface, links x link) as well.
	ring := *u250
	ring.Network.Topology = TopologyRing
	ring.Network.InterfaceGiBs = 100
	if err := ring.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := ring.InterfaceBitsPerSecond(6); got != 200e9 {
		t.Errorf("ring BW_if = %v, want 2 x 100 Gbit/s", got)
	}
	if got := ring.PairBitsPerSecond(); got != 100e9 {
		t.Errorf("ring pair = %v, want one link", got)
	}
	// A direct network with the interface out of the way grows with nF.
	direct := *u250
	direct.Network.Topology = TopologyDirect
	direct.Network.LinksPerFPGA = 7
	direct.Network.InterfaceGiBs = 1000
	for nF := 2; nF <= 8; nF++ {
		if got := direct.InterfaceBitsPerSecond(nF); got != float64(nF-1)*100e9 {
			t.Errorf("direct BW_if(%d) = %v", nF, got)
		}
	}

	f1, err := Get("f1")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		nF, nodes int
		node      float64 // GiB/s
	}{{1, 1, 0}, {2, 1, 0}, {4, 1, 0}, {5, 2, 11.18}, {8, 2, 11.18}} {
		if got := f1.Nodes(tc.nF); got != tc.nodes {
			t.Errorf("f1 Nodes(%d) = %d, want %d", tc.nF, got, tc.nodes)
		}
		if got := gibs(f1.NodeInterfaceBitsPerSecond(tc.nF)); !near(got, tc.node, 1e-3) {
			t.Errorf("f1 node BW_if(%d) = %v, want %v", tc.nF, got, tc.node)
		}
	}
	if got := gibs(f1.InterfaceBitsPerSecond(4)); !near(got, 11.18, 1e-3) {
		t.Errorf("f1 BW_if(4) = %v, want 11.18 (PCIe x16 inside a group)", got)
	}
	if f1.Nodes(0) != 0 || u250.Nodes(3) != 3 {
		t.Errorf("Nodes: f1(0)=%d u250(3)=%d", f1.Nodes(0), u250.Nodes(3))
	}
}

func TestMemories(t *testing.T) {
	b, err := Get("u280")
	if err != nil {
		t.Fatal(err)
	}
	hbm := b.EdgeMemory()
	if hbm.Kind != KindHBM2 || hbm.BitsPerSecond() != hbm.SustainedGiBs*GiB*8 {
		t.Errorf("hbm: kind %s, BW_mem %v (want the sustained figure)", hbm.Kind, hbm.BitsPerSecond())
	}
	ddr, err := b.MemoryNamed("ddr4")
	if err != nil {
		t.Fatal(err)
	}
	if ddr.BitsPerSecond() != ddr.PeakBitsPerSecond() || ddr.CapacityBits() != 32*GiB*8 {
		t.Errorf("ddr4: BW_mem %v (want peak, not measured), capacity %v bits", ddr.BitsPerSecond(), ddr.CapacityBits())
	}
	if _, err := b.MemoryNamed("sram"); err == nil || !strings.Contains(err.Error(), "hbm, ddr4") {
		t.Errorf("MemoryNamed(sram) error = %v, want the list of memories", err)
	}
}

func TestLoad(t *testing.T) {
	b, err := Load("ac510")
	if err != nil || b.File != "boards/data/ac510.toml" {
		t.Fatalf("Load(ac510) = %v, %v", b, err)
	}
	_, err = Load("nope")
	if err == nil || !strings.Contains(err.Error(), `unknown board "nope"`) || !strings.Contains(err.Error(), "ac510, f1, f2, u250, u280, u55c") {
		t.Errorf("Load(nope) error = %v, want the list of boards", err)
	}
	// A user file overrides the built-in board of the same name.
	src, err := Source("ac510")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "ac510.toml")
	if err := os.WriteFile(p, []byte(strings.Replace(string(src), "clock_mhz = 187.5", "clock_mhz = 200", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	u, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if u.ClockMHz != 200 || u.File != p {
		t.Errorf("user file: clock %v file %s", u.ClockMHz, u.File)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Source("nope"); err == nil {
		t.Error("Source(nope) should fail")
	}
}

// TestEquivalentSyntax checks that inline tables and dotted keys mean the
// same as table headers, and that errors inside them point at their line.
func TestEquivalentSyntax(t *testing.T) {
	file := `name = "mini"
title = "one FPGA"
source = "test"
clock_mhz = 200
max_fpgas = 1
fpga = { part = "xc7a35t", family = "xc7", lut = 20800, ff = 41600, bram36 = 50, dsp = 90 }
memory = [
  { name = "bram", kind = "bram", capacity_gib = 0.0002, peak_gib_s = 10, word_bits = 64, latency_ns = 10, requests_in_flight = 1, channels = 1 },
]
network.topology = "direct"
pe.lut = 2000
pe.ff = 2000
pe.cpe.wcc = 1.2
`
	b, err := Parse("mini.toml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	if b.FPGA.LUT != 20800 || b.EdgeMemory().WordBits != 64 || b.PE.CPE["wcc"] != 1.2 || b.MaxPEs() != 10 {
		t.Errorf("parsed %+v", b)
	}
	if b.InterfaceBitsPerSecond(1) != 0 {
		t.Error("one FPGA has no network")
	}
	bad := strings.Replace(file, "word_bits = 64", "word_bits = 60", 1)
	bad = strings.Replace(bad, "pe.ff = 2000", "pe.ff = -1", 1)
	_, err = Parse("mini.toml", []byte(bad))
	want := "mini.toml:8:75: memory[0].word_bits: must be a positive multiple of 8, got 60\n" +
		"mini.toml:12:4: pe.ff: must be a positive count (flip-flops per PE), got -1"
	if err == nil || err.Error() != want {
		t.Errorf("error:\n%v\nwant:\n%s", err, want)
	}
}

// edit is one change to a copy of a real board file: the first line
// matching re is replaced by text (insert keeps the line and adds text
// after it; remove drops it).
type edit struct {
	re     string
	text   string
	insert bool
}

// apply returns the edited file and the 1-based line the edit landed on.
func (e edit) apply(t *testing.T, src string) (string, int) {
	t.Helper()
	lines := strings.Split(src, "\n")
	re := regexp.MustCompile(e.re)
	for i, l := range lines {
		if !re.MatchString(l) {
			continue
		}
		switch {
		case e.insert:
			lines = slices.Insert(lines, i+1, e.text)
			return strings.Join(lines, "\n"), i + 2
		case e.text == "":
			lines = slices.Delete(lines, i, i+1)
			return strings.Join(lines, "\n"), i + 1
		default:
			lines[i] = e.text
			return strings.Join(lines, "\n"), i + 1
		}
	}
	t.Fatalf("no line matches %q", e.re)
	return "", 0
}

// TestMalformed edits real board files, one field type at a time, and
// checks the error names the file, the line and the field.
func TestMalformed(t *testing.T) {
	tests := []struct {
		name  string
		board string
		edit  edit
		pre   *edit // a replacement made first, which keeps line numbers
		field string
		want  string
		line  int // 0: the edited line
	}{
		// string enums
		{"family enum", "ac510", edit{re: `^family`, text: `family = "xc9"`}, nil, "fpga.family", `must be one of "xc7", "xcu", "xcup", got "xc9"`, 0},
		{"topology enum", "ac510", edit{re: `^topology`, text: `topology = "mesh"`}, nil, "network.topology", `must be one of "direct", "ring", "switch", "hierarchical", got "mesh"`, 0},
		{"memory kind enum", "u280", edit{re: `^kind = "ddr4"`, text: `kind = "sram"`}, nil, "memory[1].kind", `got "sram"`, 0},
		{"string type", "ac510", edit{re: `^part`, text: `part = 7`}, nil, "fpga.part", "must be a string, got an integer", 0},
		{"empty string", "u250", edit{re: `^title`, text: `title = "  "`}, nil, "title", "must not be empty", 0},
		{"bad name", "u250", edit{re: `^name  =`, text: `name = "U 250"`}, nil, "name", `must be a lower-case id`, 0},
		// integer counts
		{"zero count", "ac510", edit{re: `^lut `, text: `lut = 0`}, nil, "fpga.lut", "must be a positive count (CLB LUTs), got 0", 0},
		{"string count", "ac510", edit{re: `^dsp `, text: `dsp = "many"`}, nil, "fpga.dsp", "must be an integer, got a string", 0},
		{"float count", "u250", edit{re: `^channels = 4 `, text: `channels = 4.5`}, nil, "memory[0].channels", "must be an integer, got a float", 0},
		{"word bits", "ac510", edit{re: `^word_bits`, text: `word_bits = 0`}, nil, "memory[0].word_bits", "must be a positive multiple of 8, got 0", 0},
		{"huge count", "f1", edit{re: `^ff `, text: `ff = 1000000000000`}, nil, "fpga.ff", "must be at most 100000000", 0},
		{"uram on UltraScale", "ac510", edit{re: `^uram`, text: `uram = 16`}, nil, "fpga.uram", "only UltraScale+ (xcup) parts have UltraRAM", 0},
		{"direct links", "ac510", edit{re: `^links_per_fpga`, text: `links_per_fpga = 2`}, nil, "network.links_per_fpga", "a direct network needs a link to each of the other max_fpgas-1 = 3 FPGAs, got 2", 0},
		{"one PE does not fit", "u250", edit{re: `^lut    = 20000`, text: `lut = 2000000`}, &edit{re: `^dsp    = 8$`, text: "# no dsp"}, "pe.lut", "one PE needs 2000000 LUTs, the part has 1728000", 0},
		{"PEs do not fit", "ac510", edit{re: `^bram36 = 48`, text: `bram36 = 480`}, nil, "pe.max_per_fpga", "9 PEs need 4320 BRAM36s, the part has 1080", -1},
		{"hierarchy", "f1", edit{re: `^fpgas_per_node`, text: `fpgas_per_node = 3`}, nil, "network.fpgas_per_node", "must divide max_fpgas = 8 into at least two nodes, got 3", 0},
		{"node figure on a flat network", "u250", edit{re: `^fpgas_per_node`, text: `node_link_gbit_s = 5`, insert: true}, nil, "network.node_link_gbit_s", `is only used by topology = "hierarchical"`, 0},
		// float bandwidths
		{"negative bandwidth", "u250", edit{re: `^peak_gib_s`, text: `peak_gib_s = -1`}, nil, "memory[0].peak_gib_s", "must be positive (peak bandwidth per FPGA), got -1", 0},
		{"sustained above peak", "ac510", edit{re: `^sustained_gib_s`, text: `sustained_gib_s = 30`}, nil, "memory[0].sustained_gib_s", "must not exceed peak_gib_s = 21.7, got 30", 0},
		{"string bandwidth", "ac510", edit{re: `^interface_gib_s`, text: `interface_gib_s = "fast"`}, nil, "network.interface_gib_s", "must be a number, got a string", 0},
		{"nan clock", "u280", edit{re: `^clock_mhz`, text: `clock_mhz = nan`}, nil, "clock_mhz", "must be positive (f_clk of the design), got NaN", 0},
		{"clock in Hz", "u280", edit{re: `^clock_mhz`, text: `clock_mhz = 300e6`}, nil, "clock_mhz", "must be at most 2000", 0},
		{"cpe below one", "ac510", edit{re: `^wcc`, text: `wcc = 0.9`}, nil, "pe.cpe.wcc", "must be between 1 and 1000 cycles per edge", 0},
		{"bool bandwidth", "f1", edit{re: `^link_gbit_s`, text: `link_gbit_s = true`}, nil, "network.link_gbit_s", "must be a number, got a boolean", 0},
		// tables
		{"table as array", "ac510", edit{re: `^\[network\]`, text: `[[network]]`}, nil, "network", "must be a table, got an array", 0},
		{"table as value", "u250", edit{re: `^\[pe\]`, text: `cpe = "fast"`, insert: true}, nil, "pe.cpe", "must be a table, got a string", 0},
		{"value as table", "ac510", edit{re: `^max_fpgas`, text: `max_fpgas = { n = 4 }`}, nil, "max_fpgas", "must be an integer, got a table", 0},
		{"missing table header", "ac510", edit{re: `^\[pe\.cpe\]`, text: `# no cpe`}, nil, "pe.wcc", "unknown key (known keys in pe: bram36, cpe, dsp, ff, lut, max_per_fpga)", -3},
		// arrays of tables
		{"single memory table", "ac510", edit{re: `^\[\[memory\]\]`, text: `[memory]`}, nil, "memory", "must be an array of tables, got a table (write [[memory]] tables)", 0},
		{"duplicate memory", "u280", edit{re: `^name = "ddr4"`, text: `name = "hbm"`}, nil, "memory[1].name", `"hbm" is already the name of memory[0]`, 0},
		{"memory not tables", "ac510", edit{re: `^name  =`, text: "memory = [1, 2]", insert: true}, &edit{re: `^\[\[memory\]\]`, text: "[hmc]"}, "memory[0]", "must be a table, got an integer", 0},
		// unknown keys
		{"unknown top-level key", "ac510", edit{re: `^name  =`, text: `speed = 3`, insert: true}, nil, "speed", "unknown key (known keys at the top level: clock_max_mhz, clock_mhz, doc, fpga, max_fpgas, memory, name, network, pe, price_usd, published_clock_mhz, published_clock_source, retired, source, title)", 0},
		{"unknown fpga key", "u250", edit{re: `^\[fpga\]`, text: `luts = 5`, insert: true}, nil, "fpga.luts", "unknown key (known keys in fpga: bram36, dsp, family, ff, lut, part, uram)", 0},
		{"unknown memory key", "u280", edit{re: `^channels = 2`, text: `speed_gib_s = 3`, insert: true}, nil, "memory[1].speed_gib_s", "unknown key", 0},
		{"unknown table", "f1", edit{re: `^max_fpgas`, text: `[host]`, insert: true}, nil, "host", "unknown key", 0},
		// missing keys point at their table
		{"missing clock", "ac510", edit{re: `^clock_mhz`}, nil, "clock_mhz", "missing (f_clk of the design)", 1},
		{"missing fpga key", "u250", edit{re: `^lut    = 1728000`}, nil, "fpga.lut", "missing (CLB LUTs)", -2},
		// keys the board knows but values it does not
		{"cpe of an unknown kernel", "ac510", edit{re: `^wcc`, text: `wccc = 1.05`}, nil, "pe.cpe.wccc", `no built-in kernel is called "wccc"`, 0},
		{"zero FPGAs per node", "ac510", edit{re: `^fpgas_per_node`, text: `fpgas_per_node = 0`}, nil, "network.fpgas_per_node", "must be a positive count (FPGAs per node), got 0", 0},
		{"FPGAs per node on a flat network", "u250", edit{re: `^fpgas_per_node`, text: `fpgas_per_node = 2`}, nil, "network.fpgas_per_node", `must be 1 unless topology = "hierarchical"`, 0},
		// key rules
		{"key twice", "ac510", edit{re: `^clock_mhz`, text: "clock_mhz = 200", insert: true}, nil, "clock_mhz", "is defined twice (first at line", 0},
		{"table twice", "u250", edit{re: `^\[pe\]`, text: "[fpga]"}, nil, "fpga", "table [fpga] is defined twice", 0},
		// syntax
		{"syntax", "ac510", edit{re: `^title`, text: `title = "unterminated`}, nil, "", "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src, err := Source(tc.board)
			if err != nil {
				t.Fatal(err)
			}
			data := string(src)
			if tc.pre != nil {
				data, _ = tc.pre.apply(t, data)
			}
			data, line := tc.edit.apply(t, data)
			switch tc.line {
			case 0:
			case -1: // the pe.max_per_fpga line
				line = lineOf(t, data, `^max_per_fpga`)
			case -2: // the [fpga] header
				line = lineOf(t, data, `^\[fpga\]`)
			case -3: // the first CPE entry
				line = lineOf(t, data, `^wcc`)
			default:
				line = tc.line
			}
			file := "my/" + tc.board + ".toml"
			_, err = Parse(file, []byte(data))
			if err == nil {
				t.Fatalf("accepted:\n%s", data)
			}
			var l ErrorList
			if !errors.As(err, &l) {
				t.Fatalf("error %T is not an ErrorList: %v", err, err)
			}
			for _, e := range l {
				if e.File == file && e.Line == line && e.Key == tc.field && strings.Contains(e.Msg, tc.want) {
					return
				}
			}
			t.Errorf("no error at %s:%d, key %q, %q in\n%v", file, line, tc.field, tc.want, err)
		})
	}
}

func lineOf(t *testing.T, data, re string) int {
	t.Helper()
	r := regexp.MustCompile(re)
	for i, l := range strings.Split(data, "\n") {
		if r.MatchString(l) {
			return i + 1
		}
	}
	t.Fatalf("no line matches %q", re)
	return 0
}

// TestAllErrorsInFileOrder checks that one pass reports every problem,
// sorted by line.
func TestAllErrorsInFileOrder(t *testing.T) {
	src, err := Source("ac510")
	if err != nil {
		t.Fatal(err)
	}
	data := string(src)
	var lines []int
	for _, e := range []edit{
		{re: `^wcc`, text: `wcc = 0`},
		{re: `^word_bits`, text: `word_bits = 12`},
		{re: `^clock_mhz`, text: `clock_mhz = 0`},
		{re: `^family`, text: `family = "ecp5"`},
	} {
		var l int
		data, l = e.apply(t, data)
		lines = append(lines, l)
	}
	_, err = Parse("x.toml", []byte(data))
	var l ErrorList
	if !errors.As(err, &l) || len(l) != 4 {
		t.Fatalf("want 4 errors, got %v", err)
	}
	slices.Sort(lines)
	for i, e := range l {
		if e.Line != lines[i] || e.File != "x.toml" || e.Key == "" {
			t.Errorf("error %d: %v (want line %d)", i, e, lines[i])
		}
	}
	// Unknown keys and type errors are collected too, all at once.
	data = string(src)
	data, l1 := edit{re: `^\[fpga\]`, text: `speed = 1`, insert: true}.apply(t, data)
	data, l2 := edit{re: `^latency_ns`, text: `latency_ns = "slow"`}.apply(t, data)
	data, l3 := edit{re: `^max_per_fpga`, text: `max_per_fpga = 9.5`}.apply(t, data)
	_, err = Parse("x.toml", []byte(data))
	if !errors.As(err, &l) || len(l) != 3 || l[0].Line != l1 || l[1].Line != l2 || l[2].Line != l3 {
		t.Errorf("want errors on lines %d, %d, %d, got\n%v", l1, l2, l3, err)
	}
	// A type error and a value error together: both are reported, and the
	// key with the wrong type is not also called missing.
	src, err = Source("f1")
	if err != nil {
		t.Fatal(err)
	}
	data, l1 = edit{re: `^topology`, text: `topology = 4`}.apply(t, string(src))
	data, l2 = edit{re: `^word_bits`, text: `word_bits = 7`}.apply(t, data)
	_, err = Parse("x.toml", []byte(data))
	want := "x.toml:" + strconv.Itoa(l2) + ":1: memory[0].word_bits: must be a positive multiple of 8, got 7\n" +
		"x.toml:" + strconv.Itoa(l1) + ":1: network.topology: must be a string, got an integer"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

func TestValidateProgrammatic(t *testing.T) {
	b, err := Get("u250")
	if err != nil {
		t.Fatal(err)
	}
	b.ClockMHz = 0
	b.Memory[0].RequestsInFlight = 0
	err = b.Validate()
	want := "boards/data/u250.toml: clock_mhz: must be positive (f_clk of the design), got 0\n" +
		"boards/data/u250.toml: memory[0].requests_in_flight: must be a positive count (outstanding reads per PE port), got 0"
	if err == nil || err.Error() != want {
		t.Errorf("Validate() =\n%v\nwant\n%s", err, want)
	}
	b, _ = Get("u250")
	b.Memory = nil
	if err := b.Validate(); err == nil || !strings.Contains(err.Error(), "memory: at least one [[memory]]") {
		t.Errorf("no memory: %v", err)
	}
}

// TestHostileFilesAreCheap reads small board files made to be slow: a
// long dotted key (1,000 segments took 1.2 s and 67 MB before the parser
// was linear, 4,000 more than a minute), thousands of unknown keys and of
// measured CPEs, deep inline tables. Each must fail with a located error,
// and the memory allocated must stay within a bound per input byte
// (allocations are deterministic; this is no timing test).
func TestHostileFilesAreCheap(t *testing.T) {
	src, err := Source("ac510")
	if err != nil {
		t.Fatal(err)
	}
	many := func(format string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	tests := []struct {
		name, data, want string
	}{
		{"dotted key", strings.Repeat("a.", 999) + "a = 1\n", "nested more than"},
		{"dotted key in a table", "[pe]\n" + strings.Repeat("cpe.", 999) + "x = 1\n", "nested more than"},
		{"unknown keys", many("k%d = 1\n", 20000) + string(src), "and 19900 more problems"},
		{"unknown kernels", string(src) + many("k%d = 1.5\n", 20000), "and 19900 more problems"},
		{"deep inline tables", "name = " + strings.Repeat("{a=", 5000) + "1" + strings.Repeat("}", 5000) + "\n", "nested more than"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			perByte := testenv.AllocatedPerByte(len(tc.data), func() { _, err = Parse("hostile.toml", []byte(tc.data)) })
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "hostile.toml:") {
				t.Fatalf("error %.300v, want %q", err, tc.want)
			}
			if perByte > 2000 {
				t.Errorf("%.0f bytes allocated per input byte", perByte)
			}
		})
	}
}

// BenchmarkParse parses a built-in board file end to end.
func BenchmarkParse(b *testing.B) {
	src, err := Source("u280")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for range b.N {
		if _, err := Parse("u280.toml", src); err != nil {
			b.Fatal(err)
		}
	}
}

func TestOverride(t *testing.T) {
	for _, tc := range []struct {
		board string
		set   map[string]float64
		want  string // "" = accepted
	}{
		{"ac510", map[string]float64{"memory.peak_gib_s": 10}, ""},
		{"ac510", map[string]float64{"memory.sustained_gib_s": 10}, `memory.sustained_gib_s has no effect on ac510: its edge memory's model_bandwidth is "peak"`},
		{"u280", map[string]float64{"memory.sustained_gib_s": 100}, ""},
		{"u280", map[string]float64{"clock_mhz": 0}, "clock_mhz"},
		{"u280", map[string]float64{"nope": 1}, `unknown board parameter "nope"`},
	} {
		b, err := Load(tc.board)
		if err != nil {
			t.Fatal(err)
		}
		c, err := Override(b, tc.set)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %v: %v", tc.board, tc.set, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s %v: error %v, want %q", tc.board, tc.set, err, tc.want)
		case tc.want == "":
			for k, v := range tc.set {
				if p, _ := ParamNamed(k); p.Get(c) != v || p.Get(b) == v {
					t.Errorf("%s %s: copy %g, original %g", tc.board, k, p.Get(c), p.Get(b))
				}
			}
		}
	}
}
