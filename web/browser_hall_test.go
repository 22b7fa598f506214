package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/emulation"
	cdpinput "github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp/kb"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
)

// The sizes of issue 39: a phone upright and on its side, a laptop, a hall
// screen and a 4K hall screen.
var (
	phoneSide = screen{"phone-landscape", 844, 390}
	uhd       = screen{"4k", 3840, 2160}
	allSizes  = []screen{phone, phoneSide, laptop, hall, uhd}
)

// resize gives the tab another size and waits for the page to lay itself
// out at it (the next two frames).
func resize(t *testing.T, ctx contextT, sc screen) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(sc.w, sc.h)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, sc.name+": the new size", fmt.Sprintf(`innerWidth == %d && innerHeight == %d`, sc.w, sc.h))
	evalJS[bool](t, ctx, `window.laidOut = false; requestAnimationFrame(() => requestAnimationFrame(() => { window.laidOut = true; })); true`)
	waitJS(t, ctx, sc.name+": two frames", `window.laidOut`)
}

// hallGame is a board with a game of 30 moves under way, the players
// named, the clock running.
func hallGame(t *testing.T, h *Hub, id, variant string) *fakeSet {
	f := newFakeSet(t, h, id, variant)
	f.tags = map[string]string{"White": "Kirk", "Black": "Spock", "Event": "Federation Open", "Round": "3", "WhiteElo": "2210"}
	for i := 0; i < 30 && f.random(); i++ {
	}
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Clock = &clock.Snapshot{Control: "5400+30", WhiteMS: 3171234, BlackMS: 2975000, Running: "white", At: clock.Stamp{Time: time.Now()}}
	h.State(id, s)
	return f
}

// Issue 39: the board page from a phone to a 4K hall screen, measured:
// the move list keeps a usable height (a third of a laptop's screen, in
// every system: it was 0-8 px at 1366x768), nothing scrolls sideways, and
// on a hall screen the clocks are 5-8 % of the screen's height and the
// names 4 % or more, read from 15 m; a phone on its side shows the 3D
// and the flat view side by side in the first screen.
func TestBrowserHallBoardSizes(t *testing.T) {
	h := NewHub(DefaultOpts())
	for _, v := range []string{"st3d", "millennium", "first-contact"} {
		hallGame(t, h, "b-"+v, v)
	}
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	type figures struct{ Moves, Clock, Name, Square, Scroll, View3D, FlatBottom float64 }
	const measure = `(() => { const m = document.getElementById('moves').getBoundingClientRect();
		const sq = document.querySelector('#flat [data-cell]').getBoundingClientRect();
		return {Moves: m.height, Clock: parseFloat(getComputedStyle(document.getElementById('white-clock')).fontSize) / innerHeight,
			Name: parseFloat(getComputedStyle(document.getElementById('white-name')).fontSize) / innerHeight,
			Square: sq.width, Scroll: document.documentElement.scrollWidth - innerWidth,
			View3D: document.getElementById('view3d').getBoundingClientRect().height,
			FlatBottom: document.querySelector('#flat svg').getBoundingClientRect().bottom}; })()`
	for _, v := range []string{"st3d", "millennium", "first-contact"} {
		ctx := openAt(t, allSizes[0], url+"/boards/b-"+v)
		waitJS(t, ctx, v+": the game", `document.querySelectorAll('#flat .piece').length > 10 && document.querySelectorAll('#moves .move[data-ply]').length == 30 && document.getElementById('view3d').dataset.frames >= 1`)
		for _, sc := range allSizes {
			if v != "st3d" && sc != laptop {
				continue // every system at the laptop's size, where the list was lost
			}
			resize(t, ctx, sc)
			f := evalJS[figures](t, ctx, measure)
			t.Logf("%s %s (%dx%d): move list %.0f px (%.0f %% of the height), clock type %.1f %%, names %.1f %% of the height, flat squares %.0f px, 3D view %.0f px high",
				v, sc.name, sc.w, sc.h, f.Moves, 100*f.Moves/float64(sc.h), 100*f.Clock, 100*f.Name, f.Square, f.View3D)
			if f.Moves < 0.3*float64(sc.h) {
				t.Errorf("%s %s: the move list is %.0f px high, want a third of the screen's %d", v, sc.name, f.Moves, sc.h)
			}
			if f.Scroll > 0 {
				t.Errorf("%s %s: the page scrolls sideways by %v px", v, sc.name, f.Scroll)
			}
			if sc.w >= 1700 && (f.Clock < 0.05 || f.Clock > 0.08 || f.Name < 0.04) {
				t.Errorf("%s %s: clocks %.1f %% and names %.1f %% of the screen's height, want clocks 5-8 %% and names 4 %% or more", v, sc.name, 100*f.Clock, 100*f.Name)
			}
			if sc == phoneSide && (f.FlatBottom > float64(sc.h) || f.Square < 16 || f.View3D < 0.75*float64(sc.h)) {
				t.Errorf("phone on its side: flat view to %.0f px of %d with %.0f px squares, 3D view %.0f px high: want both in the first screen, squares 16 px or more", f.FlatBottom, sc.h, f.Square, f.View3D)
			}
			if v == "st3d" {
				keepDocShot(t, ctx, "board-"+sc.name)
			}
		}
		noErrors(t, ctx)
	}
}

