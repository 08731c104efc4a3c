// Command gravf-tui is a terminal design explorer for multi-FPGA graph
// processing with GraVF-M. Every subcommand runs one part of the explorer
// headless, with text or --json output, so that scripts see what the TUI
// shows.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"
)

// usageError marks errors that are the user's request, not a failure of
// the tool: they exit with status 2.
type usageError struct{ error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

func main() {
	root := newRoot()
	if err := root.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "gravf-tui:", err)
		var ue usageError
		if errors.As(err, &ue) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "gravf-tui",
		Short: "Design explorer for multi-FPGA graph processing (GraVF-M)",
		Long: `gravf-tui models, simulates and generates GraVF-M multi-FPGA graph processing
systems: describe a vertex-centric kernel, pick a board and a graph, and see
which limit binds, simulate the architecture, and export synthesizable RTL.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.MaximumNArgs(1),
		RunE:          func(c *cobra.Command, args []string) error { return runTUI(args) },
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newKernelsCmd(), newRefCmd(), newGraphCmd(), newModelCmd(), newBoardsCmd(), newSimCmd(), newExportCmd(), newTraceCmd(), newRunCmd(), newExploreCmd(), newValidateCmd(), newBenchCmd())
	registerCompletions(root)
	return root
}
