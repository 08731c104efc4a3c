package explorer

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/samples"
)

func TestSamplesRoundTrip(t *testing.T) {
	for _, name := range samples.NotebookNames() {
		t.Run(name, func(t *testing.T) {
			file, data, err := samples.Notebook(name)
			if err != nil {
				t.Fatal(err)
			}
			nb, err := Parse(file, data)
			if err != nil {
				t.Fatal(err)
			}
			if got := nb.Bytes(); !bytes.Equal(got, data) {
				t.Fatalf("load then save changed the bytes:\n%s", got)
			}
			// Canonical text: every cell re-encoded must read back equal.
			for i, c := range nb.Cells {
				if enc := encodeCell(c.In); strings.TrimRight(c.raw, "\n") != strings.TrimRight(enc, "\n") {
					t.Errorf("cell %d is not in canonical form:\n%s\nwant\n%s", i+1, c.raw, enc)
				}
			}
			p := filepath.Join(t.TempDir(), file)
			if err := nb.Save(p); err != nil {
				t.Fatal(err)
			}
			saved, _ := os.ReadFile(p)
			if !bytes.Equal(saved, data) {
				t.Fatal("saved file differs from the input")
			}
		})
	}
}

const handWritten = `# my notebook
version = 1
title = "hand written"

[[cell]]   
kind = "platform"   # the board
board = "u250"
fpgas = 2
set = { clock_mhz = 250.0 }

# a comment between cells
[[cell]]
kind = "kernel"
kernel = "bfs"
[cell.params]
root = "3"

[[cell]]
kind = "notes"
text = """
multi-line "text" with \\ and
a second line"""
`

func TestEditKeepsUntouchedText(t *testing.T) {
	nb, err := Parse("hand.gravf.toml", []byte(handWritten))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(nb.Bytes()); got != handWritten {
		t.Fatalf("round trip changed the text:\n%s", got)
	}
	k := nb.Cells[1].In.(*Kernel)
	if k.Params["root"] != "3" {
		t.Fatalf("params = %v", k.Params)
	}
	if n := nb.Cells[2].In.(*Notes).Text; n != "multi-line \"text\" with \\ and\na second line" {
		t.Fatalf("notes = %q", n)
	}
	if err := nb.Edit(0, func(in Input) error { in.(*Platform).FPGAs = 3; return nil }); err != nil {
		t.Fatal(err)
	}
	if !nb.Dirty() {
		t.Fatal("edit did not mark the notebook dirty")
	}
	out := string(nb.Bytes())
	for _, keep := range []string{"# my notebook", "# a comment between cells", "[cell.params]"} {
		if !strings.Contains(out, keep) {
			t.Errorf("untouched text %q lost:\n%s", keep, out)
		}
	}
	if strings.Contains(out, "# the board") {
		t.Error("the edited cell kept its old text")
	}
	back, err := Parse("x", []byte(out))
	if err != nil {
		t.Fatalf("edited notebook does not parse: %v\n%s", err, out)
	}
	p := back.Cells[0].In.(*Platform)
	if p.FPGAs != 3 || p.Board != "u250" || p.Set["clock_mhz"] != 250 {
		t.Fatalf("edited platform read back as %+v", p)
	}
	if err := nb.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := string(nb.Bytes()); got != handWritten {
		t.Fatalf("undo did not restore the text:\n%s", got)
	}
}

func TestEditRejectsInvalid(t *testing.T) {
	nb := Default()
	before := string(nb.Bytes())
	err := nb.Edit(1, func(in Input) error { in.(*Platform).FPGAs = -1; return nil })
	if err == nil || !strings.Contains(err.Error(), "fpgas") {
		t.Fatalf("err = %v", err)
	}
	if string(nb.Bytes()) != before || nb.Dirty() {
		t.Fatal("a rejected edit changed the notebook")
	}
}

func TestInsertDeleteMoveUndo(t *testing.T) {
	nb := Default()
	n := len(nb.Cells)
	if err := nb.Insert(1, KindNotes); err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells) != n+1 || nb.Cells[1].In.Kind() != KindNotes {
		t.Fatal("insert")
	}
	if err := nb.Move(1, 1); err != nil {
		t.Fatal(err)
	}
	if nb.Cells[2].In.Kind() != KindNotes {
		t.Fatal("move")
	}
	if err := nb.Delete(2); err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells) != n {
		t.Fatal("delete")
	}
	for range 3 {
		if err := nb.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if len(nb.Cells) != n || !bytes.Equal(nb.Bytes(), Default().Bytes()) {
		t.Fatalf("three undos did not restore the notebook:\n%s", nb.Bytes())
	}
	if _, ok := nb.CanUndo(); ok {
		t.Fatal("undo stack not empty")
	}
	if err := nb.Move(0, -1); err == nil {
		t.Fatal("moved the first cell up")
	}
}