// Issue 39: the wall and the kiosk fill any screen with any number of
// boards, measured with 4, 16 and 48: the wall shows every card whole on
// a laptop or hall screen when they stay 14 rem wide or more (scrolling
// beyond), the kiosk shows a page of cards whose clocks are 5 % of the
// screen's height or more, every card of the page on the screen.
func TestBrowserHallWallFills(t *testing.T) {
	type figures struct {
		Shown, Whole, Per, Pages int
		Width, Cover, Clock      float64
	}
	const measure = `(() => { const cards = [...document.querySelectorAll('.card')].filter(e => !e.hidden);
		let whole = 0, area = 0;
		for (const c of cards) { const r = c.getBoundingClientRect();
			if (r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5) { whole++; area += r.width * r.height; } }
		const p = window.tridboardWall.paging;
		return {Shown: cards.length, Whole: whole, Per: p.per, Pages: p.pages, Width: cards[0].getBoundingClientRect().width,
			Cover: area / (innerWidth * innerHeight),
			Clock: parseFloat(getComputedStyle(cards[0].querySelector('.pl .clock')).fontSize) / innerHeight}; })()`
	for _, n := range []int{4, 16, 48} {
		h := NewHub(DefaultOpts())
		for i := 1; i <= n; i++ {
			f := newFakeSet(t, h, "hall-"+itoa(i), "st3d")
			f.tags = map[string]string{"White": "White " + itoa(i), "Black": "Black " + itoa(i), "Round": "2"}
			f.random()
			s := f.state(protocol.Board{Status: protocol.BoardInSync})
			s.Clock = &clock.Snapshot{Control: "5400+30", WhiteMS: 3171234, BlackMS: 2975000, Running: "black", At: clock.Stamp{Time: time.Now()}}
			h.State(f.id, s)
		}
		url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
		for _, kiosk := range []bool{false, true} {
			page, what := "/", "wall"
			if kiosk {
				page, what = "/?kiosk=1&every=600", "kiosk"
			}
			ctx := openAt(t, allSizes[0], url+page)
			waitJS(t, ctx, what+": the cards", fmt.Sprintf(`document.querySelectorAll('.card canvas.mini-board').length == %d && document.querySelector('.card .clock').textContent != ''`, n))
			for _, sc := range allSizes {
				resize(t, ctx, sc)
				waitJS(t, ctx, "the layout", `!!window.tridboardWall.paging.width`)
				f := evalJS[figures](t, ctx, measure)
				t.Logf("%s of %d at %s (%dx%d): %d cards whole on the screen (%d a page, %d pages), %.0f px wide, covering %.0f %% of the screen, clocks %.1f %% of its height",
					what, n, sc.name, sc.w, sc.h, f.Whole, f.Per, f.Pages, f.Width, 100*f.Cover, 100*f.Clock)
				switch {
				case kiosk && sc.w >= 1366:
					if f.Whole != f.Shown || f.Clock < 0.05 {
						t.Errorf("kiosk of %d at %s: %d of the page's %d cards whole, clocks %.1f %%: want all, 5 %% or more", n, sc.name, f.Whole, f.Shown, 100*f.Clock)
					}
					if f.Pages != (n+f.Per-1)/f.Per || f.Per < min(n, 4) {
						t.Errorf("kiosk of %d at %s: %d a page in %d pages", n, sc.name, f.Per, f.Pages)
					}
				case !kiosk && sc.w >= 1366 && n <= 16:
					if f.Whole != n || f.Cover < 0.4 {
						t.Errorf("wall of %d at %s: %d cards whole covering %.0f %% of the screen: want all, filling it", n, sc.name, f.Whole, 100*f.Cover)
					}
				case !kiosk && n == 48 && sc.w >= 1366:
					if f.Whole < 16 {
						t.Errorf("wall of 48 at %s: %d cards whole", sc.name, f.Whole)
					}
				}
				if sc.w < 600 && f.Width < 0.9*float64(sc.w)-40 {
					t.Errorf("%s of %d on a phone: cards %.0f px wide of %d", what, n, f.Width, sc.w)
				}
				if n == 16 && sc == hall {
					keepDocShot(t, ctx, fmt.Sprintf("%s-%d-%s", what, n, sc.name))
				}
			}
			noErrors(t, ctx)
		}
	}
}

