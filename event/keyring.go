package event

import (
	"path/filepath"

	"github.com/tridboard/tridboard/trust"
)

// KeyringFile is where an event keeps the keys of its sets, in its
// directory: board id -> public key (docs/hall.md, "Keys").
const KeyringFile = "keys.json"

// OpenKeyring opens the keys enrolled for the event's sets (the desk
// enrols a set with Ring.Enroll, after comparing the fingerprint the set's
// page shows with the key it announces on <base>/key). With firstUse, a set
// not enrolled is trusted with the key of its first signed state (logged);
// without, its states are refused until it is enrolled.
func OpenKeyring(dir string, firstUse bool) (*trust.Ring, error) {
	r, err := trust.OpenRing(filepath.Join(dir, KeyringFile))
	if err != nil {
		return nil, err
	}
	r.FirstUse = firstUse
	return r, nil
}

// RunnerKey is the event runner's own key, kept in its directory: it signs
// the commands the runner sends the sets (a set takes them once it is told
// the key: "tridboard key allow event KEY").
func RunnerKey(dir string) (*trust.Key, error) { return trust.LoadOrCreate(dir) }
