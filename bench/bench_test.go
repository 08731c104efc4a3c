package bench

import (
	"context"
	"os"
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

// TestReadHWM reads a child's own peak from its /proc status file, and
// this process's, which has allocated more than a few megabytes by now.
func TestReadHWM(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/status"
	os.WriteFile(p, []byte("Name:\tgravf-tui\nVmPeak:\t  999 kB\nVmHWM:\t   84612 kB\nVmRSS:\t 1000 kB\n"), 0o644)
	if kb, ok := readHWM(p); !ok || kb != 84612 {
		t.Fatalf("VmHWM %d %v, want 84612", kb, ok)
	}
	os.WriteFile(p, []byte("Name:\tzombie\nState:\tZ\n"), 0o644)
	if _, ok := readHWM(p); ok {
		t.Fatal("a status without VmHWM read as a peak")
	}
	if _, ok := readHWM(dir + "/missing"); ok {
		t.Fatal("a missing file read as a peak")
	}
	if _, err := os.Stat("/proc/self/status"); err == nil {
		if kb, ok := readHWM("/proc/self/status"); !ok || kb < 1000 {
			t.Fatalf("own VmHWM %d kB %v", kb, ok)
		}
	}
}
