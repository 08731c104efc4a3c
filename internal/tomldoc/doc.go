// Package tomldoc reads the TOML files of gravf-tui (board files, kernel
// specs, notebooks) strictly and with positions, in one place.
//
// Parse builds a Document: every table, key and value of the file with the
// line and column it came from, after TOML's rules on keys (a key is
// defined once, a table header names a table once, dotted keys and inline
// tables cannot be extended from outside). Decode fills a Go value from a
// node of the document; the Go type is the schema. A key the type has no
// field for is an error with the keys it does have ("unknown key (known
// keys in fpga: bram36, dsp, ...)"), as is a value of the wrong kind
// ("must be an integer, got a float"); a type with an UnmarshalText
// method reads itself from a string and says what it accepts. Every
// problem of a file is reported
// at once, in file order, each as an Error "file:line:col: key: message".
//
// Struct tags carry what a file format says about a key, so that the key
// is spelled once, in its field's tag:
//
//	toml:"clock_mhz"    the key
//	doc:"f_clk in MHz"  what it is, for messages ("missing (f_clk in MHz)")
//	check:"..."         comma-separated rules, see below
//
// The rules of a check tag are
//
//	required      the key must be present
//	[lo,hi]       a range; a parenthesis excludes its end: (0,2000]
//	bits          a positive multiple of 8 (a bus width)
//	id            a lower-case identifier of letters, digits, '-' and '_'
//	nonempty      a string with something other than space in it
//	default=V     the value when the key is absent
//
// Decode applies the defaults and checks the other rules; the Checker it
// returns holds those errors and gives the format's own code (checks that
// combine fields) located errors through pointers to the decoded fields,
// so that this code never spells a key either. A Checker made by
// NewChecker checks a value built in code, with keys but no lines.
//
// # Bounded work
//
// Reading is linear in the size of the input: keys are looked up in maps,
// never by scanning, and paths are built only for messages. go-toml's own
// decoder is not used, because its duplicate-key tracker scans every key
// seen so far, which is quadratic in the number of keys; only its parser
// (go-toml/v2/unstable) is. Limits bound the file size and the nesting of
// tables and arrays, so that a hostile file ends in a located error.
package tomldoc
