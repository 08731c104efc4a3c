package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/gravf-tui/gravf-tui/kernel"
	"github.com/gravf-tui/gravf-tui/samples"
)

// vector is one operation fed to a kernel and the outputs Go expects.
type vector struct {
	in   map[string]uint64
	out  map[string]uint64
	send bool
}

func randValue(r *rand.Rand, t kernel.Type, vertices int) uint64 {
	switch {
	case t.Float:
		switch r.IntN(10) {
		case 0:
			return 0
		case 1:
			return uint64(math.Float32bits(float32(r.IntN(100))))
		}
		return uint64(math.Float32bits(float32(math.Exp(r.Float64()*12 - 9))))
	case t.VID:
		if r.IntN(8) == 0 {
			return t.Mask() // none
		}
		return uint64(r.IntN(vertices))
	case t.Width == 1:
		return uint64(r.IntN(2))
	}
	if r.IntN(3) == 0 {
		return uint64(r.IntN(64)) & t.Mask()
	}
	return r.Uint64() & t.Mask()
}

// vectors computes random inputs and the outputs the spec defines.
func vectors(k *kernel.Kernel, program string, n int, seed uint64) []vector {
	r := rand.New(rand.NewPCG(seed, 99))
	c := k.Checked
	s := k.Spec
	vid := kernel.Type{Width: c.VertexIDBits, VID: true}
	ctx := k.NewCtx()
	var vs []vector
	for i := 0; i < n; i++ {
		v := vector{in: map[string]uint64{}, out: map[string]uint64{}}
		level := uint64(r.IntN(40))
		v.in["level_in"] = level
		ctx.Superstep = level
		switch program {
		case "gather":
			node, sender := randValue(r, vid, k.Vertices)&vid.Mask(), randValue(r, vid, k.Vertices)
			v.in["nodeid_in"], v.in["sender_in"] = node, sender
			msg := make([]uint64, len(c.MessageT))
			for j, f := range s.Message {
				msg[j] = randValue(r, c.MessageT[j], k.Vertices)
				v.in["message_in_"+f.Name] = msg[j]
			}
			state := make([]uint64, len(c.VertexT))
			for j, f := range s.Vertex {
				state[j] = randValue(r, c.VertexT[j], k.Vertices)
				v.in["state_in_"+f.Name] = state[j]
			}
			ctx.ID, ctx.Sender, ctx.Msg = node, sender, msg
			k.Gather(ctx, state)
			v.out["nodeid_out"] = node
			for j, f := range s.Vertex {
				v.out["state_out_"+f.Name] = state[j]
			}
		case "apply":
			node := uint64(r.IntN(k.Vertices))
			deg := uint64(r.IntN(100))
			v.in["nodeid_in"], v.in["degree_in"], v.in["round_in"], v.in["barrier_in"] = node, deg, uint64(r.IntN(4)), 0
			state := make([]uint64, len(c.VertexT))
			for j, f := range s.Vertex {
				state[j] = randValue(r, c.VertexT[j], k.Vertices)
				v.in["state_in_"+f.Name] = state[j]
			}
			ctx.ID, ctx.Degree = node, deg
			upd := make([]uint64, len(c.UpdateT))
			v.send = k.Apply(ctx, state, upd)
			v.out["nodeid_out"] = node
			for j, f := range s.Vertex {
				v.out["state_out_"+f.Name] = state[j]
			}
			if v.send {
				for j, f := range s.Update {
					v.out["update_out_"+f.Name] = upd[j]
				}
				v.out["update_sender"] = node
				v.out["update_round"] = v.in["round_in"]
			}
		case "scatter":
			upd := make([]uint64, len(c.UpdateT))
			for j, f := range s.Update {
				upd[j] = randValue(r, c.UpdateT[j], k.Vertices)
				v.in["update_in_"+f.Name] = upd[j]
			}
			sender, nb := uint64(r.IntN(k.Vertices)), uint64(r.IntN(k.Vertices))
			deg := uint64(1 + r.IntN(100))
			v.in["sender_in"], v.in["neighbor_in"], v.in["num_neighbors_in"], v.in["round_in"], v.in["barrier_in"] = sender, nb, deg, uint64(r.IntN(4)), 0
			edge := make([]uint64, len(c.EdgeT))
			for j, f := range s.Edge {
				edge[j] = randValue(r, c.EdgeT[j], k.Vertices)
				v.in["edge_in_"+f.Name] = edge[j]
			}
			ctx.Update, ctx.Edge, ctx.Sender, ctx.Neighbor, ctx.Degree = upd, edge, sender, nb, deg
			msg := make([]uint64, len(c.MessageT))
			k.Scatter(ctx, msg)
			for j, f := range s.Message {
				v.out["message_out_"+f.Name] = msg[j]
			}
			v.out["neighbor_out"], v.out["sender_out"] = nb, sender
		}
		vs = append(vs, v)
	}
	return vs
}

