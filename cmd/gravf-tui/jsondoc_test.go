package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestJSONDocumented runs model, sim, explore and run with --json and
// checks that each document carries its schema and that docs/JSON.md lists
// every key it prints, at the top and one level down, in the document's
// section.
func TestJSONDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "JSON.md"))
	if err != nil {
		t.Fatal(err)
	}
	g := []string{"--board", "ac510", "--kernel", "wcc", "--graph", "rmat:scale=8,ef=8,seed=1"}
	_, nb := copyNotebook(t, "run.gravf.toml")
	for _, tc := range []struct {
		schema string
		args   []string
	}{
		{schemaModel, append([]string{"model", "--teps", "graph500"}, g...)},
		{schemaSim, append([]string{"sim", "--fpgas", "2", "--pes", "2", "--teps", "graph500"}, g...)},
		{schemaExplore, append([]string{"explore", "--sweep", "fpgas=1..2", "--sim"}, g...)},
		{schemaRun, []string{"run", nb}},
	} {
		out, _, err := runCLI(t, append(tc.args, "--json")...)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(out), &m); err != nil {
			t.Fatal(err)
		}
		if m["schema"] != tc.schema || !strings.HasPrefix(out, "{\n  \"schema\": ") {
			t.Errorf("%s: schema %v, or not the first key", tc.args[0], m["schema"])
		}
		start := strings.Index(string(doc), "## `"+tc.schema+"`")
		if start < 0 {
			t.Fatalf("docs/JSON.md has no section for %s", tc.schema)
		}
		section := string(doc[start:])
		if end := strings.Index(section[3:], "\n## "); end >= 0 {
			section = section[:end+3]
		}
		// The shared graph500 and teps_definition keys are described above
		// the sections.
		section += string(doc[:strings.Index(string(doc), "## `gravf-tui/model/1`")])
		for _, k := range keys(m) {
			if !strings.Contains(section, "`"+k+"`") {
				t.Errorf("docs/JSON.md, section %s, does not list the key %q", tc.schema, k)
			}
		}
	}
}

// keys returns a document's keys and those of the objects in it (and of
// the first element of its lists of objects), except the ones whose names
// are data (reasons per limit, a point's axes, a cell's inputs and outputs,
// the simulator's parameters).
func keys(m map[string]any) []string {
	var out []string
	for k, v := range m {
		out = append(out, k)
		switch k {
		case "reasons", "point", "inputs", "output", "params", "cells":
			continue
		}
		var sub map[string]any
		switch x := v.(type) {
		case map[string]any:
			sub = x
		case []any:
			if len(x) > 0 {
				sub, _ = x[0].(map[string]any)
			}
		}
		for sk := range sub {
			out = append(out, sk)
		}
	}
	sort.Strings(out)
	return out
}
