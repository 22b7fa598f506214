package trust

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestSealKeepsThePayloadReadable(t *testing.T) {
	k, err := NewKey()
	if err != nil {
		t.Fatal(err)
	}
	for _, body := range []string{`{"game":"g1","moves":["b2W-b4N"],"v":1}`, `{}`, " {\"a\":1} \n"} {
		p, err := k.Seal("enterprise", "state", []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(p, &m); err != nil {
			t.Fatalf("%s: signed payload %s is not JSON: %v", body, p, err)
		}
		if _, ok := m["sig"]; !ok {
			t.Errorf("%s: no sig field in %s", body, p)
		}
		s, err := Open(p)
		if err != nil {
			t.Fatalf("open %s: %v", p, err)
		}
		if want := bytes.TrimSpace([]byte(body)); !bytes.Equal(s.Body, want) {
			t.Errorf("body %q, want %q", s.Body, want)
		}
		if err := s.Verify(k.Public(), "enterprise", "state"); err != nil {
			t.Errorf("verify %s: %v", p, err)
		}
	}
	if _, err := k.Seal("b", "state", []byte(`["not an object"]`)); err == nil {
		t.Error("sealed a JSON array")
	}
}

func TestVerifyRefuses(t *testing.T) {
	k, _ := NewKey()
	other, _ := NewKey()
	good, _ := k.Seal("enterprise", "state", []byte(`{"result":"*"}`))
	byOther, _ := other.Seal("enterprise", "state", []byte(`{"result":"*"}`))
	for _, tc := range []struct {
		name, board, kind string
		payload           []byte
		want              error
	}{
		{"tampered body", "enterprise", "state", bytes.Replace(good, []byte(`"*"`), []byte(`"0-1"`), 1), ErrBadSig},
		{"another set's topic", "klingon", "state", good, ErrBadSig},
		{"another kind", "enterprise", "remote", good, ErrBadSig},
		{"another key", "enterprise", "state", byOther, ErrUnknown},
		{"counter changed", "enterprise", "state", bytes.Replace(good, []byte(".1."), []byte(".9."), 1), ErrBadSig},
	} {
		s, err := Open(tc.payload)
		if err == nil {
			err = s.Verify(k.Public(), tc.board, tc.kind)
		}
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	for _, p := range []string{`{"result":"*"}`, `{"sig":"x"}`, `{"a":1,"sig":"a.b.c"}`, ``, `}`} {
		if _, err := Open([]byte(p)); !errors.Is(err, ErrUnsigned) {
			t.Errorf("open %q: %v, want ErrUnsigned", p, err)
		}
	}
}

func TestChecker(t *testing.T) {
	k, _ := NewKey()
	forger, _ := NewKey()
	ring, _ := OpenRing("")
	if err := ring.Enroll("enterprise", k.Public()); err != nil {
		t.Fatal(err)
	}
	o := DefaultCheckerOpts(ring)
	o.Log, o.MaxSize = quiet(), 1024
	c := NewChecker(o)
	seal := func(key *Key, kind, body string) []byte {
		p, err := key.Seal("enterprise", kind, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	s1 := seal(k, "state", `{"moves":[]}`)
	s2 := seal(k, "state", `{"moves":["a"]}`)
	m1 := seal(k, "move", `{"seq":1}`)
	m2 := seal(k, "move", `{"seq":2}`)
	steps := []struct {
		name, board, kind string
		payload           []byte
		want              string // "" taken, else Reason
	}{
		{"first state", "enterprise", "state", s1, ""},
		{"newer state", "enterprise", "state", s2, ""},
		{"the same state again (retained, redelivered)", "enterprise", "state", s2, ""},
		{"older state replayed", "enterprise", "state", s1, "replay"},
		{"forged by another key", "enterprise", "state", seal(forger, "state", `{"moves":["a","b"]}`), "unknown key"},
		{"unsigned", "enterprise", "state", []byte(`{"moves":["a","b"]}`), "unsigned"},
		{"a set not enrolled", "klingon", "state", s2, "unknown key"},
		{"too large", "enterprise", "state", append(s2[:len(s2)-1], []byte(strings.Repeat(" ", 2000)+"}")...), "too large"},
		{"move 2 before move 1 (a broker's redelivery)", "enterprise", "move", m2, ""},
		{"move 1", "enterprise", "move", m1, ""},
	}
	for _, st := range steps {
		_, err := c.Check(st.board, st.kind, st.payload)
		got := ""
		if err != nil {
			got = Reason(err)
		}
		if got != st.want {
			t.Errorf("%s: %q (%v), want %q", st.name, got, err, st.want)
		}
	}
	if got, want := c.Refused(), int64(5); got != want {
		t.Errorf("refused %d, want %d", got, want)
	}
	if got := c.RefusedBy(); got["unknown key"] != 2 || got["replay"] != 1 || got["unsigned"] != 1 || got["too large"] != 1 {
		t.Errorf("refused by reason %v", got)
	}
}

func TestCheckerFirstUse(t *testing.T) {
	dir := t.TempDir()
	ring, _ := OpenRing(filepath.Join(dir, "keys.json"))
	ring.FirstUse = true
	o := DefaultCheckerOpts(ring)
	o.Log = quiet()
	c := NewChecker(o)
	real, _ := NewKey()
	forger, _ := NewKey()
	p, _ := real.Seal("klingon", "state", []byte(`{"a":1}`))
	if _, err := c.Check("klingon", "state", p); err != nil {
		t.Fatalf("first key: %v", err)
	}
	f, _ := forger.Seal("klingon", "state", []byte(`{"a":2}`))
	if _, err := c.Check("klingon", "state", f); !errors.Is(err, ErrUnknown) {
		t.Errorf("a second key: %v, want ErrUnknown", err)
	}
	again, err := OpenRing(filepath.Join(dir, "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	if k, ok := again.Key("klingon"); !ok || !k.Equal(real.Public()) {
		t.Errorf("pinned key not kept in the file: %v %v", k, ok)
	}
}

func TestKeyFile(t *testing.T) {
	dir := t.TempDir()
	k1, err := LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	p1, _ := k1.Seal("b", "state", []byte(`{}`))
	k2, err := LoadOrCreate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !k1.Public().Equal(k2.Public()) {
		t.Fatal("the key changed across a restart")
	}
	p2, _ := k2.Seal("b", "state", []byte(`{}`))
	s1, _ := Open(p1)
	s2, _ := Open(p2)
	if s2.Counter <= s1.Counter {
		t.Errorf("counter after a restart %d, before %d: want higher", s2.Counter, s1.Counter)
	}
	if err := os.Chmod(filepath.Join(dir, KeyFile), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadOrCreate(dir); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("a key readable by others: %v, want a refusal saying chmod 600", err)
	}
}

func TestPublicKeyString(t *testing.T) {
	k, _ := NewKey()
	s := k.Public().String()
	p, err := ParsePublicKey(s)
	if err != nil || !p.Equal(k.Public()) {
		t.Fatalf("parse %q: %v", s, err)
	}
	if fp := k.Public().Fingerprint(); len(fp) != 19 || strings.Count(fp, "-") != 3 {
		t.Errorf("fingerprint %q", fp)
	}
	for _, bad := range []string{"", "ed25519:", "ed25519:AAAA", "ed25519:!!"} {
		if _, err := ParsePublicKey(bad); err == nil {
			t.Errorf("parsed %q", bad)
		}
	}
}

func TestSealSameIsByteIdentical(t *testing.T) {
	k, _ := NewKey()
	a, _ := k.SealSame("b", "move", []byte(`{"seq":1}`))
	b, _ := k.SealSame("b", "move", []byte(`{"seq":1}`))
	if !bytes.Equal(a, b) {
		t.Errorf("%s and %s differ", a, b)
	}
	ring, _ := OpenRing("")
	ring.Enroll("b", k.Public())
	o := DefaultCheckerOpts(ring)
	o.Log = quiet()
	c := NewChecker(o)
	if _, err := c.Check("b", "move", a); err != nil {
		t.Errorf("move: %v", err)
	}
	s, _ := k.SealSame("b", "state", []byte(`{"a":1}`))
	if _, err := c.Check("b", "state", s); !errors.Is(err, ErrReplay) {
		t.Errorf("a state without a counter: %v, want ErrReplay", err)
	}
}
