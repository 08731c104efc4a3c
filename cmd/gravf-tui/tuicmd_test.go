package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTUIBadNotebook: a notebook that does not parse is reported as
// file:line with exit status 2, before any screen is drawn.
func TestTUIBadNotebook(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.gravf.toml")
	text := "version = 1\ntitle = \"x\"\n\n[[cell]]\nkind = \"platform\"\nfpgas = -1\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := runCLI(t, p)
	var ue usageError
	if err == nil || !errors.As(err, &ue) || !strings.Contains(err.Error(), p+":6") {
		t.Fatalf("got %v, want a usage error at %s:6", err, p)
	}
	if _, _, err := runCLI(t, "a", "b"); err == nil {
		t.Error("two notebooks accepted")
	}
}

// TestTUINoCache: the terminal UI's notebook stores the prediction's
// reference run and profiles in the cache, and stores nothing with
// --no-cache, as the commands do.
func TestTUINoCache(t *testing.T) {
	p := cacheNotebook(t)
	for _, tc := range []struct {
		args   []string
		stored bool
	}{
		{[]string{"--no-cache", p}, false},
		{[]string{p}, true},
	} {
		t.Setenv("XDG_CACHE_HOME", t.TempDir())
		root := newRoot()
		if err := root.ParseFlags(tc.args); err != nil {
			t.Fatal(err)
		}
		off, err := root.Flags().GetBool("no-cache")
		if err != nil {
			t.Fatal(err)
		}
		nb, err := tuiNotebook(root.Flags().Args(), cacheFlags{off: off})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := nb.Eval(context.Background(), len(nb.Cells)-1, nil); err != nil {
			t.Fatal(err)
		}
		if n := len(cacheEntries(t)); (n > 0) != tc.stored {
			t.Errorf("%v: %d entries stored", tc.args, n)
		}
	}
}
