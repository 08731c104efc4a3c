package sim

import (
	"fmt"
	"runtime"

	"github.com/gravf-tui/gravf-tui/kernel"
)

// Why a run stopped before the kernel converged (Result.Stopped).
const (
	StopSuperstepLimit = "superstep limit"
	StopCycleLimit     = "cycle limit"
	StopInterrupted    = "interrupted"
)

// StopError is the error of a run that stopped before the kernel
// converged: at the superstep limit (Setup.MaxSupersteps, every level of
// detail), at the cycle limit (Setup.MaxCycles), or because its context
// was cancelled. Run returns it together with the partial result (the
// cycles, supersteps and statistics up to the stop, with Result.Stopped
// set) so that a caller can keep the partial trace or print the partial
// result when the user asked for it. Fast detail has a partial result
// only at the superstep limit: its reference engine runs ahead of the
// timing, so at a cycle no states match.
type StopError struct {
	Reason    string
	Limit     int64 // the limit reached; 0 when interrupted
	Cycle     int64 // cycles simulated
	Superstep int   // the superstep running at the stop
	Err       error // the context's error, or the reference engine's *kernel.LimitError
}

func (e *StopError) Error() string {
	switch e.Reason {
	case StopSuperstepLimit:
		return fmt.Sprintf("stopped at the superstep limit of %d (cycle %d): the kernel did not converge", e.Limit, e.Cycle)
	case StopCycleLimit:
		return fmt.Sprintf("stopped at the cycle limit %d in superstep %d", e.Limit, e.Superstep)
	}
	return fmt.Sprintf("interrupted at cycle %d in superstep %d", e.Cycle, e.Superstep)
}

func (e *StopError) Unwrap() error { return e.Err }

// stop ends a cycle-level run early; run loops return its error.
func (c *core) stop(reason string, limit int64, err error) *StopError {
	return &StopError{Reason: reason, Limit: limit, Cycle: c.now, Superstep: c.stepCount() - 1, Err: err}
}

// cores is how many cores may step the run's FPGAs (Setup.Cores).
func (s *Setup) cores() int {
	if s.Cores > 0 {
		return s.Cores
	}
	return runtime.GOMAXPROCS(0)
}

// maxSupersteps is the setup's superstep limit, or the shared default.
func (s *Setup) maxSupersteps() int {
	if s.MaxSupersteps > 0 {
		return s.MaxSupersteps
	}
	return kernel.DefaultMaxSupersteps(s.Graph.NumVertices())
}

// partialResult collects what a cycle-level run measured up to a stop:
// the cycles accounted so far, and only the supersteps the limit allows.
func (c *core) partialResult(se *StopError) *Result {
	steps := c.mergedSteps()
	if se.Reason == StopSuperstepLimit && len(steps) > int(se.Limit) {
		steps = steps[:se.Limit]
	}
	c.now-- // resultOf counts the current cycle, which a stop did not finish
	r := c.resultOf(steps)
	c.now++
	r.Stopped = se.Reason
	return r
}
