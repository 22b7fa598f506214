package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/sets"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/web"
)

// getPGN fetches the web record of board "unit".
func getPGN(t *testing.T, base string) string {
	t.Helper()
	resp, err := http.Get(base + "boards/unit/game.pgn")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// Issue 25: /boards/<id>/game.pgn and `tridboard export` write one record,
// byte for byte: Site, Date, TimeControl, each move's [%clk], the result
// and the Termination, for a game played on run --sim with a clock, while
// it goes on and once it is over.
func TestEndToEndWebRecordIsTheExport(t *testing.T) {
	t.Parallel()
	d, c, topics := startInProcess(t, func(cfg *config.Config) {
		cfg.Clock.Default = clock.MustParse("180+2")
		// A set without clock buttons: settling completes the moves.
		cfg.Sensors.Preset, cfg.Sensors.Wiring = "", sets.ReferenceWiring()
	})
	export := func() string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := runExport([]string{"--state-dir", d.o.cfg.StateDir}, &out, &errb); code != exitOK {
			t.Fatalf("export: %d %s", code, errb.String())
		}
		return out.String()
	}
	same := func(when string) {
		t.Helper()
		var web, exp string
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if web, exp = getPGN(t, d.webURL), export(); web == exp {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the web record differs from the export:\n%s\nexport:\n%s", when, web, exp)
			}
		}
		for _, want := range []string{`[Site "unit"]`, `[TimeControl "180+2"]`, "{[%clk 0:0"} {
			if !strings.Contains(web, want) {
				t.Errorf("%s: the record lacks %q:\n%s", when, want, web)
			}
		}
		if strings.Contains(web, `[Date "????.??.??"]`) {
			t.Errorf("%s: no date:\n%s", when, web)
		}
	}
	style := sim.PlainStyle
	style.Pause = 60 * time.Millisecond
	pos := rules.Position(st3d.Start())
	for i, long := range sets.ST3DDemo[:4] {
		pos = handMove(t, d, pos, long, style)
		for deadline := time.Now().Add(10 * time.Second); len(d.tb.Snapshot().Moves) <= i; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s not recognized", long)
			}
		}
	}
	same("after 4 moves")
	// The daemon's pages evaluate every position for the spectators
	// (http.eval, on by default).
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		v := pageView(t, d.webURL+"api/boards/unit")
		n := 0
		for _, m := range v.Moves {
			if m.Eval != nil && len(m.Eval.Best) > 0 {
				n++
			}
		}
		if v.StartEval != nil && n == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("evaluations: start %v, %d of 4 moves", v.StartEval, n)
		}
	}
	if r := sendCommand(t, c, topics, "resign", `{"side":"black"}`); r["status"] != "ok" {
		t.Fatalf("resign: %v", r)
	}
	same("after Black resigned")
	if web := getPGN(t, d.webURL); !strings.Contains(web, `[Termination "normal"]`) || !strings.HasSuffix(web, " 1-0\n") {
		t.Errorf("the finished record:\n%s", web)
	}
}

// Issue 25: the board's archive on the daemon's pages is its journal: a
// finished game stays listed after a new one starts, and its record there
// is the export's.
func TestEndToEndArchive(t *testing.T) {
	d, c, topics := startInProcess(t)
	first := d.tb.Snapshot().Game
	if err := d.board.Set.Lift("b2W"); err != nil {
		t.Fatal(err)
	}
	if err := d.board.Set.Place("b4N"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); len(d.tb.Snapshot().Moves) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("b2W-b4N not recognized")
		}
	}
	if r := sendCommand(t, c, topics, "resign", `{"side":"black"}`); r["status"] != "ok" {
		t.Fatalf("resign: %v", r)
	}
	if r := sendCommand(t, c, topics, "new_game", `{"variant":"st3d","white":"Sulu","white_title":"GM","white_elo":"2712","black":"Chekov","black_elo":"2650","board":"4"}`); r["status"] != "ok" {
		t.Fatalf("new_game: %v", r)
	}
	var games []web.ArchivedGame
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		resp, err := http.Get(d.webURL + "api/boards/unit/games")
		if err != nil {
			t.Fatal(err)
		}
		games = nil
		json.NewDecoder(resp.Body).Decode(&games)
		resp.Body.Close()
		if len(games) == 2 && games[1].Live && games[1].White == "Sulu" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("games %+v", games)
		}
	}
	if g := games[0]; g.Game != first || g.Result != "1-0" || g.Plies != 1 || g.Live {
		t.Errorf("the first game: %+v", g)
	}
	resp, err := http.Get(d.webURL + "boards/unit/games/" + first + ".pgn")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var out, errb bytes.Buffer
	if code := runExport([]string{"--state-dir", d.o.cfg.StateDir, first}, &out, &errb); code != exitOK {
		t.Fatalf("export: %s", errb.String())
	}
	if string(got) != out.String() {
		t.Errorf("the archived record:\n%s\nexport:\n%s", got, out.String())
	}
	// The new game's players, with their title and ratings, and its event
	// board (new_game's board), in its record: the page's as the export's.
	out.Reset()
	if code := runExport([]string{"--state-dir", d.o.cfg.StateDir}, &out, &errb); code != exitOK {
		t.Fatalf("export: %s", errb.String())
	}
	live := getPGN(t, d.webURL)
	if live != out.String() || !strings.Contains(live, "[WhiteTitle \"GM\"]\n[WhiteElo \"2712\"]\n[BlackElo \"2650\"]\n[Variant \"st3d\"]\n[Board \"4\"]\n") {
		t.Errorf("the new game's record:\n%s\nexport:\n%s", live, out.String())
	}
}
