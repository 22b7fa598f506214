package web

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
)

// keepShot saves a screenshot of the whole page to $TRIDBOARD_SHOTS when
// it is set, for a person to look at the pages.
func keepShot(t *testing.T, ctx contextT, name string) {
	saveShot(t, ctx, name, chromedp.FullScreenshot(100))
}

// saveShot saves the screenshot shot takes to $TRIDBOARD_SHOTS/name.png.
func saveShot(t *testing.T, ctx contextT, name string, shot chromedp.Action[[]byte]) {
	dir := os.Getenv("TRIDBOARD_SHOTS")
	if dir == "" {
		return
	}
	b, err := chromedp.Run(ctx, shot)
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	os.WriteFile(filepath.Join(dir, name+".png"), b, 0o644)
}

// piecesOf is what the flat view must show: every piece of p on its cell.
func piecesOf(sys rules.System, p rules.Position) map[string]string {
	out := map[string]string{}
	for i, n := range sys.Cells() {
		if pc, ok := p.CellPiece(rules.Cell(i)); ok {
			out[n] = string(pc.Letter())
		}
	}
	return out
}

func open(t *testing.T, url string) contextT {
	t.Helper()
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

func noErrors(t *testing.T, ctx contextT) {
	t.Helper()
	if errs := evalJS[[]string](t, ctx, "window.__errors"); len(errs) > 0 {
		t.Fatalf("errors in the page: %q", errs)
	}
}

func cellsWith(t *testing.T, ctx contextT, class string) []string {
	t.Helper()
	got := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#flat .cell.`+class+`')].map(e => e.dataset.cell).sort()`)
	if got == nil {
		got = []string{}
	}
	return got
}

// A game played on the set appears move by move on the board page: the
// pieces on their squares in the flat view, the move list with move
// numbers in Meder notation, the last move marked on both its levels; the
// move list steps back while the game goes on; the 3D view draws.
func TestBrowserBoardMoveByMove(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "hall-1", "st3d")
	f.tags = map[string]string{"White": "Kirk", "Black": "Spock", "Event": "Federation Open", "Round": "3"}
	h.State("hall-1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/hall-1")
	waitJS(t, ctx, "the start position", `document.querySelectorAll('#flat .piece').length == 32`)
	if got := evalJS[map[string]string](t, ctx, piecesJS+"; "+flatPieces); !maps.Equal(got, piecesOf(f.sys, f.g.Position())) {
		t.Fatalf("start: flat view %v", got)
	}
	if got := evalJS[string](t, ctx, `document.getElementById('white-name').textContent + '/' + document.getElementById('black-name').textContent`); got != "Kirk/Spock" {
		t.Errorf("players %q", got)
	}
	moves := []string{"b2W-b4N", "b7B-b5N", "Nd1W-c3W", "c7B-c6B"}
	var sans []string
	for i, m := range moves {
		mv := f.play(m)
		sans = append(sans, mv.SAN)
		waitJS(t, ctx, "move "+m, `document.querySelectorAll('#moves .move[data-ply]').length == `+itoa(i+1)+
			` && document.querySelector('#flat [data-cell="`+strings.Split(mv.Move, "-")[1][len(strings.Split(mv.Move, "-")[1])-3:]+`"]') != null`)
		waitJS(t, ctx, "the pieces after "+m, `JSON.stringify(`+flatPieces+`) == '`+mustJSON(piecesOf(f.sys, f.g.Position()))+`'`)
		from, to, _ := strings.Cut(strings.TrimLeft(mv.Move, "KQRBNP"), "-")
		if got := cellsWith(t, ctx, "last-from"); !slices.Equal(got, []string{from}) {
			t.Errorf("after %s: last-from %v, want %s", m, got, from)
		}
		if got := cellsWith(t, ctx, "last-to"); !slices.Equal(got, []string{to}) {
			t.Errorf("after %s: last-to %v, want %s", m, got, to)
		}
	}
	if got := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#moves .move[data-ply]')].map(e => e.textContent)`); !slices.Equal(got, sans) {
		t.Errorf("move list %q, want %q", got, sans)
	}
	if got := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#moves .num')].map(e => e.textContent)`); !slices.Equal(got, []string{"1.", "2."}) {
		t.Errorf("move numbers %q", got)
	}
	// Step back two moves, a click at a time as a person looks, then the
	// game goes on: the page stays there.
	click := func(sel string) {
		t.Helper()
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("click %s: %v", sel, err)
		}
	}
	click("#back")
	_, oneBack := f.g.Move(3)
	waitJS(t, ctx, "one move back", `JSON.stringify(`+flatPieces+`) == '`+mustJSON(piecesOf(f.sys, oneBack))+`'`)
	click("#back")
	_, before := f.g.Move(2)
	want := mustJSON(piecesOf(f.sys, before))
	waitJS(t, ctx, "two moves back", `JSON.stringify(`+flatPieces+`) == '`+want+`'`)
	f.play("Nc3W-d5N")
	waitJS(t, ctx, "the fifth move listed", `document.querySelectorAll('#moves .move[data-ply]').length == 5`)
	if got := evalJS[string](t, ctx, piecesJS+`; JSON.stringify(`+flatPieces+`)`); got != want {
		t.Errorf("stepping back: the board moved on to %s", got)
	}
	click("#live")
	waitJS(t, ctx, "live again", `JSON.stringify(`+flatPieces+`) == '`+mustJSON(piecesOf(f.sys, f.g.Position()))+`'`)
	// The 3D view renders something: many colours in its canvas.
	waitJS(t, ctx, "the 3D view", `document.body.classList.contains('has3d') && !!document.querySelector('#view3d canvas') && document.getElementById('view3d').dataset.frames >= 1`)
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#view3d canvas")))
	if err != nil {
		t.Fatal(err)
	}
	if n := colours(t, png); n < 40 {
		t.Errorf("3D canvas: %d colours, a blank canvas has 1", n)
	}
	noErrors(t, ctx)
	keepShot(t, ctx, "board")
	click("#toggle3d")
	keepShot(t, ctx, "board-flat")
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// A lifted piece shows its legal targets (what the LEDs show); a mismatch
// shows its cells and the reason; in sync clears both.
func TestBrowserLiftAndMismatch(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the start position", `document.querySelectorAll('#flat .piece').length == 32`)
	want := f.targets("d1W")
	slices.Sort(want)
	h.Event("b1", protocol.Event{Type: protocol.EventLift, Game: f.game, Cell: "d1W", Cells: []string{"d1W"}})
	waitJS(t, ctx, "the targets", `document.querySelectorAll('#flat .cell.target').length == `+itoa(len(want)))
	if got := cellsWith(t, ctx, "target"); !slices.Equal(got, want) {
		t.Errorf("targets %v, want %v", got, want)
	}
	if got := cellsWith(t, ctx, "lifted"); !slices.Equal(got, []string{"d1W"}) {
		t.Errorf("lifted %v", got)
	}
	keepShot(t, ctx, "lifted")
	h.Event("b1", protocol.Event{Type: protocol.EventIllegal, Game: f.game, Cells: []string{"a2W", "d1W"}, Detail: "no legal move explains it"})
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardMismatch, Cells: []string{"a2W", "d1W"}}))
	waitJS(t, ctx, "the cells to fix", `document.querySelectorAll('#flat .cell.fix').length == 2 && !document.getElementById('fix').hidden && document.getElementById('status').textContent == 'MISMATCH'`)
	if got := cellsWith(t, ctx, "fix"); !slices.Equal(got, []string{"a2W", "d1W"}) {
		t.Errorf("fix %v", got)
	}
	if got := evalJS[string](t, ctx, `document.getElementById('fix').textContent`); got != "Fix a2W, d1W: illegal: no legal move explains it" {
		t.Errorf("fix banner %q", got)
	}
	if got := evalJS[string](t, ctx, `document.getElementById('status').textContent`); got != "MISMATCH" {
		t.Errorf("status %q", got)
	}
	if got := cellsWith(t, ctx, "target"); len(got) != 0 {
		t.Errorf("targets still shown: %v", got)
	}
	keepShot(t, ctx, "mismatch")
	h.State("b1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	waitJS(t, ctx, "in sync", `document.querySelectorAll('#flat .cell.fix').length == 0 && document.getElementById('fix').hidden`)
	noErrors(t, ctx)
}

