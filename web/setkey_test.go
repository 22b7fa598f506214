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

// Issue 34, in Chromium: the key's line fits a phone and a hall screen
// (no sideways scroll, on screen, readable) and names the fingerprint.
func TestBrowserSetKeyLine(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "hall-1", "st3d")
	f.play("b2W-b4N")
	o := DefaultServerOpts()
	o.Fingerprint = "3f2a-91c0-7d4e-b815"
	url, _ := serve(t, New(h, o).Handler(), "")
	for _, sc := range []screen{phone, hall} {
		ctx := openAt(t, sc, url+"/boards/hall-1")
		waitJS(t, ctx, sc.name+": the pieces", `document.querySelectorAll('#flat .piece').length > 20`)
		if got := evalJS[float64](t, ctx, `document.documentElement.scrollWidth - innerWidth`); got > 0 {
			t.Errorf("%s: the page scrolls sideways by %v px", sc.name, got)
		}
		k := box(t, ctx, "#setkey")
		if k.Width == 0 || k.Left < 0 || k.Right > float64(sc.w)+0.5 {
			t.Errorf("%s: the key's line is at %+v", sc.name, k)
		}
		if txt := evalJS[string](t, ctx, `document.getElementById('setkey').innerText`); !strings.Contains(txt, "3f2a-91c0-7d4e-b815") {
			t.Errorf("%s: the key's line says %q", sc.name, txt)
		}
		if px := evalJS[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector('#setkey .fingerprint')).fontSize)`); px < 12 {
			t.Errorf("%s: the fingerprint is %v px high", sc.name, px)
		}
	}
}
