package web

import (
	"bytes"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
)

// reserveOf is what a position's reserve must show: letter -> count.
func reserveOf(p rules.Position) map[string]int {
	out := map[string]int{}
	if r, ok := p.(rules.Reserver); ok {
		for _, c := range []rules.Color{rules.White, rules.Black} {
			for k := rules.Pawn; k <= rules.King; k++ {
				if n := r.Reserve(c, k); n > 0 {
					out[string(rules.PieceOf(c, k).Letter())] = n
				}
			}
		}
	}
	return out
}

// reserveJS reads the reserve drawn under sel: letter -> count, and the
// labels.
func reserveJS(sel string) string {
	return `(() => { const out = {}; document.querySelectorAll('` + sel + ` .reserve .rp').forEach(e => out[e.dataset.piece] = +e.dataset.count); return out; })()`
}

// Issue 25: each side's reserve (First Contact's pieces still to be
// introduced, V.P6's pieces to place) is drawn beside the board, labelled
// "reserve", kind by kind with counts, in the flat view, the 3D view and
// the overlay; it follows the game; a game without one shows none.
func TestBrowserReserve(t *testing.T) {
	for _, variant := range []string{"first-contact", "st3d+V.P6"} {
		h := NewHub(DefaultOpts())
		f := newFakeSet(t, h, "b1", variant)
		for i := 0; i < 5; i++ {
			f.random()
		}
		url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
		for _, page := range []string{"", "?overlay=1"} {
			want := reserveOf(f.g.Position())
			sides := 0
			for _, s := range "Pp" {
				for l := range want {
					if l[0] >= 'a' == (s == 'p') {
						sides++
						break
					}
				}
			}
			if sides != 2 {
				t.Fatalf("%s: the reserve after %d moves is %v: want pieces of both sides", variant, f.g.Len(), want)
			}
			ctx := open(t, url+"/boards/b1"+page)
			waitJS(t, ctx, variant+page+": the reserve", `document.querySelectorAll('#flatbox .reserve').length == 2 && document.getElementById('view3d').dataset.frames >= 1`)
			for _, sel := range []string{"#flatbox", "#view3d"} {
				got := evalJS[map[string]int](t, ctx, reserveJS(sel))
				if !maps.Equal(got, want) {
					t.Errorf("%s%s: %s reserve %v, want %v", variant, page, sel, got, want)
				}
				labels := evalJS[[]string](t, ctx, `[...document.querySelectorAll('`+sel+` .reserve .rlabel')].map(e => e.textContent)`)
				if !slices.Equal(labels, []string{"White reserve", "Black reserve"}) {
					t.Errorf("%s%s: %s labels %q", variant, page, sel, labels)
				}
				if r := box(t, ctx, sel+" .reserve.black"); r.Width == 0 || r.Height == 0 {
					t.Errorf("%s%s: %s: Black's reserve not shown: %+v", variant, page, sel, r)
				}
			}
			noErrors(t, ctx)
			shotAt(t, ctx, "reserve-"+strings.Split(variant, "+")[0]+strings.TrimPrefix(page, "?"))
			// The game goes on: the reserve follows, and stepping back
			// shows the reserve of the position shown.
			if page == "" {
				f.random()
				after := mustJSON(reserveOf(f.g.Position()))
				waitJS(t, ctx, "the reserve after a move", `JSON.stringify(Object.fromEntries(Object.entries(`+reserveJS("#flatbox")+`).sort())) == JSON.stringify(Object.fromEntries(Object.entries(`+after+`).sort()))`)
				chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#first")))
				start := mustJSON(reserveOf(f.g.Start()))
				waitJS(t, ctx, "the start's reserve", `JSON.stringify(Object.fromEntries(Object.entries(`+reserveJS("#flatbox")+`).sort())) == JSON.stringify(Object.fromEntries(Object.entries(`+start+`).sort()))`)
			}
		}
	}
	h := NewHub(DefaultOpts())
	newFakeSet(t, h, "b1", "st3d")
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the board", `document.querySelectorAll('#flat .piece').length == 32`)
	if n := evalJS[int](t, ctx, `document.querySelectorAll('.reserve').length`); n != 0 {
		t.Errorf("a tournament game shows %d reserves", n)
	}
}

