package kernel

import (
	"strings"
	"testing"
	"testing/fstest"
)

const wccSpec = `name = "wcc"
[layout]
vertex = [["label", "vertexidsize"], ["active", 1]]
update = [["label", "vertexidsize"]]
message = "update"
[code]
init = '''
label  = id
active = 1
'''
gather = '''
label  = min(state.label, msg.label)
active = state.active | (msg.label < state.label)
'''
apply = '''
send         = state.active
update.label = state.label
active       = 0
'''
`

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(string) string
		want string
	}{
		{"unknown name", func(s string) string {
			return strings.Replace(s, "min(state.label, msg.label)", "min(state.lable, msg.label)", 1)
		},
			"k.toml:12:14: state has no field lable (fields: label, active)"},
		{"float against integer", func(s string) string { return strings.Replace(s, "label  = id", "label  = 1.5", 1) },
			"k.toml:8:10: cannot assign f32 to label (vid(u32)): convert with vid(...)"},
		{"width overflow", func(s string) string { return strings.Replace(s, "active = 1\n", "active = state.label\n", 1) },
			"k.toml:9:10: state.label is not available in init"},
		{"too wide", func(s string) string { return strings.Replace(s, "active       = 0", "active       = state.label", 1) },
			"k.toml:18:16: vid(u32) value does not fit active (u1): cast with u1(...)"},
		{"syntax", func(s string) string {
			return strings.Replace(s, "send         = state.active", "send         = state.active +", 1)
		},
			"k.toml:16:30: expression ends early"},
		{"missing send", func(s string) string { return strings.Replace(s, "send         = state.active\n", "", 1) },
			"k.toml:16:1: apply must assign send"},
		{"assigned twice", func(s string) string {
			return strings.Replace(s, "active       = 0", "active       = 0\nactive = 1", 1)
		},
			"k.toml:19:1: active is assigned twice (first at line 18)"},
		{"unknown function", func(s string) string { return strings.Replace(s, "min(state.label", "mni(state.label", 1) },
			"k.toml:12:10: unknown function mni"},
		{"bad width", func(s string) string { return strings.Replace(s, `["active", 1]`, `["active", 65]`, 1) },
			"k.toml:3:39: layout.vertex: field active: width 65 is not in 1..64"},
		{"unknown key", func(s string) string { return strings.Replace(s, "[code]", "colour = 1\n[code]", 1) },
			"k.toml:6:1: layout.colour: unknown key (known keys in layout: edge, global, message, update, vertex)"},
		{"toml syntax", func(s string) string { return strings.Replace(s, `name = "wcc"`, `name = "wcc`, 1) },
			"k.toml:1:"},
		{"constant overflow", func(s string) string { return strings.Replace(s, "active = 1\n", "active = 2\n", 1) },
			"k.toml:9:10: constant 2 overflows u1"},
		{"bad character", func(s string) string { return strings.Replace(s, "active       = 0", "active       = 0 @", 1) },
			`k.toml:18:18: unexpected "@" after the expression`},
		{"mixed types", func(s string) string {
			return strings.Replace(s, "active       = 0", "active       = u1(state.label < 2.0)", 1)
		}, "k.toml:18:31: mismatched types vid(u32) and f32 in '<'"},
		{"hand-written latency", func(s string) string { return s + "[verilog]\ngather_latency = 65\n" },
			"k.toml:21:18: verilog.gather_latency = 65: the hand-written gather's latency must be 0 to 64 cycles"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("k.toml", []byte(tc.edit(wccSpec)))
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error\n  %v\nwant it to contain\n  %s", err, tc.want)
			}
		})
	}
}

func TestParseValid(t *testing.T) {
	s, err := Parse("k.toml", []byte(wccSpec))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "wcc" || !s.MessageIsUpdate || s.Scatter != nil || len(s.Apply.Stmts) != 3 {
		t.Fatalf("unexpected spec %+v", s)
	}
	sz, err := s.Sizes(20)
	if err != nil {
		t.Fatal(err)
	}
	want := Sizes{VertexIDBits: 20, Vertex: 21, Update: 20, Message: 20, EdgeData: 0, Edge: 20}
	if sz != want {
		t.Fatalf("Sizes = %+v, want %+v", sz, want)
	}
}

// eval binds a one-line apply program "update.x = <expr>" with a state of
// the given field types and returns the computed update.
func evalExpr(t *testing.T, xType, expr string, state ...uint64) (uint64, error) {
	t.Helper()
	src := `name = "t"
[params]
p = { type = "f32", default = 2.5 }
[layout]
vertex = [["a", 32], ["b", 8], ["f", "f32"]]
update = [["x", ` + xType + `]]
[code]
init = "a = 0"
gather = "a = state.a"
apply = '''
send = 1
update.x = ` + expr + `
'''
`
	s, err := Parse("e.toml", []byte(src))
	if err != nil {
		return 0, err
	}
	k, err := s.Bind(Env{Vertices: 10})
	if err != nil {
		return 0, err
	}
	c := k.NewCtx()
	upd := make([]uint64, 1)
	st := append([]uint64(nil), state...)
	k.Apply(c, st, upd)
	return upd[0], nil
}

