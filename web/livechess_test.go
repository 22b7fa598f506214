package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/protocol"
)

// lccHub is a hub whose clock stands at 10:00:00 on 14 March 2026.
func lccHub() *Hub {
	o := DefaultOpts()
	o.Now = func() time.Time { return time.Date(2026, 3, 14, 10, 0, 0, 0, time.UTC) }
	return NewHub(o)
}

// lccSet plays moves on board id with the mover's clock after each move
// and the seconds each took, as a set publishes them.
func lccSet(t *testing.T, h *Hub, id string, tags map[string]string) *fakeSet {
	f := newFakeSet(t, nil, id, "st3d")
	f.tags = tags
	h.Availability(id, true)
	h.State(id, f.state(protocol.Board{Status: protocol.BoardInSync}))
	return f
}

// playClocked plays move with the mover's clock after it, on a 5400+30
// clock.
func (f *fakeSet) playClocked(h *Hub, move string, clkMS int64) protocol.Move {
	mv := f.play(move)
	mv.ClkMS = &clkMS
	h.Move(f.id, mv)
	s := f.state(protocol.Board{Status: protocol.BoardInSync})
	s.Clock = &clock.Snapshot{Control: "5400+30", WhiteMS: 5371400, BlackMS: 5338900, At: clock.Stamp{Time: f.now}}
	h.State(f.id, s)
	return mv
}

// Issue 39: the LiveChess Cloud layout relays poll: tournament.json with
// the event and every round up to the last ({count, live}, empty rounds
// included), round-N/index.json with the round's date and its pairings,
// players as objects (last and first names from "Last, First", title,
// FIDE id), round-N/game-M.json with each move as LiveChess writes it,
// "SAN CLOCK+SPENT" in whole seconds.
func TestLiveChessLayout(t *testing.T) {
	h := lccHub()
	a := lccSet(t, h, "hall-2", map[string]string{"Event": "Federation Open", "Site": "Starbase 1", "Date": "2026.03.14", "Round": "1",
		"White": "Kirk, James T.", "Black": "Spock", "WhiteTitle": "GM", "WhiteFideId": "4100018", "TimeControl": "5400+30"})
	m1 := a.playClocked(h, "b2W-b4N", 5371_400) // 58.6 s on the clock after the increment
	m2 := a.playClocked(h, "b7B-b5N", 5338_900) // 91.1 s
	b := lccSet(t, h, "hall-10", map[string]string{"Round": "1", "White": "Sulu", "Black": "Uhura"})
	b.hub = h
	b.play("c2W-c3W") // no clock
	lccSet(t, h, "annex", map[string]string{"Round": "3", "White": "Data", "Black": "Worf"})
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	get := func(path string, into any) {
		t.Helper()
		resp, err := http.Get(srv.URL + "/broadcast/" + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		if err := json.Unmarshal(body, into); err != nil {
			t.Fatalf("%s: %v: %s", path, err, body)
		}
	}
	str := func(s string) *string { return &s }
	fide := int64(4100018)

	var tour LCCTournament
	get("tournament.json", &tour)
	wantTour := LCCTournament{ID: "Federation Open", Name: "Federation Open", Location: str("Starbase 1"), Rules: "STANDARD", Chess960: "STANDARD",
		TimeControl: str("5400+30"), Rounds: []LCCRoundCount{{Count: 2, Live: 1}, {}, {Count: 1, Live: 1}}, EBoards: []string{"annex", "hall-2", "hall-10"}}
	if !reflect.DeepEqual(tour, wantTour) {
		t.Errorf("tournament.json:\n%+v\nwant\n%+v", tour, wantTour)
	}

	var round LCCRound
	get("round-1/index.json", &round)
	wantRound := LCCRound{Date: str("2026-03-14"), Pairings: []LCCPairing{
		{White: LCCPlayer{LName: str("Kirk"), FName: str("James T."), Title: str("GM"), FideID: &fide}, Black: LCCPlayer{LName: str("Spock")}, Result: "*", Live: true},
		{White: LCCPlayer{LName: str("Sulu")}, Black: LCCPlayer{LName: str("Uhura")}, Result: "*", Live: true},
	}}
	if !reflect.DeepEqual(round, wantRound) {
		t.Errorf("round-1/index.json:\n%+v\nwant\n%+v", mustJSON(round), mustJSON(wantRound))
	}
	var empty LCCRound
	get("round-3/index.json", &empty)
	if len(empty.Pairings) != 1 || empty.Date != nil {
		t.Errorf("round-3/index.json: %s", mustJSON(empty))
	}

	for _, tc := range []struct {
		path string
		want LCCGame
	}{
		{"round-1/game-1.json", LCCGame{Live: true, SerialNr: "hall-2", Chess960: 518, Result: "*", Moves: []string{m1.SAN + " 5371+59", m2.SAN + " 5338+91"}}},
		{"round-1/game-2.json", LCCGame{Live: true, SerialNr: "hall-10", Chess960: 518, Result: "*", Moves: []string{b.sent[0].SAN}}},
		{"round-3/game-1.json", LCCGame{Live: true, SerialNr: "annex", Chess960: 518, Result: "*", Moves: []string{}}},
	} {
		var g LCCGame
		get(tc.path, &g)
		if !reflect.DeepEqual(g, tc.want) {
			t.Errorf("%s:\n%s\nwant\n%s", tc.path, mustJSON(g), mustJSON(tc.want))
		}
	}
	for _, p := range []string{"round-2/index.json", "round-1/game-3.json", "round-1/game-0.json", "round-x/game-1.json", "round-1/game-1.txt"} {
		resp, err := http.Get(srv.URL + "/broadcast/" + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, resp.StatusCode)
		}
	}
}

