//go:build unix

package membudget

import "syscall"

// rlimitAS is ulimit -v in bytes, when set.
func (osFiles) rlimitAS() (uint64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur == ^uint64(0) || r.Cur >= 1<<62 {
		return 0, false
	}
	return uint64(r.Cur), true
}
