package main

import (
	"github.com/gravf-tui/gravf-tui/explorer"
	"github.com/gravf-tui/gravf-tui/tui"
)

// runTUI opens the notebook file in args (or the built-in default) in the
// terminal UI. A notebook that does not parse is reported as file:line
// before any screen is drawn.
func runTUI(args []string) error {
	nb := explorer.Default()
	if len(args) == 1 {
		var err error
		if nb, err = explorer.Load(args[0]); err != nil {
			return usageError{err}
		}
	}
	return tui.Run(nb)
}