// keepDocShot saves a screenshot of the viewport to $TRIDBOARD_SHOTS,
// shrunk to 960 px wide at most, for docs/.
func keepDocShot(t *testing.T, ctx contextT, name string) {
	dir := os.Getenv("TRIDBOARD_SHOTS")
	if dir == "" {
		return
	}
	b, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	k := (img.Bounds().Dx() + 959) / 960
	r := img.Bounds()
	small := image.NewRGBA(image.Rect(0, 0, r.Dx()/k, r.Dy()/k))
	for y := 0; y < r.Dy()/k; y++ {
		for x := 0; x < r.Dx()/k; x++ {
			var sr, sg, sb, sa uint32
			for j := 0; j < k; j++ {
				for i := 0; i < k; i++ {
					cr, cg, cb, ca := img.At(r.Min.X+x*k+i, r.Min.Y+y*k+j).RGBA()
					sr, sg, sb, sa = sr+cr, sg+cg, sb+cb, sa+ca
				}
			}
			n := uint32(k * k)
			small.Set(x, y, color.RGBA64{uint16(sr / n), uint16(sg / n), uint16(sb / n), uint16(sa / n)})
		}
	}
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	enc.Encode(&out, small)
	os.WriteFile(filepath.Join(dir, name+".png"), out.Bytes(), 0o644)
}

// slowGL serves the pages with three.js late by delay and a WebGL that
// takes slow to start (a phone on a slow line): the board page gets a
// script that holds the first WebGL context that long.
func slowGL(h http.Handler, delay, slow time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/three.module.min.js") {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		if !strings.HasPrefix(r.URL.Path, "/boards/") || strings.Count(r.URL.Path, "/") != 2 {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		b := bytes.Replace(rec.Body.Bytes(), []byte("<head>"), []byte(fmt.Sprintf(`<head><script>const gc = HTMLCanvasElement.prototype.getContext; HTMLCanvasElement.prototype.getContext = function(k, ...a) { if (/webgl/.test(k) && !window.glSlowed) { window.glSlowed = true; const t = performance.now(); while (performance.now() - t < %d); } return gc.call(this, k, ...a); };</script>`, slow.Milliseconds())), 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(rec.Code)
		w.Write(b)
	})
}

