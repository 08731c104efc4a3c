package escape

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// hostile are values that would run a command, split a word or end a
// line if they were written unescaped.
var hostile = []string{
	"",
	"plain-word_1.2",
	"with space",
	"it's",
	`say "hi"`,
	"$(touch pwned)",
	"`touch pwned`",
	"${HOME}",
	"$$",
	"[exec touch pwned]",
	"xcku060[exec touch pwned]",
	"{unbalanced",
	"}",
	`back\slash`,
	`trailing\`,
	"semi;colon",
	"a\nexec touch pwned",
	"a\r\nb",
	"tab\there",
	"# not a comment",
	"-option",
	"a\x00b",
	"\x01\x1f\x7f",
	"ünïcödé 🎛",
	"%pattern%",
	"a\\\nb",
	strings.Repeat("x", 300),
}

// allBytes is every ASCII byte but NUL, which no argument can hold.
func allBytes() string {
	var b strings.Builder
	for c := 1; c < 128; c++ {
		b.WriteByte(byte(c))
	}
	return b.String()
}

// canary runs a script in dir and fails if it created the file "pwned".
func noCanary(t *testing.T, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Fatal("a quoted value ran a command (pwned exists)")
	}
}

func TestShellRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, s := range append(hostile, allBytes()) {
		if strings.IndexByte(s, 0) >= 0 {
			continue // no process argument holds NUL
		}
		cmd := exec.Command("sh", "-c", "printf '%s' "+Shell(s))
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("sh on %q: %v", s, err)
		}
		if string(out) != s {
			t.Errorf("Shell(%q) = %s reads back as %q", s, Shell(s), out)
		}
	}
	noCanary(t, dir)
}

func TestTclRoundTrip(t *testing.T) {
	tclsh := testenv.NeedTool(t, "tclsh")
	dir := t.TempDir()
	var script strings.Builder
	var want []string
	for _, s := range append(hostile, allBytes()) {
		if strings.IndexByte(s, 0) >= 0 {
			continue // Tcl strings hold NUL, but the file would not read back through puts portably
		}
		q := Tcl(s)
		if strings.ContainsAny(q, "\n\r") {
			t.Errorf("Tcl(%q) = %s spans lines", s, q)
		}
		// One command per line, as in the scripts: a word must not break
		// out of its command.
		script.WriteString("puts -nonewline [binary encode hex [encoding convertto utf-8 " + q + "]]; puts {}\n")
		want = append(want, s)
	}
	f := filepath.Join(dir, "t.tcl")
	os.WriteFile(f, []byte(script.String()), 0o644)
	cmd := exec.Command(tclsh, f)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tclsh: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("tclsh printed %d lines for %d values:\n%s", len(lines), len(want), out)
	}
	for i, s := range want {
		if got := decodeHex(t, lines[i]); got != s {
			t.Errorf("Tcl(%q) = %s reads back as %q", s, Tcl(s), got)
		}
	}
	noCanary(t, dir)
}

func decodeHex(t *testing.T, h string) string {
	t.Helper()
	b := make([]byte, len(h)/2)
	for i := range b {
		var v byte
		for _, c := range h[2*i : 2*i+2] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= byte(c - '0')
			case c >= 'a' && c <= 'f':
				v |= byte(c - 'a' + 10)
			default:
				t.Fatalf("bad hex %q", h)
			}
		}
		b[i] = v
	}
	return string(b)
}

func TestYAMLScalars(t *testing.T) {
	for _, s := range append(hostile, "null", "Yes", "GraVF-M wcc on 2 x ac510", "a: b", "a #b", " lead", "trail ", "1e3") {
		y := YAML(s)
		if strings.ContainsAny(y, "\n\r") {
			t.Errorf("YAML(%q) spans lines", s)
		}
		if strings.HasPrefix(y, `"`) {
			var got string
			if err := json.Unmarshal([]byte(y), &got); err != nil || (got != s && strings.ToValidUTF8(s, "\uFFFD") == s) {
				t.Errorf("YAML(%q) = %s: %v", s, y, err)
			}
			continue
		}
		// Bare: only words YAML reads as strings.
		if y != s || strings.Contains(y, ": ") || strings.Contains(y, " #") || !yamlPlain.MatchString(y) {
			t.Errorf("YAML(%q) = %s is bare but not plain", s, y)
		}
		switch strings.ToLower(y) {
		case "null", "true", "false", "yes", "no", "on", "off":
			t.Errorf("YAML(%q) left a keyword bare", s)
		}
	}
	if YAML("GraVF-M wcc on 2 x ac510") != "GraVF-M wcc on 2 x ac510" {
		t.Error("a plain description is quoted")
	}
}

func TestMakeAndYosysTakeOnlyPlainWords(t *testing.T) {
	for _, s := range []string{"rtl/wcc_pe.v", "xcu", "fpga0_top", "build/fpga1.bit", "a+b"} {
		if _, err := Make(s); err != nil {
			t.Errorf("Make(%q): %v", s, err)
		}
		if _, err := Yosys(s); err != nil {
			t.Errorf("Yosys(%q): %v", s, err)
		}
	}
	for _, s := range hostile {
		if Plain(s) {
			continue
		}
		if _, err := Make(s); err == nil {
			t.Errorf("Make(%q) accepted", s)
		}
		if _, err := Yosys(s); err == nil {
			t.Errorf("Yosys(%q) accepted", s)
		}
	}
}

func TestCommentStaysOnItsLine(t *testing.T) {
	for _, s := range append(hostile, allBytes()) {
		c := Comment(s)
		if strings.ContainsAny(c, "\n\r") || strings.HasSuffix(c, `\`) {
			t.Errorf("Comment(%q) = %q could end or continue the line", s, c)
		}
	}
}

// TestCommentsInRealInterpreters writes every hostile value as a comment
// line into a yosys script, a Makefile, a shell script and a Tcl script,
// runs each, and checks that the command after the comments runs and that
// nothing in a comment did.
func TestCommentsInRealInterpreters(t *testing.T) {
	var comments strings.Builder
	for _, s := range append(hostile, allBytes(), "x\n! touch pwned", "x\n$(shell touch pwned)", "x\nexec touch pwned") {
		comments.WriteString("# " + Comment(s) + "\n")
	}
	tools := []struct {
		tool, file, body string
		args             func(f string) []string
	}{
		{"sh", "s.sh", comments.String() + "echo ok > ok\n", func(f string) []string { return []string{f} }},
		{"tclsh", "s.tcl", comments.String() + "set f [open ok w]; puts $f ok; close $f\n", func(f string) []string { return []string{f} }},
		{"make", "Makefile", comments.String() + "all:\n\techo ok > ok\n", func(f string) []string { return []string{"-s", "-f", f} }},
		{"yosys", "s.ys", comments.String() + "tee -q -o ok log ok\n", func(f string) []string { return []string{"-q", "-s", f} }},
	}
	for _, tc := range tools {
		t.Run(tc.tool, func(t *testing.T) {
			bin := tc.tool
			if tc.tool == "tclsh" || tc.tool == "yosys" {
				bin = testenv.NeedTool(t, tc.tool)
			}
			dir := t.TempDir()
			f := filepath.Join(dir, tc.file)
			os.WriteFile(f, []byte(tc.body), 0o644)
			cmd := exec.Command(bin, tc.args(f)...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tc.tool, err, out)
			}
			if _, err := os.Stat(filepath.Join(dir, "ok")); err != nil {
				t.Fatalf("%s did not reach the command after the comments: %v", tc.tool, err)
			}
			noCanary(t, dir)
		})
	}
}
