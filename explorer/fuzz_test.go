package explorer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/samples"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// FuzzParse checks that any input either fails with a ParseError or reads
// back exactly (see checkParse). Large inputs are TestParseLargeInputs':
// as seeds they kept the fuzzer minimising them most of its time.
func FuzzParse(f *testing.F) {
	for _, name := range samples.NotebookNames() {
		_, data, err := samples.Notebook(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(handWritten))
	f.Add([]byte("version = 1\n[[cell]]\nkind = \"notes\"\ntext = \"\"\"\na\n\"\"\"\n"))
	f.Fuzz(checkParse)
}

// TestParseLargeInputs: many cells and a long sweep grid parse within the
// readers' budget and read back exactly.
func TestParseLargeInputs(t *testing.T) {
	for name, data := range map[string]string{
		"2000 cells":           "version = 1\n" + strings.Repeat("[[cell]]\nkind = \"notes\"\n", 2000),
		"grid of 20000 values": "version = 1\n[[cell]]\nkind = \"sweep\"\ngrid = \"fpgas=1,dataset=" + strings.Repeat("a,", 20000) + "\"\n",
	} {
		t.Run(name, func(t *testing.T) { checkParse(t, []byte(data)) })
	}
}

// checkParse checks that data either fails with a ParseError or reads
// back exactly: Bytes gives the input again, and the canonical form of
// every cell parses to the same cell.
func checkParse(t *testing.T, data []byte) {
	var nb *Notebook
	var err error
	testenv.WithinBudget(t, len(data), func() { nb, err = Parse("fuzz.gravf.toml", data) })
	if err != nil {
		if _, ok := err.(*ParseError); !ok {
			t.Fatalf("error of type %T: %v", err, err)
		}
		return
	}
	want := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	if got := nb.Bytes(); !bytes.Equal(got, want) {
		t.Fatalf("round trip changed the bytes:\n%q\n%q", got, want)
	}
	for i, c := range nb.Cells {
		enc := encodeCell(c.In)
		back, err := parseCell("canon", i+1, segment{text: enc, line: 1})
		if err != nil {
			t.Fatalf("canonical cell does not parse: %v\n%s", err, enc)
		}
		if encodeCell(back) != enc {
			t.Fatalf("canonical cell changed:\n%s\n%s", enc, encodeCell(back))
		}
	}
}
