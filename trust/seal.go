package trust

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
)

// domain starts every signed message: a signature made for tridboard's
// payloads means nothing elsewhere.
const domain = "tridboard-sig-1\n"

// sigField introduces the signature, the last field of a signed payload.
const sigField = `,"sig":"`

// Errors of Open and Checker.Check, for errors.Is.
var (
	ErrUnsigned = errors.New("not signed")
	ErrBadSig   = errors.New("bad signature")
	ErrUnknown  = errors.New("signed by a key not trusted for this set")
	ErrReplay   = errors.New("replayed: signed before the last one taken")
	ErrTooLarge = errors.New("too large")
)

// message is what is signed: the domain, the board, the kind, the counter
// and the payload's exact bytes without the signature.
func message(board, kind string, counter uint64, body []byte) []byte {
	m := make([]byte, 0, len(domain)+len(board)+len(kind)+24+len(body))
	m = append(m, domain...)
	m = append(m, board...)
	m = append(m, '\n')
	m = append(m, kind...)
	m = append(m, '\n')
	m = strconv.AppendUint(m, counter, 10)
	m = append(m, '\n')
	return append(m, body...)
}

// Seal signs body, a JSON object, as board's message of kind, and returns
// the payload to publish: body with one more field, last,
// "sig":"<public key>.<counter>.<signature>" (base64url without padding).
// A reader that knows nothing of signatures reads the payload as before.
func (k *Key) Seal(board, kind string, body []byte) ([]byte, error) {
	n, err := k.counter()
	if err != nil {
		return nil, err
	}
	return k.seal(board, kind, n, body)
}

// SealSame signs body as Seal does but with the counter 0, so that the same
// body signed twice gives the same bytes (Ed25519 is deterministic): for
// messages whose readers drop duplicates by their own numbering (moves, by
// seq), which are sent again byte for byte after a lost acknowledgement.
// A Checker takes them only for kinds that are not Ordered.
func (k *Key) SealSame(board, kind string, body []byte) ([]byte, error) {
	return k.seal(board, kind, 0, body)
}

func (k *Key) seal(board, kind string, n uint64, body []byte) ([]byte, error) {
	body = bytes.TrimSpace(body)
	if len(body) < 2 || body[0] != '{' || body[len(body)-1] != '}' {
		return nil, fmt.Errorf("trust: seal %s %s: want a JSON object", board, kind)
	}
	sig := ed25519.Sign(k.priv, message(board, kind, n, body))
	enc := base64.RawURLEncoding
	out := make([]byte, 0, len(body)+160)
	out = append(out, body[:len(body)-1]...)
	if len(bytes.TrimSpace(body[1:len(body)-1])) == 0 {
		out = append(out, sigField[1:]...) // {} has no field to follow
	} else {
		out = append(out, sigField...)
	}
	out = enc.AppendEncode(out, k.pub)
	out = append(out, '.')
	out = strconv.AppendUint(out, n, 10)
	out = append(out, '.')
	out = enc.AppendEncode(out, sig)
	return append(out, `"}`...), nil
}

// Sealed is a signed payload taken apart, not yet verified.
type Sealed struct {
	// Body is the payload without its signature: the exact bytes signed.
	Body    []byte
	Key     PublicKey
	Counter uint64
	Sig     []byte
}

// Open takes a signed payload apart; ErrUnsigned when it carries no
// signature, or one that is malformed.
func Open(payload []byte) (Sealed, error) {
	p := bytes.TrimSpace(payload)
	i := bytes.LastIndex(p, []byte(sigField))
	skip := len(sigField)
	empty := false
	if i < 0 {
		// {"sig":"..."}: a signed empty object.
		if !bytes.HasPrefix(p, []byte(`{"sig":"`)) {
			return Sealed{}, ErrUnsigned
		}
		i, skip, empty = 0, len(`{"sig":"`), true
	}
	if !bytes.HasSuffix(p, []byte(`"}`)) || i+skip > len(p)-2 {
		return Sealed{}, ErrUnsigned
	}
	parts := bytes.Split(p[i+skip:len(p)-2], []byte("."))
	if len(parts) != 3 {
		return Sealed{}, fmt.Errorf("%w: malformed sig field", ErrUnsigned)
	}
	enc := base64.RawURLEncoding
	pub, err1 := enc.DecodeString(string(parts[0]))
	n, err2 := strconv.ParseUint(string(parts[1]), 10, 64)
	sig, err3 := enc.DecodeString(string(parts[2]))
	if err1 != nil || err2 != nil || err3 != nil || len(pub) != ed25519.PublicKeySize || len(sig) != ed25519.SignatureSize {
		return Sealed{}, fmt.Errorf("%w: malformed sig field", ErrUnsigned)
	}
	var body []byte
	if empty {
		body = []byte("{}")
	} else {
		body = append(append(make([]byte, 0, i+1), p[:i]...), '}')
	}
	return Sealed{Body: body, Key: PublicKey(pub), Counter: n, Sig: sig}, nil
}

// Verify checks that pub signed s as board's message of kind.
func (s Sealed) Verify(pub PublicKey, board, kind string) error {
	if !s.Key.Equal(pub) {
		return fmt.Errorf("%w: key %s, want %s", ErrUnknown, s.Key.Fingerprint(), pub.Fingerprint())
	}
	if !ed25519.Verify(ed25519.PublicKey(pub), message(board, kind, s.Counter, s.Body), s.Sig) {
		return ErrBadSig
	}
	return nil
}
