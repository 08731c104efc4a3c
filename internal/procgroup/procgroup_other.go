//go:build !unix

package procgroup

import "os/exec"

func setGroup(*exec.Cmd) {}

// stopGroup kills the process; without process groups its children may
// survive it.
func stopGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }
