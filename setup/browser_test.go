package setup

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/tridboard/tridboard/web/webtest"
)

// The setup page as a person on a phone uses it, away from the set's own
// access point (the token asked before the password is shown): the
// token typed, the access point's name, password and QR code shown at a
// size a camera reads, the venue's Wi-Fi refused while wrong (nothing
// written) and then sent, the spool file exactly what tridboard-wifi reads.
func TestSetupPageOnAPhone(t *testing.T) {
	o := testOpts(t)
	url, _ := webtest.Serve(t, Handler(o), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait),
		chromedp.Navigate(url+"/setup")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the token asked", `document.getElementById('ap-status').textContent.includes('type the token below')`)
	if webtest.Eval[bool](t, ctx, `document.body.innerText.includes('9c41d2a07be6f318') || !!document.querySelector('#qr svg')`) {
		t.Fatal("the access point's password is on the page before the token")
	}
	// Every field has its label, and text a phone does not zoom into (16 px or more).
	for _, id := range []string{"ssid", "psk", "country", "token"} {
		label := webtest.Eval[string](t, ctx, `(() => { const l = document.getElementById('`+id+`').labels; return l.length === 1 ? l[0].textContent : '' })()`)
		px := webtest.Eval[float64](t, ctx, `parseFloat(getComputedStyle(document.getElementById('`+id+`')).fontSize)`)
		t.Logf("field %s: label %q, font %.0f px", id, label, px)
		if label == "" || px < 16 {
			t.Errorf("field %s: label %q, font %.0f px", id, label, px)
		}
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#token"), "tok-1"), chromedp.Click(chromedp.CSS("#ssid"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the access point shown", `!document.getElementById('ap-shown').hidden && !!document.querySelector('#qr svg')`)
	if got := webtest.Eval[string](t, ctx, `document.getElementById('ap-ssid').textContent + ' ' + document.getElementById('ap-psk').textContent`); got != "tridboard-3f2a 9c41d2a07be6f318" {
		t.Errorf("name and password shown: %q", got)
	}
	if got := webtest.Eval[string](t, ctx, `document.getElementById('qr').dataset.uri`); got != "WIFI:T:WPA;S:tridboard-3f2a;P:9c41d2a07be6f318;;" {
		t.Errorf("QR code of %q", got)
	}
	type rect struct{ Left, Top, Width, Height, Modules, Vw float64 }
	r := webtest.Eval[rect](t, ctx, `(() => { const s = document.querySelector('#qr svg'), b = s.getBoundingClientRect();
		return {Left: b.left, Top: b.top, Width: b.width, Height: b.height, Modules: s.viewBox.baseVal.width, Vw: innerWidth} })()`)
	t.Logf("QR code at 390x844: %.0fx%.0f CSS px at (%.0f, %.0f), %.0f modules with the quiet zone, %.1f px a module; viewport %.0f px wide",
		r.Width, r.Height, r.Left, r.Top, r.Modules, r.Width/r.Modules, r.Vw)
	if r.Width < 200 || r.Width != r.Height || r.Left < 0 || r.Left+r.Width > r.Vw {
		t.Errorf("QR code %+v: want a square of 200 CSS px or more inside the screen", r)
	}
	// A password too short: refused, said, nothing written.
	spool := filepath.Join(o.SpoolDir, SpoolName)
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#ssid"), "Hall; 2"), chromedp.SendKeys(chromedp.CSS("#psk"), "short"),
		chromedp.SendKeys(chromedp.CSS("#country"), "gb"), chromedp.Click(chromedp.CSS("#wifi button"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the refusal", `document.getElementById('result').className === 'error' && document.getElementById('result').textContent.includes('5 characters long')`)
	t.Logf("refused: %q", webtest.Eval[string](t, ctx, `document.getElementById('result').textContent`))
	if _, err := os.Stat(spool); err == nil {
		t.Fatal("a refused Wi-Fi was written")
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.CSS("#psk"), "1234"), chromedp.Click(chromedp.CSS("#wifi button"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the acceptance", `document.getElementById('result').className === 'ok'`)
	t.Logf("accepted: %q", webtest.Eval[string](t, ctx, `document.getElementById('result').textContent`))
	if b, err := os.ReadFile(spool); err != nil || string(b) != "ssid=Hall; 2\npsk=short1234\ncountry=GB\n" {
		t.Errorf("spool %q, %v", b, err)
	}
}
