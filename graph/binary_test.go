package graph

import (
	"strings"
	"testing"
)

// zeros is an endless stream of NUL bytes, as /dev/zero reads.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestBinaryInputIsRefused is issue 16 item 9: a device such as /dev/zero
// (an endless stream without a line end) is reported as binary data, not
// as "empty", and never read forever, whatever the format.
func TestBinaryInputIsRefused(t *testing.T) {
	for _, f := range []Format{FormatAuto, FormatEdgeList, FormatMTX, FormatMETIS, FormatDIMACS} {
		_, err := Read(zeros{}, "zero", ReadOptions{Format: f})
		if err == nil || !strings.Contains(err.Error(), "binary data") || strings.Contains(err.Error(), "empty") {
			t.Errorf("format %q: err = %v", f, err)
		}
	}
	// A NUL byte later in a text file is found at its line.
	_, err := Read(strings.NewReader("0 1\n1 2\n2 \x003\n"), "g.txt", ReadOptions{Format: FormatEdgeList})
	if err == nil || !strings.Contains(err.Error(), "g.txt:3: binary data") {
		t.Errorf("err = %v", err)
	}
}
