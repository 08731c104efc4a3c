package main

import (
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
