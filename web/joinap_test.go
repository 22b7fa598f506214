package web

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// Issue 37: the board page of a set whose access point is up shows the
// QR code a phone joins it with, at a size a camera reads on a phone;
// with the access point down, away from the set's own network (the
// setup handler refuses), or on a view without a setup page, nothing.
func TestBrowserBoardShowsTheAccessPoint(t *testing.T) {
	svgJSON, _ := json.Marshal(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 29 29"><rect width="29" height="29" fill="#fff"/><path d="M4 4h7v7h-7z"/></svg>`)
	for _, c := range []struct {
		name  string
		setup http.Handler
		shown bool
	}{
		{"access point up", hotspotStub(200, `{"ssid":"tridboard-3f2a","psk":"x","svg":`+string(svgJSON)+`,"up":true}`), true},
		{"access point down", hotspotStub(200, `{"ssid":"tridboard-3f2a","psk":"x","svg":`+string(svgJSON)+`,"up":false}`), false},
		{"not the set's own network", hotspotStub(401, `{"status":"error","reason":"..."}`), false},
		{"no setup page (a view)", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := NewHub(DefaultOpts())
			newFakeSet(t, h, "b1", "st3d")
			so := DefaultServerOpts()
			so.Setup = c.setup
			url, _ := serve(t, New(h, so).Handler(), "")
			ctx := browser(t)
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulatePortrait), chromedp.Navigate(url+"/boards/b1")); err != nil {
				t.Fatal(err)
			}
			waitJS(t, ctx, "the board", `document.querySelectorAll('#flat .piece').length == 32`)
			if c.shown {
				waitJS(t, ctx, "the QR code", `!document.getElementById('joinap').hidden && !!document.querySelector('#joinap-qr svg')`)
				if got := evalJS[string](t, ctx, `document.getElementById('joinap-ssid').textContent`); got != "tridboard-3f2a" {
					t.Errorf("name %q", got)
				}
				w := evalJS[float64](t, ctx, `document.querySelector('#joinap-qr svg').getBoundingClientRect().width`)
				t.Logf("the QR code on the board page at 390 px: %.0f CSS px wide", w)
				if w < 200 {
					t.Errorf("QR code %.0f px wide", w)
				}
			} else {
				// Let the page's fetch answer, then look.
				waitJS(t, ctx, "the page settled", `performance.getEntriesByType('resource').some(e => e.name.endsWith('/setup/hotspot'))`)
				if evalJS[bool](t, ctx, `!document.getElementById('joinap').hidden`) {
					t.Error("the QR code shown")
				}
			}
			noErrors(t, ctx)
		})
	}
}

func hotspotStub(status int, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/setup/hotspot" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	})
}