// Issue 25: /boards/nope says there is no such board (and answers 404),
// draws no empty board, and shows the board as soon as it publishes.
func TestBrowserUnknownBoard(t *testing.T) {
	h := NewHub(DefaultOpts())
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/nope")
	waitJS(t, ctx, "the page", `document.readyState == 'complete'`)
	if got := evalJS[string](t, ctx, `document.getElementById('notfound').innerText`); !strings.HasPrefix(got, "No board “nope” is known here") {
		t.Errorf("notice %q", got)
	}
	if got := evalJS[string](t, ctx, `getComputedStyle(document.querySelector('main')).display`); got != "none" {
		t.Errorf("an unknown board's page draws its board (main display %q)", got)
	}
	shotAt(t, ctx, "unknown-board")
	newFakeSet(t, h, "nope", "st3d")
	waitJS(t, ctx, "the board once it publishes", `document.getElementById('notfound').hidden && document.querySelectorAll('#flat .piece').length == 32`)
	noErrors(t, ctx)
}

// Issue 25: the wall lists boards in natural order (load-1, load-2,
// load-10) and counts them in good English.
func TestBrowserWallOrderAndCount(t *testing.T) {
	h := NewHub(DefaultOpts())
	newFakeSet(t, h, "load-10", "st3d")
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/")
	waitJS(t, ctx, "one board", `document.querySelectorAll('.card').length == 1`)
	if got := evalJS[string](t, ctx, `document.getElementById('count').textContent`); got != "1 board" {
		t.Errorf("count %q, want \"1 board\"", got)
	}
	for _, id := range []string{"load-2", "load-1", "load-11", "hall"} {
		newFakeSet(t, h, id, "st3d")
	}
	waitJS(t, ctx, "five boards", `document.querySelectorAll('.card').length == 5`)
	want := []string{"hall", "load-1", "load-2", "load-10", "load-11"}
	if got := evalJS[[]string](t, ctx, `[...document.querySelectorAll('.card')].map(e => e.dataset.board)`); !slices.Equal(got, want) {
		t.Errorf("wall order %q, want %q", got, want)
	}
	if got := evalJS[string](t, ctx, `document.getElementById('count').textContent`); got != "5 boards" {
		t.Errorf("count %q", got)
	}
	var ids []string
	for _, s := range h.Summaries() {
		ids = append(ids, s.ID)
	}
	if !slices.Equal(ids, want) {
		t.Errorf("/api/boards order %q, want %q", ids, want)
	}
	noErrors(t, ctx)
}

