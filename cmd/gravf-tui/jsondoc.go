package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// The names and versions of the documents that --json prints, described
// field by field in docs/JSON.md. The number changes when a field is
// removed or changes meaning; fields may be added without a change, so a
// reader should ignore the ones it does not know.
const (
	schemaModel   = "gravf-tui/model/1"
	schemaSim     = "gravf-tui/sim/1"
	schemaExplore = "gravf-tui/explore/1"
	schemaRun     = "gravf-tui/run/1"
)

// writeJSONDoc writes the JSON object v, indented as writeJSON does, with
// "schema" as its first key.
func writeJSONDoc(w io.Writer, schema string, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(body) < 2 || body[0] != '{' {
		return fmt.Errorf("json: a %s document must be an object", schema)
	}
	name, _ := json.Marshal(schema)
	var doc bytes.Buffer
	doc.WriteString(`{"schema":`)
	doc.Write(name)
	if len(body) > 2 {
		doc.WriteByte(',')
	}
	doc.Write(body[1:])
	var out bytes.Buffer
	if err := json.Indent(&out, doc.Bytes(), "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// checkSchema reads the schema of a document this program wrote, and
// fails for another document or a newer version.
func checkSchema(file string, data []byte, want string) error {
	var doc struct {
		Schema *string `json:"schema"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: not JSON: %v", file, err)
	}
	switch {
	case doc.Schema == nil:
		return fmt.Errorf("%s: no \"schema\" key; want a %s document", file, want)
	case *doc.Schema != want:
		return fmt.Errorf("%s: a %s document; this gravf-tui reads %s", file, *doc.Schema, want)
	}
	return nil
}
