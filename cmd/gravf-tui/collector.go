package main

import "runtime/debug"

// tightCollector has the collector run when the heap has grown by a
// tenth over what was live (Go's default lets it double), unless it was
// set tighter, until the returned function restores the setting. The sim
// and export commands hold it while they run; the libraries (gen, sim)
// leave the process's collector alone, so a TUI simulation beside an
// export does not pay for the export's pacing. The sim command's peak was
// the garbage on top of what is live: the reference run's buffers and the
// profile's scratch during the prediction (571 MB resident on
// rmat:scale=20 at 4 x 9, whose heap peaks at about 330 MiB live), then
// the simulation's (545 MB, about 400 MiB live); the export's, the
// reference run's buffers and the images' writers (62 MB of heap for 39
// MB live on R-MAT scale 18). The heap is mostly arrays of integers,
// which the collector does not scan, so the extra collections cost
// little: the sim command peaked at 460 MB, with the same CPU time within
// the noise of two runs each (30.6 and 34.1 s before, 32.8 and 33.6 s
// after).
func tightCollector() (restore func()) {
	saved := debug.SetGCPercent(tightGCPercent)
	if saved < tightGCPercent {
		debug.SetGCPercent(saved)
	}
	return func() { debug.SetGCPercent(saved) }
}

// tightGCPercent is the collector's growth target under tightCollector.
const tightGCPercent = 10
