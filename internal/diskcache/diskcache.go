// Package diskcache owns the persistent cache of results the program
// derives at length from its inputs (the prediction's reference run and
// profiles), so that a second command on the same dataset and kernel reads
// them instead of computing them again.
//
// The store knows nothing of what it holds: a caller names an entry by a
// kind (a folder) and a key, the SHA-256 of everything the result depends
// on, and hands over or gets back opaque bytes. The store guarantees:
//
//   - An entry is a file KIND/HEX under the cache folder, HEX the hash of
//     the key and of the running executable (a new build never reads an
//     old build's results), written
//     atomically (internal/outfile: a temporary file beside it, renamed
//     into place), so concurrent processes writing one entry each leave a
//     whole file, and a reader sees a whole old or a whole new file.
//   - A file carries its kind, its key, its length and a SHA-256 of all
//     of it; a truncated, corrupt or foreign file is a miss, never an
//     error or a panic.
//   - The folder stays under a size bound: after a write, the entries
//     least recently used (by modification time, which a hit refreshes)
//     are removed until the rest fit.
//   - GRAVF_CACHE=off turns it off (Open returns nil, and a nil store
//     misses and stores nothing).
package diskcache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gravf-tui/gravf-tui/internal/outfile"
)

// Key names an entry: the SHA-256 of what the result depends on.
type Key [sha256.Size]byte

// DefaultLimit bounds the cache folder's size.
const DefaultLimit = 1 << 30

// EnvVar turns the cache off when set to "off".
const EnvVar = "GRAVF_CACHE"

// magic starts every entry; a change of the file layout changes it.
const magic = "gravf-tui cache1"

// Store is one cache folder. A nil *Store is a cache that is off.
type Store struct {
	dir   string
	limit int64
}

// Open returns the user's cache, under os.UserCacheDir()/gravf-tui/derived
// (XDG_CACHE_HOME on Linux), bounded by DefaultLimit; nil when GRAVF_CACHE
// is "off" or there is no cache folder.
func Open() *Store {
	if strings.EqualFold(strings.TrimSpace(os.Getenv(EnvVar)), "off") {
		return nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	return New(filepath.Join(dir, "gravf-tui", "derived"), DefaultLimit)
}

// New returns the cache in folder dir holding at most limit bytes.
func New(dir string, limit int64) *Store {
	return &Store{dir: dir, limit: limit}
}

// Dir is the cache's folder ("" for a nil store).
func (s *Store) Dir() string {
	if s == nil {
		return ""
	}
	return s.dir
}

// path is the file of an entry, keyed under the running program (see
// programHash); false when the program cannot be read.
func (s *Store) path(kind string, key Key) (string, bool) {
	k, ok := entryKey(key)
	return filepath.Join(s.dir, kind, hex.EncodeToString(k[:])), ok
}

// Get returns the payload stored under kind and key, and whether there
// was a whole, intact entry; a hit counts as a use for the eviction.
func (s *Store) Get(kind string, key Key) ([]byte, bool) {
	if s == nil {
		return nil, false
	}
	p, ok := s.path(kind, key)
	if !ok {
		return nil, false
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > s.limit {
		return nil, false
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, false
	}
	payload, err := Decode(data, kind, key)
	if err != nil {
		return nil, false
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now)
	return payload, true
}

// Put stores payload under kind and key, then evicts the least recently
// used entries beyond the size bound. An entry larger than the bound is
// not stored. Errors are the caller's to ignore: a cache that cannot be
// written is a cache that misses.
func (s *Store) Put(kind string, key Key, payload []byte) error {
	if s == nil {
		return nil
	}
	data := Encode(kind, key, payload)
	if int64(len(data)) > s.limit {
		return nil
	}
	p, ok := s.path(kind, key)
	if !ok {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := outfile.WriteFile(p, data, 0o644); err != nil {
		return err
	}
	return s.evict(p)
}

// Encode lays out one entry: the magic, the kind, the key, the payload's
// length, the payload and the SHA-256 of all that precedes it.
func Encode(kind string, key Key, payload []byte) []byte {
	b := make([]byte, 0, len(magic)+1+len(kind)+len(key)+8+len(payload)+sha256.Size)
	b = append(b, magic...)
	b = append(b, byte(len(kind)))
	b = append(b, kind...)
	b = append(b, key[:]...)
	b = binary.LittleEndian.AppendUint64(b, uint64(len(payload)))
	b = append(b, payload...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

// errEntry is Decode's error for anything but a whole entry of the kind
// and key asked for.
var errEntry = errors.New("not a whole cache entry of this kind and key")

// Decode returns the payload of an entry laid out by Encode, checking
// its kind, key, length and checksum.
func Decode(data []byte, kind string, key Key) ([]byte, error) {
	head := len(magic) + 1 + len(kind) + len(key) + 8
	if len(kind) > 255 || len(data) < head+sha256.Size {
		return nil, errEntry
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if !bytes.HasPrefix(body, []byte(magic)) {
		return nil, errEntry
	}
	rest := body[len(magic):]
	if int(rest[0]) != len(kind) || string(rest[1:1+len(kind)]) != kind {
		return nil, errEntry
	}
	rest = rest[1+len(kind):]
	if !bytes.Equal(rest[:len(key)], key[:]) {
		return nil, errEntry
	}
	rest = rest[len(key):]
	if n := binary.LittleEndian.Uint64(rest); n != uint64(len(rest)-8) {
		return nil, errEntry
	}
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return nil, errEntry
	}
	return rest[8:], nil
}

// evict removes the least recently used entries until the folder holds at
// most the bound, never the one just written (keep).
func (s *Store) evict(keep string) error {
	type entry struct {
		path string
		size int64
		used time.Time
	}
	var all []entry
	var total int64
	err := filepath.WalkDir(s.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			return nil // temporaries are outfile's to clean
		}
		fi, err := d.Info()
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		all = append(all, entry{p, fi.Size(), fi.ModTime()})
		total += fi.Size()
		return nil
	})
	if err != nil || total <= s.limit {
		return err
	}
	slices.SortFunc(all, func(a, b entry) int { return a.used.Compare(b.used) })
	for _, e := range all {
		if total <= s.limit {
			break
		}
		if e.path == keep {
			continue
		}
		if err := os.Remove(e.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= e.size
		}
	}
	return nil
}
