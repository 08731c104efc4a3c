package graph

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestReadWorkIsLinear reads graph files of hostile shapes at two sizes
// (long lines, many comments, one vertex of huge degree, ids far apart,
// every edge repeated) in every format and checks that the bytes allocated
// per input byte do not grow with the input: a reader whose work is not
// linear in its input shows here, without timing anything. A file may be
// refused (a shape no format allows); its error must still cost no more.
func TestReadWorkIsLinear(t *testing.T) {
	lines := func(n int, line func(i int) string) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(line(i))
		}
		return b.String()
	}
	shapes := []struct {
		name   string
		format Format
		gen    func(n int) string
	}{
		{"edge list", FormatEdgeList, func(n int) string { return lines(n, func(i int) string { return fmt.Sprintf("%d %d\n", i, i+1) }) }},
		{"edge list, weighted", FormatEdgeList, func(n int) string {
			return lines(n, func(i int) string { return fmt.Sprintf("%d %d %d\n", i, (i*7)%n, i%100+1) })
		}},
		{"one long comment", FormatEdgeList, func(n int) string { return "# " + strings.Repeat("x", 8*n) + "\n0 1\n" }},
		{"many comments", FormatEdgeList, func(n int) string { return strings.Repeat("# c\n", 2*n) + "0 1\n" }},
		{"long blank line", FormatEdgeList, func(n int) string { return strings.Repeat(" \t", 4*n) + "\n0 1\n" }},
		{"one long line of ids", FormatEdgeList, func(n int) string { return lines(n, func(i int) string { return fmt.Sprintf("%d ", i) }) + "\n" }},
		{"star", FormatEdgeList, func(n int) string { return lines(n, func(i int) string { return fmt.Sprintf("0 %d\n", i+1) }) }},
		{"ids far apart", FormatEdgeList, func(n int) string {
			return lines(n, func(i int) string { return fmt.Sprintf("%d %d\n", uint64(i)*1_000_003_001, uint64(i+1)*999_999_937) })
		}},
		{"one edge repeated", FormatEdgeList, func(n int) string { return strings.Repeat("0 1\n", n) }},
		{"matrix market", FormatMTX, func(n int) string {
			return fmt.Sprintf("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", n, n, n) +
				lines(n, func(i int) string { return fmt.Sprintf("%d %d 1.5\n", i+1, (i*13)%n+1) })
		}},
		{"METIS star", FormatMETIS, func(n int) string {
			return fmt.Sprintf("%d %d\n", n+1, n) + lines(n, func(i int) string { return fmt.Sprintf("%d ", i+2) }) + "\n" + strings.Repeat("1\n", n)
		}},
		{"DIMACS", FormatDIMACS, func(n int) string {
			return fmt.Sprintf("p sp %d %d\n", n, n) + lines(n, func(i int) string { return fmt.Sprintf("a %d %d %d\n", i+1, (i*13)%n+1, i%50+1) })
		}},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			perByte := func(n int) float64 {
				src := []byte(sh.gen(n))
				return testenv.AllocatedPerByte(len(src), func() {
					_, _ = Read(bytes.NewReader(src), "in", ReadOptions{Format: sh.format, Weighted: true})
				})
			}
			small, large := perByte(20_000), perByte(160_000)
			t.Logf("bytes allocated per input byte: %.1f at 20,000 lines, %.1f at 160,000", small, large)
			if large > 2*small+16 || large > 2000 {
				t.Errorf("bytes allocated per input byte: %.1f at 20,000 lines, %.1f at 160,000: not linear", small, large)
			}
		})
	}
}