// Issue 25, the smaller points: stepping back hides the live turn line and
// says what is shown; the game-over line is words, not "game_over:
// checkmate"; the flat view has file letters; low time on both sides
// shows both clocks red.
func TestBrowserSmallerPoints(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	for i := 0; i < 4; i++ {
		f.random()
	}
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Clock = &clock.Snapshot{Control: "180+2", WhiteMS: 25000, BlackMS: 24000, Running: "white", Low: clock.LowBoth, At: clock.Stamp{Time: time.Now()}}
	h.State("b1", s)
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "four moves", `document.querySelectorAll('#moves .move[data-ply]').length == 4 && document.querySelectorAll('#flat .labels text.file').length > 0`)
	// Files under the panels: z a | a b c d | d e under each level.
	files := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#flat .labels text.file')].map(e => e.textContent)`)
	if want := strings.Split(strings.Repeat("z a a b c d d e ", 3), " "); !slices.Equal(files, want[:24]) {
		t.Errorf("file letters %q", files)
	}
	// Ranks at the left, from the layout: 9 (Black's side) down to 0.
	ranks := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#flat .labels text.rank')].map(e => e.textContent)`)
	if want := strings.Split("9 8 7 6 5 4 3 2 1 0", " "); !slices.Equal(ranks, want) {
		t.Errorf("rank labels %q, want %q", ranks, want)
	}
	waitJS(t, ctx, "both clocks red", `document.getElementById('white-clock').classList.contains('low') && document.getElementById('black-clock').classList.contains('low')`)
	if got := evalJS[string](t, ctx, `getComputedStyle(document.getElementById('black-clock')).color`); got != "rgb(255, 90, 74)" {
		t.Errorf("Black's low clock is %s", got)
	}
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#back")))
	waitJS(t, ctx, "stepped back", `document.getElementById('turn').hidden && !document.getElementById('stepline').hidden`)
	if got := evalJS[string](t, ctx, `document.getElementById('stepline').textContent`); !strings.HasPrefix(got, "after 2. "+f.sent[2].SAN+" (an earlier move") {
		t.Errorf("step line %q", got)
	}
	if got := evalJS[bool](t, ctx, `document.getElementById('turn').offsetParent === null`); !got {
		t.Error("the live turn line shows while stepping back")
	}
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#live")))
	waitJS(t, ctx, "live", `!document.getElementById('turn').hidden && document.getElementById('stepline').hidden`)
	h.Event("b1", protocol.Event{Type: protocol.EventGameOver, Game: f.game, Result: "0-1", Detail: "checkmate"})
	waitJS(t, ctx, "the game over line", `document.getElementById('lastevent').textContent != ''`)
	if got := evalJS[string](t, ctx, `document.getElementById('lastevent').textContent`); got != "Game over: Black wins by checkmate (0-1)" {
		t.Errorf("game over line %q", got)
	}
	noErrors(t, ctx)
}

// noGL serves the pages to a browser without WebGL: the board page gets a
// script that refuses every WebGL context.
func noGL(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/boards/") || strings.Count(r.URL.Path, "/") != 2 {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		b := bytes.Replace(rec.Body.Bytes(), []byte("<head>"), []byte(`<head><script>const gc = HTMLCanvasElement.prototype.getContext; HTMLCanvasElement.prototype.getContext = function(k, ...a) { return /webgl/.test(k) ? null : gc.call(this, k, ...a); };</script>`), 1)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(rec.Code)
		w.Write(b)
	})
}

