package kernel

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/graph"
)

// batchExprs cover every operation of the language, on varying and
// uniform operands, for TestBatchMatchesScalar.
var batchExprs = []struct{ typ, expr string }{
	{"32", "state.a + state.b"}, {"32", "state.a - state.b"}, {"32", "state.a * state.b"},
	{"32", "state.a / state.b"}, {"32", "state.a % state.b"}, {"32", "state.a / 0"}, {"32", "state.a % 0"},
	{"32", "state.a << state.b"}, {"32", "state.a >> state.b"}, {"32", "state.a << 70"}, {"32", "state.a >> 64"},
	{"32", "state.a & state.b"}, {"32", "state.a | state.b"}, {"32", "state.a ^ state.b"},
	{"32", "min(state.a, state.b)"}, {"32", "max(state.a, id)"}, {"32", "-state.a"}, {"32", "~state.a"},
	{"1", "state.a == state.b"}, {"1", "state.a != state.b"}, {"1", "state.a < state.b"},
	{"1", "state.a <= state.b"}, {"1", "state.a > state.b"}, {"1", "state.a >= state.b"},
	{"1", "!state.a"}, {"1", "state.a && state.b"}, {"1", "state.a || state.b"},
	{"32", "state.b > 100 ? state.a : degree"}, {"32", "superstep > 1 ? state.a : 7"},
	{"8", "u8(state.a)"}, {"32", "u32(state.f)"}, {"8", "u8(state.f)"}, {`"f32"`, "f32(state.a)"},
	{`"f32"`, "state.f + state.g"}, {`"f32"`, "state.f - state.g"}, {`"f32"`, "state.f * state.g"},
	{`"f32"`, "state.f / state.g"}, {`"f32"`, "min(state.f, state.g)"}, {`"f32"`, "max(state.f, state.g)"},
	{`"f32"`, "-state.f"}, {`"f32"`, "abs(state.f)"}, {`"f32"`, "state.f * p + f32(superstep)"},
	{"1", "state.f == state.g"}, {"1", "state.f != state.g"}, {"1", "state.f < state.g"},
	{"1", "state.f <= state.g"}, {"1", "state.f > state.g"}, {"1", "state.f >= state.g"},
	{"32", "nvertices - 1"}, {"32", "state.a == 1 ? 7 : none"}, {"32", "l * 3 + l"},
}

// TestBatchMatchesScalar runs apply programs over a batch of random states
// in batch form and one vertex at a time through the closures, and wants
// the same bits.
func TestBatchMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	floats := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 0.5, 3.75, 1e9, -1e9, float32(math.Inf(1)), float32(math.NaN()), 1e-30}
	for _, tc := range batchExprs {
		t.Run(tc.expr, func(t *testing.T) {
			src := `name = "t"
[params]
p = { type = "f32", default = 2.5 }
[layout]
vertex = [["a", 32], ["b", 8], ["f", "f32"], ["g", "f32"]]
update = [["x", ` + tc.typ + `]]
[code]
init = "a = 0"
gather = "a = state.a"
apply = '''
let l = state.a + 1
send = state.b & 1
update.x = ` + tc.expr + `
a = l
'''
`
			s, err := Parse("e.toml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			const n = 300
			k, err := s.Bind(Env{Vertices: n})
			if err != nil {
				t.Fatal(err)
			}
			states := make([]uint64, 4*n)
			for v := range n {
				states[4*v] = rng.Uint64() & 0xFFFFFFFF
				if rng.IntN(4) == 0 {
					states[4*v] = uint64(rng.IntN(3))
				}
				states[4*v+1] = uint64(rng.IntN(256))
				states[4*v+2] = uint64(math.Float32bits(floats[rng.IntN(len(floats))]))
				states[4*v+3] = uint64(math.Float32bits(floats[rng.IntN(len(floats))] * float32(rng.IntN(3))))
			}
			want := slices.Clone(states)
			offsets := make([]uint32, n+1)
			for v := range n {
				offsets[v+1] = offsets[v] + uint32(v%5)
			}
			c := k.NewCtx()
			c.Superstep = 2
			var wantUpd, wantSend []uint64
			for v := range n {
				c.ID, c.Degree = uint64(v), uint64(v%5)
				upd := make([]uint64, 1)
				send := k.Apply(c, want[4*v:4*v+4], upd)
				wantUpd = append(wantUpd, upd[0])
				wantSend = append(wantSend, b2u(send))
			}
			g := &graph.Graph{Offsets: offsets, Adj: make([]uint32, offsets[n])}
			e := newEngine(k, g)
			e.setStates(states)
			w := e.workers[0]
			w.lo, w.hi = 0, n
			w.apply(e, 2)
			e.states(states)
			if !slices.Equal(states, want) {
				t.Errorf("states differ")
			}
			var upds []uint64
			j := 0
			for v := range n {
				if wantSend[v] == 1 {
					upds = append(upds, wantUpd[v])
					if j >= len(w.senders) || w.senders[j] != uint32(v) {
						t.Fatalf("vertex %d sends in scalar form, not in batch form (%v)", v, w.senders)
					}
					j++
				}
			}
			if j != len(w.senders) || !slices.Equal(w.updates, upds) {
				t.Errorf("updates differ: %d senders, want %d", len(w.senders), j)
			}
		})
	}
}

