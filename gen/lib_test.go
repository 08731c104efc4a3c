package gen

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/arch"
	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// The f32 library tests: every unit is simulated in Icarus on special and
// random operands and compared bit for bit with Go's float32 arithmetic,
// the semantics kernel/compile.go gives the kernel language; every module
// is linted with verilator -Wall and synthesised with yosys.

// libRandomPerOp is the number of random operand pairs per operation.
const libRandomPerOp = 20000

// libVec is one test vector: the control input (sub, op, ...), the
// operands and the expected 64-bit output; nan bit 0 (1) says that
// want[31:0] (want[63:32]) is an f32 NaN and any NaN is accepted there.
type libVec struct {
	ctl  uint8
	a    uint64
	b    uint32
	want uint64
	nan  uint8
}

// libUnit is one simulation: a library file, the Verilog that instantiates
// the unit(s) under test and drives the test bench's 64-bit "got" (from
// the inputs ctl, a, b and the checked vector's control chk_ctl), the
// latency in ce-cycles and the vectors.
type libUnit struct {
	name    string
	file    string
	dut     string
	latency int
	vecs    []libVec
}

// Special operands: zeros, infinities, NaNs (quiet, signalling, negative),
// the normal and subnormal extremes, values around 1 and powers of two
// that produce exact ties and overflow.
var libSpecials = []uint32{
	0x00000000, 0x80000000, // +-0
	0x7f800000, 0xff800000, // +-Inf
	0x7fc00000, 0xffc00000, 0x7f800001, 0x7fbfffff, // NaNs
	0x3f800000, 0xbf800000, // +-1
	0x3f800001, 0x3f7fffff, 0x3fffffff, 0x40000000, 0x3f000000, // around 1 and 2
	0x40400000, 0x3eaaaaab, 0x40490fdb, // 3, 1/3, pi
	0x00800000, 0x80800000, 0x00800001, // smallest normals
	0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7effffff, // largest normals
	0x00000001, 0x80000001, 0x00000002, 0x00000003, // smallest subnormals
	0x007fffff, 0x807fffff, 0x00400000, 0x00400001, // largest subnormals
	0x33800000, 0x33c00000, 0x34000000, 0xb3800000, // 2^-24, 1.5*2^-24, 2^-23: ties against 1
	0x4b800000, 0x4b7fffff, 0x4b800001, 0x5f800000, // 2^24 and around, 2^64
	0x4f800000, 0x4f7fffff, 0x5f7fffff, 0x5effffff, // 2^32, below 2^32 and 2^64
	0x1f800000, 0x20000000, 0x5f000000, 0x60000000, // squares at the range ends
}

// libF32 draws an f32 bit pattern from a mix of classes: any bits, a
// moderate exponent, any finite exponent, subnormal, special, and values
// with few significant bits (so that sums and products tie).
func libF32(r *rand.Rand) uint32 {
	sign := r.Uint32() & 0x80000000
	frac := r.Uint32() & 0x7fffff
	switch r.IntN(10) {
	case 0, 1:
		return r.Uint32()
	case 2, 3:
		return sign | uint32(100+r.IntN(55))<<23 | frac
	case 4, 5:
		return sign | uint32(r.IntN(255))<<23 | frac
	case 6:
		return sign | frac>>r.IntN(23)
	case 7:
		return libSpecials[r.IntN(len(libSpecials))]
	default:
		frac &^= 1<<r.IntN(24) - 1
		return sign | uint32(1+r.IntN(254))<<23 | frac
	}
}

// libWithExp returns f with its exponent field replaced by e clamped into
// the finite range.
func libWithExp(f uint32, e int) uint32 {
	e = max(0, min(254, e))
	return f&^0x7f800000 | uint32(e)<<23
}