// Issue 39: the flat board, its pieces and the last move are drawn before
// WebGL starts, on a phone with a 4x slower CPU: with WebGL taking 2 s to
// start (they waited for it: 3.2 s, 9.7 s on a slow phone), and with
// three.js 3 s late on a slow line, the pieces come first (1.4-2.2 s on
// the development VM).
func TestBrowserHallPiecesBeforeWebGL(t *testing.T) {
	h := NewHub(DefaultOpts())
	hallGame(t, h, "b1", "st3d")
	for _, tc := range []struct {
		what        string
		late, start time.Duration
	}{
		{"WebGL 2 s to start", 0, 2 * time.Second},
		{"three.js 3 s late, WebGL 1 s to start", 3 * time.Second, time.Second},
	} {
		url, _ := serve(t, slowGL(New(h, DefaultServerOpts()).Handler(), tc.late, tc.start), "")
		ctx := browser(t)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(phone.w, phone.h)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4}); err != nil {
			t.Fatal(err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(url+"/boards/b1")); err != nil {
			t.Fatal(err)
		}
		waitJS(t, ctx, "the first pieces", `!!window.tridboard.firstPieces`)
		type figures struct {
			Pieces, LastTo, Frames int
			First, Started3D       float64
		}
		const measure = `({Pieces: document.querySelectorAll('#flat .piece').length, LastTo: document.querySelectorAll('#flat .cell.last-to').length,
			Frames: +(document.getElementById('view3d').dataset.frames || 0), First: window.tridboard.firstPieces, Started3D: window.tridboard.started3d || 0})`
		f := evalJS[figures](t, ctx, measure)
		if f.Pieces < 10 || f.LastTo == 0 || f.Frames != 0 || f.Started3D != 0 {
			t.Errorf("%s: at the first pieces: %+v: want the pieces and the last move, no 3D yet", tc.what, f)
		}
		waitJS(t, ctx, "the 3D view", `document.getElementById('view3d').dataset.frames >= 1`)
		f = evalJS[figures](t, ctx, measure)
		t.Logf("phone, 4x CPU, %s: first pieces and last move at %.0f ms, 3D view at %.0f ms", tc.what, f.First, f.Started3D)
		// The time is a figure (a busy machine is slower); the order is
		// the rule: WebGL's start comes after the pieces.
		if f.Started3D < f.First+tc.start.Seconds()*1000 {
			t.Errorf("%s: first pieces at %.0f ms, 3D view at %.0f ms: want the pieces before WebGL starts", tc.what, f.First, f.Started3D)
		}
		chromedp.Call(ctx, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 1})
		noErrors(t, ctx)
	}
}

