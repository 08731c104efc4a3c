package kernel

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParse checks that no spec text makes the loader panic or hang, and
// that every accepted spec binds and runs its programs without panicking.
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
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.toml", data)
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
	})
}
