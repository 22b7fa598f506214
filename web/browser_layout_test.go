package web

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
)

// screen is a size the pages are looked at in.
type screen struct {
	name string
	w, h int64
}

var (
	phone  = screen{"phone", 390, 844}
	tablet = screen{"tablet", 768, 1024}
	laptop = screen{"laptop", 1366, 768}
	hall   = screen{"hall", 1920, 1080}
)

// openAt opens url in a tab of the given size.
func openAt(t *testing.T, sc screen, url string) contextT {
	t.Helper()
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(sc.w, sc.h), chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// shotAt saves a screenshot of the viewport to $TRIDBOARD_SHOTS.
func shotAt(t *testing.T, ctx contextT, name string) {
	saveShot(t, ctx, name, chromedp.CaptureScreenshot())
}

// rect is an element's box in the viewport.
type rect struct{ Left, Top, Right, Bottom, Width, Height float64 }

func box(t *testing.T, ctx contextT, sel string) rect {
	t.Helper()
	return evalJS[rect](t, ctx, `(() => { const r = document.querySelector('`+sel+`').getBoundingClientRect(); return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom, Width: r.width, Height: r.height}; })()`)
}

// Issue 25: a phone shows the board first, full width, the move list
// below it, and nothing scrolls sideways; a tablet, a laptop and a hall
// screen show the board beside or above the moves, never cut.
func TestBrowserLayoutSizes(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "hall-1", "st3d")
	f.tags = map[string]string{"White": "Kirk", "Black": "Spock", "Event": "Federation Open", "Round": "3"}
	for i := 0; i < 10; i++ {
		f.random()
	}
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Clock = &clock.Snapshot{Control: "180+2", WhiteMS: 171234, BlackMS: 175000, Running: "white", At: clock.Stamp{Time: time.Now()}}
	h.State("hall-1", s)
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	for _, sc := range []screen{phone, tablet, laptop, hall} {
		ctx := openAt(t, sc, url+"/boards/hall-1")
		waitJS(t, ctx, sc.name+": the pieces", `document.querySelectorAll('#flat .piece').length > 20 && document.getElementById('view3d').dataset.frames >= 1`)
		if got := evalJS[float64](t, ctx, `document.documentElement.scrollWidth - innerWidth`); got > 0 {
			t.Errorf("%s: the page scrolls sideways by %v px", sc.name, got)
		}
		flat, moves := box(t, ctx, "#flat svg"), box(t, ctx, "#moves")
		if flat.Width < 0.3*float64(sc.w) || flat.Height < 150 {
			t.Errorf("%s: the flat board is %vx%v px", sc.name, flat.Width, flat.Height)
		}
		if sc.w > 900 && flat.Bottom > float64(sc.h)+0.5 {
			t.Errorf("%s: the flat board is cut at the bottom: %+v", sc.name, flat)
		}
		if flat.Right > float64(sc.w)+0.5 || flat.Left < 0 {
			t.Errorf("%s: the flat board is cut: %+v", sc.name, flat)
		}
		if sc.w <= 900 {
			// The board first, full width; the moves below it.
			if flat.Width < 0.9*float64(sc.w) {
				t.Errorf("%s: the board is %v px wide of %d", sc.name, flat.Width, sc.w)
			}
			if moves.Top < flat.Bottom {
				t.Errorf("%s: the moves (top %v) are not below the board (bottom %v)", sc.name, moves.Top, flat.Bottom)
			}
			if v := box(t, ctx, "#view3d"); v.Width < 0.9*float64(sc.w) {
				t.Errorf("%s: the 3D view is %v px wide", sc.name, v.Width)
			}
		} else if moves.Left < flat.Right {
			t.Errorf("%s: the moves (left %v) are not beside the board (right %v)", sc.name, moves.Left, flat.Right)
		}
		if sc == phone {
			// The levels stacked, the highest on top, each full width.
			if got := evalJS[string](t, ctx, `document.querySelector('#flat svg').dataset.arrange`); got != "column" {
				t.Errorf("phone: flat view arranged %q, want column", got)
			}
			if w, n := box(t, ctx, `#flat [data-cell="a1W"]`), box(t, ctx, `#flat [data-cell="a8B"]`); w.Top < n.Top || w.Width < 30 {
				t.Errorf("phone: W's a1 at %v (%v px), B's a8 at %v: want B on top, squares 30 px or more", w.Top, w.Width, n.Top)
			}
		}
		// The header puts White first, as the wall does.
		if w, b := box(t, ctx, ".white-player"), box(t, ctx, ".black-player"); !(w.Left < b.Left || w.Top < b.Top) {
			t.Errorf("%s: White's name at %v, Black's at %v: want White first", sc.name, w, b)
		}
		noErrors(t, ctx)
		shotAt(t, ctx, "layout-"+sc.name)
	}
}

