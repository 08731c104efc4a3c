// Package tui is the terminal user interface of gravf-tui: a Bubble Tea
// program that shows an explorer.Notebook as a vertical list of cells,
// each with an editable input form and an output, as in a notebook.
//
// The root model (App) owns the notebook, the layout, the focus, the mode
// (notebook, cell, field editing, prompt) and the background jobs. Each
// cell kind has a model of its own (platformCell, modelCell, traceCell,
// ...) that renders the cell's result and handles the keys of a focused
// cell. Cells read the notebook and the terminal size through one shared,
// read-only context; only the root writes to the notebook, except for the
// edits a cell's form commits through Notebook.Edit.
//
// Evaluation never blocks Update: cells that explorer.Notebook.Ready says
// are quick are evaluated in place after every edit (and a model cell's
// bound, explorer.Notebook.Bound, while its prediction is computed), the
// other cheap cells
// in one background job, and expensive cells (sweep, simulate, export) on
// demand, each in a job with progress, elapsed time and cancel.
//
// This is the only package that imports Bubble Tea, Lip Gloss, Bubbles
// and asciigraph.
package tui
