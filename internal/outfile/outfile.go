// Package outfile owns how gravf-tui writes its output files and folders,
// so that no writer of the program destroys what sits at the path it was
// given:
//
//   - A regular file (or a path that does not exist yet) is written
//     atomically: into a hidden temporary file beside it, renamed into
//     place by Commit, so that a failed or killed write leaves the old
//     content. An existing file keeps its permission bits (and, for root,
//     its owner).
//   - A symbolic link is followed (hop by hop, also when it dangles), and
//     its target is written the same way: the link stays a link and the
//     file it names gets the content.
//   - Anything else (a device, a FIFO, a terminal) is opened and written in
//     place, as a shell redirection would; it is never replaced by a file.
//   - "-" is the program's standard output when the caller says so.
//   - A folder is an error, except for CreateDir, which stages a whole
//     folder and renames it into place.
//
// Temporary names are ".NAME.tmp<pid>.<host>-<random>", beside the target
// (never in $TMPDIR, which may be another file system or full). Every
// Create removes the temporary files that a killed earlier write of the
// same target left behind, once the process that wrote them is gone.
//
// Errors name the user's path (the one given to Create), never a
// temporary one.
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

// DefaultPerm is the mode of a new file (before the umask).
const DefaultPerm fs.FileMode = 0o644

// Options say how to create a file.
type Options struct {
	// Perm is the mode of a file that does not exist yet, before the
	// umask; 0 means DefaultPerm. An existing file keeps its mode.
	Perm fs.FileMode
	// Stdout, when set, is where the path "-" writes; without it "-" is
	// an ordinary file name.
	Stdout io.Writer
}

// File is an output being written. Write to it, then Commit; Discard
// (safe to defer, a no-op after Commit) drops a write that failed.
type File struct {
	name   string // the user's path, for messages
	target string // where the content ends up: symlinks resolved
	tmp    string // the temporary file beside target; "" when streaming
	f      *os.File
	bw     *bufio.Writer
	// keep is the existing file's mode (and owner) to restore on the
	// temporary file before the rename.
	keep     *keptMode
	err      error
	finished bool
}

type keptMode struct {
	perm     fs.FileMode
	uid, gid int
	hasOwner bool
}

// Create starts writing path as the package doc describes.
func Create(path string, o Options) (*File, error) {
	if path == "" {
		return nil, errors.New("no output file name")
	}
	if path == "-" && o.Stdout != nil {
		return &File{name: "standard output", bw: bufio.NewWriterSize(o.Stdout, 1<<16)}, nil
	}
	perm := o.Perm
	if perm == 0 {
		perm = DefaultPerm
	}
	target, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	out := &File{name: path, target: target}
	fi, err := os.Stat(target)
	switch {
	case err == nil && fi.IsDir():
		return nil, fmt.Errorf("%s is a folder, not a file", path)
	case err == nil && !fi.Mode().IsRegular():
		// A device, a FIFO or a terminal: write in place, as a shell
		// redirection does. O_TRUNC is ignored by devices and FIFOs.
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, out.wrap("open", err)
		}
		out.f, out.bw = f, bufio.NewWriterSize(f, 1<<16)
		return out, nil
	case err == nil:
		out.keep = &keptMode{perm: fi.Mode().Perm()}
		out.keep.uid, out.keep.gid, out.keep.hasOwner = ownerOf(fi)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, out.wrap("create", err)
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	CleanStale(dir, base)
	tmpPerm := perm
	if out.keep != nil {
		tmpPerm = 0o600 // until Commit gives it the old file's mode
	}
	f, tmp, err := openTemp(dir, base, tmpPerm, false)
	if err != nil {
		return nil, out.wrap("create", err)
	}
	out.f, out.tmp, out.bw = f, tmp, bufio.NewWriterSize(f, 1<<16)
	return out, nil
}

// Name is the path given to Create ("standard output" for "-").
func (f *File) Name() string { return f.name }

