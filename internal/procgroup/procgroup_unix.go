//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
	"time"
)

func setGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// stopGroup signals the group led by cmd's process (its id is the group's
// id) to stop, and kills what is left after Grace.
func stopGroup(cmd *exec.Cmd) error {
	pgid := cmd.Process.Pid
	err := syscall.Kill(-pgid, syscall.SIGTERM)
	time.AfterFunc(Grace, func() {
		// ESRCH once every process of the group is gone.
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	})
	return err
}
