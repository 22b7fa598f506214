package web

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// Issue 34: a set's page shows its key's fingerprint, for the desk to
// compare with the key the set announces; without one, nothing.
func TestBoardPageShowsTheSetsKey(t *testing.T) {
	for _, fp := range []string{"3f2a-91c0-7d4e-b815", ""} {
		o := DefaultServerOpts()
		o.Fingerprint = fp
		_, _, url := testServer(t, o)
		resp, err := http.Get(url + "/boards/b1")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		page := string(b)
		shown := strings.Contains(page, `<p id="setkey" class="setkey" >`)
		if fp != "" && (!shown || !strings.Contains(page, `<span class="fingerprint">`+fp+`</span>`)) {
			t.Errorf("fingerprint %s not shown", fp)
		}
		if fp == "" && !strings.Contains(page, `<p id="setkey" class="setkey" hidden>`) {
			t.Error("no key, yet the line is shown")
		}
	}
}
