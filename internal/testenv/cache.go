package testenv

import "os"

// RunWithPrivateCache runs a package's tests (m.Run from TestMain) with
// XDG_CACHE_HOME pointing at a fresh folder, so that what a user has
// cached (PE costs synthesised by export --estimate-only) cannot change
// their results, and returns the exit code.
func RunWithPrivateCache(run func() int) int {
	dir, err := os.MkdirTemp("", "gravf-test-cache")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	os.Setenv("XDG_CACHE_HOME", dir)
	return run()
}
