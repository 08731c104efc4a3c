package graph

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoadContext: a load reports its stages and stops when cancelled,
// and the graph it makes is the one Load makes.
func TestLoadContext(t *testing.T) {
	const spec = "rmat:scale=17,ef=8"
	var stages []string
	g, err := LoadContext(context.Background(), spec, ReadOptions{}, func(p LoadProgress) {
		if len(stages) == 0 || stages[len(stages)-1] != p.Stage {
			stages = append(stages, p.Stage)
		}
		if p.Total > 0 && p.Done > p.Total {
			t.Errorf("%s: done %d of %d", p.Stage, p.Done, p.Total)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(stages, []string{"drawing edges", "building the adjacency lists"}) {
		t.Errorf("stages %q", stages)
	}
	want, err := Load(spec, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(g.Adj, want.Adj) || !slices.Equal(g.Offsets, want.Offsets) {
		t.Error("LoadContext made another graph than Load")
	}

	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err = LoadContext(ctx, "rmat:scale=20,ef=16", ReadOptions{}, func(LoadProgress) {
		calls++
		cancel()
	})
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("cancelled load: %v after %d reports", err, calls)
	}

	// A file, read with progress in bytes.
	path := filepath.Join(t.TempDir(), "g.txt")
	var text strings.Builder
	for i := range 200000 {
		fmt.Fprintf(&text, "%d %d\n", i, (i*7+1)%200000)
	}
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	var last LoadProgress
	if _, err := LoadContext(context.Background(), path, ReadOptions{}, func(p LoadProgress) { last = p }); err != nil {
		t.Fatal(err)
	}
	if last.Stage != "reading g.txt" || last.Total != int64(text.Len()) {
		t.Errorf("the last report of the file read: %+v, want reading g.txt of %d bytes", last, text.Len())
	}
}