// libPair draws an operand pair for op ('+', '*', '/', 'c'): independent
// operands, or b derived from a so that sums align, cancel or tie, and
// products and quotients land near underflow, the subnormal range and
// overflow.
func libPair(r *rand.Rand, op byte) (uint32, uint32) {
	a, b := libF32(r), libF32(r)
	ea := int(a >> 23 & 0xff)
	if ea == 0xff || r.IntN(5) < 2 {
		return a, b
	}
	switch op {
	case '+', 'c':
		switch r.IntN(4) {
		case 0: // close exponents
			b = libWithExp(b, ea+r.IntN(7)-3)
		case 1: // wide alignment
			b = libWithExp(b, ea-r.IntN(40))
		case 2: // massive cancellation: a with low bits changed
			b = a ^ r.Uint32()>>(9+r.IntN(23)) ^ uint32(r.IntN(2))<<31
		default: // exactly half an ulp of a or a little more: ties
			b = uint32(r.IntN(2))<<31 | libWithExp(uint32(r.IntN(4))<<21, ea-24)
		}
	case '*':
		// Biased result exponent about ea + eb - 127.
		target := []int{-30 + r.IntN(40), 240 + r.IntN(30), r.IntN(255)}[r.IntN(3)]
		if r.IntN(3) == 0 {
			// Significands whose product is just above or below 2^47:
			// a rounding position with only zeros down to the far end of
			// the product (ties broken by the last bits, also when they
			// are shifted out into the subnormal range).
			ma := uint64(1<<23 | r.IntN(1<<23) | 1)
			mb := (1<<47 + ma - 1) / ma
			if r.IntN(2) == 0 {
				mb = (1<<47 - 1) / ma
			}
			if mb>>23 == 1 {
				a = a&0xff800000 | uint32(ma)&0x7fffff
				b = b&0x80000000 | uint32(mb)&0x7fffff
				ea = max(1, min(254, ea))
				a = libWithExp(a, ea)
				target = -32 + r.IntN(36)
			}
		}
		b = libWithExp(b, target-ea+127)
	case '/':
		// Biased result exponent about ea - eb + 127.
		target := []int{-30 + r.IntN(40), 240 + r.IntN(30), r.IntN(255)}[r.IntN(3)]
		b = libWithExp(b, ea+127-target)
		if r.IntN(4) == 0 { // equal significands: exact quotients
			b = b&^0x7fffff | a&0x7fffff
		}
	}
	return a, b
}

// libF32Vecs builds the vectors of a two-operand f32 unit: every pair of
// special operands with every control value, then n random pairs with
// random control values.
func libF32Vecs(r *rand.Rand, op byte, ctls []uint8, n int, f func(ctl uint8, a, b float32) (uint64, uint8)) []libVec {
	var vs []libVec
	add := func(ctl uint8, a, b uint32) {
		w, nan := f(ctl, math.Float32frombits(a), math.Float32frombits(b))
		vs = append(vs, libVec{ctl: ctl, a: uint64(a), b: b, want: w, nan: nan})
	}
	for _, ctl := range ctls {
		for _, a := range libSpecials {
			for _, b := range libSpecials {
				add(ctl, a, b)
			}
		}
	}
	for range n {
		a, b := libPair(r, op)
		add(ctls[r.IntN(len(ctls))], a, b)
	}
	r.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
	return vs
}

// libF32Result is an f32 expectation in want[31:0].
func libF32Result(f float32) (uint64, uint8) {
	if f != f {
		return 0, 1
	}
	return uint64(math.Float32bits(f)), 0
}

