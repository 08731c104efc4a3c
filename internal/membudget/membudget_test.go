package membudget

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

type fakeFiles struct {
	m   map[string]string
	rAS uint64 // 0: no ulimit -v
}

func (f fakeFiles) read(p string) (string, error) {
	if s, ok := f.m[p]; ok {
		return s, nil
	}
	return "", fs.ErrNotExist
}

func (f fakeFiles) rlimitAS() (uint64, bool) { return f.rAS, f.rAS > 0 }

const gib = 1 << 30

func TestBudgetFromLimits(t *testing.T) {
	meminfo := "MemTotal: 25165824 kB\nMemAvailable: 20971520 kB\n" // 20 GiB available
	tests := []struct {
		name  string
		f     fakeFiles
		bytes uint64
		src   string
	}{
		{"machine only", fakeFiles{m: map[string]string{"/proc/meminfo": meminfo, "/proc/self/cgroup": "0::/\n",
			"/sys/fs/cgroup/memory.max": "max\n"}}, 20 * gib, "the machine's available memory"},
		{"cgroup v2, limit on a parent", fakeFiles{m: map[string]string{"/proc/meminfo": meminfo,
			"/proc/self/cgroup":                        "0::/user.slice/job\n",
			"/sys/fs/cgroup/user.slice/job/memory.max": "max\n",
			"/sys/fs/cgroup/user.slice/memory.max":     "3221225472\n", "/sys/fs/cgroup/user.slice/memory.current": "1073741824\n",
		}}, 2 * gib, "the memory cgroup's limit"},
		{"cgroup v1", fakeFiles{m: map[string]string{"/proc/meminfo": meminfo,
			"/proc/self/cgroup": "4:memory:/job\n3:cpu:/\n",
			"/sys/fs/cgroup/memory/job/memory.limit_in_bytes": "3221225472\n", "/sys/fs/cgroup/memory/job/memory.usage_in_bytes": "0\n",
		}}, 3 * gib, "the memory cgroup's limit"},
		{"cgroup v1 unlimited", fakeFiles{m: map[string]string{"/proc/meminfo": meminfo,
			"/proc/self/cgroup": "4:memory:/job\n", "/sys/fs/cgroup/memory/memory.limit_in_bytes": "9223372036854771712\n",
		}}, 20 * gib, "the machine's available memory"},
		{"ulimit -v", fakeFiles{m: map[string]string{"/proc/meminfo": meminfo, "/proc/self/status": "VmSize:\t 1048576 kB\n"},
			rAS: 3 * gib}, 2 * gib, "ulimit -v"},
		{"nothing known", fakeFiles{m: map[string]string{}}, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := fromSystem(tc.f)
			if b.Bytes != tc.bytes || b.Source != tc.src {
				t.Fatalf("budget %d (%s), want %d (%s)", b.Bytes, b.Source, tc.bytes, tc.src)
			}
		})
	}
}

func TestOverrideAndCheck(t *testing.T) {
	t.Setenv(Env, "2GiB")
	if err := Check("a small thing", 1<<30); err != nil {
		t.Fatal(err)
	}
	err := Check("generating rmat:scale=26", 17*gib)
	var e *Error
	if !errors.As(err, &e) || !strings.Contains(err.Error(), "generating rmat:scale=26 needs about 17.0 GiB of memory, more than the 2.0 GiB left by GRAVF_MAX_MEMORY") {
		t.Fatalf("err = %v", err)
	}
	t.Setenv(Env, "lots")
	if err := Check("x", 1); err == nil || !strings.Contains(err.Error(), "GRAVF_MAX_MEMORY") {
		t.Fatalf("bad override: %v", err)
	}
}

func TestSizes(t *testing.T) {
	for in, want := range map[string]uint64{"3GiB": 3 * gib, "512 MB": 512e6, "1e9": 1e9, "10kib": 10240, "7B": 7} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "-1GB", "1e30TB"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
	if s := FormatSize(17 * gib); s != "17.0 GiB" {
		t.Errorf("FormatSize = %q", s)
	}
}
