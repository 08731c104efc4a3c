package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// maxJSONInput bounds a JSON file read back from an earlier run (validate
// --from, explore merge): far above what a sweep or the fidelity corpus
// writes, far below what would exhaust memory.
const maxJSONInput = 1 << 30

// readJSONInput reads a JSON file named on the command line. Binary data
// (a NUL byte, which JSON text never holds: /dev/zero, an image) is
// refused at the first chunk, and a file or device longer than
// maxJSONInput after reading one byte more, instead of being read until
// memory runs out. Errors are usage errors that name the path.
func readJSONInput(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usageError{err}
	}
	defer f.Close()
	return readBounded(path, f, maxJSONInput)
}

func readBounded(path string, r io.Reader, limit int) ([]byte, error) {
	var data []byte
	chunk := make([]byte, 64<<10)
	for {
		n, err := r.Read(chunk)
		if i := bytes.IndexByte(chunk[:n], 0); i >= 0 {
			return nil, usagef("%s: binary data (a NUL byte at offset %d): not a JSON file", path, len(data)+i)
		}
		data = append(data, chunk[:n]...)
		if len(data) > limit {
			return nil, usagef("%s: longer than %d MiB; not an output of gravf-tui", path, limit>>20)
		}
		switch {
		case errors.Is(err, io.EOF):
			return data, nil
		case err != nil:
			return nil, usageError{fmt.Errorf("read %s: %w", path, err)}
		}
	}
}
