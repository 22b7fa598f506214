package setup

import (
	"bytes"
	"context"
	"image/png"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

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
	noErrors(t, ctx)
	// The wiring is learned on a page of its own, a tap away.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#wiringlink a"))); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the wiring page", `location.pathname === '/setup/wiring' && document.querySelector('h1').textContent === 'Learn the wiring'`)
}

// The name and rules on a phone: the running values shown, every field
// labelled and readable, the rules' options offered for st3d only; a bad
// name refused by the set and said, nothing saved; the token typed, a new
// name, Millennium, then st3d with Peters' rule and Smith's setup saved,
// and the page waits until the set is back under the new name.
func TestNameAndRulesOnAPhone(t *testing.T) {
	o := testOpts(t)
	var mu sync.Mutex
	cur := Current{Identity: Identity{"tridboard", "st3d", ""}, Game: "st3d", Moves: 7, InProgress: true}
	var saved []Identity
	o.Current = func() Current { mu.Lock(); defer mu.Unlock(); return cur }
	o.Save = func(id Identity) (string, error) {
		mu.Lock()
		defer mu.Unlock()
		saved = append(saved, id)
		// The set restarts: back under the new name a moment later.
		time.AfterFunc(1500*time.Millisecond, func() { mu.Lock(); cur.Identity = id; mu.Unlock() })
		return "Saved. The set restarts as " + id.Name + " in a few seconds.", nil
	}
	url, _ := webtest.Serve(t, Handler(o), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait),
		chromedp.Navigate(url+"/setup")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the name and rules shown", `!document.getElementById('set').hidden && document.getElementById('name').value === 'tridboard'`)
	if got := webtest.Eval[string](t, ctx, `document.getElementById('variant').selectedOptions[0].textContent`); got != "Star Trek 3D chess (st3d)" {
		t.Errorf("rules shown %q", got)
	}
	if got := webtest.Eval[string](t, ctx, `document.getElementById('gamenote').textContent`); !strings.Contains(got, "A game is in progress (7 moves, st3d): it goes on") {
		t.Errorf("game note %q", got)
	}
	for _, id := range []string{"name", "variant", "setupopt", "token"} {
		label := webtest.Eval[string](t, ctx, `(() => { const l = document.getElementById('`+id+`').labels; return l.length === 1 ? l[0].textContent : '' })()`)
		px := webtest.Eval[float64](t, ctx, `parseFloat(getComputedStyle(document.getElementById('`+id+`')).fontSize)`)
		if label == "" || px < 16 {
			t.Errorf("field %s: label %q, font %.0f px", id, label, px)
		}
	}
	if n := webtest.Eval[int](t, ctx, `document.querySelectorAll('#rules input').length`); n != 6 {
		t.Errorf("%d rule options offered for st3d, want 6", n)
	}
	// Millennium has no options: none shown.
	choose := func(v string) {
		webtest.Eval[bool](t, ctx, `(() => { const s = document.getElementById('variant'); s.value = '`+v+`'; return s.dispatchEvent(new Event('change')) })()`)
	}
	choose("millennium")
	if webtest.Eval[bool](t, ctx, `!document.getElementById('opts').hidden`) {
		t.Error("options shown for Millennium")
	}
	// A name with a space: the set says why, nothing saved.
	if err := chromedp.Do(ctx, chromedp.SendKeys("#token", "tok-1"), chromedp.SetValue("#name", "Hall 2"),
		chromedp.Click("#setform button")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the refusal", `document.getElementById('setresult').className === 'result error'`)
	if got := webtest.Eval[string](t, ctx, `document.getElementById('setresult').textContent`); !strings.Contains(got, `Not changed: the name "Hall 2" holds ' '`) {
		t.Errorf("refusal %q", got)
	}
	// st3d with Peters' rule and Smith's setup, a good name, by touch.
	choose("st3d")
	webtest.Eval[string](t, ctx, `document.getElementById('name').value = ''`)
	if err := chromedp.Do(ctx, chromedp.SendKeys("#name", "club-7"), chromedp.Click("#opt-V-A1")); err != nil {
		t.Fatal(err)
	}
	webtest.Eval[string](t, ctx, `document.getElementById('setupopt').value = 'V.P2'`)
	if err := chromedp.Do(ctx, chromedp.Click("#setform button")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the set back", `document.getElementById('setresult').textContent === 'Saved: the set is back as club-7.'`)
	mu.Lock()
	defer mu.Unlock()
	if want := (Identity{"club-7", "st3d", "V.A1,V.P2"}); len(saved) != 1 || saved[0] != want {
		t.Errorf("saved %+v, want %+v", saved, want)
	}
	noErrors(t, ctx)
}

// The first visitor, on the set's own Wi-Fi (here its screen, loopback):
// the page hands the command token over, filled in, shows the access
// point without asking, and makes a new token, shown and filled in.
func TestFirstVisitorGetsTheTokenOnAPhone(t *testing.T) {
	o := testOpts(t)
	o.Open = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	o.Peers = o.Open
	o.Current = func() Current { return Current{Identity: Identity{"tridboard", "st3d", ""}} }
	o.Save = func(Identity) (string, error) { return "", nil }
	o.Rotate = func() (string, error) { return "NEWTOKEN2345", nil }
	url, _ := webtest.Serve(t, Handler(o), "127.0.0.1:0")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait),
		chromedp.Navigate(url+"/setup")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the token handed over", `document.getElementById('token').value === 'tok-1' && !document.getElementById('tok-given').hidden`)
	webtest.WaitJS(t, ctx, "the access point shown", `!document.getElementById('ap-shown').hidden`)
	px := webtest.Eval[float64](t, ctx, `parseFloat(getComputedStyle(document.getElementById('tok-given')).fontSize)`)
	if px < 15 {
		t.Errorf("the token's note at %.0f px", px)
	}
	if err := chromedp.Do(ctx, chromedp.Click("#rotate")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the new token", `document.getElementById('token').value === 'NEWTOKEN2345' && document.getElementById('token').type === 'text'`)
	if got := webtest.Eval[string](t, ctx, `document.getElementById('tokresult').textContent`); !strings.HasPrefix(got, "The new command token is NEWTOKEN2345: write it down") {
		t.Errorf("said %q", got)
	}
	noErrors(t, ctx)
}

// The venue's Wi-Fi chosen from what the set sees, on a phone: the list
// strongest first, one line a network with its strength and security,
// those the set cannot join greyed out with why; a tap fills the name
// and moves to the password; the form then sends it.
func TestVenueFromTheScanOnAPhone(t *testing.T) {
	o := testOpts(t)
	o.Scan = filepath.Join(t.TempDir(), "scan.txt")
	b, _ := os.ReadFile("testdata/iw-scan.txt")
	os.WriteFile(o.Scan, b, 0o644)
	url, _ := webtest.Serve(t, Handler(o), "")
	ctx := webtest.Browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait),
		chromedp.Navigate(url+"/setup")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the networks", `!document.getElementById('nets').hidden`)
	lines := webtest.Eval[[]string](t, ctx, `[...document.querySelectorAll('#netlist button')].map(b => (b.disabled ? '(off) ' : '') + b.textContent)`)
	want := []string{
		"ChessClub · strong (-48 dBm) · WPA2",
		"Café de la Tour · strong (-52 dBm) · WPA2/WPA3",
		`(off)  Lounge\5G · good (-60 dBm) · WPA3 only: not supported`,
		"(off) Town Hall Staff · good (-70 dBm) · a login per person: not supported",
		"Town Hall Guest · weak (-71 dBm) · open",
		"OldRouter · weak (-80 dBm) · WPA2",
		"Attic · very weak (-85 dBm) · WPA",
		"(off) Basement · very weak (-88 dBm) · WEP: not supported",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("the list:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	type box struct{ Height, Font, Width, Vw float64 }
	bx := webtest.Eval[box](t, ctx, `(() => { const b = document.querySelector('#netlist button'), r = b.getBoundingClientRect();
		return {Height: r.height, Font: parseFloat(getComputedStyle(b).fontSize), Width: r.width, Vw: innerWidth} })()`)
	t.Logf("a network's line: %.0f px high, %.0f px text, %.0f of %.0f px wide", bx.Height, bx.Font, bx.Width, bx.Vw)
	if bx.Height < 44 || bx.Font < 16 || bx.Width > bx.Vw {
		t.Errorf("a network's line %+v: want a touch target of 44 px or more, 16 px text, inside the screen", bx)
	}
	if err := chromedp.Do(ctx, chromedp.Click(`#netlist li:nth-child(2) button`)); err != nil {
		t.Fatal(err)
	}
	if got := webtest.Eval[string](t, ctx, `document.getElementById('ssid').value + '|' + document.activeElement.id`); got != "Café de la Tour|psk" {
		t.Errorf("after the tap: %q", got)
	}
	if err := chromedp.Do(ctx, chromedp.SendKeys("#psk", "echiquier"), chromedp.SendKeys("#country", "fr"), chromedp.SendKeys("#token", "tok-1"),
		chromedp.Click("#wifi button")); err != nil {
		t.Fatal(err)
	}
	webtest.WaitJS(t, ctx, "the acceptance", `document.getElementById('result').className === 'ok'`)
	if b, err := os.ReadFile(filepath.Join(o.SpoolDir, SpoolName)); err != nil || string(b) != "ssid=Café de la Tour\npsk=echiquier\ncountry=FR\n" {
		t.Errorf("spool %q, %v", b, err)
	}
	noErrors(t, ctx)
}

// noErrors fails t on a script error in the page.
func noErrors(t *testing.T, ctx context.Context) {
	t.Helper()
	if errs := webtest.Eval[[]string](t, ctx, "window.__errors"); len(errs) > 0 {
		t.Errorf("errors in the page: %q", errs)
	}
}
