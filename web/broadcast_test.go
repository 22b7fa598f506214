package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Issue 25: the broadcast layout a relay polls, as LiveChess writes it:
// index.json lists the rounds (by the Round tag) and their games, numbered
// in the natural order of the boards; round-N/game-M.pgn is one full
// record ("*" while it runs, [%clk] when it has a clock), round-N/games.pgn
// the round's, games.pgn every game.
func TestBroadcastLayout(t *testing.T) {
	h := NewHub(DefaultOpts())
	for _, b := range []struct{ id, round, white string }{
		{"hall-10", "1", "Sulu"}, {"hall-2", "1", "Kirk"}, {"hall-1", "1", "Uhura"}, {"annex", "2", "Data"}, {"spare", "", "Worf"},
	} {
		f := newFakeSet(t, h, b.id, "st3d")
		f.tags = map[string]string{"White": b.white, "Black": "Spock", "Round": b.round}
		f.random()
	}
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + "/broadcast/" + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("index.json")
	var bc Broadcast
	if err := json.Unmarshal([]byte(body), &bc); code != 200 || err != nil {
		t.Fatalf("index.json: %d %v %s", code, err, body)
	}
	var got []string
	for _, r := range bc.Rounds {
		for _, g := range r.Games {
			got = append(got, r.Round+"/"+g.PGN+"="+g.Board+":"+g.White+":"+g.Result)
		}
	}
	want := []string{"1/round-1/game-1.pgn=hall-1:Uhura:*", "1/round-1/game-2.pgn=hall-2:Kirk:*",
		"1/round-1/game-3.pgn=hall-10:Sulu:*", "1/round-1/game-4.pgn=spare:Worf:*", "2/round-2/game-1.pgn=annex:Data:*"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("index.json games:\n%q\nwant\n%q", got, want)
	}
	if r := bc.Rounds[0]; r.Count != 4 || r.Live != 4 || r.PGN != "round-1/games.pgn" {
		t.Errorf("round 1: %+v", r)
	}
	record := func(id string) string {
		var b bytes.Buffer
		if err := h.WriteRecord(&b, id); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	if code, body := get("round-1/game-2.pgn"); code != 200 || body != record("hall-2") {
		t.Errorf("round-1/game-2.pgn: %d\n%s", code, body)
	}
	if code, body := get("round-1/games.pgn"); code != 200 || body != record("hall-1")+"\n"+record("hall-2")+"\n"+record("hall-10")+"\n"+record("spare") {
		t.Errorf("round-1/games.pgn: %d\n%s", code, body)
	}
	if code, body := get("games.pgn"); code != 200 || body != record("hall-1")+"\n"+record("hall-2")+"\n"+record("hall-10")+"\n"+record("spare")+"\n"+record("annex") {
		t.Errorf("games.pgn: %d\n%s", code, body)
	}
	if code, body := get("round-2/index.json"); code != 200 || !strings.Contains(body, `"lname":"Data"`) {
		t.Errorf("round-2/index.json: %d %s", code, body)
	}
	for _, p := range []string{"round-3/games.pgn", "round-1/game-5.pgn", "round-1/game-0.pgn", "nope"} {
		if code, _ := get(p); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
}
