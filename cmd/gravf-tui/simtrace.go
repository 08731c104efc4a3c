package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/sim"
)

// attachTrace sets up trace recording for --trace. The file is written
// under a temporary name; the returned function finishes it and renames it
// into place once the run has ended, or removes it when the run failed, so
// a failed run never leaves a half-written trace.
func attachTrace(s *sim.Setup, sf simFlags, _ *graph.Graph) (func(*sim.Result, error) error, error) {
	if sf.trace == "" {
		return func(*sim.Result, error) error { return nil }, nil
	}
	meta, err := sim.NewTraceMeta(s)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(sf.trace), "."+filepath.Base(sf.trace)+".tmp*")
	if err != nil {
		return nil, err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	rec, err := sim.NewRecorder(tmp, sim.TraceOptions{Interval: sf.traceInterval, Meta: meta})
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	s.Listener = rec
	return func(res *sim.Result, runErr error) error {
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
		return os.Rename(tmp.Name(), sf.trace)
	}, nil
}
