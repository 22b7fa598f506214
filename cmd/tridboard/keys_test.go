package main

import (
	"bytes"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/trust"
)

// tridboard key: shows the set's key (the same each time), trusts another
// set's, allows a sender of commands; a set told a sender takes only
// signed commands; bad keys are refused with usage's status.
func TestKeyCommand(t *testing.T) {
	dir := t.TempDir()
	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := dispatch(append([]string{"key", "--state-dir", dir}, args...), &out, &errb)
		return out.String(), errb.String(), code
	}
	show, _, code := run()
	if code != exitOK || !strings.HasPrefix(show, "ed25519:") || !strings.Contains(show, "fingerprint ") {
		t.Fatalf("key: %d %q", code, show)
	}
	if again, _, _ := run("show"); again != show {
		t.Errorf("the key changed: %q then %q", show, again)
	}
	other, _ := trust.NewKey()
	if out, _, code := run("trust", "klingon", other.Public().String()); code != exitOK || !strings.Contains(out, other.Public().Fingerprint()) {
		t.Errorf("trust: %d %q", code, out)
	}
	ring, _ := trust.OpenRing(filepath.Join(dir, peerKeysFile))
	if k, ok := ring.Key("klingon"); !ok || !k.Equal(other.Public()) {
		t.Error("the trusted key is not in peer_keys.json")
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	st, err := loadTrust(dir, log)
	if err != nil || st.auth != nil {
		t.Fatalf("before any sender: auth %v, %v", st.auth, err)
	}
	if _, _, code := run("allow", "event", other.Public().String()); code != exitOK {
		t.Fatalf("allow: %d", code)
	}
	if st, err = loadTrust(dir, log); err != nil || st.auth == nil {
		t.Fatalf("after allow: commands not signed only (%v)", err)
	}
	if _, errs, code := run("trust", "klingon", "ed25519:AAAA"); code != exitUsage || !strings.Contains(errs, "public key") {
		t.Errorf("a bad key: %d %q", code, errs)
	}
	if _, _, code := run("frobnicate"); code != exitUsage {
		t.Errorf("an unknown verb: %d", code)
	}
	if out, _, _ := run("forget", "klingon"); out != "" {
		t.Errorf("forget: %q", out)
	}
	ring, _ = trust.OpenRing(filepath.Join(dir, peerKeysFile))
	if _, ok := ring.Key("klingon"); ok {
		t.Error("forget left the key")
	}
	if line := keyLine(dir); !strings.Contains(line, "fingerprint "+st.key.Public().Fingerprint()) {
		t.Errorf("doctor's line %q", line)
	}
}

// tridboard hall writes the files, and writing again keeps the passwords.
func TestHallCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run := func() int {
		return dispatch([]string{"hall", "--out", dir, "--sets", "enterprise,klingon", "--nats", "hall-1,hall-2,hall-3"}, io.Discard, io.Discard)
	}
	if code := run(); code != exitOK {
		t.Fatalf("hall: %d", code)
	}
	pw, _ := os.ReadFile(filepath.Join(dir, "secrets", "set-klingon.pw"))
	for _, f := range []string{"mosquitto/tridboard.conf", "mosquitto/acl", "mosquitto/passwd", "nats/hall-2.conf", "nats/ca.pem"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	if code := run(); code != exitOK {
		t.Fatalf("hall again: %d", code)
	}
	if again, _ := os.ReadFile(filepath.Join(dir, "secrets", "set-klingon.pw")); !bytes.Equal(again, pw) || len(pw) < 20 {
		t.Error("the password changed when written again")
	}
	if code := dispatch([]string{"hall", "--out", dir, "--sets", "hall.1"}, io.Discard, io.Discard); code != exitUsage {
		t.Errorf("a board id with a dot: %d, want %d", code, exitUsage)
	}
}
