package main

import (
	"github.com/gravf-tui/gravf-tui/graph"
	"github.com/gravf-tui/gravf-tui/sim"
)

// attachTrace sets up trace recording for --trace; the returned function
// finishes the file once the run has ended (or removes it when the run
// failed).
func attachTrace(s *sim.Setup, sf simFlags, g *graph.Graph) (func(*sim.Result, error) error, error) {
	if sf.trace == "" {
		return func(*sim.Result, error) error { return nil }, nil
	}
	return nil, usagef("--trace: trace recording is not available yet")
}
