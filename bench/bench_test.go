package bench

import (
	"context"
	"strings"
	"testing"
)

func TestMedian(t *testing.T) {
	tests := []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{5, 1, 3}, 3}, {[]float64{4, 1, 3, 2}, 2.5}}
	for _, tc := range tests {
		if got := median(tc.xs); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.xs, got, tc.want)
		}
	}
}

// TestAlternate wants the sides timed in turn, ours then the peer's, so
// that a change of load hits both.
func TestAlternate(t *testing.T) {
	var order []string
	side := func(name string, v float64) side {
		return func(context.Context) (float64, error) { order = append(order, name); return v, nil }
	}
	out, err := alternate(context.Background(), 3, side("a", 1), side("b", 2))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, ""); got != "ababab" {
		t.Errorf("order %q, want ababab", got)
	}
	if len(out) != 2 || len(out[0]) != 3 || out[1][2] != 2 {
		t.Errorf("samples %v", out)
	}
}

func TestRunUnknownGroup(t *testing.T) {
	_, err := Run(context.Background(), Options{Only: []string{"nope"}})
	if err == nil || !strings.Contains(err.Error(), `unknown group "nope"`) {
		t.Fatalf("err = %v", err)
	}
}

func TestBaselineParses(t *testing.T) {
	if _, err := Baseline(); err != nil {
		t.Fatal(err)
	}
}
