package main

import (
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/sim"
)

// attachTrace sets up trace recording for --trace (see sim.RecordFile).
func attachTrace(s *sim.Setup, sf simFlags, _ *graph.Graph) (func(*sim.Result, error) error, error) {
	if sf.trace == "" {
		return func(*sim.Result, error) error { return nil }, nil
	}
	return sim.RecordFile(s, sf.trace, sf.traceInterval)
}