func libBool(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// libPredicates returns Go's six comparisons as bits 0..5: lt, le, gt,
// ge, eq, ne (gravf_fcmp's op codes 0..5).
func libPredicates(a, b float32) uint64 {
	return libBool(a < b) | libBool(a <= b)<<1 | libBool(a > b)<<2 |
		libBool(a >= b)<<3 | libBool(a == b)<<4 | libBool(a != b)<<5
}

// libUintVecs builds W-bit unsigned inputs for gravf_u2f: edge values, every
// power of two and its neighbours, ties at every rounding position, and
// random values of random bit length.
func libUintVecs(r *rand.Rand, w int) []libVec {
	mask := uint64(math.MaxUint64) >> (64 - w)
	var xs []uint64
	xs = append(xs, 0, 1, 2, 3, mask, mask-1, mask>>1, mask>>1+1)
	for i := range w {
		p := uint64(1) << i
		xs = append(xs, p, p-1, p+1, p|p>>1, p|1, p|p>>24, p|p>>24|p>>25, p|p>>25, p|p>>23|p>>24)
	}
	for range libRandomPerOp {
		x := r.Uint64() >> r.IntN(64)
		if r.IntN(3) == 0 { // few significant bits: ties and exact values
			x &^= 1<<r.IntN(40) - 1
		}
		xs = append(xs, x)
	}
	var vs []libVec
	for _, x := range xs {
		x &= mask
		f := float32(x)
		// float32(uint64) must round to nearest even: check Go's
		// conversion against math/big once more.
		if g, _ := new(big.Float).SetUint64(x).Float32(); g != f {
			panic(fmt.Sprintf("float32(%d) = %g, big.Float says %g", x, f, g))
		}
		vs = append(vs, libVec{a: x, want: uint64(math.Float32bits(f))}) // never NaN
	}
	return vs
}

// libFloatToUintVecs builds f32 inputs for gravf_f2u: specials, values
// around every power of two up to 2^65 and random values.
func libFloatToUintVecs(r *rand.Rand, w int) []libVec {
	mask := uint64(math.MaxUint64) >> (64 - w)
	fs := append([]uint32{}, libSpecials...)
	for e := 120; e <= 127+66; e++ {
		p := uint32(e) << 23
		fs = append(fs, p, p-1, p+1, p|0x400000, p|0x80000000, p+0x7fffff)
	}
	for range libRandomPerOp {
		var f uint32
		switch r.IntN(3) {
		case 0:
			f = libF32(r)
		case 1:
			f = uint32(r.IntN(2))<<31 | uint32(110+r.IntN(90))<<23 | r.Uint32()&0x7fffff
		default:
			f = uint32(120+r.IntN(w+10))<<23 | r.Uint32()&0x7fffff
		}
		fs = append(fs, f)
	}
	var vs []libVec
	for _, f := range fs {
		vs = append(vs, libVec{a: uint64(f), want: kernel.F32ToUint(math.Float32frombits(f), mask)})
	}
	return vs
}

// libCvtWidths are the widths the conversions are tested at.
var libCvtWidths = []int{1, 8, 23, 24, 25, 32, 53, 64}

// libUnits lists the simulations.
func libUnits() []libUnit {
	r := rand.New(rand.NewPCG(0x67726176, 0x66))
	f32 := func(mod, ctlPort string) string {
		return "wire [31:0] y;\n" + mod + " dut (.clk(clk), .ce(ce), " + ctlPort + ".a(a[31:0]), .b(b), .y(y));\nassign got = {32'd0, y};\n"
	}
	us := []libUnit{
		{name: "fadd", file: "gravf_fadd.v", dut: f32("gravf_fadd", ".sub(ctl[0]), "), latency: arch.LatencyFAdd,
			vecs: libF32Vecs(r, '+', []uint8{0, 1}, 2*libRandomPerOp, func(ctl uint8, a, b float32) (uint64, uint8) {
				if ctl == 1 {
					return libF32Result(a - b)
				}
				return libF32Result(a + b)
			})},
		{name: "fmul", file: "gravf_fmul.v", dut: f32("gravf_fmul", ""), latency: arch.LatencyFMul,
			vecs: libF32Vecs(r, '*', []uint8{0}, libRandomPerOp, func(_ uint8, a, b float32) (uint64, uint8) { return libF32Result(a * b) })},
		{name: "fdiv", file: "gravf_fdiv.v", dut: f32("gravf_fdiv", ""), latency: arch.LatencyFDiv,
			vecs: libF32Vecs(r, '/', []uint8{0}, libRandomPerOp, func(_ uint8, a, b float32) (uint64, uint8) { return libF32Result(a / b) })},
		// The comparisons: the six named wrappers the kernel generator
		// instantiates, all checked on every vector (got[5:0]), and the
		// gravf_fcmp core with its op input switching every cycle (got[6];
		// the unused op codes 6 and 7 give 0).
		{name: "fcmp", file: "gravf_fcmp.v", latency: arch.LatencyFCmp,
			dut: "wire [6:0] y;\n" +
				"gravf_flt u0 (.clk(clk), .ce(ce), .a(a[31:0]), .b(b), .y(y[0]));\n" +
				"gravf_fle u1 (.clk(clk), .ce(ce), .a(a[31:0]), .b(b), .y(y[1]));\n" +
				"gravf_fgt u2 (.clk(clk), .ce(ce), .a(a[31:0]), .b(b), .y(y[2]));\n" +
				"gravf_fge u3 (.clk(clk), .ce(ce), .a(a[31:0]), .b(b), .y(y[3]));\n" +
				"gravf_feq u4 (.clk(clk), .ce(ce), .a(a[31:0]), .b(b), .y(y[4]));\n" +
				"gravf_fne u5 (.clk(clk), .ce(ce), .a(a[31:0]), .b(b), .y(y[5]));\n" +
				"gravf_fcmp u6 (.clk(clk), .ce(ce), .op(ctl[2:0]), .a(a[31:0]), .b(b), .y(y[6]));\n" +
				"assign got = {57'd0, y};\n",
			vecs: libF32Vecs(r, 'c', []uint8{0, 1, 2, 3, 4, 5, 6, 7}, libRandomPerOp, func(op uint8, a, b float32) (uint64, uint8) {
				p := libPredicates(a, b)
				if op < 6 {
					p |= (p >> op & 1) << 6
				}
				return p, 0
			})},
		// fmin and fmax: the named wrapper of the vector's operation
		// (got[31:0]) and the gravf_fminmax core with its max input
		// switching every cycle (got[63:32]) must both give the result.
		{name: "fminmax", file: "gravf_fcmp.v", latency: arch.LatencyFCmp,
			dut: "wire [31:0] y0, y1, y2;\n" +
				"gravf_fmin u0 (.clk(clk), .ce(ce), .a(a[31:0]), .b(b), .y(y0));\n" +
				"gravf_fmax u1 (.clk(clk), .ce(ce), .a(a[31:0]), .b(b), .y(y1));\n" +
				"gravf_fminmax u2 (.clk(clk), .ce(ce), .max(ctl[0]), .a(a[31:0]), .b(b), .y(y2));\n" +
				"assign got = {y2, chk_ctl[0] ? y1 : y0};\n",
			vecs: libF32Vecs(r, 'c', []uint8{0, 1}, 2*libRandomPerOp, func(isMax uint8, a, b float32) (uint64, uint8) {
				f := kernel.FMin(a, b)
				if isMax == 1 {
					f = kernel.FMax(a, b)
				}
				w, nan := libF32Result(f)
				return w | w<<32, nan | nan<<1
			})},
	}
	for _, w := range libCvtWidths {
		pad := ""
		if w < 64 {
			pad = fmt.Sprintf("%d'd0, ", 64-w)
		}
		us = append(us,
			libUnit{name: fmt.Sprintf("u2f_%d", w), file: "gravf_fcvt.v", latency: arch.LatencyFCvt,
				dut:  fmt.Sprintf("wire [31:0] y;\ngravf_u2f #(.W(%d)) dut (.clk(clk), .ce(ce), .a(a[%d:0]), .y(y));\nassign got = {32'd0, y};\n", w, w-1),
				vecs: libUintVecs(r, w)},
			libUnit{name: fmt.Sprintf("f2u_%d", w), file: "gravf_fcvt.v", latency: arch.LatencyFCvt,
				dut:  fmt.Sprintf("wire [%d:0] y;\ngravf_f2u #(.W(%d)) dut (.clk(clk), .ce(ce), .a(a[31:0]), .y(y));\nassign got = {%sy};\n", w-1, w, pad),
				vecs: libFloatToUintVecs(r, w)})
	}
	return us
}

// libBench is the test bench. Every cycle it draws ce (1 three times in
// four); with ce = 1 it presents the next vector, with ce = 0 random junk.
// After each clock edge the output must be the result of the vector
// presented exactly latency ce-edges before (so y also holds while ce = 0).
// A half of got flagged as NaN only needs to be a NaN. Vector line:
// ctl(8) a(64) b(32) want(64) nan(4), in hex.
const libBench = `module tb;
localparam N = %d;
localparam L = %d;
reg [171:0] mem [0:N-1];
reg clk, ce;
reg [7:0] ctl, chk_ctl;
reg [63:0] a;
reg [31:0] b;
wire [63:0] got;
%s
integer issued, idx, fails, seed;
reg [171:0] v, w;
reg ok;
initial begin
    $readmemh("vectors.hex", mem);
    clk = 0; issued = 0; fails = 0; seed = %d; chk_ctl = 0;
    while (issued < N + L) begin
        ce = ($random(seed) & 3) != 0;
        if (ce && issued < N)
            v = mem[issued];
        else
            v = {$random(seed), $random(seed), $random(seed), $random(seed), $random(seed), $random(seed)};
        ctl = v[171:164]; a = v[163:100]; b = v[99:68];
        #5 clk = 1;
        #1 if (ce) issued = issued + 1;
        idx = issued - L;
        if (idx >= 0 && idx < N) begin
            w = mem[idx];
            chk_ctl = w[171:164];
            #1;
            ok = (w[0] ? got[30:23] == 8'hff && got[22:0] != 23'd0 : got[31:0] === w[35:4]) &&
                 (w[1] ? got[62:55] == 8'hff && got[54:32] != 23'd0 : got[63:32] === w[67:36]);
            if (!ok) begin
                fails = fails + 1;
                if (fails <= 10) $display("FAIL %%0d %%h %%h", idx, got, w[67:4]);
            end
        end
        #3 clk = 0;
    end
    if (fails == 0) $display("PASS %%0d", N);
    else $display("FAILED %%0d of %%0d", fails, N);
    $finish;
end
endmodule
`

// libSim simulates one unit and returns the simulator's output.
func libSim(t *testing.T, iverilog, vvp string, u libUnit, seed int) string {
	t.Helper()
	dir := t.TempDir()
	var hex bytes.Buffer
	for _, v := range u.vecs {
		fmt.Fprintf(&hex, "%02x%016x%08x%016x%x\n", v.ctl, v.a, v.b, v.want, v.nan)
	}
	tb := fmt.Sprintf(libBench, len(u.vecs), u.latency, u.dut, seed)
	lib := LibraryFiles()[u.file]
	for name, data := range map[string]string{"vectors.hex": hex.String(), "tb.v": tb, u.file: lib} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(iverilog, "-g2005", "-o", "sim", "tb.v", u.file)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("iverilog: %v\n%s", err, out)
	}
	cmd = exec.Command(vvp, "-n", "sim")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("vvp: %v\n%s", err, out)
	}
	return string(out)
}

