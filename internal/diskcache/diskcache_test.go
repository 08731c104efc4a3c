package diskcache

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gravf-tui/gravf-tui/internal/testenv"
)

func key(s string) Key { return NewKeyHash("test").String(s).Sum() }

func TestPutGet(t *testing.T) {
	s := New(t.TempDir(), 1<<20)
	if _, ok := s.Get("a", key("x")); ok {
		t.Fatal("hit in an empty cache")
	}
	if err := s.Put("a", key("x"), []byte("payload")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind string
		key  Key
		want string
		ok   bool
	}{
		{"a", key("x"), "payload", true},
		{"b", key("x"), "", false},
		{"a", key("y"), "", false},
	} {
		got, ok := s.Get(tc.kind, tc.key)
		if ok != tc.ok || string(got) != tc.want {
			t.Errorf("Get(%s, %x) = %q, %v; want %q, %v", tc.kind, tc.key[:4], got, ok, tc.want, tc.ok)
		}
	}
	var off *Store
	if err := off.Put("a", key("x"), nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := off.Get("a", key("x")); ok {
		t.Fatal("a nil store hits")
	}
}

func TestOff(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv(EnvVar, "off")
	if Open() != nil {
		t.Fatal("GRAVF_CACHE=off opens a cache")
	}
	t.Setenv(EnvVar, "")
	if s := Open(); s == nil || filepath.Dir(filepath.Dir(s.Dir())) != os.Getenv("XDG_CACHE_HOME") {
		t.Fatalf("the cache is at %q", s.Dir())
	}
}

// TestEviction fills a small cache: the least recently used entries go,
// the one just written and the one just read stay.
func TestEviction(t *testing.T) {
	s := New(t.TempDir(), 3500)
	payload := bytes.Repeat([]byte{7}, 1000)
	past := time.Now().Add(-time.Hour)
	for i := range 3 {
		if err := s.Put("k", key(fmt.Sprint(i)), payload); err != nil {
			t.Fatal(err)
		}
		p, _ := s.path("k", key(fmt.Sprint(i)))
		at := past.Add(time.Duration(i) * time.Minute)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := s.Get("k", key("0")); !ok { // 0 is now the most recent
		t.Fatal("miss")
	}
	if err := s.Put("k", key("3"), payload); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false, true, true} {
		if _, ok := s.Get("k", key(fmt.Sprint(i))); ok != want {
			t.Errorf("entry %d kept %v, want %v", i, ok, want)
		}
	}
	if err := s.Put("k", key("big"), make([]byte, 4000)); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get("k", key("big")); ok {
		t.Error("an entry above the bound is stored")
	}
}

// TestConcurrentWriters has goroutines write and read one entry at once:
// every read is a miss or the whole payload.
func TestConcurrentWriters(t *testing.T) {
	s := New(t.TempDir(), 1<<30)
	payload := bytes.Repeat([]byte("0123456789"), 100000)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			for range 5 {
				if err := s.Put("k", key("x"), payload); err != nil {
					t.Error(err)
				}
			}
		}()
		go func() {
			defer wg.Done()
			for range 20 {
				if got, ok := s.Get("k", key("x")); ok && !bytes.Equal(got, payload) {
					t.Error("a partial entry")
				}
			}
		}()
	}
	wg.Wait()
}

func TestKeyFieldsAreDelimited(t *testing.T) {
	a := NewKeyHash("t").String("ab").String("c").Sum()
	b := NewKeyHash("t").String("a").String("bc").Sum()
	if a == b {
		t.Fatal("fields run into each other")
	}
}

// FuzzDecode feeds the entry reader any bytes: it returns the payload of
// a whole entry or fails, within the time budget.
func FuzzDecode(f *testing.F) {
	f.Add(Encode("k", key("x"), []byte("payload")), "k")
	f.Add(Encode("k", key("x"), nil), "k")
	f.Add([]byte(magic), "")
	f.Fuzz(func(t *testing.T, data []byte, kind string) {
		var p []byte
		var err error
		testenv.WithinBudget(t, len(data), func() { p, err = Decode(data, kind, key("x")) })
		if err == nil && !bytes.Equal(Encode(kind, key("x"), p), data) {
			t.Fatal("accepted something Encode does not write")
		}
	})
}