// Issue 39: a phone's 3D view: a vertical swipe on it scrolls the page
// and leaves the camera as it was (the canvas took every touch: the swipe
// tipped the set under the board); with the "turn" toggle one finger turns
// the set; the camera stays between half and twice its distance, above
// the board, and "reset" frames the set again.
func TestBrowserHallPhone3DSwipe(t *testing.T) {
	h := NewHub(DefaultOpts())
	hallGame(t, h, "b1", "st3d")
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(phone.w, phone.h, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait), chromedp.Navigate(url+"/boards/b1")); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the 3D view", `document.getElementById('view3d').dataset.frames >= 1 && !!window.tridboard.view3d`)
	type figures struct {
		Scroll, Dist, Polar, Az, Framed float64
		Touch                           string
	}
	const measure = `(() => { const v = window.tridboard.view3d, c = v.controls;
		return {Scroll: scrollY, Dist: c.getDistance(), Polar: c.getPolarAngle(), Az: c.getAzimuthalAngle(), Framed: v.framed,
			Touch: getComputedStyle(v.renderer.domElement).touchAction}; })()`
	// swipe drags one finger from the 3D view's middle by dx, dy px, at a
	// person's pace (20 px a frame).
	swipe := func(dx, dy float64) {
		t.Helper()
		r := box(t, ctx, "#view3d canvas")
		x0, y0 := r.Left+r.Width/2, r.Top+r.Height*0.7
		touch := func(typ cdpinput.DispatchTouchEventType, x, y float64) {
			t.Helper()
			pts := []*cdpinput.TouchPoint{{X: x, Y: y}}
			if typ == cdpinput.DispatchTouchEventTypeTouchEnd {
				pts = []*cdpinput.TouchPoint{}
			}
			if _, err := chromedp.Call(ctx, cdpinput.DispatchTouchEvent, cdpinput.DispatchTouchEventParams{Type: typ, TouchPoints: pts}); err != nil {
				t.Fatal(err)
			}
		}
		touch(cdpinput.DispatchTouchEventTypeTouchStart, x0, y0)
		const steps = 15
		for i := 1; i <= steps; i++ {
			touch(cdpinput.DispatchTouchEventTypeTouchMove, x0+dx*float64(i)/steps, y0+dy*float64(i)/steps)
			time.Sleep(16 * time.Millisecond) // a finger's pace, not a wait for a result
		}
		touch(cdpinput.DispatchTouchEventTypeTouchEnd, 0, 0)
	}
	before := evalJS[figures](t, ctx, measure)
	swipe(0, -300) // the finger up: the page down
	waitJS(t, ctx, "the page scrolled", `scrollY >= 150`)
	after := evalJS[figures](t, ctx, measure)
	t.Logf("a vertical swipe of 300 px on the 3D view: the page scrolled %.0f px, the camera turned %.3f rad (touch-action %s)", after.Scroll-before.Scroll, abs(after.Polar-before.Polar)+abs(after.Az-before.Az), after.Touch)
	if after.Scroll-before.Scroll < 150 || abs(after.Polar-before.Polar) > 1e-6 || abs(after.Az-before.Az) > 1e-6 {
		t.Errorf("a vertical swipe on the 3D view: page %v -> %v, camera %+v -> %+v: want the page scrolled, the camera still", before.Scroll, after.Scroll, before, after)
	}
	// One finger turns the set with the toggle on, within the limits.
	evalJS[bool](t, ctx, `scrollTo(0, 0); true`)
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#turn3d"))); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, "the toggle", `document.getElementById('turn3d').getAttribute('aria-pressed') == 'true'`)
	// The click may have brought the button into view, smoothly: the page
	// must stand still before the gesture is measured against it.
	waitJS(t, ctx, "the page still", `(() => { const y = scrollY, w = window.__still || {y: -1, n: 0}; w.n = w.y === y ? w.n + 1 : 0; w.y = y; window.__still = w; return w.n >= 5; })()`)
	start := evalJS[float64](t, ctx, `scrollY`)
	swipe(-200, -250)
	waitJS(t, ctx, "the set turned", `Math.abs(window.tridboard.view3d.controls.getAzimuthalAngle() - `+fmt.Sprint(before.Az)+`) > 0.05`)
	turned := evalJS[figures](t, ctx, measure)
	if abs(turned.Az-before.Az) < 0.05 || abs(turned.Scroll-start) > 10 {
		t.Errorf("one finger with the toggle on: camera %+v -> %+v, page %v -> %v: want the set turned, the page still", before, turned, start, turned.Scroll)
	}
	if turned.Polar > 1.35+1e-6 || turned.Dist < 0.5*turned.Framed-1e-6 || turned.Dist > 2*turned.Framed+1e-6 {
		t.Errorf("the camera out of its limits: %+v", turned)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#reset3d"))); err != nil {
		t.Fatal(err)
	}
	reset := evalJS[figures](t, ctx, measure)
	if abs(reset.Az-before.Az) > 1e-3 || abs(reset.Polar-before.Polar) > 1e-3 || abs(reset.Dist-before.Dist) > 1e-3 {
		t.Errorf("after reset the camera is %+v, want %+v", reset, before)
	}
	keepDocShot(t, ctx, "board-phone-3d")
	noErrors(t, ctx)
}

