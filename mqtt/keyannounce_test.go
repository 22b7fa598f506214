package mqtt

import (
	"strings"
	"testing"

	"github.com/tridboard/tridboard/trust"
)

// The key a set announces reads back; an empty, a malformed or a short key
// is an error.
func TestParseKeyAnnouncement(t *testing.T) {
	k, err := trust.NewKey()
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseKeyAnnouncement(KeyAnnouncement(k.Public()))
	if err != nil || !got.Equal(k.Public()) {
		t.Fatalf("read back %v, %v", got, err)
	}
	for _, tc := range []struct{ payload, want string }{
		{``, "key announcement"},
		{`{"key":""}`, "bytes, want 32"},
		{`{"key":"ed25519:AAAA"}`, "bytes, want 32"},
		{`{"key":"not base64!"}`, "not base64"},
		{`["ed25519:AAAA"]`, "key announcement"},
	} {
		if _, err := ParseKeyAnnouncement([]byte(tc.payload)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error with %q", tc.payload, err, tc.want)
		}
	}
}
