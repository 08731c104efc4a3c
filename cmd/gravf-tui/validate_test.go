package main

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gravf-tui/gravf-tui/internal/datasets"
)

// TestValidate runs validate on two small corpus points, checks the JSON
// and the text tables, and that --from summarises the saved run without
// simulating again (and with a subset of its points).
func TestValidate(t *testing.T) {
	dir := datasets.Dir(t)
	args := []string{"validate", "--datasets", dir, "--kernel", "wcc", "--class", "tiny,p2p", "--fpgas", "4", "--pes", "9", "--mem", "bram"}
	out, _, err := runCLI(t, append(args, "--json")...)
	var res validateOutput
	if jerr := json.Unmarshal([]byte(out), &res); jerr != nil {
		t.Fatalf("validate --json: %v (%v)", jerr, err)
	}
	if len(res.Points) != 2 || res.Summary.Points != 2 {
		t.Fatalf("%d points, summary of %d; want 2", len(res.Points), res.Summary.Points)
	}
	for _, m := range res.Points {
		if m.Cycle <= 0 || m.Fast <= 0 || len(m.CycleSteps) != m.Supersteps || !m.FastOK() {
			t.Errorf("%s: cycle %d, fast %d (%+.2f %%), %d supersteps listed of %d", m.Name, m.Cycle, m.Fast, 100*m.FastErr, len(m.CycleSteps), m.Supersteps)
		}
	}
	file := filepath.Join(t.TempDir(), "v.json")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	text, _, err := runCLI(t, "validate", "--from", file, "--points", "--class", "p2p")
	var ue usageError
	if errors.As(err, &ue) {
		t.Fatalf("validate --from: %v", err)
	}
	for _, want := range []string{"wcc p2p-Gnutella08.txt 4x9 bram gravf-m", "1 points; bounds: fast within 5 %", "class    p2p", "worst fast detail, total cycles:"} {
		if !strings.Contains(text, want) {
			t.Errorf("validate --from output lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "karate") {
		t.Errorf("--class p2p kept the karate point:\n%s", text)
	}
}

// TestValidateErrors: a filter that keeps nothing, an unknown memory and a
// file that is not validate's JSON are the user's errors (status 2).
func TestValidateErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate", "--kernel", "nosuch", "--list"}, "no corpus point matches"},
		{[]string{"validate", "--mem", "tape"}, "tape"},
		{[]string{"validate", "--from", bad}, "not the JSON of gravf-tui validate"},
		{[]string{"validate", "--from", filepath.Join(t.TempDir(), "missing.json")}, "missing.json"},
	} {
		_, _, err := runCLI(t, tc.args...)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want a usage error saying %q", tc.args, err, tc.want)
		}
	}
	// --graph takes a spec whole (its commas are the spec's), repeated.
	out, _, err := runCLI(t, "validate", "--list", "--kernel", "sssp", "--mem", "offchip", "--pes", "9", "--board", "ac510", "--arch", "gravf-m", "--pe", "generated",
		"--graph", "uniform:v=8192,d=16,seed=1", "--graph", "astro-ph.graph")
	if err != nil || out != "sssp uniform:v=8192,d=16,seed=1 4x9 offchip gravf-m\tdegree sweep (Fig. 9): crossbars and links bind at low degree, the PEs at high degree\nsssp astro-ph.graph 4x9 offchip gravf-m\ta public graph at 4 x 9\n" {
		t.Errorf("validate --list --graph: %q, %v", out, err)
	}
	out, _, err = runCLI(t, "validate", "--list", "--ci")
	if err != nil || strings.Count(out, "\n") < 40 {
		t.Errorf("validate --list --ci: %d lines, %v", strings.Count(out, "\n"), err)
	}
}

// TestValidateModelOnly: --model-only runs cycle detail without fast
// detail; --cycle-from re-evaluates only the model against the stored
// cycles, gives the same prediction error, says what it reused, and
// refuses a stored file whose points do not match the corpus (another
// graph size, a point missing).
func TestValidateModelOnly(t *testing.T) {
	dir := datasets.Dir(t)
	args := []string{"validate", "--datasets", dir, "--kernel", "wcc", "--class", "tiny,p2p", "--fpgas", "4", "--pes", "9", "--mem", "bram", "--model-only"}
	out, _, err := runCLI(t, append(args, "--json")...)
	var sim validateOutput
	if jerr := json.Unmarshal([]byte(out), &sim); jerr != nil {
		t.Fatalf("validate --model-only --json: %v (%v)", jerr, err)
	}
	if len(sim.Points) != 2 || sim.Summary.NoFast != 2 || sim.Summary.All.Fast.N != 0 {
		t.Fatalf("%d points, %d without fast detail, fast stats over %d", len(sim.Points), sim.Summary.NoFast, sim.Summary.All.Fast.N)
	}
	for _, m := range sim.Points {
		if m.Cycle <= 0 || m.Fast != 0 || !m.NoFast || m.Predicted <= 0 || m.TSys <= 0 {
			t.Errorf("%s: cycle %d, fast %d, predicted %.0f, T_sys %.0f", m.Name, m.Cycle, m.Fast, m.Predicted, m.TSys)
		}
	}
	file := filepath.Join(t.TempDir(), "cycle.json")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, err = runCLI(t, append(args, "--cycle-from", file, "--json")...)
	var re validateOutput
	if jerr := json.Unmarshal([]byte(out), &re); jerr != nil {
		t.Fatalf("validate --cycle-from --json: %v (%v)", jerr, err)
	}
	if re.Summary.Reused != 2 || len(re.Points) != 2 {
		t.Fatalf("%d points reused of %d", re.Summary.Reused, len(re.Points))
	}
	for i, m := range re.Points {
		s := sim.Points[i]
		if m.CycleFrom != file || m.Cycle != s.Cycle || math.Abs(m.ModelErr-s.ModelErr) > 1e-12 || math.Abs(m.CycleTEPS/s.CycleTEPS-1) > 1e-12 {
			t.Errorf("%s: reused %q, cycle %d (%d), model error %g (%g)", m.Name, m.CycleFrom, m.Cycle, s.Cycle, m.ModelErr, s.ModelErr)
		}
	}
	text, _, _ := runCLI(t, append(args, "--cycle-from", file)...)
	if !strings.Contains(text, "cycle detail of 2 points reused from "+file) {
		t.Errorf("the text does not say what it reused:\n%s", text)
	}
	sim.Points[0].Arcs++
	tampered, _ := json.Marshal(sim)
	if err := os.WriteFile(file, tampered, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runCLI(t, append(args, "--cycle-from", file)...); err == nil || !strings.Contains(err.Error(), "the stored graph is") {
		t.Errorf("a stored point of another graph: %v", err)
	}
	_, _, err = runCLI(t, append(args[:len(args)-1], "--class", "tiny,p2p,grid", "--model-only", "--cycle-from", file)...)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "no result for the corpus point") {
		t.Errorf("a point missing from the stored run: %v", err)
	}
	if _, _, err := runCLI(t, "validate", "--cycle-from", file); !errors.As(err, &ue) {
		t.Errorf("--cycle-from without --model-only: %v", err)
	}
}