// contrastJS measures the contrast (WCAG 2) of every text the page shows
// over a video of one colour: each text's colour against its panels laid
// over the video, alpha by alpha. contrastJS(video) returns the texts,
// their places and ratios.
const contrastJS = `window.contrastOver = video => {
	const parse = c => { const m = /rgba?\(([^)]+)\)/.exec(c || ''); if (!m) return [0, 0, 0, 0];
		const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
	const over = (top, bottom) => [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3])).concat(1);
	const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
		return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const out = [], w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
	for (let n; (n = w.nextNode());) {
		const el = n.parentElement, text = n.textContent.trim();
		if (!text || el.closest('title, .sr-only, script') || parseFloat(getComputedStyle(el).fontSize) === 0) continue;
		const r = el.getBoundingClientRect();
		if (!r.width || !r.height || r.bottom <= 0 || r.top >= innerHeight || !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
		let bg = [video, video, video, 1];
		const chain = [];
		for (let e = el; e; e = e.parentElement) chain.unshift(e);
		for (const e of chain) bg = over(parse(getComputedStyle(e).backgroundColor), bg);
		const cs = getComputedStyle(el), fg = over(parse(el instanceof SVGElement ? cs.fill : cs.color), bg);
		out.push({Text: text.slice(0, 24), Where: el.id || String(el.getAttribute('class') || el.tagName), Ratio: ratio(fg, bg)});
	}
	return out;
}; true`

// Issue 39: the overlay sits on video: every text it shows is on a panel
// that reads over white and black video alike, 4.5:1 or more measured (the
// right column was light grey on the transparency); it shows the names,
// the clocks, the evaluation, the last move and the result, and no
// lesson, turn line, material or move list.
func TestBrowserHallOverlayContrast(t *testing.T) {
	h := NewHub(evalOpts())
	f := hallGame(t, h, "b1", "st3d")
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Clock = &clock.Snapshot{Control: "5400+30", WhiteMS: 3171234, BlackMS: 8000, Running: "black", Low: "black", At: clock.Stamp{Time: time.Now()}}
	s.Lesson = &protocol.Lesson{Assist: map[string]string{"white": "full", "black": "none"}}
	h.State("b1", s)
	drain(t, h)
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	for _, sc := range []screen{hall, {"portrait", 1080, 1920}} { // the contrast is the same at any size
		ctx := openAt(t, sc, url+"/boards/b1?overlay=1")
		waitJS(t, ctx, sc.name+": the overlay", `document.querySelectorAll('#flat .piece').length > 10 && !document.getElementById('evalbox').hidden && document.getElementById('view3d').dataset.frames >= 1`)
		for _, sel := range []string{"#white-name", "#black-name", "#white-clock", "#black-clock", "#lastmove", ".evaltext"} {
			if r := box(t, ctx, sel); r.Width == 0 || r.Bottom > float64(sc.h) || r.Right > float64(sc.w) {
				t.Errorf("%s: %s not shown: %+v", sc.name, sel, r)
			}
		}
		for _, sel := range []string{"#lesson", "#turn", "#material", "#moves", ".bestline", ".controls"} {
			if r := box(t, ctx, sel); r.Width != 0 {
				t.Errorf("%s: the overlay shows %s: %+v", sc.name, sel, r)
			}
		}
		evalJS[bool](t, ctx, contrastJS)
		type text struct {
			Text, Where string
			Ratio       float64
		}
		for _, video := range []int{255, 0} {
			texts := evalJS[[]text](t, ctx, fmt.Sprintf(`window.contrastOver(%d)`, video))
			if len(texts) < 10 {
				t.Fatalf("%s: %d texts measured", sc.name, len(texts))
			}
			least := texts[0]
			for _, x := range texts {
				if x.Ratio < least.Ratio {
					least = x
				}
				if x.Ratio < 4.5 {
					t.Errorf("%s over video %d: %q (%s) at %.2f:1, want 4.5:1 or more", sc.name, video, x.Text, x.Where, x.Ratio)
				}
			}
			t.Logf("overlay %s over video %d: %d texts, the least contrast %.2f:1 (%q, %s)", sc.name, video, len(texts), least.Ratio, least.Text, least.Where)
		}
		noErrors(t, ctx)
		if sc == hall {
			keepDocShot(t, ctx, "overlay-hall")
		}
	}
}

