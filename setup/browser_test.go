package setup

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"

	"github.com/tridboard/tridboard/web/webtest"
)

// The setup page as a person on a phone uses it, away from the set's own
// access point (the token asked before the password is shown): the
// token typed, the access point's name, password and QR code shown at a
// size a camera reads, the venue's Wi-Fi refused while wrong (nothing
// written) and then sent, the spool file exactly what tridboard-wifi reads.
func TestSetupPageOnAPhone(t *testing.T) {
	o := testOpts(t)
	// A name and a password with every character the WIFI: format escapes.
	os.WriteFile(o.Hotspot, []byte("ssid=Café;Hall:2\npsk=p\\a,s\"s:w;d\n"), 0o640)
	const uri = `WIFI:T:WPA;S:Café\;Hall\:2;P:p\\a\,s\"s\:w\;d;;`
	url, _ := webtest.Serve(t, Handler(o), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait),
		chromedp.Navigate(url+"/setup")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the token asked", `document.getElementById('ap-status').textContent.includes('type the token below')`)
	if webtest.Eval[bool](t, ctx, `document.body.innerText.includes('s:w;d') || !!document.querySelector('#qr svg')`) {
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
	if got := webtest.Eval[string](t, ctx, `document.getElementById('ap-ssid').textContent + ' ' + document.getElementById('ap-psk').textContent`); got != `Café;Hall:2 p\a,s"s:w;d` {
		t.Errorf("name and password shown: %q", got)
	}
	if got := webtest.Eval[string](t, ctx, `document.getElementById('qr').dataset.uri`); got != uri {
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
	// Read as a camera would: the code as Chromium drew it, decoded by
	// ZXing (whose reader defined the WIFI: format), gives the URI back.
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#qr svg")))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	bmp, _ := gozxing.NewBinaryBitmapFromImage(img)
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		t.Fatalf("the QR code as drawn (%dx%d px) does not decode: %v", img.Bounds().Dx(), img.Bounds().Dy(), err)
	}
	t.Logf("the QR code as drawn, %dx%d device px, decodes to %q", img.Bounds().Dx(), img.Bounds().Dy(), res.GetText())
	if res.GetText() != uri {
		t.Errorf("decoded %q", res.GetText())
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