// Issue 25: without WebGL the page says so in a line and leaves no empty
// box above the flat view.
func TestBrowserWithoutWebGL(t *testing.T) {
	h := NewHub(DefaultOpts())
	newFakeSet(t, h, "b1", "st3d")
	url, _ := serve(t, noGL(New(h, DefaultServerOpts()).Handler()), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the no-WebGL line", `!document.querySelector('.nogl').hidden && document.querySelectorAll('#flat .piece').length == 32`)
	if r := box(t, ctx, "#view3d"); r.Height != 0 {
		t.Errorf("an empty 3D box %v px high", r.Height)
	}
	if got := evalJS[float64](t, ctx, `document.getElementById('flat').getBoundingClientRect().top - document.querySelector('.nogl').getBoundingClientRect().bottom`); got > 20 {
		t.Errorf("%v px between the no-WebGL line and the flat view", got)
	}
	shotAt(t, ctx, "nogl")
	// window.__errors holds the page's errors; a warning is no error.
	noErrors(t, ctx)
}

// Issue 25, access: each move is announced in words in a live region
// ("knight b1 White to c3 Neutral"), the step buttons are named, the move
// list steps by keyboard (arrows, Home, End), and "speak the moves" says
// each new move with the speech synthesis.
func TestBrowserAccess(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.play("b2W-b4N")
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the move", `document.querySelectorAll('#moves .move[data-ply]').length == 1`)
	if got := evalJS[string](t, ctx, `document.getElementById('announce').textContent`); got != "" {
		t.Errorf("the moves the page loads with are announced: %q", got)
	}
	if got := evalJS[string](t, ctx, `document.getElementById('announce').getAttribute('aria-live')`); got != "polite" {
		t.Errorf("announce aria-live %q", got)
	}
	// The description follows the drawing, which may come a frame after
	// the move list.
	const described = "the board: White: king d0 attack board KL1; queen a0 attack board QL1; rooks e0 attack board KL1, z0 attack board QL1; "
	waitJS(t, ctx, "the board described", `(document.querySelector('#flat svg').getAttribute('aria-label') || '').startsWith('`+described+`')`)
	for _, id := range []string{"first", "back", "fwd", "live", "flipbtn", "toggle3d", "sharebtn"} {
		if got := evalJS[string](t, ctx, `document.getElementById('`+id+`').getAttribute('aria-label') || ''`); got == "" {
			t.Errorf("button %s has no name", id)
		}
	}
	// Speech: the page speaks through speechSynthesis.speak.
	evalJS[bool](t, ctx, `window.said = []; speechSynthesis.speak = u => window.said.push(u.text); true`)
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#speak")))
	for _, tc := range []struct{ move, words string }{
		{"b7B-b5N", "pawn b7 Black to b5 Neutral"},
		{"Nd1W-c3W", "knight d1 White to c3 White"},
		{"Nd8B-c6B", "knight d8 Black to c6 Black"},
		{"c3W-b5N", "knight c3 White takes b5 Neutral"},
	} {
		f.play(tc.move)
		waitJS(t, ctx, tc.move+" announced", `document.getElementById('announce').textContent == '`+tc.words+`'`)
	}
	if got := evalJS[[]string](t, ctx, `window.said`); !slices.Equal(got, []string{"pawn b7 Black to b5 Neutral", "knight d1 White to c3 White", "knight d8 Black to c6 Black", "knight c3 White takes b5 Neutral"}) {
		t.Errorf("spoken %q", got)
	}
	// The move list by keyboard.
	key := func(k string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`#moves .move[tabindex="0"]`)), chromedp.KeyEvent(k)); err != nil {
			t.Fatal(err)
		}
	}
	key(kb.ArrowLeft)
	waitJS(t, ctx, "one back", `window.tridboard.view === 4 && document.activeElement.id == 'ply-4'`)
	key(kb.Home)
	waitJS(t, ctx, "the start", `window.tridboard.view === 0`)
	key(kb.ArrowDown)
	waitJS(t, ctx, "the first move", `window.tridboard.view === 1 && document.querySelector('#ply-1').getAttribute('aria-selected') == 'true'`)
	key(kb.End)
	waitJS(t, ctx, "live", `window.tridboard.view === null`)
	noErrors(t, ctx)
}

// Issue 25, spectators: the pieces each side took and the material
// balance, the time each move took (from the move before it), the players'
// titles and ratings from the tags, a share link to the board.
func TestBrowserMaterialTimesShare(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	f.tags = map[string]string{"White": "Kirk", "WhiteTitle": "GM", "WhiteElo": "2712", "Black": "Spock", "BlackElo": "2650"}
	for _, m := range []string{"b2W-b4N", "b7B-b5N", "Nd1W-c3W", "Nd8B-c6B", "c3W-b5N"} {
		f.play(m) // the fake set plays a move a second
	}
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "five moves", `document.querySelectorAll('#moves .move[data-ply]').length == 5 && document.querySelectorAll('#material .took').length == 1`)
	if got := evalJS[string](t, ctx, `document.getElementById('white-info').textContent + '/' + document.getElementById('black-info').textContent`); got != "GM 2712/2650" {
		t.Errorf("players' titles and ratings %q", got)
	}
	if got := evalJS[string](t, ctx, `document.getElementById('material').textContent`); got != "White took PWhite +1" {
		t.Errorf("material %q", got)
	}
	if got := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#moves .move[data-ply]')].map(e => e.dataset.spent || '')`); !slices.Equal(got, []string{"", "1s", "1s", "1s", "1s"}) {
		t.Errorf("times per move %q", got)
	}
	if got := evalJS[string](t, ctx, `getComputedStyle(document.querySelector('#moves .move[data-ply="2"]'), '::after').content`); got != `"1s"` {
		t.Errorf("the time shown after move 2: %s", got)
	}
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#sharebtn")))
	waitJS(t, ctx, "the share link", `!document.getElementById('shareurl').hidden`)
	if got := evalJS[string](t, ctx, `document.getElementById('shareurl').value`); got != url+"/boards/b1" {
		t.Errorf("share link %q, want %q", got, url+"/boards/b1")
	}
	noErrors(t, ctx)
	shotAt(t, ctx, "material")
}

