package tomldoc

import (
	"errors"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
	"github.com/pelletier/go-toml/v2"
)

// FuzzParse checks Parse against go-toml: on any input both accept it
// with the same values, or both refuse it, and Parse stays within the
// time budget of one input and never panics. Its errors are located.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"a = 1\n[t]\nb.c = 'x'\n[[arr]]\nd = [1, {e = 2}]\n",
		"[a.b.c]\n[a]\n[a.b.d]\n",
		"x = {a.b = 1, a.c = 2}\n",
		"s = \"\"\"\n\\u00e9\\\n  z\"\"\"\nl = '''x'''\n",
		"d = 1979-05-27T07:32:00Z\nt = 07:32:00.5\n",
		"a = inf\nb = -0o17\nc = 0b1\nd = 1e1_0\n",
		"\"a b\" = 1\n'c.d' = {}\n",
		"[[a.b]]\n[a]\n[[a.b]]\n",
		"a = [[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]\n",
		strings.Repeat("k.", 200) + "k = 1\n",
	} {
		f.Add([]byte(s))
	}
	lim := Limits{MaxBytes: 1 << 20, MaxDepth: 1 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		var d *Document
		var err error
		testenv.WithinBudget(t, len(data), func() { d, err = Parse("f.toml", data, lim) })
		if err != nil {
			var l ErrorList
			if !errors.As(err, &l) || len(l) != 1 || l[0].File != "f.toml" || l[0].Msg == "" {
				t.Fatalf("error %v is not one located error", err)
			}
		}
		if len(data) > 1<<14 {
			return // go-toml's decoder is quadratic in the number of keys
		}
		var want map[string]any
		terr := toml.Unmarshal(data, &want)
		switch {
		case err != nil && terr == nil:
			t.Fatalf("Parse refuses what go-toml reads: %v", err)
		case err == nil && terr != nil:
			t.Fatalf("Parse reads what go-toml refuses: %v", terr)
		case err == nil && !sameValue(Generic(d.Root), want):
			t.Fatalf("values differ:\n%#v\n%#v", Generic(d.Root), want)
		}
	})
}
