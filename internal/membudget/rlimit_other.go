//go:build !unix

package membudget

// rlimitAS is not known here.
func (osFiles) rlimitAS() (uint64, bool) { return 0, false }