// Write buffers p; the first error sticks and is returned by Commit too.
func (f *File) Write(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	if f.finished {
		return 0, fmt.Errorf("write %s: already closed", f.name)
	}
	n, err := f.bw.Write(p)
	if err != nil {
		f.err = f.wrap("write", err)
	}
	return n, f.err
}

// Commit finishes the file: it flushes, syncs and renames the temporary
// file into place (or closes the device). After an error nothing of the
// new content is at the target, unless it is a device or a FIFO, which
// cannot take back what was already written.
func (f *File) Commit() error {
	if f.finished {
		return f.err
	}
	if f.err == nil {
		if err := f.bw.Flush(); err != nil {
			f.err = f.wrap("write", err)
		}
	}
	if f.err != nil {
		f.Discard()
		return f.err
	}
	f.finished = true
	if f.f == nil { // standard output: the caller owns it
		return nil
	}
	if f.tmp == "" {
		if err := f.f.Close(); err != nil {
			f.err = f.wrap("write", err)
		}
		return f.err
	}
	err := f.f.Sync()
	if err == nil && f.keep != nil {
		err = f.f.Chmod(f.keep.perm)
		if err == nil && f.keep.hasOwner && os.Geteuid() == 0 {
			_ = f.f.Chown(f.keep.uid, f.keep.gid) // best effort, as editors do
		}
	}
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.tmp, f.target)
	}
	if err != nil {
		os.Remove(f.tmp)
		f.err = f.wrap("write", err)
		return f.err
	}
	syncDir(filepath.Dir(f.target))
	return nil
}

// Discard drops the write: the temporary file is removed and the target
// keeps what it held. It is a no-op after Commit.
func (f *File) Discard() {
	if f.finished {
		return
	}
	f.finished = true
	if f.err == nil {
		f.err = fmt.Errorf("write %s: discarded", f.name)
	}
	if f.f == nil {
		return
	}
	f.f.Close()
	if f.tmp != "" {
		os.Remove(f.tmp)
	}
}

// wrap restates an error of the file system under the user's path.
func (f *File) wrap(op string, err error) error {
	return &fs.PathError{Op: op, Path: f.name, Err: bareError(err)}
}

// bareError strips the path (a temporary one, typically) from an error of
// the os package, keeping its cause.
func bareError(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	case errors.As(err, &se):
		return se.Err
	}
	return err
}

// Write creates path through write and commits it (see Create).
func Write(path string, o Options, write func(io.Writer) error) error {
	f, err := Create(path, o)
	if err != nil {
		return err
	}
	defer f.Discard()
	if err := write(f); err != nil {
		if f.err != nil {
			return f.err // the file's own error names the path
		}
		return err
	}
	return f.Commit()
}

// WriteFile writes data to path (see Create).
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, Options{Perm: perm}, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

var errLoop = errors.New("too many levels of symbolic links")

// maxLinks bounds the symbolic links followed, as the kernel does (40).
const maxLinks = 40

// Resolve follows path's symbolic links hop by hop and returns the file
// they name, also when it does not exist yet (a dangling link names the
// file to create). Only the last element is followed: links among the
// folders above it are the file system's business.
func Resolve(path string) (string, error) {
	p := path
	for i := 0; i < maxLinks; i++ {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", &fs.PathError{Op: "resolve", Path: path, Err: bareError(err)}
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
	return "", &fs.PathError{Op: "resolve", Path: path, Err: errLoop}
}

// syncDir makes a rename in dir durable; failures only cost durability.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// SameFile reports whether writing out would overwrite in: both name the
// same existing file (through links, other spellings or hard links). A
// name that is not a file (a generator spec, "-") is never the same.
func SameFile(out, in string) bool {
	if out == "-" || in == "-" {
		return false
	}
	a, err := os.Stat(out)
	if err != nil {
		return false
	}
	b, err := os.Stat(in)
	if err != nil {
		return false
	}
	return os.SameFile(a, b)
}
