package gen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
	"github.com/gravf-tui/gravf-tui/kernel"
)

// PECostFile is where `gravf-tui export --estimate-only` caches the
// synthesised cost of one block-RAM PE of a kernel on a board, for graphs
// of about v vertices (the edge index and the vertex memories grow with V,
// so the cost is kept per power of two of V). The model derives nP max
// from it on boards that do not fix nP.
func PECostFile(board, kernelName string, v int) string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	bucket := 1
	for bucket < v {
		bucket *= 2
	}
	return filepath.Join(dir, "gravf-tui", "pe-cost", fmt.Sprintf("%s-%s-v%d.json", board, kernelName, bucket))
}

// CachedPECost returns the cached cost of one PE (see PECostFile), when an
// estimate has been made.
func CachedPECost(board, kernelName string, v int) (*kernel.PECost, bool) {
	b, err := os.ReadFile(PECostFile(board, kernelName, v))
	if err != nil {
		return nil, false
	}
	var c kernel.PECost
	if json.Unmarshal(b, &c) != nil || c.LUT <= 0 {
		return nil, false
	}
	return &c, true
}

// SavePECost caches the cost of one PE (see PECostFile), atomically, and
// returns the file written.
func SavePECost(board, kernelName string, v int, c kernel.PECost) (string, error) {
	f := PECostFile(board, kernelName, v)
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		return "", err
	}
	js, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return "", err
	}
	return f, outfile.WriteFile(f, js, 0o644)
}
