package event

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/tridboard/tridboard/event/glicko"
	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/tournament"
)

// deskEvent is an event created with nobody: the desk registers them.
func deskEvent(t *testing.T, link Link) (*Runner, string) {
	dir := t.TempDir()
	r, err := Create(testOpts(t, dir), Config{Name: "Fest", System: tournament.Swiss, Rounds: 2,
		Boards: []string{"s1", "s2"}, Tables: []string{"T1"}, TimeControl: "180+2"}, nil, link)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir
}

func register(t *testing.T, r *Runner, name string, rating int, id, cat string) tournament.Player {
	t.Helper()
	p, err := r.Register(tournament.Player{Name: name, Rating: rating}, Entrant{FestivalID: id, Category: cat})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The small case computed by hand. A 2000, B 1900, C 1800, D 1700; D asks
// for a half-point bye in round 1, C has the pairing's bye.
// Round 1: A-B 1-0, C bye (1), D ½ bye. Round 2: C-A ½-½, B-D 0-1.
// Points: A 1½, C 1½, D 1½, B 0.
// Buchholz (unplayed rounds: as draws for the opponents' sums, as a game
// against the player's own score in their own): A: B 0 + C 1 (bye as a
// draw) = 1, cut 1 (drops B's 0); C: own 1½ (bye) + A 1½ = 3, cut 1½
// (drops the unplayed round); D: own 1½ + B 0 = 1½, cut 0; B: A 1½ + D 1½
// (her bye as a draw) = 3, cut 1½.
// By BH-C1: C 1½, A 1, D 0; then B.
func TestStandingsByHandWithByes(t *testing.T) {
	r, dir := deskEvent(t, &fakeLink{})
	a := register(t, r, "A", 2000, "F1", "")
	b := register(t, r, "B", 1900, "F2", "newcomer")
	c := register(t, r, "C", 1800, "F3", "newcomer")
	d := register(t, r, "D", 1700, "F4", "")
	if _, err := r.Register(tournament.Player{Name: "E"}, Entrant{FestivalID: "F2"}); err == nil {
		t.Error("a festival id taken twice")
	}
	if err := r.RequestBye(1, d.No, tournament.HalfBye, "a lecture at 10"); err != nil {
		t.Fatal(err)
	}
	if err := r.SetPairings(1, []tournament.Game{{White: a.No, Black: b.No}, {White: c.No}, {White: d.No, Result: tournament.HalfBye}}, ""); err == nil {
		t.Error("pairings by hand without a reason")
	}
	if err := r.SetPairings(1, []tournament.Game{{White: a.No, Black: b.No}, {White: c.No}, {White: d.No, Result: tournament.HalfBye}}, "the desk's draw"); err != nil {
		t.Fatal(err)
	}
	r.StartRound(1)
	r.SetResult(1, 1, "1-0", "arbiter: result slip")
	if err := r.SetPairings(2, []tournament.Game{{White: a.No, Black: b.No}, {White: c.No, Black: d.No}}, "again"); err == nil {
		t.Error("a rematch by hand without override")
	}
	if err := r.SetPairings(2, []tournament.Game{{White: c.No, Black: a.No}, {White: b.No, Black: d.No}}, "the desk's draw"); err != nil {
		t.Fatal(err)
	}
	r.StartRound(2)
	r.SetResult(2, 1, "1/2-1/2", "arbiter: result slip")
	r.SetResult(2, 2, "0-1", "arbiter: result slip")
	want := "1 C 1.5 [1.5 3 0]; 2 A 1.5 [1 1 0]; 3 D 1.5 [0 1.5 0]; 4 B 0 [1.5 3 0]; "
	got := ""
	for _, s := range r.Snapshot().Standings {
		got += fmt.Sprintf("%d %s %v %v; ", s.Rank, s.Player.Name, s.Points, s.Tiebreaks)
	}
	if got != want {
		t.Errorf("standings\n got %s\nwant %s", got, want)
	}
	var trf bytes.Buffer
	r.TRF(&trf)
	for _, l := range strings.Split(trf.String(), "\n") {
		switch {
		case strings.Contains(l, " D "):
			if !strings.Contains(l, "0000 - H") {
				t.Errorf("D's TRF line holds no H: %q", l)
			}
		case strings.Contains(l, " C "):
			if !strings.Contains(l, "0000 - U") {
				t.Errorf("C's TRF line holds no U: %q", l)
			}
		}
	}
	// Prizes: place 1, 2, and the best newcomer (C has place 1: B).
	if err := r.Configure(Settings{Prizes: []Prize{{Place: 1, Prize: "Cup"}, {Place: 2, Prize: "Book"}, {Place: 1, Category: "newcomer", Prize: "Medal"}}}, "desk"); err != nil {
		t.Fatal(err)
	}
	var ps []string
	for _, p := range r.Prizes() {
		ps = append(ps, p.Prize.Prize+" "+p.Player.Name)
	}
	if fmt.Sprint(ps) != "[Cup C Book A Medal B]" {
		t.Errorf("prizes %v", ps)
	}
	if err := r.Configure(Settings{Rounds: 9}, "more"); err == nil {
		t.Error("the rounds changed after round 1")
	}
	// All of it replays.
	before := records(t, r, 2)
	r.Close()
	r2, err := Open(testOpts(t, dir), &fakeLink{})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	if after := records(t, r2, 2); after != before {
		t.Errorf("replayed:\n%s\nwas\n%s", after, before)
	}
	if len(r2.Prizes()) != 3 || r2.Desk().Players[1].Category != "newcomer" {
		t.Errorf("the desk's data did not replay: %+v", r2.Desk().Players)
	}
}

// The pairing leaves out the players who asked for a bye and, with
// check-in required, those not checked in (a zero-point bye), and pairs
// the rest; a withdrawn player is not paired.
func TestPairingWithByesAndCheckIn(t *testing.T) {
	r, _ := deskEvent(t, &fakeLink{})
	var ps []tournament.Player
	for i := 0; i < 8; i++ {
		ps = append(ps, register(t, r, fmt.Sprintf("P%d", i+1), 2000-i*50, fmt.Sprintf("F%d", i+1), ""))
	}
	on := true
	if err := r.Configure(Settings{CheckIn: &on, Rounds: 3}, "desk"); err != nil {
		t.Fatal(err)
	}
	for _, p := range ps[:7] {
		if err := r.CheckIn(1, p.No, true); err != nil {
			t.Fatal(err)
		}
	}
	r.RequestBye(1, ps[2].No, tournament.HalfBye, "late train")
	r.Withdraw(ps[6].No, "ill")
	if err := r.CheckIn(1, ps[6].No, true); err == nil {
		t.Error("a withdrawn player checked in")
	}
	rd, err := r.PairNext()
	if err != nil {
		t.Fatal(err)
	}
	byes := map[int]tournament.Result{}
	paired := 0
	for _, g := range rd.Games {
		if g.IsBye() {
			byes[g.White] = g.Result
		} else {
			paired += 2
		}
	}
	// 8 registered, 1 withdrawn, 1 not checked in (P8: zero), 1 half bye:
	// 5 to pair, so one has the pairing's bye.
	if byes[ps[2].No] != tournament.HalfBye || byes[ps[7].No] != tournament.ZeroBye || len(byes) != 3 || paired != 4 {
		t.Errorf("round 1: %+v", rd.Games)
	}
	if err := r.RequestBye(1, ps[0].No, tournament.HalfBye, "too late"); err == nil {
		t.Error("a bye asked for a round paired already")
	}
}

// In a round robin the desk refuses a bye (there are none: the scheduled
// game is forfeited) and a player not checked in loses the scheduled game
// by forfeit, once, with no bye besides it.
func TestRoundRobinAbsenceIsAForfeit(t *testing.T) {
	r, _ := deskEvent(t, &fakeLink{})
	var ps []tournament.Player
	for i := 0; i < 4; i++ {
		ps = append(ps, register(t, r, fmt.Sprintf("P%d", i+1), 2000-i*50, fmt.Sprintf("F%d", i+1), ""))
	}
	on := true
	if err := r.Configure(Settings{CheckIn: &on, System: tournament.RoundRobin, Rounds: 3}, "desk"); err != nil {
		t.Fatal(err)
	}
	err := r.RequestBye(1, ps[1].No, tournament.HalfBye, "late train")
	if err == nil || !strings.Contains(err.Error(), "a round robin has no byes") {
		t.Fatalf("a half bye in a round robin: %v, want refused", err)
	}
	for _, p := range ps[:3] {
		if err := r.CheckIn(1, p.No, true); err != nil {
			t.Fatal(err)
		}
	}
	rd, err := r.PairNext()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int]int{}
	var forfeits []tournament.Game
	for _, g := range rd.Games {
		seen[g.White]++
		seen[g.Black]++
		if g.IsBye() {
			t.Errorf("a bye in a round robin: %+v", g)
		}
		if g.Result == tournament.WhiteForfeit || g.Result == tournament.BlackForfeit {
			forfeits = append(forfeits, g)
		}
	}
	absent := ps[3].No
	if len(rd.Games) != 2 || len(forfeits) != 1 || seen[absent] != 1 || (forfeits[0].White != absent && forfeits[0].Black != absent) || !strings.HasSuffix(forfeits[0].Reason, " absent") {
		t.Errorf("round 1 with P4 absent: %+v, want two games, P4's forfeited", rd.Games)
	}
}