func TestSemantics(t *testing.T) {
	f := func(x float32) uint64 { return bits(x) }
	tests := []struct {
		typ, expr string
		state     []uint64
		want      uint64
	}{
		{"32", "state.a + 1", []uint64{0xFFFFFFFF, 0, 0}, 0},            // wraps at 32 bits
		{"8", "state.b - 1", []uint64{0, 0, 0}, 0xFF},                   // wraps at 8 bits
		{"32", "state.a / 0", []uint64{7, 0, 0}, 0xFFFFFFFF},            // total division
		{"32", "state.a % 0", []uint64{7, 0, 0}, 7},                     // total remainder
		{"32", "state.a >> 40", []uint64{7, 0, 0}, 0},                   // shift past width
		{"32", "u32(state.b) << 4", []uint64{0, 0xFF, 0}, 0xFF0},        // cast then shift
		{"8", "u8(state.a)", []uint64{0x1234, 0, 0}, 0x34},              // truncating cast
		{"32", "max(state.a, state.b)", []uint64{3, 9, 0}, 9},           // mixed widths widen
		{"32", "state.a > 2 ? state.a : 100", []uint64{1, 0, 0}, 100},   // ternary
		{"32", "u32(state.f)", []uint64{0, 0, f(-3.5)}, 0},              // saturate below
		{"8", "u8(state.f)", []uint64{0, 0, f(1e9)}, 255},               // saturate above
		{"32", "u32(state.f)", []uint64{0, 0, f(7.9)}, 7},               // truncate toward zero
		{`"f32"`, "state.f * p + 1.0", []uint64{0, 0, f(2)}, f(6)},      // f32 and parameter
		{`"f32"`, "f32(state.a) / 4.0", []uint64{10, 0, 0}, f(2.5)},     // int to f32
		{`"f32"`, "abs(-state.f)", []uint64{0, 0, f(1.25)}, f(1.25)},    // abs and negation
		{`"f32"`, "min(state.f, 0.5)", []uint64{0, 0, f(0.75)}, f(0.5)}, // f32 min
		{"32", "(1 + 2) * 3", nil, 9},                                   // constant folding
		{"1", "!state.a && state.b == 0 || state.a == 5", []uint64{5, 1, 0}, 1},
		{"32", "~state.a & 0xF", []uint64{0xFFFFFFF0, 0, 0}, 0xF},
		{"32", "none", nil, 0xFFFFFFFF},
		{"32", "state.a == 1 ? 7 : none", []uint64{1, 0, 0}, 7},
		{"32", "nvertices - 1", nil, 9},
		{"16", "u16(state.a ^ 0xFFFF)", []uint64{0xFF, 0, 0}, 0xFF00},
	}
	for _, tc := range tests {
		t.Run(tc.expr, func(t *testing.T) {
			st := tc.state
			if st == nil {
				st = []uint64{0, 0, 0}
			}
			got, err := evalExpr(t, tc.typ, tc.expr, st...)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("%s = %#x, want %#x", tc.expr, got, tc.want)
			}
		})
	}
}

func TestParamOverride(t *testing.T) {
	s, err := Parse("k.toml", []byte(strings.Replace(wccSpec, "[layout]", "[params]\nroot = { type = \"vertex\", default = 0 }\n[layout]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	labels := map[uint64]uint32{100: 0, 200: 1}
	lookup := func(l uint64) (uint32, bool) { v, ok := labels[l]; return v, ok }
	if _, err := s.Bind(Env{Vertices: 2, Params: map[string]string{"root": "200"}, Lookup: lookup}); err != nil {
		t.Fatalf("valid label: %v", err)
	}
	for _, bad := range []map[string]string{{"root": "300"}, {"root": "x"}, {"rot": "1"}} {
		if _, err := s.Bind(Env{Vertices: 2, Params: bad, Lookup: lookup}); err == nil {
			t.Errorf("Bind(%v) succeeded", bad)
		}
	}
	if _, err := s.Bind(Env{Vertices: 2, Lookup: lookup}); err == nil || !strings.Contains(err.Error(), "vertex 0 is not in the graph") {
		t.Errorf("default root 0 with labels 100, 200: got %v", err)
	}
}

// TestVerilogGatherLatency: a spec declares its hand-written gather's
// latency only beside the three hand-written modules, with the error at
// the key's line otherwise.
func TestVerilogGatherLatency(t *testing.T) {
	spec := wccSpec + "[verilog]\ngather_latency = 0\n"
	verilog := fstest.MapFS{"k/kernel.toml": {Data: []byte(spec)}}
	for _, v := range []string{"gather.v", "apply.v", "scatter.v"} {
		verilog["k/"+v] = &fstest.MapFile{Data: []byte("module m; endmodule\n")}
	}
	s, err := LoadDir(verilog, "k")
	if err != nil {
		t.Fatal(err)
	}
	if s.VerilogGatherLatency == nil || *s.VerilogGatherLatency != 0 {
		t.Fatalf("gather latency %v, want 0", s.VerilogGatherLatency)
	}
	delete(verilog, "k/apply.v")
	_, err = LoadDir(verilog, "k")
	if want := "k/kernel.toml:21:18: verilog.gather_latency is set, but gather.v, apply.v and scatter.v are not all beside the spec"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}
