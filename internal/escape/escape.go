// Package escape owns how gravf-tui writes a value into the text of
// another language: a shell command, a Tcl (or XDC) script, a Makefile, a
// yosys script, a YAML file, or a comment in any of them. Every value an
// exported project's scripts contain that does not come from the
// generator itself goes through exactly one function here, so that a
// hostile board file or output path can never become a command.
//
// Shell, Tcl and YAML can quote anything. Make and yosys cannot quote
// reliably (a Makefile word cannot hold a space; yosys has no escapes), so
// Make and Yosys accept only plain words and return an error for anything
// else: the caller refuses to write the script.
package escape

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// plain is a word no language here treats specially: letters, digits and
// _ . / + - , not starting with - (an option) or a dot-only path.
var plain = regexp.MustCompile(`^[A-Za-z0-9_/+][A-Za-z0-9_./+-]*$`)

// Plain reports whether s may be written bare into every language here.
func Plain(s string) bool { return plain.MatchString(s) }

// Shell quotes s as one word of a POSIX shell command: bare when plain,
// else in single quotes (inside which nothing is special), each ' written
// as '\”.
func Shell(s string) string {
	if Plain(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Tcl quotes s as one word of a Tcl command (Vivado scripts, XDC): bare
// when plain, else in double quotes with every character that Tcl
// substitutes inside them ($ [ ] \ ") and the braces backslash-escaped,
// and control characters written as \n, \t, \r or \u00XX, so the word
// stays on its line. Characters outside ASCII cannot be Tcl syntax and are
// kept.
func Tcl(s string) string {
	if Plain(s) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(`$[]\"{};`, c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// yamlPlain is a string YAML reads back as itself when written bare:
// words of letters, digits and _ . / + , - separated by single spaces.
var yamlPlain = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_./+,-]*( [A-Za-z0-9_./+,-]+)*$`)

// YAML writes s as a YAML scalar: bare when it reads back as the same
// string (not a word YAML takes for a boolean or null), else double-quoted
// (JSON's string syntax, which YAML 1.2 includes).
func YAML(s string) string {
	switch strings.ToLower(s) {
	case "null", "true", "false", "yes", "no", "on", "off", "y", "n":
	default:
		if yamlPlain.MatchString(s) {
			return s
		}
	}
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// Make returns s as a word of a Makefile that is also a word of the shell
// commands of its recipes. Only plain words qualify: make has no quoting
// for spaces, and a $ or # would be expanded or start a comment.
func Make(s string) (string, error) {
	if !Plain(s) {
		return "", fmt.Errorf("%q cannot be written into a Makefile: only letters, digits and _ . / + - are allowed", s)
	}
	return s, nil
}

// Yosys returns s as an argument of a yosys command. Only plain words
// qualify: yosys splits at spaces and semicolons and has no escapes.
func Yosys(s string) (string, error) {
	if !Plain(s) {
		return "", fmt.Errorf("%q cannot be written into a yosys script: only letters, digits and _ . / + - are allowed", s)
	}
	return s, nil
}

// Comment renders s for the inside of a one-line comment in any of these
// languages (after #): unchanged when it is printable ASCII without a
// backslash, else Go-quoted in ASCII, so no newline ends the comment and no
// trailing backslash continues it.
func Comment(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '\\' {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}
