package main

import (
	"encoding/json"
	"errors"
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
	out, _, err := runCLI(t, "validate", "--list", "--ci")
	if err != nil || strings.Count(out, "\n") < 40 {
		t.Errorf("validate --list --ci: %d lines, %v", strings.Count(out, "\n"), err)
	}
}