// Issue 25, spectators: the evaluation bar, the best line and the graph
// of the game come from the hub's engine (HubOpts.Eval) as it analyses;
// stepping back shows the evaluation of the position shown; the toggle
// switches them off.
func TestBrowserEvaluation(t *testing.T) {
	h := NewHub(evalOpts())
	f := newFakeSet(t, h, "b1", "millennium")
	for i := 0; i < 4; i++ {
		f.random()
	}
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "four moves", `document.querySelectorAll('#moves .move[data-ply]').length == 4`)
	if !evalJS[bool](t, ctx, `document.getElementById('evalbox').hidden`) {
		t.Error("an evaluation box before any evaluation")
	}
	drain(t, h)
	waitJS(t, ctx, "the evaluation", `!document.getElementById('evalbox').hidden && document.querySelector('.evalgraph').dataset.points == 5`)
	v := view(t, h, "b1")
	ev := v.Moves[3].Eval
	want := "best: " + strings.Join(ev.Best, " ")
	if got := evalJS[string](t, ctx, `document.querySelector('.bestline').textContent`); !strings.HasPrefix(got, want) {
		t.Errorf("best line %q, want %q...", got, want)
	}
	text := evalJS[string](t, ctx, `document.querySelector('.evaltext').textContent`)
	if text == "" || text == "…" {
		t.Errorf("evaluation text %q", text)
	}
	// A new move: its evaluation comes live.
	f.random()
	waitJS(t, ctx, "the fifth move", `document.querySelectorAll('#moves .move[data-ply]').length == 5`)
	drain(t, h)
	waitJS(t, ctx, "its evaluation", `document.querySelector('.evalgraph').dataset.points == 6`)
	// Stepping back shows the start's evaluation.
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#first")))
	start := v.StartEval
	waitJS(t, ctx, "the start's evaluation", `document.querySelector('.bestline').textContent.startsWith('best: `+strings.Join(start.Best, " ")+`')`)
	shotAt(t, ctx, "evaluation")
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#evaltoggle")))
	waitJS(t, ctx, "switched off", `document.getElementById('evalbox').hidden`)
	noErrors(t, ctx)
}

// Issue 25: the hall wall in kiosk mode: large cards, as many as fit the
// screen, a page at a time in the natural order of the boards, cycling;
// the round and the names on every card.
func TestBrowserKioskWall(t *testing.T) {
	h := NewHub(DefaultOpts())
	var ids []string
	for i := 1; i <= 14; i++ {
		id := "hall-" + itoa(i)
		ids = append(ids, id)
		f := newFakeSet(t, h, id, "st3d")
		f.tags = map[string]string{"White": "White " + itoa(i), "Black": "Black " + itoa(i), "Round": "4"}
		f.random()
	}
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := openAt(t, hall, url+"/?kiosk=1&every=2")
	waitJS(t, ctx, "the cards", `document.querySelectorAll('.card canvas.mini-board').length == 14 && window.tridboardWall.paging.pages > 1`)
	visible := func() []string {
		return evalJS[[]string](t, ctx, `[...document.querySelectorAll('.card')].filter(e => !e.hidden).map(e => e.dataset.board)`)
	}
	per := evalJS[int](t, ctx, `window.tridboardWall.paging.per`)
	first := visible()
	if per < 2 || per >= 14 || !slices.Equal(first, ids[:per]) {
		t.Fatalf("first page %q (%d a page), want the first boards in natural order", first, per)
	}
	if r := box(t, ctx, `.card[data-board="hall-1"]`); r.Width < 400 || r.Bottom > float64(hall.h) {
		t.Errorf("a kiosk card %+v: want large and on the screen", r)
	}
	for _, id := range first {
		if r := box(t, ctx, `.card[data-board="`+id+`"]`); r.Bottom > float64(hall.h)+0.5 {
			t.Errorf("%s is cut off the screen: %+v", id, r)
		}
	}
	if got := evalJS[string](t, ctx, `document.querySelector('.card[data-board="hall-3"] .cround').textContent + ' / ' + document.querySelector('.card[data-board="hall-3"] .pl.white .name').textContent`); got != "round 4 / White 3" {
		t.Errorf("card: %q", got)
	}
	shotAt(t, ctx, "kiosk")
	waitJS(t, ctx, "the next page", `window.tridboardWall.paging.page == 1`)
	if got := visible(); len(got) == 0 || got[0] != ids[per] {
		t.Errorf("second page %q, want from %s", got, ids[per])
	}
	if got := evalJS[string](t, ctx, `document.getElementById('pageno').textContent`); !strings.HasPrefix(got, "page 2 of ") {
		t.Errorf("page number %q", got)
	}
	noErrors(t, ctx)
}

