// Package trust is how a tridboard set signs what it says and how a reader
// checks it: a per-set Ed25519 key (crypto/ed25519), made at the first
// start and kept in the set's state directory; a signed envelope that
// leaves a JSON payload readable by any subscriber (the signature is one
// more field, "sig", appended last); a Checker that refuses what a known
// key did not sign, what a key signed earlier (a replayed retained
// message), and what is too large, before it is parsed; and a Ring, the
// keys a reader trusts, by board id, kept in a file.
//
// The signature covers the exact bytes of the payload without its "sig"
// field, together with the board id, the kind of message (state, move,
// event, remote, a command's name) and a counter that only rises, so a
// signed state cannot be passed off as another set's, as a record, or as
// a newer state (docs/mqtt.md, "Signed messages").
package trust
