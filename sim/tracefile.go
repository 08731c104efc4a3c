package sim

import (
	"errors"
	"fmt"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
)

// RecordFile attaches a trace recorder that writes path to s (it sets
// s.Listener). The trace is written through outfile: under a temporary
// name beside path (unless path is a device or a FIFO), so a failed run
// never leaves a half-written trace. The returned finish function, called
// with the run's outcome, completes the file and renames it into place,
// or removes it when the run failed. A run that stopped early (a
// *StopError with its partial result: interrupted, or at a limit) keeps
// its trace, marked partial. interval is the sampling interval in cycles
// (0: the default).
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
		var stop *StopError
		if runErr != nil && (res == nil || !errors.As(runErr, &stop)) {
			rec.Abort(runErr)
			return nil
		}
		if err := rec.Close(res); err != nil {
			return fmt.Errorf("trace: %w", err)
		}
		return f.Commit()
	}, nil
}
