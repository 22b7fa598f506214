package event

import (
	"fmt"
	"strings"
	"time"

	"github.com/tridboard/tridboard/trust"
)

// SetKey is what the desk shows of one set's key: the key it announces on
// <prefix>/<set>/key (unsigned: anyone may publish there, so it is trusted
// only once a person has compared its fingerprint with the one the set's
// own page shows) and the key the event trusts for it, if any.
type SetKey struct {
	Set                  string `json:"set"`
	Announced            string `json:"announced,omitempty"`
	AnnouncedFingerprint string `json:"announced_fingerprint,omitempty"`
	Trusted              string `json:"trusted,omitempty"`
	TrustedFingerprint   string `json:"trusted_fingerprint,omitempty"`
	// How the trusted key came: "enrolled" (at the desk, or by "tridboard
	// key") or "first use" (its first signed state, --enrolled-only off).
	How   string    `json:"how,omitempty"`
	Since time.Time `json:"since,omitzero"`
	// Status is one of KeyEnrolled, KeyFirstUse, KeyAnnounced, KeyDiffers
	// or KeyNone.
	Status string `json:"status"`
}

// The states of a set's key on the desk.
const (
	KeyEnrolled  = "enrolled"  // enrolled, and the set announces that key (or nothing)
	KeyFirstUse  = "first use" // trusted at its first signed state: compare and enrol it
	KeyAnnounced = "announced" // announced, not trusted yet: compare and enrol it
	KeyDiffers   = "differs"   // the set announces a key other than the trusted one
	KeyNone      = "none"      // nothing known yet
)

// Announce takes the key set announces on <prefix>/<set>/key. It changes
// nothing the event trusts: the desk shows it for the organiser to compare
// and enrol.
func (r *Runner) Announce(set string, pub trust.PublicKey) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.isBoard(set) || len(r.announced) < 4*len(r.cfg.Boards)+64 {
		r.announced[set] = pub
	}
}

// Keys returns the keys of the event's sets, board order.
func (r *Runner) Keys() []SetKey {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.keys()
}

func (r *Runner) keys() []SetKey {
	ks := make([]SetKey, 0, len(r.cfg.Boards))
	for _, b := range r.cfg.Boards {
		k := SetKey{Set: b, Status: KeyNone}
		a, announced := r.announced[b]
		if announced {
			k.Announced, k.AnnouncedFingerprint, k.Status = a.String(), a.Fingerprint(), KeyAnnounced
		}
		if r.o.Keys != nil {
			if _, es := r.o.Keys.Entries(); es[b].Key != nil {
				e := es[b]
				k.Trusted, k.TrustedFingerprint, k.How, k.Since = e.Key.String(), e.Key.Fingerprint(), e.How, e.At
				switch {
				case announced && !a.Equal(e.Key):
					k.Status = KeyDiffers
				case e.How == "first use":
					k.Status = KeyFirstUse
				default:
					k.Status = KeyEnrolled
				}
			}
		}
		ks = append(ks, k)
	}
	return ks
}

// sameFingerprint compares a fingerprint a person typed (any case, with or
// without its dashes and spaces) with pub's.
func sameFingerprint(typed string, pub trust.PublicKey) bool {
	norm := func(s string) string {
		return strings.Map(func(c rune) rune {
			if c == '-' || c == ' ' || c == ':' {
				return -1
			}
			return c
		}, strings.ToLower(s))
	}
	return norm(typed) != "" && norm(typed) == norm(pub.Fingerprint())
}

