package tomldoc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

// BenchmarkParse reads files of n distinct keys, and the same with
// go-toml's decoder as the peer: Parse's time per key stays flat, the
// peer's grows with n (its duplicate-key tracker scans every key seen).
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{1000, 8000} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "k%d = %d\n", i, i)
		}
		src := []byte(sb.String())
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for range b.N {
				if _, err := Parse("b.toml", src, Limits{MaxBytes: 1 << 24}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("keys=%d/go-toml", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for range b.N {
				var m map[string]any
				if err := toml.Unmarshal(src, &m); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
