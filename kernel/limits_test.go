package kernel

import (
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// hostileSpec puts an expression into the apply program of a valid spec.
func hostileSpec(expr string) string {
	return strings.Replace(wccSpec, "update.label = state.label", "update.label = "+expr, 1)
}

// TestHostileExpressions parses kernel specs made to overflow the stack of
// a recursive parser (1 MB of unary minus or of nested parentheses ended
// in "fatal error: stack overflow", which no recover can catch and which
// killed a TUI that opened a notebook naming such a kernel) or to make
// every later walk of the tree slow. Each must end in a located error in
// the apply program, and the memory allocated must stay within a bound
// per input byte.
func TestHostileExpressions(t *testing.T) {
	const mb = 1 << 20
	tests := []struct {
		name, expr, want string
	}{
		{"unary minus", strings.Repeat("-", mb-2000) + "1", "the program has more than 80000 tokens"},
		{"deep unary minus", strings.Repeat("-", 1000) + "1", "nested more than 256 levels deep"},
		{"unary not", strings.Repeat("!", 300) + "1", "nested more than 256 levels deep"},
		{"parentheses", strings.Repeat("(", mb/2-2000) + "1" + strings.Repeat(")", mb/2-2000), "more than 80000 tokens"},
		{"deep parentheses", strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000), "nested more than 256 levels deep"},
		{"left-deep chain", "1" + strings.Repeat("+1", mb/2-2000), "more than 80000 tokens"},
		{"long left-deep chain", "1" + strings.Repeat("+1", 1000), "nested more than 256 levels deep"},
		{"right-deep chain", strings.Repeat("1 ? 1 : ", 1000) + "1", "nested more than 256 levels deep"},
		{"calls", strings.Repeat("min(1, ", 1000) + "1" + strings.Repeat(")", 1000), "nested more than 256 levels deep"},
		{"wide tree", wide(14), "more than 10000 operators and operands"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := hostileSpec(tc.expr)
			var err error
			perByte := testenv.AllocatedPerByte(len(src), func() { _, err = Parse("k.toml", []byte(src)) })
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "k.toml:17:") {
				t.Fatalf("error %.200v, want k.toml:17:...: %s", err, tc.want)
			}
			if perByte > 500 {
				t.Errorf("%.0f bytes allocated per input byte", perByte)
			}
		})
	}
	// The limits leave room for any real expression.
	if _, err := Parse("k.toml", []byte(hostileSpec(strings.Repeat("(", 100)+"state.label"+strings.Repeat(")", 100)))); err != nil {
		t.Errorf("100 parentheses: %v", err)
	}
	if _, err := Parse("k.toml", []byte(hostileSpec("state.label"+strings.Repeat(" + 0", 200)))); err != nil {
		t.Errorf("a sum of 200 terms: %v", err)
	}
}

// wide writes a balanced sum of 2^depth ones: shallow, but large.
func wide(depth int) string {
	if depth == 0 {
		return "1"
	}
	s := wide(depth - 1)
	return "(" + s + "+" + s + ")"
}

// TestFileSizeLimit: a kernel.toml over 1 MiB is refused, not parsed.
func TestFileSizeLimit(t *testing.T) {
	src := hostileSpec("1") + "# " + strings.Repeat("x", 1<<20) + "\n"
	_, err := Parse("k.toml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "at most 1048576 are read") {
		t.Fatalf("error %v", err)
	}
}
