// Package datasets locates the public graph files that the tests of several
// packages run on. The files live in a folder "shared/datasets" beside the
// repository (or in $GRAVF_DATASETS); they are not part of the module.
package datasets

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the dataset folder. Outside CI a missing folder skips the test;
// in CI (CI set) it fails it, because a check that is skipped in CI does not
// count.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("GRAVF_DATASETS"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		for _, c := range []string{filepath.Join(d, "shared", "datasets"), filepath.Join(d, "..", "shared", "datasets")} {
			if st, err := os.Stat(c); err == nil && st.IsDir() {
				return c
			}
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if os.Getenv("CI") != "" {
		tb.Fatal("dataset folder shared/datasets not found beside the repository; set GRAVF_DATASETS")
	}
	tb.Skip("dataset folder shared/datasets not found; set GRAVF_DATASETS")
	return ""
}

// Path returns the path of one dataset file (see Dir).
func Path(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Dir(tb), name)
}
