package explorer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
)

// OutsideWrite is a cell that would write outside its notebook's folder.
type OutsideWrite struct {
	Cell int    // index in Cells
	Line int    // the key's line in the file (the cell's line when edited)
	Key  string // "trace" or "out"
	Path string // as the cell gives it
}

func (w OutsideWrite) String() string {
	return fmt.Sprintf("cell %d: %s = %q", w.Cell+1, w.Key, w.Path)
}

// WritesOutside lists the cells that would write outside the notebook's
// folder when run: a simulate cell's trace (which replaces the file at its
// path) and an export cell with force = true (which replaces a previous
// export), whose path is absolute, climbs out with "..", or leads out
// through a symbolic link. A notebook from elsewhere could otherwise
// replace a file anywhere, so `gravf-tui run` refuses these unless the user
// allows them. Exports without force only ever create new folders.
func (nb *Notebook) WritesOutside() []OutsideWrite {
	home, err := filepath.Abs(nb.Dir())
	if err != nil {
		return nil
	}
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	var out []OutsideWrite
	for i, c := range nb.Cells {
		var key, p string
		switch in := c.In.(type) {
		case *Simulate:
			key, p = "trace", in.Trace
		case *Export:
			if in.Force {
				key, p = "out", in.Out
			}
		}
		if p == "" || inside(home, nb.Resolve(p)) {
			continue
		}
		line := c.Line
		if c.raw != "" {
			line = rawKeyLine(c.raw, key, c.Line)
		}
		out = append(out, OutsideWrite{Cell: i, Line: line, Key: key, Path: p})
	}
	return out
}

// inside reports whether path, once its symbolic links are followed (the
// last element as outfile follows it, the folders above as the system
// does), lies in the folder home (the folder itself does not count: an
// export there would replace the notebook's own folder).
func inside(home, path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	if t, err := outfile.Resolve(abs); err == nil {
		abs = t
	}
	// Follow the links of the longest part that exists.
	rest := ""
	for dir := abs; ; {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			abs = filepath.Join(real, rest)
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return false
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	rel, err := filepath.Rel(home, abs)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(os.PathSeparator)) && !filepath.IsAbs(rel)
}

// rawKeyLine finds the line of `key = ...` in a cell's source text, whose
// [[cell]] header is at line header of the file (comments may come before
// it); it returns header when the key is not there.
func rawKeyLine(raw, key string, header int) int {
	at := -1
	for i, l := range strings.Split(raw, "\n") {
		t := strings.TrimSpace(l)
		if at < 0 {
			if strings.HasPrefix(t, "[[cell]]") {
				at = i
			}
			continue
		}
		if k, _, ok := strings.Cut(t, "="); ok && strings.TrimSpace(k) == key {
			return header + i - at
		}
	}
	return header
}