// TestLibSim proves every unit bit-exact against Go in Icarus, with the
// clock enable toggling.
func TestLibSim(t *testing.T) {
	iverilog, vvp := testenv.NeedTool(t, "iverilog"), testenv.NeedTool(t, "vvp")
	t.Parallel()
	for i, u := range libUnits() {
		t.Run(u.name, func(t *testing.T) {
			t.Parallel()
			out := libSim(t, iverilog, vvp, u, i+1)
			if want := fmt.Sprintf("PASS %d\n", len(u.vecs)); !strings.Contains(out, want) || strings.Contains(out, "FAIL") {
				t.Fatalf("%s: simulation output:\n%s", u.name, out)
			}
			t.Logf("%s: %d vectors, latency %d: %s", u.name, len(u.vecs), u.latency, strings.TrimSpace(out))
		})
	}
}

// libModules returns the modules a library file declares.
func libModules(src string) []string {
	var ms []string
	for _, m := range regexp.MustCompile(`(?m)^module\s+(\w+)`).FindAllStringSubmatch(src, -1) {
		ms = append(ms, m[1])
	}
	return ms
}

// TestLibConventions checks the fixed file conventions: a header comment,
// default_nettype none ... wire, no initial blocks, and the modules the
// kernel generator instantiates.
func TestLibConventions(t *testing.T) {
	files := LibraryFiles()
	want := map[string][]string{
		"gravf_fadd.v": {"gravf_fadd"},
		"gravf_fmul.v": {"gravf_fmul"},
		"gravf_fdiv.v": {"gravf_fdiv"},
		"gravf_fcmp.v": {"gravf_fcmp", "gravf_flt", "gravf_fle", "gravf_fgt", "gravf_fge", "gravf_feq", "gravf_fne", "gravf_fminmax", "gravf_fmin", "gravf_fmax"},
		"gravf_fcvt.v": {"gravf_u2f", "gravf_f2u"},
	}
	if len(files) != len(want) {
		t.Errorf("library has %d files, want %d", len(files), len(want))
	}
	for name, ms := range want {
		src, ok := files[name]
		if !ok {
			t.Errorf("%s missing", name)
			continue
		}
		if got := libModules(src); strings.Join(got, " ") != strings.Join(ms, " ") {
			t.Errorf("%s declares %v, want %v", name, got, ms)
		}
		if !strings.HasPrefix(src, "// "+strings.TrimSuffix(name, ".v")+":") {
			t.Errorf("%s does not start with its header comment", name)
		}
		if !strings.Contains(src, "\n`default_nettype none\n") || !strings.HasSuffix(src, "\n`default_nettype wire\n") {
			t.Errorf("%s: want `default_nettype none before the modules and `default_nettype wire at the end", name)
		}
		if regexp.MustCompile(`(?m)^\s*initial\b`).MatchString(src) {
			t.Errorf("%s has an initial block", name)
		}
	}
}

