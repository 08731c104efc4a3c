package kernel

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// FuzzParse checks that no spec text makes the loader panic or take more
// than the budget of one input, and that every accepted spec binds and
// runs its programs without panicking.
func FuzzParse(f *testing.F) {
	f.Add([]byte(wccSpec))
	_ = filepath.WalkDir(filepath.Join("..", "samples", "kernels"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "kernel.toml" {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	for _, prog := range []string{"a = 1 +", "let x = (", "a = min(1)", "a = 1 ? none : 0", "a = ~u3(7) << 70", "a = 1.5e", "a = 0x", "a = f32(none)", "send = 1.0"} {
		f.Add([]byte(strings.Replace(wccSpec, "label  = id", prog, 1)))
	}
	f.Add([]byte(strings.Repeat("a.", 3000) + "a = 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s *Spec
		var err error
		testenv.WithinBudget(t, len(data), func() { s, err = Parse("fuzz.toml", data) })
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		k, err := s.Bind(Env{Vertices: 5})
		if err != nil {
			return
		}
		c := k.NewCtx()
		nf := len(k.Checked.VertexT)
		st := make([]uint64, nf)
		upd := make([]uint64, len(k.Checked.UpdateT))
		msg := make([]uint64, len(k.Checked.MessageT))
		c.ID, c.Degree = 1, 2
		k.Init(c, st)
		k.Apply(c, st, upd)
		c.Update, c.Edge, c.Sender, c.Neighbor = upd, make([]uint64, len(k.Checked.EdgeT)), 1, 2
		k.Scatter(c, msg)
		c.Msg = msg
		k.Gather(c, st)
		for i, t0 := range k.Checked.VertexT {
			if !t0.Float && st[i] > t0.Mask() {
				t.Fatalf("field %d holds %#x, wider than %s", i, st[i], t0)
			}
		}
		// A send found to read only the superstep says the same as apply
		// on any state.
		if sends, ok := k.SendsBySuperstep(); ok {
			for s := range 3 {
				c.Superstep = uint64(s)
				if got, want := sends(s), k.Apply(c, st, upd); got != want {
					t.Fatalf("superstep %d: SendsBySuperstep says %v, apply %v", s, got, want)
				}
			}
		}
	})
}

// FuzzExpression feeds the expression parser arbitrary text in the apply
// program of a valid spec, seeded with deep nesting of every kind (the
// shapes that overflowed the stack before the parser had limits). It must
// answer within the budget of one input with an accepted spec or errors
// located in the program, and an accepted spec must bind and run.
func FuzzExpression(f *testing.F) {
	for _, e := range []string{
		"state.label + 1", "min(state.label, 3) ? 1 : 0", "-(~u3(7) << 2)", "f32(1) * 2.5", "(((1)))",
		strings.Repeat("-", 5000) + "1", strings.Repeat("(", 3000) + "1" + strings.Repeat(")", 3000),
		"1" + strings.Repeat("+1", 3000), strings.Repeat("1 ? 1 : ", 500) + "1", strings.Repeat("max(1, ", 500) + "1" + strings.Repeat(")", 500),
		strings.Repeat("!", 255) + "1", strings.Repeat("(", 127) + "1" + strings.Repeat(")", 127),
	} {
		f.Add(e)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if strings.Contains(expr, "'''") {
			return // would end the TOML string early; FuzzParse covers files
		}
		src := hostileSpec(expr)
		var s *Spec
		var err error
		testenv.WithinBudget(t, len(src), func() { s, err = Parse("fuzz.toml", []byte(src)) })
		if err != nil {
			l, ok := err.(ErrorList)
			if !ok || len(l) == 0 {
				t.Fatalf("error %T is not a list: %v", err, err)
			}
			for _, e := range l {
				if e.File != "fuzz.toml" || e.Line < 1 || e.Msg == "" {
					t.Fatalf("unlocated error %+v", e)
				}
			}
			return
		}
		k, err := s.Bind(Env{Vertices: 5})
		if err != nil {
			return
		}
		c := k.NewCtx()
		st := make([]uint64, len(k.Checked.VertexT))
		upd := make([]uint64, len(k.Checked.UpdateT))
		c.ID, c.Degree = 1, 2
		k.Init(c, st)
		k.Apply(c, st, upd)
	})
}