// Exhibition games on the event's sets are recorded with both names (one
// started from the desk, one against the engine, one the players started
// with their names on the set), rated by Glicko-2 a day a period, and can
// seed the tournament.
func TestExhibitionLeaderboardAndSeeding(t *testing.T) {
	link := &fakeLink{}
	r, _ := deskEvent(t, link)
	register(t, r, "Ann", 0, "F1", "")
	register(t, r, "Bob", 0, "F2", "")
	register(t, r, "Cy", 1500, "F3", "")
	r.Online("s1", true)
	r.Online("s2", true)
	if _, err := r.StartExhibition(ExStart{Set: "s1", White: "F1", Black: "F9"}, "desk"); err == nil {
		t.Error("an unknown festival id was taken")
	}
	g, err := r.StartExhibition(ExStart{Set: "s1", White: "f1", Black: "F2"}, "desk")
	if err != nil || g.White != "Ann" || g.Black != "Bob" {
		t.Fatalf("%+v %v", g, err)
	}
	if !strings.Contains(fmt.Sprint(link.sent), "s1 new_game Ann/Bob") {
		t.Errorf("sent %v", link.sent)
	}
	ex := func(set, id, w, b, res string, moves []string) protocol.State {
		st := playing(protocol.State{Game: id, Result: res, Tags: map[string]string{"Event": "Fest exhibition", "White": w, "Black": b}}, moves, true)
		st.Result, st.Reason = res, map[string]string{"1-0": "resignation", "0-1": "resignation", "1/2-1/2": "agreement"}[res]
		return st
	}
	mv := line(t, 6, 3)
	r.Observe("s1", ex("s1", "x1", "Ann", "Bob", "*", mv[:2]))
	if free, playing := r.Desk().Free, r.Desk().Playing; fmt.Sprint(free) != "[s2]" || len(playing) != 1 || playing[0].White != "Ann" {
		t.Errorf("free %v playing %v", free, playing)
	}
	if _, err := r.StartExhibition(ExStart{Set: "s1", White: "F3", Black: "F2"}, "desk"); err == nil {
		t.Error("a game started at a set that is playing")
	}
	r.Observe("s1", ex("s1", "x1", "Ann", "Bob", "1-0", mv))
	// Against the engine, and one started on the set with the players' names.
	r.Observe("s2", ex("s2", "x2", "Engine (level 3)", "Bob", "0-1", mv[:4]))
	st := ex("s2", "x3", "Cy", "Ann", "1/2-1/2", mv[:5])
	st.Tags["Event"] = ""
	r.Observe("s2", st)
	// A game of strangers is not the exhibition's.
	st = ex("s2", "x4", "White", "Black", "1-0", mv[:5])
	st.Tags["Event"] = ""
	r.Observe("s2", st)
	// A remote game, Cy at s1 against Bob at s2: each set gets its game
	// with the other as its opponent, and it counts once.
	link.sent = nil
	if _, err := r.StartExhibition(ExStart{Set: "s1", White: "F3", Black: "F2", Remote: "s2"}, "desk"); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(link.sent); got != "[s1 new_game Cy/Bob r<nil> b<nil> s2 new_game Cy/Bob r<nil> b<nil>]" {
		t.Errorf("sent %s", got)
	}
	r.Observe("s1", ex("s1", "x5", "Cy", "Bob", "0-1", mv[:3]))
	r.Observe("s2", ex("s2", "x6", "Cy", "Bob", "0-1", mv[:3]))
	games := r.Exhibition()
	if len(games) != 4 || games[0].Moves != 6 {
		t.Fatalf("games %+v", games)
	}
	var pgn bytes.Buffer
	if err := r.ExhibitionPGN(&pgn, "x1"); err != nil || !strings.Contains(pgn.String(), `[White "Ann"]`) || strings.Count(pgn.String(), "[%clk") != 6 {
		t.Errorf("exhibition PGN %v:\n%s", err, pgn.String())
	}
	// One period (the same day): each rated from everyone's 1500/350.
	o := glicko.DefaultOpts()
	n := o.New()
	ann, _ := o.Update(n, []glicko.Game{{Opponent: n, Score: 1}, {Opponent: n, Score: 0.5}})
	lb := r.Leaderboard()
	if len(lb) != 4 || lb[0].Name != "Ann" || lb[0].Rating != float64(int(ann.Rating*10+0.5))/10 || lb[0].Games != 2 || lb[0].Won != 1 || lb[0].Drawn != 1 {
		t.Errorf("leaderboard %+v; Ann should be %.1f", lb, ann.Rating)
	}
	seeded, err := r.SeedFromExhibition("the exhibition's ratings")
	if err != nil || len(seeded) != 2 {
		t.Fatalf("seeded %+v %v", seeded, err)
	}
	if p := r.Snapshot().Players; p[0].Rating != int(ann.Rating+0.5) || p[2].Rating != 1500 {
		t.Errorf("players after seeding %+v", p)
	}
}

