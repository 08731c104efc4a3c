package kernel

import (
	"strings"
	"testing"
)

// sendsSpec is a kernel whose apply program is APPLY.
const sendsSpec = `name = "t"
[params]
rounds = { type = "uint", default = 4 }
[layout]
vertex = [["a", 32]]
update = [["x", 32]]
global = [["n", 32, "sum"]]
[code]
init = "a = 0"
gather = "a = state.a"
apply = '''
APPLY
update.x = state.a
global.n = 1
'''
`

// TestSendsBySuperstep checks which sends are known to read the
// superstep alone, through let bindings and parameters, and that the
// answer in each superstep is the program's.
func TestSendsBySuperstep(t *testing.T) {
	tests := []struct {
		apply string
		want  []bool // sends in supersteps 0, 1, ... (nil: not by superstep)
	}{
		{apply: "send = superstep < rounds", want: []bool{true, true, true, true, false}},
		{apply: "send = 1", want: []bool{true, true}},
		{apply: "let l = superstep * 2\nlet m = l + l\nsend = m < 8", want: []bool{true, true, false}},
		{apply: "send = state.a > 0"},
		{apply: "let l = state.a\nsend = superstep < l"},
		{apply: "send = degree > 1"},
		{apply: "send = id < 3"},
		{apply: "send = global.n > 1"},
		{apply: "let l = id\nlet l2 = superstep\nsend = l2 < 3 && l2 + 0 < 4", want: []bool{true, true, true, false}},
		{apply: "let l = id\nlet l2 = superstep + l\nsend = l2 < 3"},
	}
	for _, tc := range tests {
		t.Run(strings.ReplaceAll(tc.apply, "\n", "; "), func(t *testing.T) {
			s, err := Parse("k.toml", []byte(strings.Replace(sendsSpec, "APPLY", tc.apply, 1)))
			if err != nil {
				t.Fatal(err)
			}
			k, err := s.Bind(Env{Vertices: 10})
			if err != nil {
				t.Fatal(err)
			}
			sends, ok := k.SendsBySuperstep()
			if ok != (tc.want != nil) {
				t.Fatalf("by superstep %v, want %v", ok, tc.want != nil)
			}
			for s, want := range tc.want {
				if got := sends(s); got != want {
					t.Errorf("superstep %d: sends %v, want %v", s, got, want)
				}
			}
		})
	}
}
