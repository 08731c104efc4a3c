package explorer

import (
	"os"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestMain keeps the tests away from the user's cache, where synthesised
// PE costs would change the model's nP max.
func TestMain(m *testing.M) { os.Exit(testenv.RunWithPrivateCache(m.Run)) }
