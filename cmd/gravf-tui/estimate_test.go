package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

// TestEstimateOnly synthesises a small design with yosys, caches the
// per-PE cost and checks that the model then derives nP max from it.
func TestEstimateOnly(t *testing.T) {
	testenv.NeedTool(t, "yosys")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	out, _, err := runCLI(t, "export", "--board", "u250", "--kernel", "wcc", "--graph", "uniform:v=1024,d=8,seed=1", "--fpgas", "2", "--pes", "2", "--estimate-only")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "per PE") || !strings.Contains(out, "cached for the model") {
		t.Fatalf("output:\n%s", out)
	}
	js, _, err := runCLI(t, "model", "--board", "u250", "--kernel", "wcc", "--graph", "uniform:v=1024,d=8,seed=1", "--no-latency", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Reasons map[string]string `json:"reasons"`
		PECurve []struct {
			PEs int `json:"pes"`
		} `json:"pe_curve"`
	}
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	// The synthesised WCC PE is far smaller than the board's placeholder
	// estimate, so more PEs fit.
	if n := len(m.PECurve); n <= 56 {
		t.Fatalf("nP max %d: the synthesised cost was not used", n)
	}
}
