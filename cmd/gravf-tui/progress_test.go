package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgressInALog: progress written to a log (not a terminal) is one
// plain line every few seconds, without carriage returns.
func TestProgressInALog(t *testing.T) {
	var b bytes.Buffer
	p := newProgress(&b)
	if p.tty {
		t.Fatal("a buffer is a terminal")
	}
	p.start = time.Now().Add(-10 * time.Second)
	p.line("simulating: superstep 3")
	p.line("simulating: superstep 4") // within logEvery: not printed
	p.done()
	out := b.String()
	if strings.Contains(out, "\r") || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "simulating: superstep 3 (") {
		t.Errorf("the log reads %q", out)
	}
}
