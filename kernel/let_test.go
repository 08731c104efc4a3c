package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// letSpec is a kernel whose apply program binds LET to a local and sends it.
const letSpec = `name = "t"
[layout]
vertex = [["a", 32]]
update = [["x", 32]]
[code]
init = "a = 0"
gather = "a = state.a"
apply = '''
send = 1
let l = LET
update.x = l
'''
`

// TestLetOfUntypedConditional checks the type a local takes from a
// conditional of constants: the widest arm's width, and an error (never a
// crash) where an arm is none, which has no width of its own.
func TestLetOfUntypedConditional(t *testing.T) {
	tests := []struct {
		let     string
		a, want uint64
		err     string
	}{
		{let: "state.a == 1 ? 7 : 300", a: 1, want: 7},
		{let: "state.a == 1 ? 7 : 300", a: 0, want: 300},
		{let: "state.a > 1 ? 1 : (state.a == 1 ? 70000 : 2)", a: 1, want: 70000},
		{let: "u8(state.a == 1 ? 7 : none)", a: 0, want: 0xFF},
		{let: "state.a == 1 ? 7 : none", err: "let l may be none, which needs a type"},
		{let: "state.a == 1 ? none : 7", err: "let l may be none, which needs a type"},
	}
	for _, tc := range tests {
		t.Run(tc.let, func(t *testing.T) {
			s, err := Parse("k.toml", []byte(strings.Replace(letSpec, "LET", tc.let, 1)))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), "k.toml:10:1: "+tc.err) {
					t.Fatalf("error %v, want k.toml:10:1: %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			k, err := s.Bind(Env{Vertices: 10})
			if err != nil {
				t.Fatal(err)
			}
			upd := make([]uint64, 1)
			k.Apply(k.NewCtx(), []uint64{tc.a}, upd)
			if upd[0] != tc.want {
				t.Fatalf("update.x = %d, want %d", upd[0], tc.want)
			}
		})
	}
}

// TestLoadNamedSpecFile checks that a spec file with another name than
// kernel.toml is the one loaded, not the kernel.toml beside it.
func TestLoadNamedSpecFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, spec string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("kernel.toml", strings.Replace(letSpec, "LET", "1", 1))
	variant := write("variant.toml", strings.Replace(strings.Replace(letSpec, "LET", "2", 1), `name = "t"`, `name = "variant"`, 1))
	s, err := Load(variant)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "variant" {
		t.Fatalf("loaded kernel %q, want the variant's", s.Name)
	}
	bad := write("bad.toml", strings.Replace(letSpec, "LET", "state.b", 1))
	if _, err := Load(bad); err == nil || !strings.Contains(err.Error(), bad+":10:") {
		t.Fatalf("error %v, want it located in %s", err, bad)
	}
}
