package main

import (
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/tui"
)

// runTUI opens the notebook of args in the terminal UI.
func runTUI(args []string, cf cacheFlags) error {
	nb, err := tuiNotebook(args, cf)
	if err != nil {
		return err
	}
	return tui.Run(nb)
}

// tuiNotebook is the notebook the terminal UI opens: the file in args or
// the built-in default, with the prediction's cache unless cf turns it
// off. A notebook that does not parse is reported as file:line before
// any screen is drawn.
func tuiNotebook(args []string, cf cacheFlags) (*explorer.Notebook, error) {
	nb := explorer.Default()
	if len(args) == 1 {
		var err error
		if nb, err = explorer.Load(args[0]); err != nil {
			return nil, usageError{err}
		}
	}
	if cf.off {
		nb.WithoutDiskCache()
	}
	return nb, nil
}
