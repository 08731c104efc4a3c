package bench

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// side is one side of a comparison: it does the work once and returns the
// seconds it took (its own clock: a peer reports the time of the work
// alone, without starting Python or reading the graph).
type side func(ctx context.Context) (float64, error)

// alternate runs the sides in turn, n rounds (a, b, a, b, ...), so that a
// change of the machine's load between rounds hits both, and returns every
// side's samples in run order.
func alternate(ctx context.Context, n int, sides ...side) ([][]float64, error) {
	out := make([][]float64, len(sides))
	for range n {
		for i, s := range sides {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			v, err := s(ctx)
			if err != nil {
				return nil, err
			}
			out[i] = append(out[i], v)
		}
	}
	return out, nil
}

// timed measures f with a collected heap before it, so that garbage of
// earlier work is not charged to it.
func timed(f func() error) (float64, error) {
	runtime.GC()
	start := time.Now()
	err := f()
	return time.Since(start).Seconds(), err
}

// median returns the median of xs (the mean of the middle two for an even
// count); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// proc is a finished child process.
type proc struct {
	wall float64 // seconds
	cpu  float64 // user + system seconds
	peak int64   // maximum resident set, bytes (getrusage: at least this process's own when the child started)
	// ownPeak is the child's own high-water resident set (VmHWM, see
	// hwmPoller), 0 where it could not be read.
	ownPeak int64
	stdout  []byte
	stderr  []byte
}

// runProc runs a command in dir and measures its wall time, CPU time and
// peak resident memory (the child's own getrusage maximum).
func runProc(ctx context.Context, dir string, name string, args ...string) (*proc, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Start()
	var own int64
	if err == nil {
		h := pollHWM(cmd.Process.Pid)
		err = cmd.Wait()
		own = h.finish()
	}
	p := &proc{wall: time.Since(start).Seconds(), ownPeak: own, stdout: out.Bytes(), stderr: errb.Bytes()}
	if st := cmd.ProcessState; st != nil {
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			p.peak = ru.Maxrss * 1024 // kilobytes on Linux
			p.cpu = tv(ru.Utime) + tv(ru.Stime)
		}
	}
	if err != nil {
		return p, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(errb.Bytes(), 20))
	}
	return p, nil
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

// tail returns the last n lines of b.
func tail(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// loadAverage returns the 1-minute load average (0 where unknown).
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0
	}
	f, _ := strconv.ParseFloat(strings.Fields(string(b) + " 0")[0], 64)
	return f
}

// revision names the measured code: the VCS revision the binary was built
// from (with +dirty for uncommitted changes), else "unknown".
func revision() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "unknown"
	}
	return rev[:min(12, len(rev))] + dirty
}
