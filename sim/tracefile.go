package sim

import (
	"fmt"
	"os"
	"path/filepath"
)

// RecordFile attaches a trace recorder that writes path to s (it sets
// s.Listener). The trace is written under a temporary name in the same
// folder; the returned finish function, called with the run's outcome,
// completes it and renames it into place, or removes it when the run
// failed, so that a failed or cancelled run never leaves a half-written
// trace. interval is the sampling interval in cycles (0: the default).
func RecordFile(s *Setup, path string, interval int64) (finish func(*Result, error) error, err error) {
	meta, err := NewTraceMeta(s)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return nil, err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	rec, err := NewRecorder(tmp, TraceOptions{Interval: interval, Meta: meta})
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	s.Listener = rec
	return func(res *Result, runErr error) error {
		defer os.Remove(tmp.Name())
		if runErr != nil {
			rec.Abort(runErr)
			tmp.Close()
			return nil
		}
		if err := rec.Close(res); err != nil {
			tmp.Close()
			return fmt.Errorf("trace: %w", err)
		}
		if err := tmp.Close(); err != nil {
			return err
		}
		return os.Rename(tmp.Name(), path)
	}, nil
}
