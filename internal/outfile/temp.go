package outfile

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// hostTag tells this machine's temporary files from another's in a
// folder shared over the network: a process id means nothing elsewhere.
var hostTag = func() string {
	h, _ := os.Hostname()
	sum := fnv.New32a()
	sum.Write([]byte(h))
	return fmt.Sprintf("%08x", sum.Sum32())
}()

// tempPrefix is the start of every temporary name of target base base.
func tempPrefix(base string) string { return "." + base + ".tmp" }

// openTemp creates a new temporary file (or folder) beside base in dir:
// ".BASE.tmp<pid>.<host>-<random>".
func openTemp(dir, base string, perm fs.FileMode, folder bool) (*os.File, string, error) {
	for attempt := 0; ; attempt++ {
		name := filepath.Join(dir, fmt.Sprintf("%s%d.%s-%d", tempPrefix(base), os.Getpid(), hostTag, rand.Uint32()))
		var f *os.File
		var err error
		if folder {
			err = os.Mkdir(name, perm)
		} else {
			f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		}
		if !errors.Is(err, fs.ErrExist) || attempt > 100 {
			return f, name, err
		}
	}
}

// CleanStale removes the temporary files and folders that earlier writes
// of dir/base left behind when their process was killed: entries named
// as openTemp names them, by this machine, whose process is gone. It
// never touches anything else, and never a live process's write.
func CleanStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix := tempPrefix(base)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		pid, ok := staleOwner(rest)
		if !ok || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// staleOwner parses "<pid>.<host>-<random>[.old]" and returns the pid when
// the host is this one.
func staleOwner(rest string) (int, bool) {
	pidText, rest, ok := strings.Cut(rest, ".")
	if !ok {
		return 0, false
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return 0, false
	}
	host, random, ok := strings.Cut(rest, "-")
	if !ok || host != hostTag {
		return 0, false
	}
	random = strings.TrimSuffix(random, ".old")
	if _, err := strconv.ParseUint(random, 10, 32); err != nil {
		return 0, false
	}
	return pid, true
}