func TestDeskAPI(t *testing.T) {
	r, _ := deskEvent(t, &fakeLink{})
	srv := httptest.NewServer(Handler(r, "tok"))
	defer srv.Close()
	for _, tc := range []apiTest{
		{"POST", "/api/event/desk/players", "", `{"name":"Ann"}`, 401, "token is required"},
		{"POST", "/api/event/desk/players", "tok", `{"name":"Ann","festival_id":"F1","category":"newcomer","rating":1200}`, 200, `"no":1`},
		{"POST", "/api/event/desk/players", "tok", `{"name":"Bob","festival_id":"F1"}`, 400, "registered already"},
		{"POST", "/api/event/desk/players", "tok", `{"name":"Bob","festival_id":"F2"}`, 200, `"no":2`},
		{"POST", "/api/event/desk/players", "tok", `{"name":"Bob"}`, 400, "entered twice"},
		{"POST", "/api/event/desk/players", "tok", `{"name":"Cy","festival_id":"F3\u0007"}`, 400, "no control characters"},
		{"POST", "/api/event/desk/players", "tok", `{"name":"Cy","category":"a very long category name indeed"}`, 400, "up to 24 characters"},
		{"POST", "/api/event/desk/players", "tok", `{"name":"Cy","withdrawn":true,"from":5}`, 200, `"no":3`},
		{"POST", "/api/event/desk/players/2/bye", "tok", `{"round":1,"bye":"half"}`, 200, "ok"},
		{"POST", "/api/event/desk/players/2/bye", "tok", `{"round":1,"bye":"full"}`, 400, "want half, zero or none"},
		{"POST", "/api/event/desk/players/9/checkin", "tok", `{"round":1,"in":true}`, 404, "no player 9"},
		{"POST", "/api/event/desk/settings", "tok", `{"system":"knockout"}`, 400, "want swiss or round-robin"},
		{"POST", "/api/event/desk/settings", "tok", `{"prizes":[{"place":1,"prize":"Cup"}]}`, 200, `"prizes":[{"place":1,"prize":"Cup"}]`},
		{"POST", "/api/event/desk/settings", "tok", `{"tiebreaks":["SB","XX"]}`, 400, "want each of DE, SB, BH, BH-C1, WIN at most once"},
		{"POST", "/api/event/desk/settings", "tok", `{"tiebreaks":["WIN","SB"]}`, 200, `"tiebreaks":["WIN","SB"]`},
		{"POST", "/api/event/play/s1", "", `{"white":"F1","black":"F2"}`, 400, "not free"},
		{"POST", "/api/event/play/s1", "", `{"white":"F1","black":"F7"}`, 400, "register at the desk"},
		{"POST", "/api/event/sets", "tok", `{"set":"s1"}`, 400, "named twice"},
		{"POST", "/api/event/sets", "tok", `{"set":"s3","reason":"spare"}`, 200, "ok"},
		{"POST", "/api/event/sets/s3/remove", "tok", `{"reason":"back"}`, 200, "ok"},
		{"GET", "/event/print/standings", "", "", 200, "<h2>Standings</h2>"},
		{"GET", "/event/print/nothing", "", "", 404, "no page"},
		{"GET", "/event/print/pairings", "", "", 404, "no round"},
		{"GET", "/event/desk", "", "", 200, "Register a player"},
		{"GET", "/event/play/s1", "", "", 200, "festival IDs"},
		{"GET", "/api/event/desk", "", "", 200, `"festival_id":"F1"`},
	} {
		apiCase(t, srv.URL, tc.method, tc.path, tc.token, tc.body, tc.code, tc.want)
	}
}
