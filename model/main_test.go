package model

import (
	"os"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestMain runs the tests with a private cache folder: what a user's
// cache holds must not reach them (ReferenceActivity).
func TestMain(m *testing.M) { os.Exit(testenv.RunWithPrivateCache(m.Run)) }