// Both lines of work on one page (the merge of issue 25's page with the
// lesson, the set's buttons and remote play): the lesson line under the
// turn, the fix hint in words, the other set offline, and hint, button and
// change-of-mind events in words, beside the reserves and the step line, with no script
// error; the take-back request and two-ply buttons are there.
func TestBrowserLessonPeerAndEvents(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "first-contact")
	s := f.state(protocol.Board{Status: protocol.BoardMismatch, Cells: []string{"b2W"}, Reason: "set up the position of the new game",
		Instruction: "put back the white pawn on b2W"})
	s.Lesson = &protocol.Lesson{Assist: map[string]string{"white": "full", "black": "none"},
		Hints: map[string]int{"white": 3, "black": 3}, HintsUsed: map[string]int{"white": 1}, Locked: true}
	s.Peer = &protocol.PeerState{Set: "klingon", Paired: true, Detail: "set klingon is offline since 12:00:00"}
	h.State("b1", s)
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the lesson line", `!document.getElementById('lesson').hidden`)
	for _, c := range []struct{ id, want string }{
		{"lesson", "White: full assistance (hints 1/3) \u00b7 Black: no assistance \u00b7 teacher\u2019s lock"},
		{"peer", "set klingon is offline since 12:00:00"},
		{"fix", "Fix b2W: set up the position of the new game \u2014 to do: put back the white pawn on b2W"},
	} {
		if got := evalJS[string](t, ctx, `document.getElementById('`+c.id+`').textContent`); got != c.want {
			t.Errorf("#%s %q, want %q", c.id, got, c.want)
		}
	}
	if n := evalJS[int](t, ctx, `document.querySelectorAll('#flatbox .reserves .reserve').length`); n == 0 {
		t.Error("no reserve drawn beside the flat view")
	}
	if got := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#actions button[data-plies], #actions button[data-answer]')].map(b => b.dataset.plies || b.dataset.answer)`); !slices.Equal(got, []string{"2", "accept", "refuse"}) {
		t.Errorf("take-back buttons %q", got)
	}
	for _, c := range []struct {
		ev   protocol.Event
		want string
	}{
		{protocol.Event{Type: protocol.EventHint, Game: f.game, Cell: "b2W", Cells: []string{"b2W"}, Detail: "white"}, "hint for White: move the piece on b2W"},
		{protocol.Event{Type: protocol.EventHint, Game: f.game, Cell: "b2W", Cells: []string{"b2W", "b3W"}, Move: "b2W-b3W", Detail: "white"}, "hint for White: b2W-b3W"},
		{protocol.Event{Type: protocol.EventButton, Game: f.game, Detail: "clock_white"}, "button: clock_white"},
		{protocol.Event{Type: protocol.EventCorrection, Game: f.game, Detail: "b2W-b3W", Move: "b2W-b4W"}, "change of mind: b2W-b3W, b2W-b4W instead"},
	} {
		h.Event("b1", c.ev)
		waitJS(t, ctx, c.want, `document.getElementById('lastevent').textContent == `+strconv.Quote(c.want))
	}
	s.Peer, s.Lesson = nil, nil
	h.State("b1", s)
	waitJS(t, ctx, "no peer and no lesson", `document.getElementById('peer').hidden && document.getElementById('lesson').hidden`)
	noErrors(t, ctx)
}
