// Package fidelity owns the fidelity corpus and the comparison of the
// simulator's fast detail and the model's prediction against cycle detail,
// the level that the generated RTL agrees with.
//
// The corpus (Corpus) is a designed set of points, not the cross product
// of every axis: every kernel, graph class, system shape, edge memory,
// architecture, PE design and board appears, and each block of points
// stresses one mechanism of the machine (the lockstep broadcast behind a
// hub's list, the gather hazards of PR on hubs, the off-chip requests in
// flight, the network at low degree, barriers and apply sweeps on long
// diameters). Measure runs one point at both levels of detail and the
// model; Run measures many on a pool of workers; Summarise groups the
// errors by kernel and by graph class and lists the worst points.
//
// `gravf-tui validate` prints the summary; `make fidelity` runs the whole
// corpus; `go test ./fidelity` runs the CI subset and holds it to the
// bounds (FastTotalBound, FastStepBound, ModelBound).
package fidelity