// The page survives a restart of the server: it reconnects, resumes from
// the seq it had, and shows every move once, those made while it was down
// included.
func TestBrowserResumesAfterRestart(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	url, stop := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	f.random()
	f.random()
	waitJS(t, ctx, "two moves", `document.querySelectorAll('#moves .move[data-ply]').length == 2`)
	stop()
	waitJS(t, ctx, "the page notices", `document.getElementById('conn').textContent == 'reconnecting'`)
	// The daemon restarts: a new hub fed with the retained state and the moves.
	h2 := NewHub(DefaultOpts())
	f.hub = h2
	h2.Availability("b1", true)
	h2.State("b1", f.state(protocol.Board{Status: protocol.BoardInSync}))
	for i := 0; i < 3; i++ {
		f.random()
	}
	h2.Move("b1", f.sent[1]) // a duplicate, redelivered
	serve(t, New(h2, DefaultServerOpts()).Handler(), strings.TrimPrefix(url, "http://"))
	waitJS(t, ctx, "five moves", `document.querySelectorAll('#moves .move[data-ply]').length == 5 && document.getElementById('conn').textContent == 'live'`)
	var sans []string
	for _, m := range f.sent {
		sans = append(sans, m.SAN)
	}
	if got := evalJS[[]string](t, ctx, `[...document.querySelectorAll('#moves .move[data-ply]')].map(e => e.textContent)`); !slices.Equal(got, sans) {
		t.Errorf("moves %q, want %q", got, sans)
	}
	if got := evalJS[[]int](t, ctx, `window.tridboard.moves.map(m => m.seq)`); !slices.Equal(got, []int{1, 2, 3, 4, 5}) {
		t.Errorf("seqs %v", got)
	}
	waitJS(t, ctx, "the position", `JSON.stringify(`+flatPieces+`) == '`+mustJSON(piecesOf(f.sys, f.g.Position()))+`'`)
	noErrors(t, ctx)
}

