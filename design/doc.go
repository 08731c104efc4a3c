// Package design owns the design point: what a user chooses (a board and
// the figures of it they override, nF and nP, the architecture, where the
// edges are, the PE design; a kernel with its parameters and width edits;
// a dataset; a partitioner), how it is written (the keys of a notebook's
// platform, kernel, dataset and partition cells, their JSON, and the
// design-point flags of the command line, `--set KEY=VALUE` among them),
// and how it resolves into what the model, the simulator and the
// generator are given (Point: the board with its overrides, the kernel
// bound to the graph, the model's platform).
//
// Options are decoded and checked once, where they are read: the enum
// fields are typed (model.Arch, graph.Format, ...) and parse themselves
// from text, so that no later step parses them again. Every front end
// resolves through this package, step by step (LoadBoard, Kernel.Load,
// Dataset.Load, Kernel.Bind, NewPoint): the notebook's cells (each caches
// its part), a sweep per point, and each command. An error an option
// caused is an Error that names the option's key, so that a form shows it
// at that field and a command names the flag.
package design
