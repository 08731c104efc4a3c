// Package procgroup runs external tools (make, and the simulators make
// starts) in a process group of their own, so that cancelling one ends
// every process it started: `make sim` runs a shell, vvp and tee, and
// killing make alone would leave them running.
package procgroup

import (
	"context"
	"os/exec"
	"time"
)

// Grace is how long the processes of a cancelled group have to end after
// SIGTERM (make deletes a half-written target then) before SIGKILL.
const Grace = 2 * time.Second

// Command returns cmd name args to run in a new process group. When ctx
// is done, the whole group gets SIGTERM and, Grace later, SIGKILL; Wait
// returns at the latest Grace after the kill of the leader, even when a
// process of the group still holds an output pipe.
func Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	setGroup(cmd)
	cmd.Cancel = func() error { return stopGroup(cmd) }
	cmd.WaitDelay = 2 * Grace
	return cmd
}
