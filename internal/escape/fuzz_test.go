package escape

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// FuzzEscape checks what every quoting must keep for any input: one line,
// no unescaped character the language substitutes, and a quoted form that
// decodes back (JSON for YAML, the single-quote rule for the shell). The
// round trips through the real interpreters are in escape_test.go.
func FuzzEscape(f *testing.F) {
	for _, s := range hostile {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start := time.Now()
		defer func() {
			if d := time.Since(start); d > time.Second {
				t.Fatalf("%d bytes took %v", len(s), d)
			}
		}()
		tcl := Tcl(s)
		if strings.ContainsAny(tcl, "\n\r") {
			t.Fatalf("Tcl(%q) spans lines", s)
		}
		if !Plain(s) {
			body := tcl[1 : len(tcl)-1]
			for i := 0; i < len(body); i++ {
				if body[i] == '\\' {
					i++
					continue
				}
				if strings.IndexByte("$[]\"{};", body[i]) >= 0 {
					t.Fatalf("Tcl(%q) = %s leaves %q unescaped", s, tcl, body[i])
				}
			}
		}
		sh := Shell(s)
		if !Plain(s) {
			inner := strings.ReplaceAll(sh[1:len(sh)-1], `'\''`, "")
			if strings.Contains(inner, "'") || strings.ReplaceAll(sh[1:len(sh)-1], `'\''`, "'") != s {
				t.Fatalf("Shell(%q) = %s", s, sh)
			}
		}
		y := YAML(s)
		if strings.ContainsAny(y, "\n\r") {
			t.Fatalf("YAML(%q) spans lines", s)
		}
		if strings.HasPrefix(y, `"`) {
			var back string
			if err := json.Unmarshal([]byte(y), &back); err != nil {
				t.Fatalf("YAML(%q) = %s: %v", s, y, err)
			}
		} else if y != s {
			t.Fatalf("YAML(%q) = %s", s, y)
		}
		c := Comment(s)
		if strings.ContainsAny(c, "\n\r") || strings.HasSuffix(c, `\`) {
			t.Fatalf("Comment(%q) = %q", s, c)
		}
	})
}
