package graph

import (
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		in   string
		want string // canonical form, or the file path for files
		file bool
	}{
		{"uniform:v=65536,d=32,seed=1", "uniform:v=65536,d=32,seed=1,maxw=0,directed=false", false},
		{"uniform:d=2.5,v=10", "uniform:v=10,d=2.5,seed=1,maxw=0,directed=false", false},
		{"rmat:scale=16,ef=16,seed=1", "rmat:scale=16,ef=16,a=0.57,b=0.19,c=0.19,seed=1,scramble=true,maxw=0,directed=false", false},
		{"rmat:scale=16", "rmat:scale=16,ef=16,a=0.57,b=0.19,c=0.19,seed=1,scramble=true,maxw=0,directed=false", false},
		{"RMAT: scale = 8 , a=.45,b=.15,c=.15, scramble=0,", "rmat:scale=8,ef=16,a=0.45,b=0.15,c=0.15,seed=1,scramble=false,maxw=0,directed=false", false},
		{"layered:w=64,d=256", "layered:w=64,d=256,extra=0,seed=1,maxw=0,directed=false", false},
		{"layered:w=64,d=256,extra=2,seed=9", "layered:w=64,d=256,extra=2,seed=9,maxw=0,directed=false", false},
		{"line:n=1000", "line:n=1000,seed=1,maxw=0,directed=false", false},
		{"line:n=10,maxw=100,directed=true", "line:n=10,seed=1,maxw=100,directed=true", false},
		{"grid:rows=100,cols=100,seed=1", "grid:rows=100,cols=100,drop=0.2,diag=0.05,seed=1,maxw=0,directed=false", false},
		{"grid:rows=2,cols=3,drop=0,diag=1e-3", "grid:rows=2,cols=3,drop=0,diag=0.001,seed=1,maxw=0,directed=false", false},
		{"grid:rows=2,cols=3,drop=-0", "grid:rows=2,cols=3,drop=0,diag=0.05,seed=1,maxw=0,directed=false", false},
		{"uniform:v=5,d=1,seed=18446744073709551615", "uniform:v=5,d=1,seed=18446744073709551615,maxw=0,directed=false", false},
		{"data/roadNet-CA.txt", "data/roadNet-CA.txt", true},
		{"  data/web.mtx  ", "data/web.mtx", true},
		{"file:line:3", "line:3", true},
		{"FILE:x.gr", "x.gr", true},
		{`C:\graphs\g.txt`, `C:\graphs\g.txt`, true},
		{"rmta:scale=3", "rmta:scale=3", true}, // unknown kind: a file (Load adds a hint)
		{"line", "line", true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			s, err := ParseSpec(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if s.IsFile() != tc.file {
				t.Fatalf("IsFile = %v, want %v (%+v)", s.IsFile(), tc.file, s)
			}
			got := s.String()
			if tc.file {
				got = s.File
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			again, err := ParseSpec(s.String())
			if err != nil || again != s {
				t.Errorf("round trip of %q: %+v, %v", s.String(), again, err)
			}
		})
	}
}

