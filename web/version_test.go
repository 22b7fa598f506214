package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Issue 37: the wall and a board's page show the version running, and
// that an update is installed but not yet running; a server with no
// version (tridboard view) shows none; markup in a version is escaped.
func TestPagesShowTheVersion(t *testing.T) {
	h := NewHub(DefaultOpts())
	newFakeSet(t, h, "b1", "st3d")
	for _, tc := range []struct {
		version string
		pending bool
		want    string
	}{
		{"0.1.0~git532.g9b1c4ac", false, `<span id="version" class="version">tridboard 0.1.0~git532.g9b1c4ac</span>`},
		{"1.2.0", true, `<span id="version" class="version">tridboard 1.2.0 (an update is installed: restart the service to run it)</span>`},
		{"", true, `<span id="version" class="version"></span>`},
		{"1.2<b>", false, `<span id="version" class="version">tridboard 1.2&lt;b&gt;</span>`},
	} {
		o := DefaultServerOpts()
		o.Version, o.UpdatePending = tc.version, func() bool { return tc.pending }
		srv := httptest.NewServer(New(h, o).Handler())
		for _, path := range []string{"/", "/boards/b1"} {
			resp, err := http.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if !strings.Contains(string(b), tc.want) {
				t.Errorf("%s with version %q, pending %v: lacks %s", path, tc.version, tc.pending, tc.want)
			}
		}
		srv.Close()
	}
}
