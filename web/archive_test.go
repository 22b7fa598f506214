package web

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/tridboard/tridboard/protocol"
)

// twoGames plays a game of 4 moves that Black resigns on board b1, then a
// new game of 1 move: the hub keeps the first for the archive.
func twoGames(t *testing.T) (*Hub, *fakeSet, *fakeSet) {
	h := NewHub(DefaultOpts())
	f1 := newFakeSet(t, h, "b1", "st3d")
	f1.tags = map[string]string{"White": "Kirk", "Black": "Spock", "Date": "2026.12.03"}
	for _, m := range []string{"b2W-b4N", "b7B-b5N", "Nd1W-c3W", "Nd8B-c6B"} {
		f1.play(m)
	}
	s := f1.state(protocol.Board{Status: protocol.BoardInSync})
	s.Result, s.Reason = "1-0", "resignation"
	h.State("b1", s)
	f2 := newFakeSet(t, nil, "b1", "st3d")
	f2.game = "20260101-010000-b1"
	f2.hub = h
	f2.tags = map[string]string{"White": "Sulu", "Black": "Chekov"}
	h.State("b1", f2.state(protocol.Board{Status: protocol.BoardInSync}))
	f2.play("c2W-c3W")
	return h, f1, f2
}

// Issue 25: a board's game archive lists every game (the games the hub saw
// without a journal), each with its record, replayable: the live one
// marked.
func TestArchiveFromTheHub(t *testing.T) {
	h, f1, f2 := twoGames(t)
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	get := func(path string) (int, []byte) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	code, body := get("/api/boards/b1/games")
	var games []ArchivedGame
	if err := json.Unmarshal(body, &games); code != 200 || err != nil {
		t.Fatalf("games: %d %v %s", code, err, body)
	}
	if len(games) != 2 || games[0].Game != f1.game || games[0].Result != "1-0" || games[0].Termination != "resignation" || games[0].White != "Kirk" ||
		games[0].Plies != 4 || games[0].Live || games[1].Game != f2.game || !games[1].Live || games[1].White != "Sulu" {
		t.Fatalf("games %+v", games)
	}
	code, pgn := get("/boards/b1/games/" + f1.game + ".pgn")
	if code != 200 || !strings.Contains(string(pgn), `[White "Kirk"]`) || !strings.Contains(string(pgn), `[Termination "normal"]`) ||
		!strings.HasSuffix(string(pgn), f1.sent[3].SAN+" 1-0\n") {
		t.Errorf("the first game's record: %d\n%s", code, pgn)
	}
	code, body = get("/api/boards/b1/games/" + f1.game)
	var v BoardView
	if err := json.Unmarshal(body, &v); code != 200 || err != nil {
		t.Fatalf("replay: %d %v", code, err)
	}
	var sans []string
	for _, m := range v.Moves {
		sans = append(sans, m.Short)
	}
	if want := []string{f1.sent[0].SAN, f1.sent[1].SAN, f1.sent[2].SAN, f1.sent[3].SAN}; !slices.Equal(sans, want) || v.Result != "1-0" || !v.Full {
		t.Errorf("replay: %q %s, want %q", sans, v.Result, want)
	}
	if got := v.Moves[3].Pieces; !maps.Equal(got, piecesOf(f1.sys, f1.g.Position())) {
		t.Errorf("replay: the last position differs")
	}
	for _, p := range []string{"/api/boards/b1/games/nope", "/boards/b1/games/nope.pgn", "/boards/b1/games/" + f1.game, "/api/boards/zz/games"} {
		if code, _ := get(p); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
}

// Issue 25: on the page, the board's games are listed and one replays:
// its moves, a line saying it is archived, stepping.
func TestBrowserArchive(t *testing.T) {
	h, f1, _ := twoGames(t)
	url, _ := serve(t, New(h, DefaultServerOpts()).Handler(), "")
	ctx := open(t, url+"/boards/b1")
	waitJS(t, ctx, "the live game", `document.querySelectorAll('#moves .move[data-ply]').length == 1`)
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#archive summary")))
	waitJS(t, ctx, "the list", `document.querySelectorAll('#gamelist li').length == 2`)
	if got := evalJS[string](t, ctx, `document.querySelector('#gamelist li').textContent`); !strings.HasPrefix(got, "Kirk - Spock, 1-0 (resignation), 2 moves, 2026.12.03") {
		t.Errorf("first game listed %q", got)
	}
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#gamelist li a")))
	waitJS(t, ctx, "the archived game", `location.search == '?game=`+f1.game+`' && document.querySelectorAll('#moves .move[data-ply]').length == 4 && !document.getElementById('archived').hidden`)
	if got := evalJS[string](t, ctx, `document.getElementById('archived-what').textContent`); got != "Kirk - Spock, 1-0 (resignation)" {
		t.Errorf("archived line %q", got)
	}
	waitJS(t, ctx, "its last position", `JSON.stringify(`+flatPieces+`) == '`+mustJSON(piecesOf(f1.sys, f1.g.Position()))+`'`)
	chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#first")))
	waitJS(t, ctx, "its start", `document.querySelectorAll('#flat .piece').length == 32 && window.tridboard.view === 0`)
	noErrors(t, ctx)
	shotAt(t, ctx, "archive")
}
