package tomldoc

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/pelletier/go-toml/v2"
)

// sameValue compares a Generic value with what go-toml decodes, taking
// NaN as equal to itself and any date as equal to any date.
func sameValue(mine, theirs any) bool {
	switch m := mine.(type) {
	case Datetime:
		switch theirs.(type) {
		case toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
			return true
		}
		return fmt.Sprintf("%T", theirs) == "time.Time"
	case float64:
		t, ok := theirs.(float64)
		return ok && (m == t || math.IsNaN(m) && math.IsNaN(t))
	case []any:
		t, ok := theirs.([]any)
		if !ok || len(t) != len(m) {
			return false
		}
		for i := range m {
			if !sameValue(m[i], t[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		t, ok := theirs.(map[string]any)
		if !ok || len(t) != len(m) {
			return false
		}
		for k, v := range m {
			if !sameValue(v, t[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(mine, theirs)
}

// TestValidDocuments reads documents that use every rule of TOML's keys
// and tables, and checks that the tree says what go-toml says.
func TestValidDocuments(t *testing.T) {
	docs := []string{
		"a = 1\nb = 'x'\nc = \"y\\n\"\nd = true\ne = 1.5\nf = 0x10_0\n",
		"i1 = 0xDEAD_beef\ni2 = 0o755\ni3 = 0b1101\ni4 = +99\ni5 = -9_223_372_036_854_775_808\n",
		"f1 = inf\nf2 = -inf\nf3 = nan\nf4 = 6.626e-34\nf5 = 1_000.5\nf6 = -0.0\n",
		"d1 = 1979-05-27\nd2 = 07:32:00\nd3 = 1979-05-27T07:32:00.999\nd4 = 1979-05-27 07:32:00Z\nd5 = 1979-05-27T00:32:00-07:00\n",
		"[a.b.c]\nx = 1\n[a]\ny = 2\n",
		"[fruit]\napple.color = 'red'\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true\n",
		"[[fruit]]\nname = 'apple'\n[fruit.physical]\ncolor = 'red'\n[[fruit.variety]]\nname = 'red delicious'\n[[fruit.variety]]\nname = 'granny'\n[[fruit]]\nname = 'banana'\n[[fruit.variety]]\nname = 'plantain'\n",
		"a = [1, [2, 3], {x = 4, y.z = 5}, []]\nb = {}\nc = {d = {e = [1]}}\n",
		"\"quoted.key\" = 1\n'lit' = 2\na.\"b.c\".d = 3\n\"\" = 4\n",
		"s = \"\"\"\nline one\nline two\\\n  continued\"\"\"\nl = '''\n raw \\n'''\n",
		"points = [ { x = 1, y = 2 }, { x = 7, y = 8 } ]\n[[points2]]\nx = 1\n",
		"a.b = 1\n[a.c]\nd = 2\n",
		"# comment\r\nk = 1 # trailing\r\n[t] # header comment\r\nv = 2\r\n",
	}
	for i, src := range docs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			d, err := Parse("t.toml", []byte(src), DefaultLimits)
			if err != nil {
				t.Fatalf("Parse: %v\n%s", err, src)
			}
			var want map[string]any
			if err := toml.Unmarshal([]byte(src), &want); err != nil {
				t.Fatalf("go-toml: %v", err)
			}
			if got := Generic(d.Root); !sameValue(got, want) {
				t.Errorf("got  %#v\nwant %#v", got, want)
			}
		})
	}
}

// TestInvalidDocuments checks that every broken rule of keys and tables
// is an error at the right line, with a message that says what clashed.
func TestInvalidDocuments(t *testing.T) {
	tests := []struct {
		src  string
		line int
		want string
	}{
		{"a = 1\na = 2\n", 2, "a: is defined twice (first at line 1)"},
		{"[a]\nb = 1\n[a]\n", 3, "table [a] is defined twice (first at line 1)"},
		{"a.b = 1\n[a]\n", 2, "a: is a table made by dotted keys (line 1)"},
		{"[a.b]\nc = 1\n[a]\nb.d = 2\n", 4, "a.b: is a table defined at line 1"},
		{"a = {b = 1}\na.c = 2\n", 2, "a: is an inline table (line 1) and cannot be extended"},
		{"a = {b = 1}\n[a.c]\n", 2, "a: is an inline table"},
		{"a = [1]\n[[a]]\n", 2, "a: already has a value (line 1), not an array of tables"},
		{"[[a]]\n[a]\n", 2, "a: is an array of tables (line 1): write [[a]]"},
		{"[a]\n[[a]]\n", 2, "a: is a table defined at line 1"},
		{"a = 1\na.b = 2\n", 2, "a: already has a value (line 1)"},
		{"a = {b = 1, b = 2}\n", 1, "a.b: is defined twice"},
		{"a = 99999999999999999999\n", 1, "a: integer 99999999999999999999 does not fit in 64 bits"},
		{"a = 1979-02-30\n", 1, `a: "1979-02-30" is not a valid date or time`},
		{"a = 1979-05-27 7:32:00\n", 1, `a: "1979-05-27 7:32:00" is not a valid date or time`},
		{"a = 7:32:00\n", 1, "invalid TOML"},
		{"a = 1\nb = \n", 2, "invalid TOML"},
		{"x = \"unterminated\n", 1, "invalid TOML"},
		{"[[a]]\nb = 1\n[[a]]\nb = 1\nb = 2\n", 5, "a[1].b: is defined twice (first at line 4)"},
		{"\xEF\xBB\xBFa = 1\n", 1, "byte-order mark"},
	}
	for _, tc := range tests {
		_, err := Parse("t.toml", []byte(tc.src), DefaultLimits)
		l, ok := err.(ErrorList)
		if !ok || len(l) != 1 {
			t.Errorf("%q: error %v, want one located error", tc.src, err)
			continue
		}
		if l[0].Line != tc.line || !strings.Contains(l[0].Error(), tc.want) || !strings.HasPrefix(l[0].Error(), "t.toml:") {
			t.Errorf("%q: got %q (line %d), want line %d and %q", tc.src, l[0], l[0].Line, tc.line, tc.want)
		}
		if _, err := Parse("t.toml", []byte(tc.src), DefaultLimits); err == nil {
			t.Errorf("%q: accepted on the second try", tc.src)
		}
		var m map[string]any
		if err := toml.Unmarshal([]byte(tc.src), &m); err == nil {
			t.Errorf("%q: go-toml accepts it", tc.src)
		}
	}
}

func TestLimits(t *testing.T) {
	lim := Limits{MaxBytes: 100, MaxDepth: 4}
	for _, tc := range []struct{ src, want string }{
		{strings.Repeat("#", 101), "the file has 101 bytes; at most 100 are read"},
		{"a.b.c.d.e = 1\n", "nested more than 4 levels deep"},
		{"a = [[[[[1]]]]]\n", "nested more than 4 levels deep"},
		{"[a.b.c]\n[[a.b.c.d.e]]\n", "nested more than 4 levels deep"},
	} {
		_, err := Parse("t.toml", []byte(tc.src), lim)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.src, err, tc.want)
		}
	}
	if _, err := Parse("t.toml", []byte("a.b.c.d = [1]\n"), Limits{MaxBytes: 100, MaxDepth: 5}); err != nil {
		t.Errorf("within the limits: %v", err)
	}
}

func TestPositions(t *testing.T) {
	src := "name = \"x\"\n[code]\napply = '''\nsend = 1\n'''\ninit = \"a = 1\"\n[[memory]]\nkind = 'hbm'\nlist = [\n  [\"a\", 1],\n  [\"b\", 2],\n]\n"
	d, err := Parse("t.toml", []byte(src), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n              *Node
		line, col      int
		vline, vcol    int
		cline, ccol    int
		path, contents string
	}{
		{d.Root.Lookup("code", "apply"), 3, 1, 3, 9, 4, 1, "code.apply", "send = 1\n"},
		{d.Root.Lookup("code", "init"), 6, 1, 6, 8, 6, 9, "code.init", "a = 1"},
		{d.Root.Get("memory").Elem(0).Get("kind"), 8, 1, 8, 8, 8, 9, "memory[0].kind", "hbm"},
		{d.Root.Get("memory").Elem(0).Get("list").Elem(1), 11, 4, 11, 4, 0, 0, "memory[0].list[1]", ""},
	} {
		n := tc.n
		if n == nil {
			t.Fatalf("%s: not found", tc.path)
		}
		if n.Pos.Line != tc.line || n.Pos.Col != tc.col || n.ValuePos.Line != tc.vline || n.ValuePos.Col != tc.vcol ||
			n.ContentPos.Line != tc.cline || n.ContentPos.Col != tc.ccol || n.Path() != tc.path || n.Str != tc.contents {
			t.Errorf("%s: pos %+v value %+v content %+v path %q str %q", tc.path, n.Pos, n.ValuePos, n.ContentPos, n.Path(), n.Str)
		}
	}
	if got := d.Root.Get("memory").Elem(0).Pos.Line; got != 7 {
		t.Errorf("[[memory]] element at line %d, want 7", got)
	}
	if d.LineStart(7) != strings.Index(src, "[[memory]]") {
		t.Errorf("LineStart(7) = %d", d.LineStart(7))
	}
}

// TestWorkIsLinear reads inputs of pathological shapes at two sizes and
// checks that the bytes allocated grow in proportion to the input (the
// board parser this layer replaced was cubic in the length of a dotted
// key). Allocations are deterministic, so this is no timing test.
func TestWorkIsLinear(t *testing.T) {
	lim := Limits{MaxBytes: 1 << 24, MaxDepth: 1 << 20}
	shapes := map[string]func(n int) string{
		"dotted key": func(n int) string { return strings.Repeat("a.", n) + "a = 1\n" },
		"table key":  func(n int) string { return "[" + strings.Repeat("a.", n) + "a]\n" },
		"many keys": func(n int) string {
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "k%d = %d\n", i, i)
			}
			return b.String()
		},
		"many tables": func(n int) string {
			var b strings.Builder
			for i := range n {
				fmt.Fprintf(&b, "[t%d]\nx = 1\n", i)
			}
			return b.String()
		},
		"many array tables": func(n int) string { return strings.Repeat("[[cell]]\nkind = 'notes'\ntext = 'x'\n", n) },
		"wide inline table": func(n int) string {
			var b strings.Builder
			b.WriteString("a = {")
			for i := range n {
				fmt.Fprintf(&b, "k%d = 1, ", i)
			}
			return b.String() + "z = 1}\n"
		},
		"nested arrays": func(n int) string {
			return "a = " + strings.Repeat("[", min(n, 9000)) + strings.Repeat("]", min(n, 9000)) + "\n"
		},
	}
	for name, gen := range shapes {
		t.Run(name, func(t *testing.T) {
			perByte := func(n int) float64 {
				src := []byte(gen(n))
				var err error
				perByte := testenv.AllocatedPerByte(len(src), func() { _, err = Parse("t.toml", src, lim) })
				if err != nil {
					t.Fatal(err)
				}
				return perByte
			}
			small, large := perByte(1000), perByte(8000)
			t.Logf("bytes allocated per input byte: %.1f at 1000, %.1f at 8000", small, large)
			if large > 2*small+16 || large > 1000 {
				t.Errorf("bytes allocated per input byte: %.1f at 1000, %.1f at 8000: not linear", small, large)
			}
		})
	}
}