// TestLibLint runs verilator --lint-only -Wall on every library module (the
// conversions at several widths).
func TestLibLint(t *testing.T) {
	verilator := testenv.NeedTool(t, "verilator")
	t.Parallel()
	dir := t.TempDir()
	files := LibraryFiles()
	names := make([]string, 0, len(files))
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	n := 0
	for _, name := range names {
		for _, m := range libModules(files[name]) {
			params := []string{""}
			if strings.Contains(files[name], "module "+m+" #(") {
				params = []string{"-GW=1", "-GW=24", "-GW=32", "-GW=64"}
			}
			for _, p := range params {
				args := []string{"--lint-only", "-Wall", "--top-module", m}
				if p != "" {
					args = append(args, p)
				}
				cmd := exec.Command(verilator, append(args, name)...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil || len(out) != 0 {
					t.Errorf("verilator -Wall %s %s: %v\n%s", m, p, err, out)
				}
				n++
			}
		}
	}
	t.Logf("%d verilator -Wall runs clean", n)
}

// libSynthTop instantiates the small units for one hierarchical yosys run
// (synth_xilinx does not flatten by default, so each module is synthesised
// on its own and keeps its own statistics; one run saves synth_xilinx's
// start-up cost per module).
const libSynthTop = `module lib_synth_top (
    input  wire        clk,
    input  wire        ce,
    input  wire [2:0]  op,
    input  wire        mx,
    input  wire [63:0] a,
    input  wire [31:0] b,
    output wire        y_cmp,
    output wire [31:0] y_mm,
    output wire [31:0] y_u2f32,
    output wire [31:0] y_u2f64,
    output wire [31:0] y_f2u32,
    output wire [63:0] y_f2u64
);
    gravf_fcmp          u_cmp    (.clk(clk), .ce(ce), .op(op), .a(a[31:0]), .b(b), .y(y_cmp));
    gravf_fminmax       u_mm     (.clk(clk), .ce(ce), .max(mx), .a(a[31:0]), .b(b), .y(y_mm));
    gravf_u2f #(.W(32)) u_u2f32  (.clk(clk), .ce(ce), .a(a[31:0]), .y(y_u2f32));
    gravf_u2f #(.W(64)) u_u2f64  (.clk(clk), .ce(ce), .a(a), .y(y_u2f64));
    gravf_f2u #(.W(32)) u_f2u32  (.clk(clk), .ce(ce), .a(b), .y(y_f2u32));
    gravf_f2u #(.W(64)) u_f2u64  (.clk(clk), .ce(ce), .a(b), .y(y_f2u64));
endmodule
`

// TestLibSynth synthesises every unit with yosys for UltraScale
// (synth_xilinx -family xcu) and logs its LUT, flip-flop and DSP counts:
// the adder, multiplier and divider each as the top, the comparison and
// conversion units (the latter at W = 32 and 64) together under
// libSynthTop.
func TestLibSynth(t *testing.T) {
	yosys := testenv.NeedTool(t, "yosys")
	t.Parallel()
	dir := t.TempDir()
	files := LibraryFiles()
	files["lib_synth_top.v"] = libSynthTop
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	runs := []struct {
		top   string
		files string
		units []string // the modules (sections of yosys' stat) to report
	}{
		{"gravf_fadd", "gravf_fadd.v", []string{"gravf_fadd"}},
		{"gravf_fmul", "gravf_fmul.v", []string{"gravf_fmul"}},
		{"gravf_fdiv", "gravf_fdiv.v", []string{"gravf_fdiv"}},
		{"lib_synth_top", "lib_synth_top.v gravf_fcmp.v gravf_fcvt.v",
			[]string{"gravf_fcmp", "gravf_fminmax", "gravf_u2f W=32", "gravf_u2f W=64", "gravf_f2u W=32", "gravf_f2u W=64"}},
	}
	section := regexp.MustCompile(`(?m)^=== (.*) ===$`)
	cell := regexp.MustCompile(`(?m)^\s+(\w+)\s+(\d+)$`)
	// A section name: "gravf_fadd" or "$paramod\gravf_u2f\W=s32'00...0100000".
	paramod := regexp.MustCompile(`^\$paramod\\(\w+)\\W=s32'([01]+)$`)
	for _, run := range runs {
		t.Run(run.top, func(t *testing.T) {
			t.Parallel()
			stat := filepath.Join(dir, run.top+".stat")
			script := fmt.Sprintf("read_verilog %s; synth_xilinx -family xcu -noiopad -noclkbuf -top %s; tee -q -o %s stat", run.files, run.top, stat)
			cmd := exec.Command(yosys, "-q", "-p", script)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("yosys %s: %v\n%s", run.top, err, out)
			}
			b, err := os.ReadFile(stat)
			if err != nil {
				t.Fatal(err)
			}
			// Split the statistics into per-module sections.
			text := string(b)
			heads := section.FindAllStringSubmatchIndex(text, -1)
			sections := map[string]string{}
			for i, h := range heads {
				end := len(text)
				if i+1 < len(heads) {
					end = heads[i+1][0]
				}
				name := text[h[2]:h[3]]
				if m := paramod.FindStringSubmatch(name); m != nil {
					w, _ := strconv.ParseInt(m[2], 2, 64)
					name = fmt.Sprintf("%s W=%d", m[1], w)
				}
				sections[name] = text[h[1]:end]
			}
			for _, u := range run.units {
				sec, ok := sections[u]
				if !ok {
					t.Fatalf("no statistics for %s in:\n%s", u, text)
				}
				var lut, ff, dsp, srl, carry int
				for _, m := range cell.FindAllStringSubmatch(sec, -1) {
					n, _ := strconv.Atoi(m[2])
					switch c := m[1]; {
					case strings.HasPrefix(c, "LUT"):
						lut += n
					case strings.HasPrefix(c, "FD"):
						ff += n
					case strings.HasPrefix(c, "DSP"):
						dsp += n
					case strings.HasPrefix(c, "SRL"):
						srl += n
					case strings.HasPrefix(c, "CARRY"):
						carry += n
					}
				}
				if lut == 0 || ff+srl == 0 {
					t.Errorf("%s: no LUTs or flip-flops in the yosys statistics:\n%s", u, sec)
				}
				t.Logf("%-16s LUT %5d  FF %4d  SRL %3d  CARRY %3d  DSP %d", u, lut, ff, srl, carry, dsp)
			}
		})
	}
}
