package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestCacheKeepsResults runs the commands that predict (model, sim, explore
// and a notebook's run) without the cache, with an empty one and with the
// one they filled: every output is the same (sim's but its wall time),
// --no-cache stores nothing, and the second run stores nothing new.
func TestCacheKeepsResults(t *testing.T) {
	wall := regexp.MustCompile(`"wall_seconds": [0-9.e+-]+`)
	for i, args := range [][]string{
		{"model", "--board", "ac510", "--kernel", "wcc", "--graph", "rmat:scale=10,ef=8,seed=1", "--json"},
		{"model", "--board", "ac510", "--kernel", "pr", "--graph", "rmat:scale=9,ef=8,seed=2", "--partition", "robin"},
		{"sim", "--board", "ac510", "--kernel", "bfs", "--graph", "rmat:scale=10,ef=8,seed=1", "--json"},
		{"explore", "--board", "ac510", "--kernel", "wcc", "--graph", "rmat:scale=9,ef=8,seed=1", "--sweep", "fpgas=1..2,pes=2..3", "--json"},
		{"run", cacheNotebook(t), "--json"},
	} {
		t.Run(fmt.Sprintf("%d/%s", i, args[0]), func(t *testing.T) {
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			run := func(extra ...string) string {
				t.Helper()
				out, _, err := runCLI(t, append(append([]string(nil), args...), extra...)...)
				if err != nil {
					t.Fatal(err)
				}
				return wall.ReplaceAllString(out, "")
			}
			want := run("--no-cache")
			if n := len(cacheEntries(t)); n != 0 {
				t.Fatalf("--no-cache stored %d entries", n)
			}
			cold := run()
			stored := cacheEntries(t)
			if len(stored) < 2 {
				t.Fatalf("%d entries stored, want the reference run and a profile at least", len(stored))
			}
			warm := run()
			if cold != want || warm != want {
				t.Fatalf("outputs differ:\nwithout the cache:\n%s\nwith an empty one:\n%s\nwith it filled:\n%s", want, cold, warm)
			}
			if got := cacheEntries(t); len(got) != len(stored) {
				t.Fatalf("the second run stored %d entries more", len(got)-len(stored))
			}
		})
	}
}

// cacheNotebook writes a notebook whose model cell predicts, for the run
// command's case of TestCacheKeepsResults.
func cacheNotebook(t *testing.T) string {
	t.Helper()
	nb := `version = 1
title = "cache"

[[cell]]
kind = "platform"
board = "ac510"
fpgas = 2
pes = 3

[[cell]]
kind = "kernel"
kernel = "pr"

[[cell]]
kind = "dataset"
graph = "rmat:scale=9,ef=8,seed=3"

[[cell]]
kind = "model"
latency = true
`
	path := filepath.Join(t.TempDir(), "cache.gravf.toml")
	if err := os.WriteFile(path, []byte(nb), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// cacheEntries lists the files of the prediction's cache.
func cacheEntries(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(os.Getenv("XDG_CACHE_HOME"), "gravf-tui", "derived", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}
