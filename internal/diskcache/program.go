package diskcache

import (
	"crypto/sha256"
	"io"
	"os"
	"sync"
)

// programHash is the SHA-256 of the running executable, computed once. A
// result depends on the code that derived it as much as on its inputs:
// with the program in every key, a new build (a changed model, a fixed
// bug) never reads what an old one stored, without a version number that
// someone must remember to raise.
var programHash = sync.OnceValues(func() (Key, error) {
	var k Key
	exe, err := os.Executable()
	if err != nil {
		return k, err
	}
	f, err := os.Open(exe)
	if err != nil {
		return k, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return k, err
	}
	h.Sum(k[:0])
	return k, nil
})

// entryKey is the key of an entry's file: the caller's key under this
// program's hash.
func entryKey(key Key) (Key, bool) {
	prog, err := programHash()
	if err != nil {
		return Key{}, false
	}
	return NewKeyHash("entry").Bytes(prog[:]).Bytes(key[:]).Sum(), true
}
