package bench

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"
)

// hwmPoller follows a running child's own high-water resident set
// (VmHWM in /proc/PID/status). getrusage's maximum for a child is at least
// the resident set of this process when the child started (Go starts
// children with vfork, and exec records the shared memory's high water as
// the child's), so a child of a bench that has loaded a large graph looks
// as large as the bench; VmHWM belongs to the child's own memory only. It
// is read every few milliseconds, so the last few milliseconds of a run
// could be missed; a peak is held for longer than that.
type hwmPoller struct {
	peak int64
	stop chan struct{}
	done sync.WaitGroup
}

func pollHWM(pid int) *hwmPoller {
	h := &hwmPoller{stop: make(chan struct{})}
	path := "/proc/" + strconv.Itoa(pid) + "/status"
	h.done.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			if kb, ok := readHWM(path); ok {
				h.peak = max(h.peak, kb*1024)
			}
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	})
	return h
}

// finish stops polling and returns the highest VmHWM read, in bytes (0
// when none could be read).
func (h *hwmPoller) finish() int64 {
	close(h.stop)
	h.done.Wait()
	return h.peak
}

// readHWM reads the VmHWM line (kilobytes) of a /proc status file.
func readHWM(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	_, rest, ok := bytes.Cut(b, []byte("VmHWM:"))
	if !ok {
		return 0, false
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	f := bytes.Fields(line)
	if len(f) == 0 {
		return 0, false
	}
	kb, err := strconv.ParseInt(string(f[0]), 10, 64)
	return kb, err == nil
}
