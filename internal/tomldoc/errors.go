package tomldoc

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Error is one problem of a file, located so that a user can fix it:
// "my.toml:12:1: memory[0].word_bits: must be a positive multiple of 8,
// got 0".
type Error struct {
	// File is the file name as given to Parse.
	File string
	// Line and Col are 1-based; 0 when unknown (a value built in code, or
	// a missing key, which is reported on the line of its table with no
	// column).
	Line, Col int
	// Key is the dotted key with array indices ("memory[1].kind"); empty
	// for a problem of the file as a whole (a syntax error).
	Key string
	// Msg says what is wrong and what was found.
	Msg string
}

// Error formats the problem as "file:line:col: key: message", the form
// editors and terminals link to the file.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":" + strconv.Itoa(e.Col))
		}
	}
	if e.Key != "" {
		b.WriteString(": " + e.Key)
	}
	b.WriteString(": " + e.Msg)
	return b.String()
}

// ErrorList is every problem of one file, in file order, so that a user
// fixes them in one pass.
type ErrorList []*Error

// Error puts one problem on each line.
func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Sort orders the list by line and column, keeping the order of problems
// on the same spot.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Error) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
}

// Err returns the list as an error, or nil when it is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// maxErrors bounds the problems reported for one file: a file of a
// million bad keys gets a short list and a count, not a message as large
// as itself.
const maxErrors = 100

func (l *ErrorList) add(e *Error) {
	*l = append(*l, e)
}

// truncate keeps the first maxErrors problems (in file order) and says how
// many more there were.
func (l ErrorList) truncate() ErrorList {
	if len(l) <= maxErrors {
		return l
	}
	last := l[maxErrors-1]
	out := append(l[:maxErrors:maxErrors], &Error{File: last.File, Line: last.Line,
		Msg: fmt.Sprintf("and %d more problems", len(l)-maxErrors)})
	return out
}
