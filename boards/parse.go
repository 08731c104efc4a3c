package boards

import (
	"github.com/gravf-tui/gravf-tui/internal/tomldoc"
)

// Error is one problem with a board file, located so that the user can fix
// it: "my.toml:12:1: memory[0].word_bits: must be a positive multiple of
// 8, got 0". Key is the dotted key with array indices.
type Error = tomldoc.Error

// ErrorList is every problem of one board file, in file order, so that a
// user fixes them in one pass.
type ErrorList = tomldoc.ErrorList

// limits bound what a board file may be: a real one is a few KB.
var limits = tomldoc.Limits{MaxBytes: 1 << 20, MaxDepth: 16}

// Parse reads and checks board file content; file names it in errors.
// Decoding is strict: unknown keys and values of the wrong type are
// errors, and every value is checked against its range and the others
// (sustained <= peak bandwidth, PEs that fit the part, a direct network
// with a link to every other FPGA...). On failure the error is an
// ErrorList holding every problem, in file order; only a TOML syntax
// error stops at the first. The work is linear in the size of the file.
func Parse(file string, data []byte) (*Board, error) {
	doc, err := tomldoc.Parse(file, data, limits)
	if err != nil {
		return nil, err
	}
	b := &Board{}
	c, errs := doc.Decode(doc.Root, b, tomldoc.DecodeOptions{})
	validate(c, b)
	if err := tomldoc.Merge(errs, c); err != nil {
		return nil, err
	}
	b.File = file
	b.Doc = trimDoc(b.Doc)
	return b, nil
}

// Validate checks a board's values, for boards built or changed in code
// (a TUI cell, a sweep over clock rates). The errors carry b.File and the
// key but no line.
func (b *Board) Validate() error {
	c := tomldoc.NewChecker(b.File, b)
	validate(c, b)
	return c.Errors().Err()
}
