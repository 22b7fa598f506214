package web

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
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
		waitJS(t, ctx, v+": the game", `document.querySelectorAll('#flat .piece').length > 10 && document.querySelectorAll('#moves .move[data-ply]').length == 30`)
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
				if n == 16 || n == 4 && kiosk {
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
