package boards

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestCheckPart(t *testing.T) {
	for _, p := range []string{
		"xcku060-ffva1156-2-e", "xcvu9p-flgb2104-2-i", "xcu250-figd2104-2L-e", "xcu280-fsvh2892-2L-e",
		"xc7z020clg400-1", "xc7a35ticsg324-1L", "xczu9eg-ffvb1156-2-e", "xcvc1902-vsva2197-2MP-e-S",
		"xa7a100t-csg324-1I", "xq7z020-cl400-1Q", "xcau25p",
	} {
		if err := CheckPart(p); err != nil {
			t.Errorf("CheckPart(%q): %v", p, err)
		}
	}
	for _, p := range []string{
		"", "xcku060[exec touch pwned]", "xcku060\nexec touch pwned", "xcku060 -ffva1156", "xcku060;ls",
		"$(touch pwned)", "xcku060-", "xcku060--2", "-xcku060", "XCKU060-FFVA1156-2-E", "ep4ce22f17c6",
		"xcku060-ffva1156-2-e\n", "xcku060'", `xcku060"`, "xcku060{}", "x", "xc", strings.Repeat("xc7a", 20),
	} {
		if err := CheckPart(p); err == nil {
			t.Errorf("CheckPart(%q) accepted it", p)
		}
	}
}

// TestHostilePartIsRejected is issue 16 item 1: a part that would run a
// command in the exported Vivado or yosys script fails to load, located
// at its line.
func TestHostilePartIsRejected(t *testing.T) {
	src, err := Source("ac510")
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`xcku060[exec touch pwned]`, `xcku060\nsynth -top x; ! touch pwned`, `$(touch pwned)`} {
		data := regexp.MustCompile(`(?m)^part .*$`).ReplaceAllString(string(src), `part = "`+strings.ReplaceAll(part, `\`, `\\`)+`"`)
		data = strings.ReplaceAll(data, `\\n`, `\n`)
		_, err := Parse("evil.toml", []byte(data))
		if err == nil {
			t.Fatalf("part %q accepted", part)
		}
		line := lineOf(t, data, `^part =`)
		at, want := "evil.toml:"+strconv.Itoa(line)+":", "fpga.part: must be a Xilinx part name"
		if !strings.HasPrefix(err.Error(), at) || !strings.Contains(err.Error(), want) {
			t.Errorf("part %q: error %q, want %q ... %q", part, err, at, want)
		}
	}
}
