package tomldoc

import (
	"fmt"
	"strings"
	"testing"
)

type component struct {
	Name  string  `toml:"name" check:"required,id" doc:"part id"`
	Width int     `toml:"width" check:"required,bits,[8,64]" doc:"bus width"`
	Rate  float64 `toml:"rate_mhz" check:"(0,1000]" doc:"clock"`
	Count uint32  `toml:"count" check:"[1,10],default=2" doc:"copies"`
	Note  string  `toml:"note" check:"nonempty" doc:"a note"`
}

type device struct {
	Title string            `toml:"title" check:"required" doc:"what it is"`
	Parts []component       `toml:"part"`
	Main  component         `toml:"main" check:"required" doc:"the main part"`
	Tags  map[string]int    `toml:"tags"`
	Extra any               `toml:"extra"`
	Opt   *struct{ X bool } `toml:"opt"`
	Flag  bool              `toml:"flag"`
	Small int8              `toml:"small"`
	Skip  string            `toml:"-"`
}

func decodeDevice(t *testing.T, src string) (*device, error) {
	t.Helper()
	d, err := Parse("dev.toml", []byte(src), DefaultLimits)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	var v device
	c, errs := d.Decode(d.Root, &v, DecodeOptions{})
	return &v, Merge(errs, c)
}

func TestDecode(t *testing.T) {
	v, err := decodeDevice(t, `title = "dev"
tags = {a = 1, "b c" = 2}
extra = [1, "x", {y = 2.5}]
flag = true
[main]
name = "m"
width = 16
[[part]]
name = "p0"
width = 32
rate_mhz = 250
note = "x"
[[part]]
name = "p1"
width = 8
count = 7
`)
	if err != nil {
		t.Fatal(err)
	}
	if v.Title != "dev" || v.Main.Width != 16 || len(v.Parts) != 2 || v.Parts[0].Rate != 250 || v.Parts[1].Count != 7 ||
		v.Parts[0].Count != 2 || v.Tags["b c"] != 2 || !v.Flag || v.Opt != nil {
		t.Errorf("decoded %+v", v)
	}
	if got := fmt.Sprint(v.Extra); got != "[1 x map[y:2.5]]" {
		t.Errorf("extra = %s", got)
	}
}

// TestDecodeErrors checks that every problem is found in one pass, in
// file order, at its key, and that a key with an error is not also
// reported missing or out of range.
func TestDecodeErrors(t *testing.T) {
	_, err := decodeDevice(t, `titel = "dev"
tags = {a = "one"}
flag = 1
small = 300
[main]
name = "Main"
width = 12
rate_mhz = 0
count = -1
note = "  "
[[part]]
width = "wide"
[[part]]
name = "p1"
width = 128
colour = 3
`)
	want := []string{
		"dev.toml:1: title: missing (what it is)",
		"dev.toml:1:1: titel: unknown key (known keys at the top level: extra, flag, main, opt, part, small, tags, title)",
		"dev.toml:2:9: tags.a: must be an integer, got a string",
		"dev.toml:3:1: flag: must be true or false, got an integer",
		"dev.toml:4:1: small: must be between -128 and 127, got 300",
		"dev.toml:6:1: main.name: must be a lower-case id of letters, digits, '-' and '_' starting with a letter, got \"Main\"",
		"dev.toml:7:1: main.width: must be a positive multiple of 8, got 12",
		"dev.toml:8:1: main.rate_mhz: must be positive (clock), got 0",
		"dev.toml:9:1: main.count: must not be negative, got -1",
		"dev.toml:10:1: main.note: must not be empty (a note)",
		"dev.toml:11: part[0].name: missing (part id)",
		"dev.toml:12:1: part[0].width: must be an integer, got a string",
		"dev.toml:15:1: part[1].width: must be at most 64 (bus width), got 128",
		"dev.toml:16:1: part[1].colour: unknown key (known keys in part: count, name, note, rate_mhz, width)",
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got\n%v\nwant\n%s", err, strings.Join(want, "\n"))
	}
}

func TestDecodeShapes(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"title = 'x'\nmain = 3\n", "dev.toml:2:1: main: must be a table, got an integer"},
		{"title = 'x'\n[main]\nname = 'm'\nwidth = 8\n[part]\n", "dev.toml:5:2: part: must be an array of tables, got a table (write [[part]] tables)"},
		{"title = 'x'\n[main]\nname = 'm'\nwidth = 8\n[[main]]\n", "is a table defined at line 2"},
		{"title = 'x'\npart = [1, 2]\n[main]\nname = 'm'\nwidth = 8\n", "dev.toml:2:9: part[0]: must be a table, got an integer\ndev.toml:2:12: part[1]: must be a table, got an integer"},
		{"title = 'x'\n[[main]]\n", "dev.toml:2:3: main: must be a table, got an array of tables"},
	} {
		d, err := Parse("dev.toml", []byte(tc.src), DefaultLimits)
		if err == nil {
			var v device
			c, errs := d.Decode(d.Root, &v, DecodeOptions{})
			err = Merge(errs, c)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n%v\nwant %q", tc.src, err, tc.want)
		}
	}
}

