package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/tridboard/tridboard/internal/durable"
)

// Ring is the keys a reader trusts, by board id: given to it when the set
// was enrolled (Enroll: the desk, the pairing of two sets, a command), or,
// when FirstUse is on, the key of the first valid signature seen from a set
// that had none (Pin: trust on first use, as ssh does). It is kept in a
// file when it has one. Safe for concurrent use.
type Ring struct {
	path string

	mu   sync.Mutex
	keys map[string]Entry
	// FirstUse lets a Checker pin the key of a set that has none.
	FirstUse bool
}

// Entry is a trusted key and how it came to be trusted.
type Entry struct {
	Key PublicKey `json:"-"`
	// How is "enrolled" (given) or "first use" (pinned).
	How string    `json:"how"`
	At  time.Time `json:"at"`
}

type entryJSON struct {
	Key string `json:"key"`
	Entry
}

// OpenRing reads the ring kept in path (JSON: board id -> key), or starts
// an empty one when the file does not exist; path "" keeps it in memory.
func OpenRing(path string) (*Ring, error) {
	r := &Ring{path: path, keys: map[string]Entry{}}
	if path == "" {
		return r, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("trust: keyring %s: %w", path, err)
	}
	var m map[string]entryJSON
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("trust: keyring %s: %w", path, err)
	}
	for board, e := range m {
		k, err := ParsePublicKey(e.Key)
		if err != nil {
			return nil, fmt.Errorf("trust: keyring %s: set %s: %w", path, board, err)
		}
		e.Entry.Key = k
		r.keys[board] = e.Entry
	}
	return r, nil
}

// Key returns the key trusted for board.
func (r *Ring) Key(board string) (PublicKey, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.keys[board]
	return e.Key, ok
}

// Entries returns the ring's board ids, sorted, and their entries.
func (r *Ring) Entries() ([]string, map[string]Entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.keys))
	m := make(map[string]Entry, len(r.keys))
	for id, e := range r.keys {
		ids = append(ids, id)
		m[id] = e
	}
	sort.Strings(ids)
	return ids, m
}

// Enroll trusts pub for board from now on, in place of any key before.
func (r *Ring) Enroll(board string, pub PublicKey) error {
	return r.set(board, Entry{Key: pub, How: "enrolled", At: time.Now().UTC()}, true)
}

// Pin trusts pub for board if board has no key yet (trust on first use);
// it reports whether pub is now board's key.
func (r *Ring) Pin(board string, pub PublicKey) (bool, error) {
	r.mu.Lock()
	e, ok := r.keys[board]
	r.mu.Unlock()
	if ok {
		return e.Key.Equal(pub), nil
	}
	return true, r.set(board, Entry{Key: pub, How: "first use", At: time.Now().UTC()}, false)
}

// Remove forgets board's key.
func (r *Ring) Remove(board string) error {
	r.mu.Lock()
	delete(r.keys, board)
	r.mu.Unlock()
	return r.save()
}

func (r *Ring) set(board string, e Entry, replace bool) error {
	if board == "" {
		return errors.New("trust: keyring: empty board id")
	}
	r.mu.Lock()
	if _, ok := r.keys[board]; ok && !replace {
		r.mu.Unlock()
		return nil
	}
	r.keys[board] = e
	r.mu.Unlock()
	return r.save()
}

func (r *Ring) save() error {
	if r.path == "" {
		return nil
	}
	r.mu.Lock()
	m := make(map[string]entryJSON, len(r.keys))
	for id, e := range r.keys {
		m[id] = entryJSON{Key: e.Key.String(), Entry: e}
	}
	r.mu.Unlock()
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := durable.WriteAtomic(r.path, append(b, '\n')); err != nil {
		return fmt.Errorf("trust: keyring %s: %w", r.path, err)
	}
	return nil
}