// cosim runs module m (with the given Verilog files) on the vectors in
// Icarus and returns the simulator's output.
func cosim(t *testing.T, m *KernelModule, files []string, params string, vs []vector) string {
	t.Helper()
	iverilog := testenv.NeedTool(t, "iverilog")
	dir := t.TempDir()
	var ins, outs []Port
	for _, p := range m.Ports {
		switch {
		case p.Name == "clk" || p.Name == "rst" || p.Name == "valid_in" || strings.HasSuffix(p.Name, "_ack"):
		case !p.Output:
			ins = append(ins, p)
		case p.Name != "ready" && !strings.HasSuffix(p.Name, "valid") && p.Name != "valid_out" && p.Name != "barrier_out" && p.Name != "state_barrier" && p.Name != "round_out":
			outs = append(outs, p)
		}
	}
	var stim, exp strings.Builder
	for _, v := range vs {
		for _, p := range ins {
			fmt.Fprintf(&stim, "%016x\n", v.in[p.Name])
		}
		send := uint64(0)
		if v.send {
			send = 1
		}
		fmt.Fprintf(&exp, "%016x\n", send)
		for _, p := range outs {
			fmt.Fprintf(&exp, "%016x\n", v.out[p.Name])
		}
	}
	os.WriteFile(filepath.Join(dir, "stim.hex"), []byte(stim.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "exp.hex"), []byte(exp.String()), 0o644)
	K, J, N := len(ins), len(outs)+1, len(vs)
	var tb strings.Builder
	fmt.Fprintf(&tb, "`timescale 1ns/1ps\nmodule tb;\nreg clk = 0, rst = 1;\nalways #5 clk = ~clk;\n")
	fmt.Fprintf(&tb, "reg [63:0] stim [0:%d];\nreg [63:0] expv [0:%d];\ninteger i = 0, j = 0, errors = 0, cycles = 0;\nreg [15:0] lfsr = 16'hace1;\n", N*K-1, N*J-1)
	fmt.Fprintf(&tb, "wire valid_in = !rst && i < %d && lfsr[0];\nwire ack = lfsr[3] | lfsr[6];\nwire ready;\n", N)
	var conns []string
	conns = append(conns, ".clk(clk)", ".rst(rst)", ".valid_in(valid_in)", ".ready(ready)")
	for x, p := range ins {
		fmt.Fprintf(&tb, "wire [%d:0] in_%s = stim[i*%d+%d][%d:0];\n", p.Width-1, p.Name, K, x, p.Width-1)
		conns = append(conns, fmt.Sprintf(".%s(in_%s)", p.Name, p.Name))
	}
	for _, p := range m.Ports {
		if p.Output && p.Name != "ready" {
			fmt.Fprintf(&tb, "wire [%d:0] out_%s;\n", p.Width-1, p.Name)
			conns = append(conns, fmt.Sprintf(".%s(out_%s)", p.Name, p.Name))
		}
	}
	var take string
	switch m.Program {
	case "gather":
		conns = append(conns, ".state_ack(ack)")
		take = "out_state_valid && ack"
	case "apply":
		conns = append(conns, ".update_ack(ack)")
		take = "out_state_valid"
	case "scatter":
		conns = append(conns, ".message_ack(ack)")
		take = "out_valid_out && ack"
	}
	fmt.Fprintf(&tb, "%s %s dut (\n    %s\n);\n", m.Name, params, strings.Join(conns, ",\n    "))
	fmt.Fprintf(&tb, "always @(posedge clk) begin\n    lfsr <= {lfsr[14:0], lfsr[15] ^ lfsr[13] ^ lfsr[12] ^ lfsr[10]};\n    cycles = cycles + 1;\n")
	fmt.Fprintf(&tb, "    if (!rst) begin\n        if (valid_in && ready) i <= i + 1;\n        if (%s) begin\n", take)
	if m.Program == "apply" {
		fmt.Fprintf(&tb, "            if (out_update_valid !== expv[j*%d][0]) begin $display(\"FAIL vector %%0d: update_valid %%b\", j, out_update_valid); errors = errors + 1; end\n", J)
	}
	for x, p := range outs {
		guard := ""
		if strings.HasPrefix(p.Name, "update_") {
			guard = fmt.Sprintf("expv[j*%d][0] && ", J)
		}
		fmt.Fprintf(&tb, "            if (%sout_%s !== expv[j*%d+%d][%d:0]) begin $display(\"FAIL vector %%0d: %s = %%h, want %%h\", j, out_%s, expv[j*%d+%d][%d:0]); errors = errors + 1; end\n",
			guard, p.Name, J, x+1, p.Width-1, p.Name, p.Name, J, x+1, p.Width-1)
	}
	fmt.Fprintf(&tb, "            j <= j + 1;\n        end\n    end\nend\n")
	fmt.Fprintf(&tb, "initial begin\n    $readmemh(\"%s\", stim);\n    $readmemh(\"%s\", expv);\n    repeat (3) @(posedge clk);\n    rst = 0;\n", filepath.Join(dir, "stim.hex"), filepath.Join(dir, "exp.hex"))
	fmt.Fprintf(&tb, "    while (j < %d && cycles < %d) @(posedge clk);\n    if (j == %d && errors == 0) $display(\"PASS %%0d\", j); else $display(\"FAIL errors=%%0d checked=%%0d\", errors, j);\n    $finish;\nend\nendmodule\n", N, 20*N+1000, N)
	tbFile := filepath.Join(dir, "tb.v")
	os.WriteFile(tbFile, []byte(tb.String()), 0o644)
	args := append([]string{"-g2005", "-o", filepath.Join(dir, "sim"), tbFile}, files...)
	if out, err := exec.Command(iverilog, args...).CombinedOutput(); err != nil {
		t.Fatalf("iverilog: %v\n%s", err, out)
	}
	out, err := exec.Command(testenv.NeedTool(t, "vvp"), filepath.Join(dir, "sim")).CombinedOutput()
	if err != nil {
		t.Fatalf("vvp: %v\n%s", err, out)
	}
	return string(out)
}

