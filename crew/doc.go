// Package crew steps the independent units of a simulation on several
// cores: the FPGAs of one window of a conservative parallel scheme, whose
// lookahead is the link latency (fast detail and the model's lockstep
// recursion), or the FPGAs of one cycle (cycle detail). Within a window
// or a cycle the units share nothing but read-only state, so which core
// steps which unit never changes what is computed; the caller of a crew
// gets the result one core computes, on any number of cores and however
// busy the machine is.
//
// The helpers are goroutines that live as long as the crew and poll
// briefly for the next window before they park: a window's units take
// tens of microseconds each, about what waking a parked goroutine takes
// on a busy machine, and a cycle's a microsecond. The units are claimed
// one at a time, the caller from the first and the helpers from the last,
// so that on free cores each core keeps stepping the same units (their
// state stays in its cache) and a late helper finds the rest; the caller
// never waits for a helper that has not claimed a unit. A Pace has the
// caller step alone for a while where the helpers bring less than they
// cost (the machine's other cores are taken).
package crew
