package membudget

import (
	"testing"
	"time"
)

// FuzzParseSize: any text gives a size or an error, quickly, and a size
// formats without panicking.
func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"3GiB", "512 MB", "1e9", "", "x", "-1", "1e400", "  7 kib "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		start := time.Now()
		n, err := ParseSize(s)
		if err == nil {
			_ = FormatSize(n)
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("%d bytes took %v", len(s), d)
		}
	})
}