// scalarRun is the engine one vertex and one edge at a time through the
// closures, as it ran before the batch form: the definition the batch
// engine must match bit for bit.
func scalarRun(k *Kernel, g *graph.Graph) *Result {
	n := g.NumVertices()
	nf, nu, nm := len(k.Checked.VertexT), len(k.Checked.UpdateT), len(k.Checked.MessageT)
	res := &Result{Kernel: k, Graph: g, Fields: nf, States: make([]uint64, n*nf)}
	c := k.NewCtx()
	for v := range n {
		c.ID, c.Degree = uint64(v), uint64(g.OutDegree(uint32(v)))
		k.Init(c, res.States[v*nf:v*nf+nf])
	}
	upd, msg, edge := make([]uint64, nu), make([]uint64, max(nm, 1)), make([]uint64, len(k.Checked.EdgeT))
	next := k.GlobalIdentity() // this sweep's contributions, in vertex order
	for s := 0; s < max(1000, n+2); s++ {
		var senders []uint32
		var updates []uint64
		c.Superstep = uint64(s)
		var msgs int64
		for v := range n {
			c.ID, c.Degree = uint64(v), uint64(g.OutDegree(uint32(v)))
			if k.Apply(c, res.States[v*nf:v*nf+nf], upd) {
				senders = append(senders, uint32(v))
				updates = append(updates, upd...)
				msgs += int64(c.Degree)
			}
			k.Reduce(next, c.Contrib)
		}
		c.Global, next = next, c.Global
		copy(next, k.GlobalIdentity())
		res.Supersteps = append(res.Supersteps, Superstep{Index: s, Active: len(senders), Messages: msgs})
		res.Messages += msgs
		if len(senders) == 0 {
			res.Converged = true
			res.Saturated = c.Saturated
			return res
		}
		c.Superstep = uint64(s + 1)
		for i, u := range senders {
			c.Update, c.Sender, c.Degree = updates[i*nu:i*nu+nu], uint64(u), uint64(g.OutDegree(u))
			c.Msg = msg
			if k.ScatterPerSender() {
				k.Scatter(c, msg)
			}
			ws := g.EdgeWeights(u)
			for j, w := range g.Neighbors(u) {
				if !k.ScatterPerSender() {
					c.Neighbor = uint64(w)
					if len(edge) > 0 {
						edge[0] = UnitEdge(k)
						if ws != nil {
							edge[0] = uint64(ws[j])
						}
						c.Edge = edge
					}
					k.Scatter(c, msg)
				}
				c.ID = uint64(w)
				k.Gather(c, res.States[int(w)*nf:int(w)*nf+nf])
			}
		}
	}
	res.Saturated = c.Saturated
	return res
}

