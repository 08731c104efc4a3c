// Command gravf-tui is a terminal design explorer for multi-FPGA graph
// processing with GraVF-M. Every subcommand runs one part of the explorer
// headless, with text or --json output, so that scripts see what the TUI
// shows.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// Exit statuses, as docs/RELIABILITY.md lists them.
const (
	exitOK      = 0
	exitFailure = 1 // the tool failed: a write error, a simulator diagnostic
	exitUsage   = 2 // the request: flags, input files, a design that cannot be built
	exitLimit   = 3 // a superstep or cycle limit stopped the run: the result is incomplete
	// exitInterrupted is 128 + SIGINT, as shells report a Ctrl-C.
	exitInterrupted = 130
)

// usageError marks errors that are the user's request, not a failure of
// the tool: they exit with status 2.
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// limitError marks a run stopped by a superstep or cycle limit: exit 3.
type limitError struct{ error }

func (e limitError) Unwrap() error { return e.error }

func main() {
	ctx, stop := context.Background(), func() {}
	// The TUI reads Ctrl-C as a key and handles signals itself.
	if root := newRoot(); !isTUI(root, os.Args[1:]) {
		ctx, stop = interruptContext(os.Stderr)
	}
	code := execute(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// isTUI reports whether args start the terminal UI (the root command).
func isTUI(root *cobra.Command, args []string) bool {
	c, _, err := root.Find(args)
	return err == nil && c == root
}

// execute runs one command line and returns its exit status. Standard
// output goes through a writer that remembers the first error, so that
// output lost on a full disk or a closed file fails the command instead of
// exiting 0.
func execute(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	root := newRoot()
	root.SetOut(out)
	root.SetErr(stderr)
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	if err == nil && out.err != nil {
		err = fmt.Errorf("write standard output: %w", out.err)
	}
	if err == nil {
		return exitOK
	}
	code := exitStatus(err)
	if code == exitInterrupted && errors.Is(err, context.Canceled) && err.Error() == context.Canceled.Error() {
		err = errors.New("interrupted")
	}
	fmt.Fprintln(stderr, "gravf-tui:", err)
	return code
}

// exitStatus maps an error to the exit status its kind promises.
func exitStatus(err error) int {
	var ue usageError
	var le limitError
	switch {
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case errors.As(err, &le):
		return exitLimit
	case errors.As(err, &ue):
		return exitUsage
	}
	return exitFailure
}

// checkedWriter passes writes on and keeps the first error.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// interruptGrace is how long a command may take to wind down after Ctrl-C
// (keeping a partial trace, removing temporary files) before the program
// exits anyway.
const interruptGrace = 5 * time.Second

// interruptContext is cancelled by the first SIGINT or SIGTERM, so that
// long runs stop cleanly and say what they kept. A second signal, or a
// command that does not stop within interruptGrace, ends the program at
// once with status 130 (what a killed write leaves behind is cleaned up
// by the next write of the same file).
func interruptContext(stderr io.Writer) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
		case <-done:
			return
		}
		cancel()
		select {
		case <-sig:
		case <-time.After(interruptGrace):
			fmt.Fprintln(stderr, "gravf-tui: interrupted (did not stop in time)")
		case <-done:
			return
		}
		os.Exit(exitInterrupted)
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel()
	}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "gravf-tui [notebook]",
		Short: "Design explorer for multi-FPGA graph processing (GraVF-M)",
		Long: `gravf-tui models, simulates and generates GraVF-M multi-FPGA graph processing
systems: describe a vertex-centric kernel, pick a board and a graph, and see
which limit binds, simulate the architecture, and export synthesizable RTL.

With no command it opens the terminal UI on the notebook file given (or a
built-in default).

` + cacheHelp,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.MaximumNArgs(1),
	}
	var cf cacheFlags
	cf.register(root.Flags())
	root.RunE = func(c *cobra.Command, args []string) error { return runTUI(args, cf) }
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(newKernelsCmd(), newRefCmd(), newGraphCmd(), newModelCmd(), newBoardsCmd(), newSimCmd(), newExportCmd(), newTraceCmd(), newRunCmd(), newExploreCmd(), newValidateCmd(), newBenchCmd())
	registerCompletions(root)
	return root
}
