package gen

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/escape"
	"github.com/gravf-tui/gravf-tui/internal/outfile"
)

// OutputError says why Export will not write its folder: the request, not
// a failure (the command line reports it as a usage error).
type OutputError struct {
	Dir    string
	Reason string
}

func (e *OutputError) Error() string { return "export: " + e.Dir + " " + e.Reason }

// CheckOutputDir decides, before anything is generated, whether Export may
// write dir: a path that does not exist, or an empty folder, is written;
// a folder holding a previous export (its manifest.json, written by
// gravf-tui) is replaced only with force; anything else (a regular file,
// a device, a folder that is not an export) is never replaced, with or
// without force. It returns whether the write replaces a folder.
func CheckOutputDir(dir string, force bool) (replace bool, err error) {
	target, err := outfile.Resolve(dir)
	if err != nil {
		return false, fmt.Errorf("export: %w", err)
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("export: %w", err)
	case !fi.IsDir():
		return false, &OutputError{dir, "exists and is not a folder; export writes a project folder and never replaces a file"}
	}
	entries, err := os.ReadDir(target)
	if err != nil {
		return false, fmt.Errorf("export: %w", err)
	}
	if len(entries) == 0 {
		return true, nil // an empty folder holds nothing to lose
	}
	if why := notAnExport(target); why != "" {
		return false, &OutputError{dir, "exists and is not a previous export (" + why + "); not replacing it, even with --force"}
	}
	if !force {
		return false, &OutputError{dir, "holds a previous export; use --force to replace it"}
	}
	return true, nil
}

// notAnExport says why dir does not hold a previous export, or returns "".
func notAnExport(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return "no manifest.json"
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil || !strings.HasPrefix(m.Generator, "gravf-tui") || len(m.Files) == 0 {
		return "its manifest.json was not written by gravf-tui export"
	}
	return ""
}

// scriptValues are the values of the options that the exported scripts
// contain, each escaped for its language (internal/escape) once, here.
type scriptValues struct {
	boardComment  string // board name inside a # comment
	partComment   string // part inside a # comment
	familyComment string
	partTcl       string // the part as a Tcl word (Vivado's -part)
	familyYosys   string // yosys synth_xilinx -family
}

func newScriptValues(o ExportOptions) (scriptValues, error) {
	b := o.Board
	family, err := escape.Yosys(b.FPGA.Family)
	if err != nil {
		return scriptValues{}, fmt.Errorf("export: board %s: fpga.family: %w", escape.Comment(b.Name), err)
	}
	return scriptValues{
		boardComment:  escape.Comment(b.Name),
		partComment:   escape.Comment(b.FPGA.Part),
		familyComment: escape.Comment(b.FPGA.Family),
		partTcl:       escape.Tcl(b.FPGA.Part),
		familyYosys:   family,
	}, nil
}

// checkFiles makes sure every file name the Makefile, the yosys script and
// the FuseSoC core list is a plain word: they come from the kernel's name,
// which the kernel loader restricts, so this only fails on a bug or a
// kernel built by hand.
func (scriptValues) checkFiles(s *System) error {
	for _, p := range s.Paths() {
		if _, err := escape.Make(p); err != nil {
			return fmt.Errorf("export: file %w", err)
		}
	}
	return nil
}