// TestRunMatchesScalar runs the sample kernels with the batch engine on
// one and several workers and wants exactly the states, supersteps and
// senders of the scalar engine (f32 kernels included: the order in which
// a vertex receives its messages does not depend on the workers, and the
// globals are folded in vertex order), and as many saturated satadd sums.
func TestRunMatchesScalar(t *testing.T) {
	defer func(m int) { minVerticesPerWorker = m }(minVerticesPerWorker)
	minVerticesPerWorker = 64
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	specs := []string{"uniform:v=2000,d=8,seed=3", "rmat:scale=11,ef=8,seed=1", "rmat:scale=11,ef=8,seed=1,scramble=false",
		"layered:w=16,d=40,seed=2", "grid:rows=30,cols=40,seed=5,maxw=100", "line:n=300"}
	for _, spec := range specs {
		for _, directed := range []bool{false, true} {
			g, err := graph.Load(spec, graph.ReadOptions{Weighted: true, Directed: directed})
			if err != nil {
				t.Fatal(err)
			}
			gf, err := graph.Load(spec, graph.ReadOptions{Weighted: true, FloatWeights: true, Directed: directed})
			if err != nil {
				t.Fatal(err)
			}
			// Without weights an f32 edge field reads 1.0 (UnitEdge).
			g0, err := graph.Load(spec, graph.ReadOptions{Directed: directed})
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"wcc", "bfs", "pr", "sssp", "sswp", "mixsender", "mixedge", "bfs-depth", "pr-graphalytics", "sssp-f32", "sssp-f32/unweighted", "satsum"} {
				g := g
				switch name {
				case "sssp-f32":
					g = gf
				case "sssp-f32/unweighted":
					if g0.Weights != nil {
						continue // the spec draws weights (maxw)
					}
					name, g = "sssp-f32", g0
				}
				k := bindSample(t, name, g)
				want := scalarRun(k, g)
				for _, procs := range []int{1, 3} {
					runtime.GOMAXPROCS(procs)
					got, err := Run(context.Background(), k, g, RunOptions{})
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(got.States, want.States) || !slices.Equal(got.Supersteps, want.Supersteps) {
						t.Errorf("%s on %s (directed %v, %d procs): differs from the scalar engine", name, spec, directed, procs)
					}
					if got.Saturated != want.Saturated {
						t.Errorf("%s on %s (directed %v, %d procs): %d saturated sums, the scalar engine %d", name, spec, directed, procs, got.Saturated, want.Saturated)
					}
				}
			}
		}
	}
}

