package diskcache

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
)

// KeyHash builds a Key from the fields a result depends on. Every field
// is written with its length, so that two different lists of fields never
// hash alike ("ab","c" against "a","bc").
type KeyHash struct{ h hash.Hash }

// NewKeyHash starts a key; what names the result's layout and version
// (say "activity v1"), so that a new layout never reads an old entry.
func NewKeyHash(what string) *KeyHash {
	k := &KeyHash{h: sha256.New()}
	k.String(what)
	return k
}

// Bytes adds a field.
func (k *KeyHash) Bytes(b []byte) *KeyHash {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
	k.h.Write(n[:])
	k.h.Write(b)
	return k
}

// String adds a field.
func (k *KeyHash) String(s string) *KeyHash { return k.Bytes([]byte(s)) }

// Int adds a field.
func (k *KeyHash) Int(i int64) *KeyHash {
	return k.Bytes(binary.LittleEndian.AppendUint64(nil, uint64(i)))
}

// Sum returns the key.
func (k *KeyHash) Sum() Key {
	var key Key
	k.h.Sum(key[:0])
	return key
}