func TestParseErrors(t *testing.T) {
	head := "version = 1\ntitle = \"t\"\n\n"
	tests := []struct {
		name, text string
		line       int
		cell       int
		want       string
	}{
		{"bad toml", head + "[[cell]]\nkind = \"platform\"\nboard = \n", 6, 0, ""},
		{"no version", "title = \"x\"\n", 1, 0, "missing version = 1"},
		{"unknown kind", head + "[[cell]]\nkind = \"plaform\"\n", 5, 1, "unknown cell kind"},
		{"no kind", head + "[[cell]]\nboard = \"ac510\"\n", 4, 1, "no kind"},
		{"key of another kind", head + "[[cell]]\nkind = \"platform\"\nboard = \"ac510\"\nkernel = \"wcc\"\n", 7, 1, `kernel: unknown key (known keys of a platform cell: arch, board,`},
		{"negative fpgas", head + "[[cell]]\nkind = \"model\"\n\n[[cell]]\nkind = \"platform\"\nfpgas = -2\n", 9, 2, "fpgas must be"},
		{"bad grid", head + "[[cell]]\nkind = \"sweep\"\ngrid = \"fpgas=0..3\"\n", 6, 1, "positive integers"},
		{"bad override", head + "[[cell]]\nkind = \"platform\"\nset = { clock = 3.0 }\n", 6, 1, "unknown board parameter"},
		{"wrong type", head + "[[cell]]\nkind = \"platform\"\nfpgas = \"four\"\n", 6, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("nb.gravf.toml", []byte(tc.text))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a ParseError", err)
			}
			if pe.File != "nb.gravf.toml" || pe.Line != tc.line || pe.Cell != tc.cell || !strings.Contains(pe.Msg, tc.want) {
				t.Fatalf("got %q (line %d, cell %d), want line %d, cell %d, %q", err, pe.Line, pe.Cell, tc.line, tc.cell, tc.want)
			}
		})
	}
}

func TestSaveIsAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "nb.gravf.toml")
	nb := Default()
	if err := nb.Save(p); err != nil {
		t.Fatal(err)
	}
	// A save into a folder that does not exist fails and leaves nothing.
	if err := nb.Save(filepath.Join(dir, "missing", "nb.gravf.toml")); err == nil {
		t.Fatal("save into a missing folder succeeded")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Fatalf("left %d files behind", len(ents))
	}
	back, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Bytes(), nb.Bytes()) || back.Path != p || nb.Path != p {
		t.Fatal("saved notebook differs")
	}
}

// TestParseErrorsAtTheKey: an error in a cell names the line of the key at
// fault, wherever the cell writes it (a sub-table, an inline table, a
// dotted key), not the line of its [[cell]] header.
func TestParseErrorsAtTheKey(t *testing.T) {
	head := "version = 1\ntitle = \"t\"\n\n[[cell]]\nkind = \"platform\"\n"
	tests := []struct {
		name, text string
		line       int
		want       string
	}{
		{"override in a sub-table", head + "fpgas = 2\n\n[cell.set]\nclock_mhz = 200.0\nclock = 3.0\n", 10, `unknown board parameter "clock"`},
		{"override out of range", head + "set = { clock_mhz = 200.0,\n  \"memory.word_bits\" = 12.5 }\n", 7, "memory.word_bits must be a whole number"},
		{"wrong type in a sub-table", head + "[cell.set]\nclock_mhz = \"fast\"\n", 7, "set.clock_mhz: must be a number, got a string"},
		{"dotted key", head + "set.clock_mhz = -1.0\n", 6, "clock_mhz must be a non-negative number"},
		{"width of a kernel", "version = 1\n[[cell]]\nkind = \"kernel\"\n[cell.widths]\n\"vertex.label\" = \"16\"\n\"state.x\" = \"3\"\n", 6, `"state.x" is not layout.field`},
		{"unknown key after others", head + "board = \"u250\"\n# a comment\nfpags = 3\n", 8, "fpags: unknown key"},
		{"second cell", head + "\n[[cell]]\nkind = \"model\"\nlatency = 3\n", 9, "latency: must be true or false, got an integer"},
		{"key twice", head + "pes = 2\npes = 3\n", 7, "pes: is defined twice (first at line 6)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("nb.gravf.toml", []byte(tc.text))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a ParseError", err)
			}
			if pe.Line != tc.line || !strings.Contains(pe.Msg, tc.want) || !strings.HasPrefix(err.Error(), fmt.Sprintf("nb.gravf.toml:%d", tc.line)) {
				t.Errorf("got %q (line %d), want line %d and %q", err, pe.Line, tc.line, tc.want)
			}
		})
	}
}

// TestVersions: a notebook of a newer format says which format it is and
// what to do, rather than only what this program reads.
func TestVersions(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"version = 3\ntitle = \"t\"\n", []string{"nb.gravf.toml:1:1:", "version = 3", "format 3", "newer gravf-tui", "reads format 1"}},
		{"title = \"t\"\n", []string{"missing version = 1"}},
		{"version = 0\n", []string{"version = 0", "formats start at 1"}},
		{"version = \"1\"\n", []string{"version: must be an integer, got a string"}},
	} {
		_, err := Parse("nb.gravf.toml", []byte(tc.text))
		for _, w := range tc.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("%q: %v, want %q", tc.text, err, w)
			}
		}
	}
}

// TestCellHeaderInString: a line "[[cell]]" inside a multi-line string is
// text, not a cell, and a line of it that starts with '#' is not a comment
// that the next cell takes.
func TestCellHeaderInString(t *testing.T) {
	text := "version = 1\ntitle = \"t\"\n\n[[cell]]\nkind = \"notes\"\ntext = \"\"\"\n[[cell]]\n# not a comment\"\"\"\n[[cell]]\nkind = \"model\"\n"
	nb, err := Parse("nb.gravf.toml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells) != 2 || nb.Cells[0].In.(*Notes).Text != "[[cell]]\n# not a comment" || nb.Cells[1].Line != 9 {
		t.Fatalf("cells %d, first %q", len(nb.Cells), nb.Cells[0].raw)
	}
	if !bytes.Equal(nb.Bytes(), []byte(text)) {
		t.Errorf("round trip:\n%s", nb.Bytes())
	}
}