// bindSample binds a sample kernel read from the samples folder (the
// samples package imports this one).
func bindSample(t *testing.T, name string, g *graph.Graph) *Kernel {
	t.Helper()
	src := mixKernels[name] + foldKernels[name] + satKernels[name]
	b := []byte(src)
	if src == "" {
		var err error
		if b, err = os.ReadFile(filepath.Join("..", "samples", "kernels", name, "kernel.toml")); err != nil {
			t.Fatal(err)
		}
	}
	s, err := Parse(name+"/kernel.toml", b)
	if err != nil {
		t.Fatal(err)
	}
	k, err := s.Bind(Env{Vertices: g.NumVertices(), Lookup: g.Lookup})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// mixKernels read every input of scatter (superstep, sender, degree, the
// neighbour and the edge), once per sender and once per edge.
var mixKernels = map[string]string{
	"mixsender": mixKernel("mixsender", "", "m = u16(update.x + superstep + (sender & 7) + degree)"),
	"mixedge":   mixKernel("mixedge", `edge = [["w", 8]]`, "m = u16(update.x + superstep + (neighbor & 7) * edge.w + sender + degree)"),
}

func mixKernel(name, edge, scatter string) string {
	return `name = "` + name + `"
[layout]
vertex = [["x", 16], ["n", 8]]
update = [["x", 16]]
message = [["m", 16]]
` + edge + `
[code]
init = "x = u16(id)"
gather = "x = u16(state.x * 3 + msg.m)\nn = state.n + 1"
apply = "send = state.n < 3 && superstep < 5\nupdate.x = state.x ^ u16(superstep)\nn = state.n"
scatter = "` + scatter + `"
`
}

// satKernels saturate often: an 8-bit satadd in scatter (once per edge,
// with a uniform operand), in gather and in apply, and an f32 global sum.
var satKernels = map[string]string{"satsum": `name = "satsum"
[layout]
vertex = [["x", 8], ["n", 8], ["f", "f32"]]
update = [["x", 8], ["pad", 32]]
message = [["m", 8]]
edge = [["w", 8]]
global = [["s", "f32", "sum"], ["hi", 8, "max"]]
[code]
init = "x = u8(id * 37)\nf = f32(id) / 3.0"
gather = "x = satadd(state.x, msg.m)"
apply = '''
send = state.n < 4
update.x = satadd(state.x, u8(superstep * 90))
update.pad = 0
n = state.n + 1
f = state.f + global.s
global.s = state.f / 7.0
global.hi = satadd(state.x, global.hi)
'''
scatter = "m = satadd(update.x, edge.w) + satadd(u8(250), u8(superstep * 3))"
`}

// foldKernels have gathers that pull recognises: an 8-bit sum that wraps,
// and a min with its operands the other way round.
var foldKernels = map[string]string{
	"foldadd":   foldKernel("foldadd", "x = state.x + msg.m"),
	"foldmin":   foldKernel("foldmin", "x = min(msg.m, state.x)"),
	"foldmax":   foldKernel("foldmax", "x = max(state.x, msg.m)"),
	"foldmin40": strings.NewReplacer("8]", "40]", "u8(", "u40(").Replace(foldKernel("foldmin40", "x = min(msg.m, state.x)")),
}

func foldKernel(name, gather string) string {
	return `name = "` + name + `"
[layout]
vertex = [["x", 8], ["n", 8]]
update = [["x", 8]]
message = [["m", 8]]
[code]
init = "x = u8(id * 7)"
gather = "` + gather + `"
apply = "send = state.n < 4 && (state.x & 3) != 1\nupdate.x = state.x ^ u8(superstep)\nn = state.n + 1"
scatter = "m = u8(update.x + sender)"
`
}

// TestPullMatchesPush runs the kernels whose gather pull recognises with
// pull in every superstep, in none and by the default rule, and wants the
// scalar engine's result each time.
func TestPullMatchesPush(t *testing.T) {
	defer func(m int, f float64) { minVerticesPerWorker, pullFraction = m, f }(minVerticesPerWorker, pullFraction)
	minVerticesPerWorker = 64
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(3)
	for _, spec := range []string{"rmat:scale=11,ef=8,seed=1", "uniform:v=2000,d=8,seed=3", "grid:rows=30,cols=40,seed=5"} {
		g, err := graph.Load(spec, graph.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"pr", "foldadd", "foldmin", "foldmax", "foldmin40"} {
			k := bindSample(t, name, g)
			if recogniseFold(k.Checked.Gather) == nil {
				t.Fatalf("%s: gather not recognised as a fold", name)
			}
			want := scalarRun(k, g)
			for _, f := range []float64{0, 1.0 / 3, 2} {
				pullFraction = f
				got, err := Run(context.Background(), k, g, RunOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got.States, want.States) || !slices.Equal(got.Supersteps, want.Supersteps) {
					t.Errorf("%s on %s, pull fraction %g: differs from the scalar engine", name, spec, f)
				}
			}
		}
	}
	for _, name := range []string{"wcc", "bfs", "sssp"} {
		g, _ := graph.Load("line:n=10", graph.ReadOptions{})
		if f := recogniseFold(bindSample(t, name, g).Checked.Gather); f != nil {
			t.Errorf("%s: gather recognised as a fold %+v", name, f)
		}
	}
}

// TestGatherFoldMatchesClosures checks Gather's fold (a recognised
// gather applied without the closures) against the gather's compiled
// closures, bit for bit, on random fields and on the f32 values where
// rounding and signs differ (-0, infinities, NaN, subnormals).
func TestGatherFoldMatchesClosures(t *testing.T) {
	g, err := graph.Load("line:n=10", graph.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	special := []uint64{0, 1 << 31, 0x7f800000, 0xff800000, 0x7fc00000, 1, 0x00800000, 0x3f800000, 0xbf800000, 0x7f7fffff}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range []string{"pr", "foldadd", "foldmin", "foldmax", "foldmin40"} {
		k := bindSample(t, name, g)
		f := k.fold
		if f == nil {
			t.Fatalf("%s: no fold", name)
		}
		nf, nm := len(k.Checked.VertexT), len(k.Checked.MessageT)
		c, ref := k.NewCtx(), k.NewCtx()
		for i := range 20000 {
			state, msg := make([]uint64, nf), make([]uint64, nm)
			for j := range state {
				state[j] = rng.Uint64() & k.Checked.VertexT[j].Mask()
			}
			for j := range msg {
				msg[j] = rng.Uint64() & k.Checked.MessageT[j].Mask()
			}
			if f.float && i < len(special)*len(special) {
				state[f.field], msg[f.msg] = special[i/len(special)], special[i%len(special)]
			}
			before, want := slices.Clone(state), slices.Clone(state)
			ref.Msg, ref.State = msg, want
			k.gather.run(ref, want, nil, nil)
			c.Msg = msg
			k.Gather(c, state)
			if !slices.Equal(state, want) {
				t.Fatalf("%s: state %#x, message %#x: the fold gives %#x, the closures %#x", name, before, msg, state, want)
			}
		}
	}
}
