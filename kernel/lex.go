package kernel

import (
	"fmt"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/tomldoc"
)

// Pos is a position in a kernel file, 1-based. It is printed as
// file:line:col so that editors can jump to it.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.Line == 0 {
		return p.File
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is a problem in a kernel spec, located at a position of its file:
// the errors of the TOML layer (board files and notebooks have the same),
// "file:line:col: key: message", or of a program, "file:line:col:
// message".
type Error = tomldoc.Error

// ErrorList collects the errors of one spec so that a user sees all of them
// at once, in file order.
type ErrorList = tomldoc.ErrorList

// errorAt returns an error at a position.
func errorAt(p Pos, msg string) *Error {
	return &Error{File: p.File, Line: p.Line, Col: p.Col, Msg: msg}
}

type tokKind int

const (
	tEOF tokKind = iota
	tNewline
	tIdent
	tInt
	tFloat
	tOp
)

type token struct {
	kind tokKind
	text string
	pos  Pos
}

func (t token) String() string {
	switch t.kind {
	case tEOF:
		return "end of program"
	case tNewline:
		return "end of line"
	}
	return fmt.Sprintf("%q", t.text)
}

// source maps offsets of a program text to file positions. The program text
// starts at line, col of the file; later lines start at column 1.
type source struct {
	file      string
	line, col int
}

func (s source) at(line, col int) Pos {
	if line == 0 {
		return Pos{File: s.file, Line: s.line, Col: s.col + col + 1}
	}
	return Pos{File: s.file, Line: s.line + line, Col: col + 1}
}

var ops2 = []string{"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"}

// lex splits a program into tokens. It never fails: an unknown character
// becomes an operator token that the parser then rejects with its position.
func lex(text string, src source) []token {
	var toks []token
	line, col := 0, 0
	i := 0
	pos := func() Pos { return src.at(line, col) }
	for i < len(text) && len(toks) <= MaxProgramTokens {
		c := text[i]
		switch {
		case c == '\n':
			toks = append(toks, token{tNewline, "\n", pos()})
			i++
			line++
			col = 0
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			col++
			continue
		case c == '#':
			for i < len(text) && text[i] != '\n' {
				i++
				col++
			}
			continue
		case isLetter(c):
			j := i
			for j < len(text) && (isLetter(text[j]) || isDigit(text[j])) {
				j++
			}
			toks = append(toks, token{tIdent, text[i:j], pos()})
			col += j - i
			i = j
			continue
		case isDigit(c) || (c == '.' && i+1 < len(text) && isDigit(text[i+1])):
			j, kind := scanNumber(text, i)
			toks = append(toks, token{kind, text[i:j], pos()})
			col += j - i
			i = j
			continue
		}
		n := 1
		for _, op := range ops2 {
			if strings.HasPrefix(text[i:], op) {
				n = 2
				break
			}
		}
		if n == 1 && c >= 0x80 {
			// Keep a multi-byte character whole in the message.
			for n < 4 && i+n < len(text) && text[i+n]&0xC0 == 0x80 {
				n++
			}
		}
		toks = append(toks, token{tOp, text[i : i+n], pos()})
		i += n
		col += n
	}
	toks = append(toks, token{tNewline, "\n", pos()}, token{tEOF, "", pos()})
	return toks
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// scanNumber scans an integer (decimal, 0x hex, 0b binary, '_' separators)
// or a float literal (with '.' or an exponent).
func scanNumber(s string, i int) (int, tokKind) {
	j := i
	if strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X") || strings.HasPrefix(s[i:], "0b") || strings.HasPrefix(s[i:], "0B") {
		j += 2
		for j < len(s) && (isDigit(s[j]) || isLetter(s[j])) {
			j++
		}
		return j, tInt
	}
	kind := tInt
	for j < len(s) && (isDigit(s[j]) || s[j] == '_') {
		j++
	}
	if j < len(s) && s[j] == '.' {
		kind = tFloat
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		k := j + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			kind = tFloat
			j = k
			for j < len(s) && isDigit(s[j]) {
				j++
			}
		}
	}
	// Swallow trailing letters so that "12abc" is one bad literal, not two tokens.
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	return j, kind
}