// keyToEnroll is the key the desk enrols for set: key when given (as
// "ed25519:..."), else the one set announces, else the one first seen on
// its signed state; fingerprint must be its
// fingerprint, as the organiser read it on the set's page.
func (r *Runner) keyToEnroll(set, key, fingerprint string) (trust.PublicKey, error) {
	var pub trust.PublicKey
	if key != "" {
		p, err := trust.ParsePublicKey(key)
		if err != nil {
			return nil, fmt.Errorf("event: set %s: %w", set, err)
		}
		pub = p
	} else if p, ok := r.announced[set]; ok {
		pub = p
	} else if p, ok := r.trusted(set); ok {
		pub = p // first seen on its signed state (trust on first use)
	} else {
		return nil, fmt.Errorf("event: set %s announces no key: give its key (\"tridboard key show\" on the set)", set)
	}
	if !sameFingerprint(fingerprint, pub) {
		return nil, fmt.Errorf("event: set %s: fingerprint %q is not its key's (%s): compare with the set's page before enrolling",
			set, fingerprint, pub.Fingerprint())
	}
	return pub, nil
}

// EnrollKey trusts a key for one of the event's sets from now on, in place
// of any before (a re-enrolment: a set whose state directory was replaced
// has a new key): key when given, else the one the set announces, and only
// when fingerprint is that key's (as the organiser reads it on the set's
// page or in its doctor). Journaled with reason.
func (r *Runner) EnrollKey(set, key, fingerprint, reason string) (SetKey, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.isBoard(set) {
		return SetKey{}, fmt.Errorf("event: %q is not one of the event's sets: %w", set, ErrNotFound)
	}
	pub, err := r.keyToEnroll(set, key, fingerprint)
	if err != nil {
		return SetKey{}, err
	}
	if err := r.decide(Decision{Op: "key", Set: set, Key: pub.String(), By: "arbiter", Reason: reason}); err != nil {
		return SetKey{}, err
	}
	return r.setKey(set), nil
}

// ForgetKey drops the key trusted for set: its states are refused until
// it is enrolled again (or, with trust on first use, its next signed state
// pins a key). Journaled with reason.
func (r *Runner) ForgetKey(set, reason string) (SetKey, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.o.Keys == nil {
		return SetKey{}, fmt.Errorf("event: the event keeps no keys")
	}
	pub, ok := r.o.Keys.Key(set)
	if !ok {
		return SetKey{}, fmt.Errorf("event: set %s has no key trusted: %w", set, ErrNotFound)
	}
	if err := r.decide(Decision{Op: "key-forget", Set: set, Key: pub.String(), By: "arbiter", Reason: reason}); err != nil {
		return SetKey{}, err
	}
	return r.setKey(set), nil
}

// trusted is the key the event's keyring holds for set.
func (r *Runner) trusted(set string) (trust.PublicKey, bool) {
	if r.o.Keys == nil {
		return nil, false
	}
	return r.o.Keys.Key(set)
}

func (r *Runner) setKey(set string) SetKey {
	for _, k := range r.keys() {
		if k.Set == set {
			return k
		}
	}
	return SetKey{Set: set, Status: KeyNone}
}

// applyKey applies a "key" or "key-forget" decision (and the key an
// "addset" carries) to the event's keyring: what a replay does too, so that
// the keyring follows the journal. A dry run (no keyring) only checks.
func (r *Runner) applyKey(d Decision) error {
	pub, err := trust.ParsePublicKey(d.Key)
	if err != nil {
		return fmt.Errorf("event: set %s: %w", d.Set, err)
	}
	if d.Op != "addset" && !r.isBoard(d.Set) {
		return fmt.Errorf("event: %q is not one of the event's sets: %w", d.Set, ErrNotFound)
	}
	ring := r.o.Keys
	if ring == nil {
		return nil
	}
	old, had := ring.Key(d.Set)
	switch {
	case d.Op == "key-forget":
		if !had || !old.Equal(pub) {
			return nil // replaced or forgotten since
		}
		err = ring.Remove(d.Set)
	case had && old.Equal(pub):
		if _, es := ring.Entries(); es[d.Set].How == "enrolled" {
			return nil
		}
		err = ring.Enroll(d.Set, pub) // a key pinned on first use, now enrolled
	default:
		err = ring.Enroll(d.Set, pub)
	}
	if err != nil {
		return err
	}
	if f, ok := r.link.(interface{ ForgetKey(set string) }); ok && (!had || !old.Equal(pub)) {
		f.ForgetKey(d.Set) // a new key counts its signatures from its own start
	}
	return nil
}