// Issue 25: every mark shows on every square of every system in the flat
// view, attack boards and platforms included: the king in check and the
// square a move reached are filled, the square it left framed, a cell to
// fix crossed and filled, a target dotted, a capture ringed, the lifted
// piece framed. (The colours of attack-board squares outranked the marks.)
func TestBrowserMarksOnEveryCell(t *testing.T) {
	for _, variant := range []string{"st3d", "first-contact", "millennium"} {
		h := NewHub(DefaultOpts())
		newFakeSet(t, h, "b1", variant)
		url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
		ctx := open(t, url+"/boards/b1")
		waitJS(t, ctx, variant+": the board", `!!window.tridboard.flat && !!window.tridboard.status`)
		// Draw each mark on each cell, every board standing, and read the
		// style the cell gets.
		bad := evalJS[[]string](t, ctx, `(() => {
			const f = window.tridboard.flat, bad = [];
			const pins = f.lay.cells.filter(c => c.k).map(c => c.n);
			const want = {
				check: ['.sq', 'fill', 'rgb(128, 16, 0)'], to: ['.sq', 'fill', 'rgb(86, 180, 233)'],
				fix: ['.sq', 'fill', 'rgb(230, 159, 0)'], from: ['.mark', 'stroke', 'rgb(0, 16, 104)'],
				targets: ['.dot', 'fill', 'rgb(24, 32, 192)'], captures: ['.ring', 'stroke', 'rgb(120, 32, 0)'],
				lifted: ['.mark', 'stroke', 'rgb(58, 12, 163)'],
			};
			const look = (name, c, k) => {
				const [sel, prop, val] = want[k], cs = getComputedStyle(c.g.querySelector(sel));
				if (cs[prop] !== val || cs.display === 'none') bad.push(name + ' ' + k + ': ' + prop + ' ' + cs[prop] + ' ' + cs.display);
			};
			const all = [...f.cells.keys()];
			for (const k of ['fix', 'targets', 'captures', 'lifted']) {
				f.draw({pieces: {}, pins}, {[k]: all});
				for (const [name, c] of f.cells) look(name, c, k);
			}
			for (const [name, c] of f.cells) {
				for (const k of ['check', 'to', 'from']) {
					f.draw({pieces: {}, pins}, {[k]: name});
					look(name, c, k);
				}
			}
			window.tridboard.flat.draw({pieces: {}, pins}, {});
			return bad;
		})()`)
		if len(bad) > 0 {
			t.Errorf("%s: %d marks not shown, first %q", variant, len(bad), bad[:min(5, len(bad))])
		}
		noErrors(t, ctx)
	}
}

// Issue 25: a king in check on an attack board (e0KL1) is marked in the
// flat view as in 3D.
func TestBrowserCheckOnAttackBoard(t *testing.T) {
	sys := mustSys(t, "st3d")
	p, err := sys.ParsePosition("QL1:w,QL6:b,KL1:w,KL6:b Ke0KL1,qd1W,ka9QL6 w - - - 0 1")
	if err != nil {
		t.Fatal(err)
	}
	if in, k := p.InCheck(); !in || sys.Cells()[k] != "e0KL1" {
		t.Fatalf("the position is no check on e0KL1: %v %v", in, k)
	}
	h := NewHub(DefaultOpts())
	h.Availability("b1", true)
	h.State("b1", protocol.State{Game: "g1", Variant: "st3d", Start: p.String(), Position: p.String(), Turn: rules.White,
		Board: protocol.Board{Status: protocol.BoardInSync}, Result: protocol.ResultOngoing, Check: true})
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the check", `document.querySelectorAll('#flat .cell.check').length == 1`)
	if got := cellsWith(t, ctx, "check"); !slices.Equal(got, []string{"e0KL1"}) {
		t.Fatalf("check on %v", got)
	}
	if got := evalJS[string](t, ctx, `getComputedStyle(document.querySelector('#flat [data-cell="e0KL1"] .sq')).fill`); got != "rgb(128, 16, 0)" {
		t.Errorf("the checked king's square on KL1 is %s, want the check colour", got)
	}
	noErrors(t, ctx)
	shotAt(t, ctx, "check-e0KL1")
}

