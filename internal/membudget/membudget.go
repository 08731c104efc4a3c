// Package membudget says how much memory the program may still use, so
// that a graph too large for it fails at once with a message instead of
// dying in the middle of generation with the Go runtime's out-of-memory
// dump. The budget is the least of what the limits in force leave:
//
//   - the memory cgroup (v2 memory.max, v1 memory.limit_in_bytes, of the
//     process's cgroup and its ancestors) less what the cgroup uses;
//   - ulimit -v (RLIMIT_AS) less the address space the process maps;
//   - the machine's available memory (MemAvailable).
//
// GRAVF_MAX_MEMORY (bytes, or a number with KiB, MiB, GiB, TiB, KB, MB, GB
// or TB) replaces the budget, for machines whose swap or overcommit the
// user wants to use, or to try the limits out.
package membudget

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// Env is the variable that replaces the budget.
const Env = "GRAVF_MAX_MEMORY"

// Budget is what the program may still allocate, in bytes, and which
// limit sets it ("" when none is known: then the budget is unlimited).
type Budget struct {
	Bytes  uint64
	Source string
}

// Unlimited reports that no limit is known.
func (b Budget) Unlimited() bool { return b.Source == "" }

// Current reads the limits in force now (see the package doc).
func Current() (Budget, error) {
	if v, ok := os.LookupEnv(Env); ok {
		n, err := ParseSize(v)
		if err != nil {
			return Budget{}, fmt.Errorf("%s=%q: %v", Env, v, err)
		}
		return Budget{n, Env}, nil
	}
	return fromSystem(osFiles{}), nil
}

// files reads the system's files (an interface so tests can fake them).
type files interface {
	read(path string) (string, error)
	rlimitAS() (uint64, bool)
}

type osFiles struct{}

func (osFiles) read(p string) (string, error) {
	b, err := os.ReadFile(p)
	return string(b), err
}

func fromSystem(f files) Budget {
	b := Budget{Bytes: math.MaxUint64}
	take := func(n uint64, src string) {
		if n < b.Bytes {
			b = Budget{n, src}
		}
	}
	if n, ok := cgroupLeft(f); ok {
		take(n, "the memory cgroup's limit")
	}
	if lim, ok := f.rlimitAS(); ok {
		used := statusKB(f, "VmSize")
		if used > lim {
			used = lim
		}
		take(lim-used, "ulimit -v")
	}
	if n := meminfoKB(f, "MemAvailable"); n > 0 {
		take(n, "the machine's available memory")
	}
	if b.Source == "" {
		b.Bytes = 0
	}
	return b
}

// cgroupLeft is the least limit-minus-usage over the process's memory
// cgroup and its ancestors, v2 or v1.
func cgroupLeft(f files) (uint64, bool) {
	text, err := f.read("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	best, found := uint64(math.MaxUint64), false
	consider := func(limitFile, usageFile string) {
		lim, ok := readCount(f, limitFile)
		if !ok || lim >= 1<<62 { // "max", or v1's "unlimited" (about 2^63)
			return
		}
		use, _ := readCount(f, usageFile)
		left := uint64(0)
		if lim > use {
			left = lim - use
		}
		if left < best {
			best, found = left, true
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		parts := strings.SplitN(line, ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "": // v2
			for dir := parts[2]; ; dir = parentDir(dir) {
				base := "/sys/fs/cgroup" + strings.TrimSuffix(dir, "/")
				consider(base+"/memory.max", base+"/memory.current")
				if dir == "/" || dir == "" {
					break
				}
			}
		case strings.Contains(","+parts[1]+",", ",memory,"): // v1
			for _, base := range []string{"/sys/fs/cgroup/memory" + strings.TrimSuffix(parts[2], "/"), "/sys/fs/cgroup/memory"} {
				consider(base+"/memory.limit_in_bytes", base+"/memory.usage_in_bytes")
			}
		}
	}
	return best, found
}

func parentDir(d string) string {
	i := strings.LastIndexByte(strings.TrimSuffix(d, "/"), '/')
	if i <= 0 {
		return "/"
	}
	return d[:i]
}

// readCount reads a file holding one number ("max" is not one).
func readCount(f files, p string) (uint64, bool) {
	s, err := f.read(p)
	if err != nil {
		return 0, false
	}
	n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// meminfoKB reads a "Key: N kB" line of /proc/meminfo, in bytes.
func meminfoKB(f files, key string) uint64 { return kbLine(f, "/proc/meminfo", key) }

// statusKB reads a "Key: N kB" line of /proc/self/status, in bytes.
func statusKB(f files, key string) uint64 { return kbLine(f, "/proc/self/status", key) }

func kbLine(f files, path, key string) uint64 {
	text, err := f.read(path)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(k) != key {
			continue
		}
		fields := strings.Fields(v)
		if len(fields) == 0 {
			return 0
		}
		n, err := strconv.ParseUint(fields[0], 10, 64)
		if err != nil {
			return 0
		}
		return n << 10
	}
	return 0
}

// Check fails when need bytes exceed the budget: "what needs about X of
// memory; Y may be used (source)". A budget that cannot be read does not
// stop anything.
func Check(what string, need uint64) error {
	b, err := Current()
	if err != nil {
		return err
	}
	if b.Unlimited() || need <= b.Bytes {
		return nil
	}
	return &Error{What: what, Need: need, Budget: b}
}

// Error is the error of Check.
type Error struct {
	What   string
	Need   uint64
	Budget Budget
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s needs about %s of memory, more than the %s left by %s (set %s to override)",
		e.What, FormatSize(e.Need), FormatSize(e.Budget.Bytes), e.Budget.Source, Env)
}

// FormatSize writes a byte count with a binary unit: 3.2 GiB.
func FormatSize(n uint64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"}
	f, i := float64(n), 0
	for f >= 1024 && i < len(units)-1 {
		f /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f %s", f, units[i])
}

// ParseSize reads "3GiB", "512 MB", "1e9": decimal or binary units.
func ParseSize(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		m      float64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1}} {
		if strings.HasSuffix(strings.ToUpper(t), strings.ToUpper(u.suffix)) {
			t, mult = strings.TrimSpace(t[:len(t)-len(u.suffix)]), u.m
			break
		}
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || !(f >= 0) || f*mult > math.MaxUint64/2 {
		return 0, fmt.Errorf("want a size such as 3GiB or 512MB")
	}
	return uint64(f * mult), nil
}
