// Package bench measures every engine of gravf-tui against its peer in one
// run, on fixed graphs and designs: the cycle and fast simulators against
// Verilator on the same exported design, the reference engine against
// scipy, graph generation and reading against numpy, and the model, the
// sweep and the export against their targets. It is what `gravf-tui bench`
// (and `make bench`) prints and what docs/PERFORMANCE.md records.
//
// The machine it runs on is usually shared, so absolute times drift from
// one run to the next. Every comparison therefore times the two sides
// alternately in the same run (ours, peer, ours, peer, ...) and reports the
// median of each and their ratio, which holds when the load changes
// between repetitions. Peak memory is the child process's own maximum
// resident set (getrusage), measured by running the gravf-tui binary
// itself on the real command.
//
// A row's figures come with the figure recorded before the performance
// work (baseline.json, measured by this same harness on the main branch of
// that time), so that a run shows what changed, and with the target
// and whether it is met.
package bench