// Issue 25: the overlay is a broadcast graphic: on a transparent
// background it fits any size it is given without a scrollbar, with the
// players' names, their clocks, the result and the last move, the 3D and
// flat boards whole.
func TestBrowserOverlayFits(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.tags = map[string]string{"White": "Kirk", "Black": "Spock"}
	for i := 0; i < 6; i++ {
		f.random()
	}
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Clock = &clock.Snapshot{Control: "180+2", WhiteMS: 171234, BlackMS: 175000, Running: "white", At: clock.Stamp{Time: time.Now()}}
	s.Result, s.Reason = "1-0", "resignation"
	h.State("b1", s)
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	last := f.sent[len(f.sent)-1]
	for _, sc := range []screen{hall, {"720p", 1280, 720}, {"small", 800, 450}, {"portrait", 1080, 1920}} {
		ctx := openAt(t, sc, url+"/boards/b1?overlay=1")
		waitJS(t, ctx, sc.name+": the board", `document.querySelectorAll('#flat .piece').length > 20 && document.getElementById('view3d').dataset.frames >= 1`)
		for _, sel := range []string{"html", "body", "main"} {
			if got := evalJS[string](t, ctx, `getComputedStyle(document.querySelector('`+sel+`')).backgroundColor`); got != "rgba(0, 0, 0, 0)" {
				t.Errorf("%s: %s background %q, want transparent", sc.name, sel, got)
			}
		}
		if got := evalJS[[]float64](t, ctx, `[document.documentElement.scrollWidth - innerWidth, document.documentElement.scrollHeight - innerHeight]`); got[0] > 0 || got[1] > 0 {
			t.Errorf("%s: the overlay scrolls by %v", sc.name, got)
		}
		for sel, want := range map[string]string{"#white-name": "Kirk", "#black-name": "Spock", "#black-clock": "2:55", "#result": "1-0 (resignation)", "#lastmove": last.SAN} {
			got := evalJS[string](t, ctx, `document.querySelector('`+sel+`').textContent`)
			if !strings.Contains(got, want) {
				t.Errorf("%s: %s %q, want %q", sc.name, sel, got, want)
			}
			if r := box(t, ctx, sel); r.Width == 0 || r.Top < 0 || r.Bottom > float64(sc.h)+0.5 || r.Right > float64(sc.w)+0.5 {
				t.Errorf("%s: %s not in view: %+v", sc.name, sel, r)
			}
		}
		for _, sel := range []string{"#flat svg", "#view3d canvas"} {
			if r := box(t, ctx, sel); r.Width < 100 || r.Height < 80 || r.Top < 0 || r.Left < 0 || r.Bottom > float64(sc.h)+0.5 || r.Right > float64(sc.w)+0.5 {
				t.Errorf("%s: %s not whole in view: %+v", sc.name, sel, r)
			}
		}
		noErrors(t, ctx)
		shotAt(t, ctx, "overlay-"+sc.name)
	}
	// A mismatch: the overlay says what to fix, and still fits.
	ms := f.state(protocol.Board{Status: protocol.BoardMismatch, Cells: []string{"a2W"}})
	ms.Tags, ms.Clock = s.Tags, s.Clock
	h.State("b1", ms)
	ctx := openAt(t, hall, url+"/boards/b1?overlay=1")
	waitJS(t, ctx, "the fix line", `!document.getElementById('fix').hidden && document.querySelectorAll('#flat .cell.fix').length == 1`)
	if r := box(t, ctx, "#fix"); r.Height == 0 || r.Bottom > float64(hall.h) {
		t.Errorf("the fix line in the overlay: %+v", r)
	}
	if got := evalJS[float64](t, ctx, `document.documentElement.scrollHeight - innerHeight`); got > 0 {
		t.Errorf("with the fix line the overlay scrolls by %v", got)
	}
}

// Issue 25: the 3D view frames every system's board whole and its pieces'
// letters never collide: a letter that would overlap a nearer one is
// hidden; on a laptop and a hall screen the 3D and flat views stand side
// by side, the whole board in view without scrolling.
func TestBrowser3DFramedAndLabels(t *testing.T) {
	for _, variant := range []string{"st3d", "millennium", "first-contact"} {
		h := NewHub(DefaultOpts())
		f := newFakeSet(t, h, "b1", variant)
		for i := 0; i < 16; i++ {
			f.random()
		}
		url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
		for _, sc := range []screen{laptop, hall} {
			ctx := openAt(t, sc, url+"/boards/b1")
			waitJS(t, ctx, variant+": the 3D view", `document.getElementById('view3d').dataset.frames >= 1 && !!window.tridboard.view3d && !!window.tridboard.view3d.labels && document.querySelectorAll('#flat .piece').length > 0`)
			type label struct {
				N       string
				X, Y, R float64
			}
			labels := evalJS[[]label](t, ctx, `window.tridboard.view3d.labels.map(l => ({N: l.n, X: l.x, Y: l.y, R: l.r}))`)
			if len(labels) == 0 {
				t.Fatalf("%s %s: no letters shown", variant, sc.name)
			}
			for i, a := range labels {
				for _, b := range labels[i+1:] {
					if abs(a.X-b.X) < a.R+b.R && abs(a.Y-b.Y) < a.R+b.R {
						t.Errorf("%s %s: the letters of %s and %s overlap", variant, sc.name, a.N, b.N)
					}
				}
			}
			// Every square of the board projects inside the 3D view.
			out := evalJS[[]string](t, ctx, `(() => { const v = window.tridboard.view3d, out = [];
				for (const [n, t] of v.tiles) { if (!t.visible) continue; const p = t.position.clone().project(v.camera);
					if (Math.abs(p.x) > 1 || Math.abs(p.y) > 1) out.push(n); } return out; })()`)
			if len(out) > 0 {
				t.Errorf("%s %s: squares out of the 3D view: %v", variant, sc.name, out)
			}
			v3, fl := box(t, ctx, "#view3d"), box(t, ctx, "#flat svg")
			if fl.Left < v3.Right || fl.Bottom > float64(sc.h)+0.5 || v3.Bottom > float64(sc.h)+0.5 {
				t.Errorf("%s %s: 3D %+v and flat %+v: want side by side, both in view", variant, sc.name, v3, fl)
			}
			noErrors(t, ctx)
			shotAt(t, ctx, "3d-"+variant+"-"+sc.name)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
