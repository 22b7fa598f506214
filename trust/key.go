package trust

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tridboard/tridboard/internal/durable"
)

// Files in a set's state directory.
const (
	// KeyFile holds the set's private key (PEM, PKCS #8), mode 0600.
	KeyFile = "sign.key"
	// CounterFile holds the highest counter the set may have used: the
	// counter of a signature never goes back, across restarts too.
	CounterFile = "sign.counter"
)

// counterBlock is how many counters are reserved with one write of
// CounterFile: a restart skips what was reserved and not used.
const counterBlock = 1 << 20

// PublicKey is a set's public key.
type PublicKey ed25519.PublicKey

// String is the key as configuration and commands take it:
// "ed25519:<base64 of the 32 bytes>".
func (p PublicKey) String() string { return "ed25519:" + base64.StdEncoding.EncodeToString(p) }

// Fingerprint is the key's short fingerprint, as the set's page, doctor
// and the desk show it for a person to compare: the first 8 bytes of its
// SHA-256, in four groups of hex digits ("3f2a-91c0-7d4e-b815").
func (p PublicKey) Fingerprint() string {
	h := sha256.Sum256(p)
	x := fmt.Sprintf("%x", h[:8])
	return x[0:4] + "-" + x[4:8] + "-" + x[8:12] + "-" + x[12:16]
}

// Equal reports whether p and q are the same key.
func (p PublicKey) Equal(q PublicKey) bool { return ed25519.PublicKey(p).Equal(ed25519.PublicKey(q)) }

// ParsePublicKey reads what String writes (the "ed25519:" may be left out).
func ParsePublicKey(s string) (PublicKey, error) {
	b64 := strings.TrimPrefix(strings.TrimSpace(s), "ed25519:")
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		if b, err = base64.RawURLEncoding.DecodeString(b64); err != nil {
			return nil, fmt.Errorf("trust: public key %q: not base64", s)
		}
	}
	if len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("trust: public key %q: %d bytes, want %d", s, len(b), ed25519.PublicKeySize)
	}
	return PublicKey(b), nil
}

// Key is a set's signing key and its counter.
type Key struct {
	priv ed25519.PrivateKey
	pub  PublicKey
	dir  string // "" for a key kept in memory only

	mu       sync.Mutex
	next     uint64 // the next counter to use
	reserved uint64 // counters below it are reserved in CounterFile
}

// NewKey makes a key kept in memory only (tests, a follower that signs its
// commands for one run).
func NewKey() (*Key, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("trust: new key: %w", err)
	}
	return &Key{priv: priv, pub: PublicKey(pub), next: 1, reserved: ^uint64(0)}, nil
}

// LoadOrCreate reads the key in dir (KeyFile), or makes one and writes it
// (mode 0600) when there is none. A key file readable by others is refused:
// anyone who reads it can speak for the set.
func LoadOrCreate(dir string) (*Key, error) {
	name := filepath.Join(dir, KeyFile)
	b, err := os.ReadFile(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		k, err := NewKey()
		if err != nil {
			return nil, err
		}
		der, err := x509.MarshalPKCS8PrivateKey(k.priv)
		if err != nil {
			return nil, fmt.Errorf("trust: key %s: %w", name, err)
		}
		if err := writePrivate(name, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})); err != nil {
			return nil, fmt.Errorf("trust: writing key %s: %w", name, err)
		}
		k.dir = dir
		return k, k.loadCounter()
	case err != nil:
		return nil, fmt.Errorf("trust: key %s: %w", name, err)
	}
	if fi, err := os.Stat(name); err == nil && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("trust: key %s: mode %v lets others read it: chmod 600 %s", name, fi.Mode().Perm(), name)
	}
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, fmt.Errorf("trust: key %s: no PEM PRIVATE KEY in it (remove it to make a new key; the set must then be enrolled again)", name)
	}
	anyKey, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("trust: key %s: %w", name, err)
	}
	priv, ok := anyKey.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("trust: key %s: not an Ed25519 key", name)
	}
	k := &Key{priv: priv, pub: PublicKey(priv.Public().(ed25519.PublicKey)), dir: dir}
	return k, k.loadCounter()
}

// writePrivate writes data to name, mode 0600, so that a crash leaves the
// old file or the new one.
func writePrivate(name string, data []byte) error {
	return durable.WriteAtomicMode(name, data, 0o600)
}

// loadCounter starts the counter above whatever was reserved before.
func (k *Key) loadCounter() error {
	name := filepath.Join(k.dir, CounterFile)
	b, err := os.ReadFile(name)
	switch {
	case errors.Is(err, os.ErrNotExist):
		k.next = 1
	case err != nil:
		return fmt.Errorf("trust: counter %s: %w", name, err)
	case len(b) != 8:
		return fmt.Errorf("trust: counter %s: %d bytes, want 8 (it only ever grows: remove it only with the key)", name, len(b))
	default:
		k.next = binary.BigEndian.Uint64(b)
	}
	k.reserved = k.next
	return k.reserve()
}

// reserve writes a new block of counters above next; k.mu is held (or k is
// not shared yet).
func (k *Key) reserve() error {
	hi := k.next + counterBlock
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], hi)
	if err := durable.WriteAtomic(filepath.Join(k.dir, CounterFile), b[:]); err != nil {
		return fmt.Errorf("trust: counter: %w", err)
	}
	k.reserved = hi
	return nil
}

// Public is the key's public half.
func (k *Key) Public() PublicKey { return k.pub }

// counter hands out the next counter.
func (k *Key) counter() (uint64, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.next >= k.reserved {
		if err := k.reserve(); err != nil {
			return 0, err
		}
	}
	n := k.next
	k.next++
	return n, nil
}