// The wall shows every board, each with its players, status and pieces,
// for every system, and follows their moves; a click opens the board.
func TestBrowserWall(t *testing.T) {
	h := NewHub(DefaultOpts())
	sets := []*fakeSet{newFakeSet(t, h, "b1", "st3d"), newFakeSet(t, h, "b2", "millennium"), newFakeSet(t, h, "b3", "first-contact")}
	for i, f := range sets {
		f.tags = map[string]string{"White": "White " + itoa(i+1), "Black": "Black " + itoa(i+1)}
		for j := 0; j < 4; j++ {
			f.random()
		}
	}
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/")
	waitJS(t, ctx, "three boards", `document.querySelectorAll('.card canvas.mini-board').length == 3`)
	for i, f := range sets {
		sel := `.card[data-board="` + f.id + `"]`
		want := mustJSON(piecesOf(f.sys, f.g.Position()))
		waitJS(t, ctx, f.id+"'s pieces", `document.querySelector('`+sel+` canvas').dataset.pieces == '`+want+`'`)
		if got := evalJS[string](t, ctx, `document.querySelector('`+sel+` .pl.white .name').textContent`); got != "White "+itoa(i+1) {
			t.Errorf("%s: white %q", f.id, got)
		}
	}
	mv := sets[1].play(sets[1].g.Position().Long(sets[1].g.Position().LegalMoves(nil)[0]))
	waitJS(t, ctx, "b2's move", `document.querySelector('.card[data-board="b2"] .last').textContent == '3. `+mv.SAN+`'`)
	noErrors(t, ctx)
	keepShot(t, ctx, "wall")
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.card[data-board="b3"]`)))
	waitJS(t, ctx, "b3's page", `location.pathname == '/boards/b3' && document.querySelectorAll('#flat .cell').length > 100`)
}

// The status around the board: the king in check marked, the clocks
// counted down from the clock's at, flip turning the board, the result
// with its termination.
func TestBrowserCheckClockFlipResult(t *testing.T) {
	h := NewHub(DefaultOpts())
	f := newFakeSet(t, h, "b1", "st3d")
	for i := 0; ; i++ {
		if in, _ := f.g.Position().InCheck(); in {
			break
		}
		if i > 2000 {
			t.Fatal("no check in 2000 random moves")
		}
		if len(f.g.Position().LegalMoves(nil)) == 0 || f.g.Len() > 150 {
			f = newFakeSet(t, h, "b1", "st3d")
			f.game += "-" + itoa(i)
		}
		f.random()
	}
	_, king := f.g.Position().InCheck()
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Clock = &clock.Snapshot{Control: "180+2", WhiteMS: 171234, BlackMS: 180000, Running: "black", At: clock.Stamp{Time: time.Now()}}
	if f.g.Position().Turn() == rules.White {
		s.Clock.Running = "white"
		s.Clock.WhiteMS, s.Clock.BlackMS = 180000, 171234
	}
	h.State("b1", s)
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the check", `document.querySelectorAll('#flat .cell.check').length == 1`)
	if got := cellsWith(t, ctx, "check"); !slices.Equal(got, []string{f.sys.Cells()[king]}) {
		t.Errorf("check on %v, want %s", got, f.sys.Cells()[king])
	}
	if got := evalJS[string](t, ctx, `document.getElementById('turn').textContent`); !strings.HasSuffix(got, "to move, check") {
		t.Errorf("turn %q", got)
	}
	idle, running := "black", "white"
	if s.Clock.Running == "black" {
		idle, running = "white", "black"
	}
	if got := evalJS[string](t, ctx, `document.getElementById('`+idle+`-clock').textContent`); got != "2:51" {
		t.Errorf("%s's clock %q, want 2:51", idle, got)
	}
	waitJS(t, ctx, "the running clock", `/^2:5[0-9]$/.test(document.getElementById('`+running+`-clock').textContent) && document.getElementById('`+running+`-clock').classList.contains('running')`)
	waitJS(t, ctx, "White's side at the bottom", `document.querySelector('#flat [data-cell="b1W"]').getBoundingClientRect().top > document.querySelector('#flat [data-cell="b8B"]').getBoundingClientRect().top`)
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#flipbtn")))
	waitJS(t, ctx, "flipped", `document.querySelector('#flat [data-cell="b1W"]').getBoundingClientRect().top < document.querySelector('#flat [data-cell="b8B"]').getBoundingClientRect().top`)
	h.Event("b1", protocol.Event{Type: protocol.EventGameOver, Game: f.game, Result: "1-0", Detail: "resignation"})
	waitJS(t, ctx, "the result", `document.getElementById('result').textContent == '1-0 (resignation)' && document.getElementById('turn').textContent == 'Game over: White wins by resignation (1-0)'`)
	noErrors(t, ctx)
}

// Millennium's three 8x8 levels and First Contact's platforms (placed,
// up and inverted) show their pieces on their squares, flat and in 3D.
func TestBrowserEverySystem(t *testing.T) {
	for _, variant := range []string{"millennium", "first-contact", "st3d+V.A1,V.A2"} {
		h := NewHub(DefaultOpts())
		f := newFakeSet(t, h, "b1", variant)
		for i := 0; i < 24; i++ {
			f.random()
		}
		url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
		ctx := open(t, url+"/boards/b1")
		want := mustJSON(piecesOf(f.sys, f.g.Position()))
		waitJS(t, ctx, variant+"'s pieces", `JSON.stringify(`+flatPieces+`) == '`+want+`'`)
		waitJS(t, ctx, variant+"'s 3D view", `document.body.classList.contains('has3d') && !!document.querySelector('#view3d canvas') && document.getElementById('view3d').dataset.frames >= 1`)
		png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#view3d canvas")))
		if err != nil {
			t.Fatal(err)
		}
		if n := colours(t, png); n < 40 {
			t.Errorf("%s: 3D canvas: %d colours", variant, n)
		}
		noErrors(t, ctx)
		keepShot(t, ctx, strings.Split(variant, "+")[0])
	}
}