func bind(t *testing.T, name string) *kernel.Kernel {
	t.Helper()
	s, err := samples.Kernel(name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := s.Bind(kernel.Env{Vertices: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// writeModules writes generated modules and the delay line they use into
// dir and returns the file list.
func writeModules(t *testing.T, dir string, ms ...*KernelModule) []string {
	_, blocks := BuildingBlocks()
	delay := filepath.Join(dir, "gravf_delay.v")
	if err := os.WriteFile(delay, []byte(blocks["gravf_delay.v"]), 0o644); err != nil {
		t.Fatal(err)
	}
	files := []string{delay}
	for _, m := range ms {
		f := filepath.Join(dir, m.Name+".v")
		if err := os.WriteFile(f, []byte(m.Verilog), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// TestGeneratedF32KernelsMatchSpec drives the PageRank kernels, built from
// the f32 unit library, with random stimulus and checks them bit for bit
// against the spec's Go float32 semantics.
func TestGeneratedF32KernelsMatchSpec(t *testing.T) {
	k := bind(t, "pr")
	for _, prog := range []string{"gather", "apply", "scatter"} {
		t.Run(prog, func(t *testing.T) {
			m, err := GenerateKernel(k, prog)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			files := writeModules(t, dir, m)
			for n, src := range LibraryFiles() {
				f := filepath.Join(dir, n)
				if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
				files = append(files, f)
			}
			out := cosim(t, m, files, "", vectors(k, prog, 400, 3))
			if !strings.Contains(out, "PASS 400") {
				t.Fatalf("co-simulation failed:\n%s", out)
			}
		})
	}
}

// TestGeneratedKernelsMatchSpec drives every generated integer kernel with
// random stimulus and random back-pressure in Icarus and compares every
// output with the spec's semantics (the Go closures).
func TestGeneratedKernelsMatchSpec(t *testing.T) {
	for _, name := range []string{"wcc", "bfs", "sssp", "sswp"} {
		k := bind(t, name)
		for _, prog := range []string{"gather", "apply", "scatter"} {
			t.Run(name+"/"+prog, func(t *testing.T) {
				m, err := GenerateKernel(k, prog)
				if err != nil {
					t.Fatal(err)
				}
				out := cosim(t, m, writeModules(t, t.TempDir(), m), "", vectors(k, prog, 400, 1))
				if !strings.Contains(out, "PASS 400") {
					t.Fatalf("co-simulation failed:\n%s", out)
				}
			})
		}
	}
}

// TestHandWrittenWCC drives the hand-written WCC kernels (the paper's
// style) and the generated ones with the same random stimulus: both must
// produce what the spec defines, so they agree with each other.
func TestHandWrittenWCC(t *testing.T) {
	k := bind(t, "wcc")
	s := k.Spec
	if len(s.Verilog) != 3 {
		t.Fatalf("the wcc sample carries %d hand-written modules, want 3", len(s.Verilog))
	}
	for _, prog := range []string{"gather", "apply", "scatter"} {
		t.Run(prog, func(t *testing.T) {
			m, err := GenerateKernel(k, prog)
			if err != nil {
				t.Fatal(err)
			}
			vs := vectors(k, prog, 500, 7)
			gen := cosim(t, m, writeModules(t, t.TempDir(), m), "", vs)
			dir := t.TempDir()
			hand := filepath.Join(dir, m.Name+".v")
			os.WriteFile(hand, []byte(s.Verilog[prog+".v"]), 0o644)
			hw := cosim(t, m, []string{hand}, fmt.Sprintf("#(.VERTEXIDSIZE(%d))", k.Checked.VertexIDBits), vs)
			if !strings.Contains(gen, "PASS 500") || !strings.Contains(hw, "PASS 500") {
				t.Fatalf("generated:\n%s\nhand-written:\n%s", gen, hw)
			}
		})
	}
}

// TestGeneratedKernelsLint runs verilator -Wall on every generated integer
// kernel.
func TestGeneratedKernelsLint(t *testing.T) {
	verilator := testenv.NeedTool(t, "verilator")
	for _, name := range []string{"wcc", "bfs", "sssp", "sswp"} {
		k := bind(t, name)
		for _, prog := range []string{"gather", "apply", "scatter"} {
			m, err := GenerateKernel(k, prog)
			if err != nil {
				t.Fatal(err)
			}
			files := writeModules(t, t.TempDir(), m)
			args := append([]string{"--lint-only", "-Wall", "--top-module", m.Name}, files...)
			if out, err := exec.Command(verilator, args...).CombinedOutput(); err != nil {
				t.Errorf("%s: verilator -Wall:\n%s", m.Name, out)
			}
		}
	}
}
