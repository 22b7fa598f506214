package event

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/tournament"
)

// fakeLink records what was sent and refuses sets named in down.
type fakeLink struct {
	mu   sync.Mutex
	sent []string
	down map[string]bool
}

func (l *fakeLink) Send(set, command string, p map[string]any) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.down[set] {
		return errors.New("no reply from " + set + " (offline?)")
	}
	l.sent = append(l.sent, fmt.Sprintf("%s %s %v/%v r%v b%v", set, command, p["white"], p["black"], p["round"], p["board"]))
	return nil
}

func testOpts(t testing.TB, dir string) Opts {
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC)
	return Opts{Dir: dir, Now: func() time.Time { now = now.Add(time.Second); return now },
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

func fourPlayers() []tournament.Player {
	return []tournament.Player{{Name: "Kirk", Rating: 2200}, {Name: "Spock", Rating: 2300},
		{Name: "Uhura", Rating: 2100}, {Name: "Sulu", Rating: 2000}}
}

func newEvent(t *testing.T, link Link) (*Runner, string) {
	dir := t.TempDir()
	r, err := Create(testOpts(t, dir), Config{Name: "Test", System: tournament.Swiss, Rounds: 2,
		Boards: []string{"s1", "s2"}, TimeControl: "180+2"}, fourPlayers(), link)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

func state(event, round, board, white, black, game, result, reason string) protocol.State {
	return protocol.State{Game: game, Result: result, Reason: reason,
		Tags: map[string]string{"Event": event, "Round": round, "Board": board, "White": white, "Black": black}}
}

func TestStartRoundReportsOfflineSets(t *testing.T) {
	link := &fakeLink{down: map[string]bool{"s2": true}}
	r, _ := newEvent(t, link)
	if _, err := r.PairNext(); err != nil {
		t.Fatal(err)
	}
	reps, err := r.StartRound(1)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 2 || !reps[0].OK || reps[1].OK || !strings.Contains(reps[1].Error, "offline") {
		t.Fatalf("reports %+v: want s1 ok, s2 reported offline", reps)
	}
	// Spock (2300) tops the initial ranking and has White on board 1.
	if want := "s1 new_game Spock/Uhura r1 b1"; len(link.sent) != 1 || link.sent[0] != want {
		t.Errorf("sent %v, want [%s]", link.sent, want)
	}
	link.down = nil
	if rep, err := r.Replay(1, 2, "", "s2 back"); err != nil || !rep.OK {
		t.Fatalf("replay: %+v %v", rep, err)
	}
	if _, err := r.StartRound(1); err == nil {
		t.Error("round 1 started twice")
	}
}

// Only a state of this event, round, board, players and set gives a result;
// the first game id seen is the game.
func TestObserveTakesOnlyItsOwnGames(t *testing.T) {
	r, _ := newEvent(t, &fakeLink{})
	r.PairNext()
	r.StartRound(1)
	for _, tc := range []struct {
		set string
		st  protocol.State
	}{
		{"s1", state("Other", "1", "1", "Spock", "Uhura", "g0", "1-0", "resignation")},
		{"s1", state("Test", "2", "1", "Spock", "Uhura", "g0", "1-0", "resignation")},
		{"s1", state("Test", "1", "1", "Kirk", "Uhura", "g0", "1-0", "resignation")},
		{"s2", state("Test", "1", "1", "Spock", "Uhura", "g0", "1-0", "resignation")},
		{"s9", state("Test", "1", "1", "Spock", "Uhura", "g0", "1-0", "resignation")},
	} {
		r.Observe(tc.set, tc.st)
		if g := r.Snapshot().Paired[0].Games[0]; g.Result.Over() {
			t.Fatalf("%s %v gave board 1 a result", tc.set, tc.st.Tags)
		}
	}
	r.Observe("s1", state("Test", "1", "1", "Spock", "Uhura", "g1", "*", ""))
	r.Observe("s1", state("Test", "1", "1", "Spock", "Uhura", "g2", "0-1", "checkmate"))
	if g := r.Snapshot().Paired[0].Games[0]; g.Result.Over() || g.GameID != "g1" {
		t.Fatalf("a second game with the same tags counted: %+v", g)
	}
	r.Observe("s1", state("Test", "1", "1", "Spock", "Uhura", "g1", "1/2-1/2", "agreement"))
	g := r.Snapshot().Paired[0].Games[0]
	if g.Result != tournament.Draw || g.Reason != "agreement" {
		t.Errorf("board 1: %+v", g)
	}
}

// Every decision is on disk before it counts: a new Runner on the same dir
// has the same event; a refused decision is not journaled.
func TestJournalReplays(t *testing.T) {
	link := &fakeLink{}
	r, dir := newEvent(t, link)
	r.PairNext()
	r.Swap(1, 1, "colours drawn again")
	r.StartRound(1)
	r.Observe("s1", state("Test", "1", "1", "Uhura", "Spock", "g1", "1-0", "resignation"))
	if _, err := r.SetResult(1, 2, "+-", ""); err == nil {
		t.Error("an arbiter's result without a reason was taken")
	}
	if _, err := r.SetResult(1, 2, "3-0", "typo"); err == nil {
		t.Error("result 3-0 was taken")
	}
	if _, err := r.SetResult(1, 2, "+-", "Sulu did not come"); err != nil {
		t.Fatal(err)
	}
	if err := r.AddPlayer(tournament.Player{Name: "Chekov", Rating: 1900}); err != nil {
		t.Fatal(err)
	}
	before := r.Snapshot()
	data, _ := os.ReadFile(filepath.Join(dir, journalName))
	r.Close()
	r2, err := Open(testOpts(t, dir), link)
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	after := r2.Snapshot()
	if fmt.Sprint(before.Paired, before.Players, before.Standings) != fmt.Sprint(after.Paired, after.Players, after.Standings) {
		t.Errorf("replayed:\n%+v\nwas\n%+v", after.Paired, before.Paired)
	}
	lines := strings.Count(string(data), "\n")
	// create, pair, swap, start, game, result, result, add.
	if lines != 8 {
		t.Errorf("the journal has %d records, want 8:\n%s", lines, data)
	}
	if !strings.Contains(string(data), `"reason":"Sulu did not come","by":"arbiter"`) {
		t.Errorf("the arbiter's decision is not journaled with its reason:\n%s", data)
	}
	if _, err := Create(testOpts(t, dir), Config{Name: "Again", System: tournament.Swiss, Rounds: 1, Boards: []string{"s1"}},
		fourPlayers(), link); !errors.Is(err, ErrExists) {
		t.Errorf("a second event in the same dir: %v", err)
	}
}

// A torn last record (the event killed mid-write) is cut off and kept
// aside; the decisions before it stand.
func TestJournalTornTail(t *testing.T) {
	r, dir := newEvent(t, &fakeLink{})
	r.PairNext()
	r.Close()
	name := filepath.Join(dir, journalName)
	f, _ := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("0000004f 12345678 {\"op\":\"start\"")
	f.Close()
	r2, err := Open(testOpts(t, dir), &fakeLink{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if s := r2.Snapshot(); len(s.Paired) != 1 || s.Paired[0].Started {
		t.Errorf("after the torn start: %+v", s.Paired)
	}
	if _, err := os.Stat(name + ".damaged"); err != nil {
		t.Errorf("the torn journal was not kept aside: %v", err)
	}
}

func TestAPIErrors(t *testing.T) {
	r, _ := newEvent(t, &fakeLink{})
	srv := httptest.NewServer(Handler(r, "tok"))
	defer srv.Close()
	for _, tc := range []apiTest{
		{"POST", "/api/event/rounds/1/pair", "", "", 401, "token is required"},
		{"POST", "/api/event/rounds/1/pair", "wrong", "", 401, "token is required"},
		{"POST", "/api/event/rounds/2/pair", "tok", "", 400, "round 2 is not the next round"},
		{"POST", "/api/event/rounds/x/start", "tok", "", 404, "not a number"},
		{"POST", "/api/event/results", "tok", `{"round":1,"board":1,"result":"1-0","why":"x"}`, 400, "unknown field"},
		{"POST", "/api/event/results", "tok", `{"round":1,"board":1,"result":"1-0","reason":"x"}`, 404, "no round 1"},
		{"POST", "/api/event/clock", "tok", `{"action":"add","set":"s1"}`, 400, "add needs a set, a side"},
		{"GET", "/event/round-1/games.pgn", "", "", 404, "no round 1"},
		{"GET", "/event/round-x/index.json", "", "", 404, "not found"},
		{"POST", "/api/event/rounds/1/pair", "tok", "", 200, `"no":1`},
		{"POST", "/api/event/rounds/2/pair", "tok", "", 409, "not over"},
	} {
		apiCase(t, srv.URL, tc.method, tc.path, tc.token, tc.body, tc.code, tc.want)
	}
}

// apiTest is one request of a table-driven API test and what it answers.
type apiTest struct {
	method, path, token, body string
	code                      int
	want                      string
}

// apiCase sends one request and checks its status and that its body holds
// want.
func apiCase(t *testing.T, url, method, path, token, body string, code int, want string) {
	t.Helper()
	req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != code || !strings.Contains(string(b), want) {
		t.Errorf("%s %s %s: %d %s, want %d %q", method, path, body, resp.StatusCode, b, code, want)
	}
}