func TestDecodeOptions(t *testing.T) {
	d, err := Parse("nb.toml", []byte("[[cell]]\nkind = 'x'\nname = 'a'\nwidth = 8\nspeed = 1\n"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var p component
	_, errs := d.Decode(d.Root.Get("cell").Elem(0), &p, DecodeOptions{Ignore: []string{"kind"}, Where: "an x cell"})
	if len(errs) != 1 || errs[0].Error() != "nb.toml:5:1: cell[0].speed: unknown key (known keys of an x cell: count, kind, name, note, rate_mhz, width)" {
		t.Errorf("errors %v", errs)
	}
}

func TestCheckerInCode(t *testing.T) {
	v := &device{Title: "t", Main: component{Name: "m", Width: 8, Count: 11}, Parts: []component{{Name: "p", Width: 7}}}
	c := NewChecker("built", v)
	if c.Has(&v.Main.Rate) || !c.Has(&v.Main.Width) || !c.OK(&v.Main.Width) || c.Key(&v.Parts[0].Width) != "width" || c.Doc(&v.Main.Count) != "copies" {
		t.Error("Has, OK, Key or Doc")
	}
	c.Errorf(&v.Parts[0].Name, "clashes with %s", c.Key(&v.Main.Name))
	want := "built: part[0].width: must be a positive multiple of 8, got 7\n" +
		"built: main.count: must be at most 10 (copies), got 11\n" +
		"built: part[0].name: clashes with name"
	if err := c.Errors().Err(); err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
	if c.OK(&v.Parts[0].Width) {
		t.Error("a field with an error is OK")
	}
}

func TestTruncation(t *testing.T) {
	var b strings.Builder
	b.WriteString("title = 'x'\n[main]\nname = 'm'\nwidth = 8\n")
	for i := range 250 {
		fmt.Fprintf(&b, "k%d = 1\n", i)
	}
	_, err := decodeDevice(t, b.String())
	l, ok := err.(ErrorList)
	if !ok || len(l) != 101 || l[100].Msg != "and 150 more problems" {
		t.Fatalf("%d errors, last %v", len(l), l[len(l)-1])
	}
}

func TestBadTagsPanic(t *testing.T) {
	for _, v := range []any{
		&struct {
			A string `toml:"a" check:"[0,1]"`
		}{},
		&struct {
			A int `toml:"a" check:"default=x"`
		}{},
		&struct {
			A int `toml:"a" check:"often"`
		}{},
		&struct {
			A int `toml:"a"`
			B int `toml:"a"`
		}{},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%T: no panic", v)
				}
			}()
			NewChecker("x", v)
		}()
	}
}

// A board-like file: every problem, located, in one pass.
func ExampleDocument_Decode() {
	type memory struct {
		Name     string `toml:"name" check:"required,id" doc:"memory name"`
		WordBits int    `toml:"word_bits" check:"required,bits,[8,4096]" doc:"access word"`
	}
	type board struct {
		ClockMHz float64  `toml:"clock_mhz" check:"required,(0,2000]" doc:"f_clk"`
		Memory   []memory `toml:"memory"`
	}
	doc, err := Parse("my.toml", []byte("clock_mhz = 0\n[[memory]]\nname = 'hbm'\nword_bits = 12\nspeed = 3\n"), DefaultLimits)
	if err != nil {
		panic(err)
	}
	var b board
	c, errs := doc.Decode(doc.Root, &b, DecodeOptions{})
	if b.Memory[0].WordBits%8 != 0 {
		c.Errorf(&b.Memory[0].Name, "has a word of %d bits", b.Memory[0].WordBits)
	}
	fmt.Println(Merge(errs, c))
	// Output:
	// my.toml:1:1: clock_mhz: must be positive (f_clk), got 0
	// my.toml:3:1: memory[0].name: has a word of 12 bits
	// my.toml:4:1: memory[0].word_bits: must be a positive multiple of 8, got 12
	// my.toml:5:1: memory[0].speed: unknown key (known keys in memory: name, word_bits)
}

// colour reads itself from text, as the typed options of gravf-tui do.
type colour string

func (c *colour) UnmarshalText(b []byte) error {
	switch s := strings.ToLower(string(b)); s {
	case "red", "blue":
		*c = colour(s)
		return nil
	}
	return fmt.Errorf("unknown colour %q (want red or blue)", b)
}

func TestDecodeTextUnmarshaler(t *testing.T) {
	type paint struct {
		Colour colour   `toml:"colour"`
		List   []colour `toml:"list"`
	}
	d, err := Parse("p.toml", []byte("colour = \"RED\"\nlist = [\"blue\", \"green\", 3]\n"), DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	var p paint
	_, errs := d.Decode(d.Root, &p, DecodeOptions{})
	want := "p.toml:2:17: list[1]: unknown colour \"green\" (want red or blue)\np.toml:2:26: list[2]: must be a string, got an integer"
	if p.Colour != "red" || errs.Error() != want {
		t.Errorf("colour %q, errors\n%v\nwant\n%s", p.Colour, errs, want)
	}
}
