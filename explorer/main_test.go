package explorer

import (
	"os"
	"testing"
)

// TestMain keeps the tests away from the user's cache, where synthesised
// PE costs would change the model's nP max.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gravf-explorer-cache")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