// Issue 39: the pieces are Colin M.L. Burnett's set (lichess's and
// Wikipedia's), vendored with its licence: the flat view draws each piece
// as its drawing, the wall's boards and the 3D view's sprites paint them,
// the reserve and the pieces taken show them.
func TestBrowserHallPieceSet(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := hallGame(t, h, "b1", "first-contact")
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	for _, p := range "KQRBNPkqrbnp" {
		name := "b" + strings.ToUpper(string(p))
		if p < 'a' {
			name = "w" + string(p)
		}
		resp, err := http.Get(url + "/static/vendor/cburnett/" + name + ".svg")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasPrefix(string(b), "<svg") || resp.Header.Get("Content-Type") != "image/svg+xml" {
			t.Errorf("%s.svg: %d %q %.20q", name, resp.StatusCode, resp.Header.Get("Content-Type"), b)
		}
	}
	for _, file := range []string{"LICENSE", "VERSION"} {
		b, err := os.ReadFile(filepath.Join("static", "vendor", "cburnett", file))
		if err != nil || !strings.Contains(string(b), "Burnett") {
			t.Errorf("static/vendor/cburnett/%s: %v %.40q", file, err, b)
		}
	}
	ctx := openAt(t, laptop, url+"/boards/b1")
	waitJS(t, ctx, "the pieces drawn", `document.querySelectorAll('#flat .piece image').length > 10 && [...document.querySelectorAll('#flat .piece image')].every(i => i.getBBox().width > 0) && document.getElementById('view3d').dataset.frames >= 1`)
	want := piecesOf(f.sys, f.g.Position())
	got := evalJS[map[string]string](t, ctx, `Object.fromEntries([...document.querySelectorAll('#flat .cell:not(.absent) .piece')].map(p => [p.parentNode.dataset.cell, p.querySelector('image').getAttribute('href')]))`)
	for cell, letter := range want {
		l := string(letter)
		file := "b" + strings.ToUpper(l)
		if strings.ToUpper(l) == l {
			file = "w" + l
		}
		if got[cell] != "/static/vendor/cburnett/"+file+".svg" {
			t.Errorf("%s (%s) drawn with %q", cell, l, got[cell])
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d pieces drawn, want %d", len(got), len(want))
	}
	// Every drawing loaded, and painted on the 3D view's sprites (more than
	// the disc's two colours).
	waitJS(t, ctx, "the drawings loaded", `[...document.querySelectorAll('#flat .piece image')].length > 0 && (() => { const v = window.tridboard.view3d;
		const sp = [...v.pieces.values()][0].children[1], c = sp.material.map.image, d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		const seen = new Set(); for (let i = 0; i < d.length; i += 4 * 7) seen.add(d[i] >> 4 << 8 | d[i + 1] >> 4 << 4 | d[i + 2] >> 4); return seen.size > 6; })()`)
	if n := evalJS[int](t, ctx, `document.querySelectorAll('#flatbox .reserve .rp b').length`); n == 0 {
		t.Error("no reserve drawn")
	}
	if got := evalJS[string](t, ctx, `getComputedStyle(document.querySelector('#flatbox .reserve .rp b')).backgroundImage`); !strings.Contains(got, "/static/vendor/cburnett/") {
		t.Errorf("a reserve's piece drawn with %q", got)
	}
	keepDocShot(t, ctx, "board-pieces-laptop")
	noErrors(t, ctx)
	// The wall's boards paint the drawings: a card's canvas has more
	// colours than the squares, the marks and two discs.
	ctx = openAt(t, laptop, url+"/")
	waitJS(t, ctx, "the wall's board painted", `(() => { const c = document.querySelector('.card canvas.mini-board'); if (!c || !c.dataset.pieces) return false;
		const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, seen = new Set();
		for (let i = 0; i < d.length; i += 4 * 3) seen.add(d[i] >> 4 << 8 | d[i + 1] >> 4 << 4 | d[i + 2] >> 4); return seen.size > 20; })()`)
	noErrors(t, ctx)
}

// axNode is a node of the page's accessibility tree as a screen reader
// gets it: role, name, and its properties (focused, selected, live, ...).
type axNode struct {
	Role, Name string
	Props      map[string]string
	Parent     string // the parent's role
}

// axTree reads the page's accessibility tree (Accessibility.getFullAXTree).
func axTree(t *testing.T, ctx contextT) []axNode {
	t.Helper()
	res, err := chromedp.Call(ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
	if err != nil {
		t.Fatal(err)
	}
	str := func(v *accessibility.Value) string {
		if v == nil {
			return ""
		}
		var s any
		if err := json.Unmarshal(v.Value, &s); err != nil {
			return string(v.Value)
		}
		return fmt.Sprint(s)
	}
	roles := map[accessibility.NodeID]string{}
	for _, n := range res.Nodes {
		roles[n.NodeID] = str(n.Role)
	}
	var out []axNode
	for _, n := range res.Nodes {
		if n.Ignored {
			continue
		}
		a := axNode{Role: str(n.Role), Name: str(n.Name), Props: map[string]string{}, Parent: roles[n.ParentID]}
		for _, p := range n.Properties {
			a.Props[string(p.Name)] = str(p.Value)
		}
		out = append(out, a)
	}
	return out
}

// Issue 39: a screen reader hears each step through the moves: the move
// shown is a real focused option of the move listbox, named in words and
// selected, and the live region says it ("aria-activedescendant" on a
// plain list, and a step line that was not live, said nothing).
func TestBrowserHallScreenReaderStep(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	for _, m := range []string{"b2W-b4N", "b7B-b5N", "Nd1W-c3W", "Nd8B-c6B"} {
		f.play(m)
	}
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := openAt(t, laptop, url+"/boards/b1")
	waitJS(t, ctx, "the moves", `document.querySelectorAll('#moves [role=option]').length == 4`)
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#moves [role=option][tabindex="0"]`))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, key, option, said string
		view                    int
	}{
		{"ArrowLeft", kb.ArrowLeft, "2. knight d1 White to c3 White (" + f.sent[2].SAN + ")", "2. knight d1 White to c3 White", 3},
		{"ArrowLeft", kb.ArrowLeft, "1... pawn b7 Black to b5 Neutral (" + f.sent[1].SAN + ")", "1... pawn b7 Black to b5 Neutral", 2},
		{"End", kb.End, "2... knight d8 Black to c6 Black (" + f.sent[3].SAN + ")", "2... knight d8 Black to c6 Black, the game now", -1},
	} {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(tc.key)); err != nil {
			t.Fatal(err)
		}
		view, ply := "null", 4
		if tc.view >= 0 {
			view, ply = itoa(tc.view), tc.view
		}
		// The step is drawn in the next frame: the focus moves then.
		waitJS(t, ctx, "the step", `window.tridboard.view === `+view+` && document.activeElement.id == 'ply-`+itoa(ply)+`' && document.activeElement.getAttribute('aria-selected') == 'true' && document.getElementById('announce').textContent == '`+tc.said+`'`)
		var focused, live []axNode
		for _, n := range axTree(t, ctx) {
			if n.Props["focused"] == "true" && n.Role != "RootWebArea" { // the page has the focus too
				focused = append(focused, n)
			}
			if n.Props["live"] == "polite" && n.Props["atomic"] == "true" {
				live = append(live, n)
			}
		}
		t.Logf("after %s: focused %+v; live region %+v saying %q", tc.name, focused, live, evalJS[string](t, ctx, `document.getElementById('announce').textContent`))
		if len(focused) != 1 || focused[0].Role != "option" || focused[0].Name != tc.option || focused[0].Props["selected"] != "true" || focused[0].Parent != "listbox" {
			t.Errorf("after %s the focused node is %+v, want the option %q, selected, in a listbox", tc.name, focused, tc.option)
		}
		said := evalJS[string](t, ctx, `document.getElementById('announce').textContent`)
		if len(live) == 0 || said != tc.said {
			t.Errorf("after %s the live region %+v says %q, want %q", tc.name, live, said, tc.said)
		}
	}
	noErrors(t, ctx)
}
