package tomldoc

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// ReadFile reads a file of at most lim.MaxBytes: a larger one (or a device
// that never ends) is refused after reading one byte more, not read to
// the end.
func ReadFile(path string, lim Limits) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAtMost(f, path, lim)
}

// ReadFS is ReadFile for a file of fsys.
func ReadFS(fsys fs.FS, name string, lim Limits) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAtMost(f, name, lim)
}

func readAtMost(r io.Reader, name string, lim Limits) ([]byte, error) {
	max := lim.MaxBytes
	if max <= 0 {
		max = DefaultLimits.MaxBytes
	}
	data, err := io.ReadAll(io.LimitReader(r, int64(max)+1))
	if err != nil {
		return nil, err
	}
	if len(data) > max {
		return nil, ErrorList{{File: name, Msg: fmt.Sprintf("the file has more than %d bytes; at most %d are read", max, max)}}
	}
	return data, nil
}
