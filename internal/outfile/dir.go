package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir is a folder being written: its files go into a hidden temporary
// folder beside the target, and Commit renames that folder into place, so
// a failed or killed write leaves no half-written project.
type Dir struct {
	name     string // the user's path, for messages
	target   string // symlinks resolved
	tmp      string
	finished bool
}

// CreateDir starts writing the folder path (its parent must exist).
func CreateDir(path string) (*Dir, error) {
	if path == "" {
		return nil, errors.New("no output folder name")
	}
	target, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	d := &Dir{name: path, target: target}
	parent, base := filepath.Split(filepath.Clean(target))
	if parent == "" {
		parent = "."
	}
	CleanStale(parent, base)
	_, tmp, err := openTemp(parent, base, 0o755, true)
	if err != nil {
		return nil, &fs.PathError{Op: "create", Path: path, Err: bareError(err)}
	}
	d.tmp = tmp
	return d, nil
}

// Path is the temporary folder to write into. Messages about files in it
// should use Name.
func (d *Dir) Path() string { return d.tmp }

// Name is the path given to CreateDir.
func (d *Dir) Name() string { return d.name }

// WriteFile writes one file of the folder (rel uses slashes), creating
// the folders above it; errors name the file under the user's path.
func (d *Dir) WriteFile(rel string, data []byte, perm fs.FileMode) error {
	f := filepath.Join(d.tmp, filepath.FromSlash(rel))
	err := os.MkdirAll(filepath.Dir(f), 0o755)
	if err == nil {
		err = os.WriteFile(f, data, perm)
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: filepath.Join(d.name, filepath.FromSlash(rel)), Err: bareError(err)}
	}
	return nil
}

// Write writes one file of the folder through write, buffered, so a
// large file is streamed rather than held; errors name the file under
// the user's path, as WriteFile's.
func (d *Dir) Write(rel string, perm fs.FileMode, write func(io.Writer) error) error {
	f := filepath.Join(d.tmp, filepath.FromSlash(rel))
	err := os.MkdirAll(filepath.Dir(f), 0o755)
	var out *os.File
	if err == nil {
		out, err = os.OpenFile(f, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	}
	if err == nil {
		b := bufio.NewWriterSize(out, 1<<16)
		err = write(b)
		if err == nil {
			err = b.Flush()
		}
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: filepath.Join(d.name, filepath.FromSlash(rel)), Err: bareError(err)}
	}
	return nil
}

// Commit moves the folder into place. An existing target is replaced
// only when replace is set, and only when it is a folder: a file is
// never deleted. The replacement is one atomic exchange where the file
// system supports it; the old folder is then removed.
func (d *Dir) Commit(replace bool) error {
	if d.finished {
		return fmt.Errorf("write %s: already finished", d.name)
	}
	fi, err := os.Lstat(d.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Rename(d.tmp, d.target); err != nil {
			d.Discard()
			return &fs.PathError{Op: "write", Path: d.name, Err: bareError(err)}
		}
	case err != nil:
		d.Discard()
		return &fs.PathError{Op: "write", Path: d.name, Err: bareError(err)}
	case !fi.IsDir():
		d.Discard()
		return fmt.Errorf("%s exists and is not a folder; not replacing it", d.name)
	case !replace:
		d.Discard()
		return fmt.Errorf("%s exists; not replacing it", d.name)
	default:
		if err := d.swap(); err != nil {
			d.Discard()
			return &fs.PathError{Op: "replace", Path: d.name, Err: bareError(err)}
		}
	}
	d.finished = true
	syncDir(filepath.Dir(d.target))
	return nil
}

// swap puts the new folder in place of the old one and removes the old.
func (d *Dir) swap() error {
	if err := exchange(d.tmp, d.target); err == nil {
		return os.RemoveAll(d.tmp) // now the old folder
	}
	// Two renames: a kill between them leaves the old folder under a
	// temporary name, which the next write of this target removes.
	old := d.tmp + ".old"
	if err := os.Rename(d.target, old); err != nil {
		return err
	}
	if err := os.Rename(d.tmp, d.target); err != nil {
		_ = os.Rename(old, d.target)
		return err
	}
	return os.RemoveAll(old)
}

// Discard removes the temporary folder; a no-op after Commit.
func (d *Dir) Discard() {
	if d.finished {
		return
	}
	d.finished = true
	os.RemoveAll(d.tmp)
}