func TestSpecStringFile(t *testing.T) {
	for path, want := range map[string]string{
		"g.txt":      "g.txt",
		"line:3":     "file:line:3",
		"file:x":     "file:file:x",
		" lead":      "file: lead",
		"trail ":     "file:trail ",
		"Grid:rows=": "file:Grid:rows=",
	} {
		s := Spec{File: path}
		if got := s.String(); got != want {
			t.Errorf("Spec{File: %q}.String() = %q, want %q", path, got, want)
		}
		if p, err := ParseSpec(s.String()); err != nil || p != s {
			t.Errorf("round trip of %q: %+v, %v", path, p, err)
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	tests := []struct {
		in   string
		want []string // substrings of the error
	}{
		{"", []string{"empty graph spec"}},
		{"   ", []string{"empty graph spec"}},
		{"file:", []string{"without a path"}},
		{"rmat:sclae=16", []string{`rmat: unknown parameter "sclae" (valid: scale, ef, a, b, c, seed, scramble, maxw, directed)`}},
		{"uniform:v=10,d=2,x=1", []string{`unknown parameter "x"`, "valid: v, d, seed, maxw, directed"}},
		{"rmat:ef=4", []string{"rmat: missing parameter scale", "required: scale"}},
		{"uniform:v=10", []string{"missing parameter d", "required: v, d"}},
		{"layered:w=3", []string{"missing parameter d"}},
		{"grid:rows=3", []string{"missing parameter cols"}},
		{"line:", []string{"missing parameter n"}},
		{"line:n", []string{"parameter n has no value", "want n=an integer"}},
		{"line:n=", []string{"has no value"}},
		{"line:n=5,n=6", []string{"n given twice"}},
		{"line:n=five", []string{`bad value "five" for n: want an integer`}},
		{"line:n=0", []string{"line: n=0 out of range"}},
		{"line:n=99999999999999999999", []string{"bad value"}},
		{"line:n=5,seed=-1", []string{`bad value "-1" for seed`}},
		{"line:n=5,maxw=4294967296", []string{`bad value "4294967296" for maxw`}},
		{"line:n=5,directed=yes", []string{`bad value "yes" for directed: want true or false`}},
		{"uniform:v=10,d=NaN", []string{`bad value "NaN" for d: want a finite number`}},
		{"uniform:v=10,d=inf", []string{"want a finite number"}},
		{"uniform:v=10,d=-1", []string{"d=-1 out of range"}},
		{"uniform:v=0,d=1", []string{"v=0 out of range"}},
		{"uniform:v=4000000000,d=4", []string{"too large", "32-bit arc range"}},
		{"rmat:scale=0", []string{"scale=0 out of range", "1 <= scale <= 30"}},
		{"rmat:scale=31", []string{"scale=31 out of range"}},
		{"rmat:scale=30,ef=16", []string{"too large"}},
		{"rmat:scale=5,ef=0", []string{"ef=0 out of range"}},
		{"rmat:scale=5,a=0", []string{"a=0 out of range", "0 < a < 1"}},
		{"rmat:scale=5,c=-0.1", []string{"c=-0.1 out of range"}},
		{"rmat:scale=5,a=0.6,b=0.2,c=0.2", []string{"a+b+c = 1 out of range", "a+b+c < 1"}},
		{"layered:w=0,d=3", []string{"w=0 out of range"}},
		{"layered:w=3,d=3,extra=-1", []string{"extra=-1 out of range"}},
		{"layered:w=100000,d=100000", []string{"too large", "vertices exceed"}},
		{"grid:rows=3,cols=3,drop=1.5", []string{"drop=1.5 out of range", "0 <= drop <= 1"}},
		{"grid:rows=3,cols=3,diag=-1", []string{"diag=-1 out of range"}},
		{"grid:rows=100000,cols=100000", []string{"too large"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			s, err := ParseSpec(tc.in)
			if err == nil {
				t.Fatalf("accepted as %+v", s)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// FuzzParseSpec checks that ParseSpec never panics and that every accepted
// spec survives the trip through its canonical string.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{
		"uniform:v=65536,d=32,seed=1", "rmat:scale=16,ef=16,seed=1,a=.5,b=.2,c=.2,scramble=false",
		"layered:w=64,d=256,extra=3", "line:n=1000,maxw=9", "grid:rows=100,cols=100,seed=1,drop=0,diag=1",
		"file:x", "data/g.txt", " line:n=3 ", "line:n=3,,", "rmat:scale=3,sclae=4", "uniform:v=1,d=1e300",
		"grid:rows=1,cols=1,drop=-0", "FILE: x ", "Line:N=4,DIRECTED=T",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var s Spec
		var err error
		testenv.WithinBudget(t, len(in), func() { s, err = ParseSpec(in) })
		if err != nil {
			return
		}
		if s.IsFile() {
			if s.File == "" {
				t.Fatalf("%q: empty file path accepted", in)
			}
		} else if err := s.Gen.Validate(); err != nil {
			t.Fatalf("%q: accepted spec fails Validate: %v", in, err)
		}
		c := s.String()
		again, err := ParseSpec(c)
		if err != nil {
			t.Fatalf("%q: canonical %q does not parse: %v", in, c, err)
		}
		if again != s {
			t.Fatalf("%q: canonical %q parses to %+v, want %+v", in, c, again, s)
		}
		if again.String() != c {
			t.Fatalf("%q: canonical form not stable: %q then %q", in, c, again.String())
		}
	})
}
