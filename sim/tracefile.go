package sim

import (
	"fmt"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
)

// RecordFile attaches a trace recorder that writes path to s (it sets
// s.Listener). The trace is written under a temporary name; the returned
// finish function, called with the run's outcome,
// completes it and renames it into place, or removes it when the run
// failed, so that a failed or cancelled run never leaves a half-written
// trace. interval is the sampling interval in cycles (0: the default).
func RecordFile(s *Setup, path string, interval int64) (finish func(*Result, error) error, err error) {
	meta, err := NewTraceMeta(s)
	if err != nil {
		return nil, err
	}
	f, err := outfile.Create(path, outfile.Options{})
	if err != nil {
		return nil, err
	}
	rec, err := NewRecorder(f, TraceOptions{Interval: interval, Meta: meta})
	if err != nil {
		f.Discard()
		return nil, err
	}
	s.Listener = rec
	return func(res *Result, runErr error) error {
		defer f.Discard() // a no-op once the file is in place
		if runErr != nil {
			rec.Abort(runErr)
			return nil
		}
		if err := rec.Close(res); err != nil {
			return fmt.Errorf("trace: %w", err)
		}
		return f.Commit()
	}, nil
}