// Issue 39: every file of the feed has an ETag and a Last-Modified; a
// poll with If-None-Match or If-Modified-Since gets 304 and no body until
// the file changes, then the new file with a new ETag and a later
// Last-Modified, even within the same second.
func TestLiveChessConditional(t *testing.T) {
	h := lccHub()
	f := lccSet(t, h, "hall-1", map[string]string{"Round": "1", "White": "Kirk", "Black": "Spock"})
	srv := httptest.NewServer(New(h, DefaultServerOpts()).Handler())
	defer srv.Close()
	poll := func(path string, hdr map[string]string) (int, http.Header, string) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+"/broadcast/"+path, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, resp.Header, string(b)
	}
	for _, path := range []string{"tournament.json", "index.json", "games.pgn", "round-1/index.json", "round-1/games.pgn", "round-1/game-1.pgn", "round-1/game-1.json"} {
		code, hdr, body := poll(path, nil)
		etag, lm := hdr.Get("ETag"), hdr.Get("Last-Modified")
		if code != 200 || !strings.HasPrefix(etag, `"`) || lm != "Sat, 14 Mar 2026 10:00:00 GMT" || body == "" {
			t.Fatalf("%s: %d ETag %q Last-Modified %q", path, code, etag, lm)
		}
		for _, h := range []map[string]string{{"If-None-Match": etag}, {"If-Modified-Since": lm}, {"If-None-Match": `"other", ` + etag}} {
			if code, _, body := poll(path, h); code != http.StatusNotModified || body != "" {
				t.Errorf("%s with %v: %d %q, want 304 and no body", path, h, code, body)
			}
		}
		// If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
		if code, _, _ := poll(path, map[string]string{"If-None-Match": `"other"`, "If-Modified-Since": lm}); code != 200 {
			t.Errorf("%s with another ETag and the date: %d, want 200", path, code)
		}
	}
	_, hdr, _ := poll("round-1/game-1.json", nil)
	etag, lm := hdr.Get("ETag"), hdr.Get("Last-Modified")
	tour, tourHdr, _ := poll("tournament.json", nil)
	f.hub = h
	f.play("b2W-b4N") // within the same second
	code, hdr2, body := poll("round-1/game-1.json", map[string]string{"If-None-Match": etag})
	if code != 200 || hdr2.Get("ETag") == etag || !strings.Contains(body, f.sent[0].SAN) {
		t.Errorf("after a move, with the old ETag: %d %q %s", code, hdr2.Get("ETag"), body)
	}
	if got := hdr2.Get("Last-Modified"); got != "Sat, 14 Mar 2026 10:00:01 GMT" {
		t.Errorf("after a move in the same second: Last-Modified %q, want a second later than %q", got, lm)
	}
	if code, _, _ := poll("round-1/game-1.json", map[string]string{"If-Modified-Since": lm}); code != 200 {
		t.Errorf("after a move, with the old date: %d, want 200", code)
	}
	// tournament.json did not change: still 304.
	if code, _, _ := poll("tournament.json", map[string]string{"If-None-Match": tourHdr.Get("ETag")}); code != http.StatusNotModified || tour != 200 {
		t.Errorf("tournament.json after a move: %d, want 304", code)
	}
}

// Issue 39: each move as LiveChess writes it, the time spent told from the
// clocks: the mover's clock before the move plus its increment less its
// clock after; the clock alone where that cannot be told.
func TestLiveChessMoves(t *testing.T) {
	ms := func(v int64) *int64 { return &v }
	moves := func(clks ...*int64) []*MoveView {
		var out []*MoveView
		for i, c := range clks {
			num := itoa(i/2+1) + "."
			if i%2 == 1 {
				num = itoa(i/2+1) + "..."
			}
			out = append(out, &MoveView{Num: num, Short: "m" + itoa(i+1), ClkMS: c})
		}
		return out
	}
	for _, tc := range []struct {
		control string
		moves   []*MoveView
		want    []string
	}{
		{"180+2", moves(ms(171_400), ms(179_000), ms(160_000)), []string{"m1 171+11", "m2 179+3", "m3 160+13"}},
		{"300", moves(ms(295_000), ms(300_000)), []string{"m1 295+5", "m2 300+0"}},
		{"300d3", moves(ms(295_000), ms(299_000)), []string{"m1 295", "m2 299"}},
		{"40/5400+30:1800+30", moves(ms(5_000_000)), []string{"m1 5000"}},
		{"", moves(ms(295_000)), []string{"m1 295"}},
		// The clock set higher by hand (an arbiter's minutes): no time spent.
		{"180+2", moves(ms(170_000), ms(175_000), ms(240_000)), []string{"m1 170+12", "m2 175+7", "m3 240"}},
		// A move without a clock, then the mover's next one: unknown.
		{"180+2", moves(nil, ms(170_000), ms(160_000)), []string{"m1", "m2 170+12", "m3 160"}},
		{"180+2", moves(ms(-5)), []string{"m1 0+182"}},
	} {
		if got := lccMoves(tc.moves, tc.control); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.control, got, tc.want)
		}
	}
}
