package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/event"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/tournament"
)

// An event on four simulated sets and a real Mosquitto: the players file,
// round 1 started, every set's game carrying its pairing, games ended by
// resignation, agreement and the flag (two while the event was down: it
// picks their results up from the sets' retained states when it comes back),
// results and standings, round 2 paired without a rematch, and the round's
// PGN and the TRF holding every result.
func TestEventOnFourSets(t *testing.T) {
	t.Parallel()
	broker := mosquittotest.Start(t)
	boards := []string{"hall-1", "hall-2", "hall-3", "hall-4"}
	sets := map[string]*inproc{}
	for _, b := range boards {
		sets[b] = startSet(t, b, t.TempDir(), broker.URL)
	}
	players, err := tournament.ReadPlayers(strings.NewReader(
		"Kirk,2210,FM\nSpock,2350,IM\nUhura,1980\nSulu,1900\nChekov,1850\nScott,1700\nMcCoy,1650\nChapel,1600\n"), "players.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := event.Config{Name: "Pragyan lightning", Site: "Hall A", System: tournament.Swiss, Rounds: 2,
		Boards: boards, TimeControl: "6", Variant: "st3d"}
	const token = "arbiter-secret"
	open := func(create bool) (*event.Runner, *event.MQTTLink, *httptest.Server) {
		fo := mqtt.DefaultFollowerOpts()
		fo.Broker = broker.URL
		link, attach, err := event.DialMQTT(fo, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		eo := event.DefaultOpts()
		eo.Dir, eo.Log = dir, slog.New(slog.NewTextHandler(io.Discard, nil))
		var r *event.Runner
		if create {
			r, err = event.Create(eo, cfg, players, link)
		} else {
			r, err = event.Open(eo, link)
		}
		if err != nil {
			t.Fatal(err)
		}
		attach(r)
		return r, link, httptest.NewServer(event.Handler(r, token))
	}
	r, link, srv := open(true)
	post := func(path, body string) map[string]any {
		t.Helper()
		return httpPost(t, srv.URL+"/api/event/"+path, token, body)
	}
	get := func(path string) string {
		t.Helper()
		return httpGet(t, srv.URL+path)
	}
	// Without the token nothing changes.
	resp, _ := http.Post(srv.URL+"/api/event/rounds/1/pair", "application/json", nil)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("pairing without the token: %d", resp.StatusCode)
	}
	post("rounds/1/pair", "")
	start := post("rounds/1/start", "")
	for _, b := range start["boards"].([]any) {
		if b.(map[string]any)["ok"] != true {
			t.Fatalf("round 1 start: %v", start)
		}
	}
	snap := r.Snapshot()
	r1 := snap.Paired[0]
	name := func(no int) string { return snap.Players[no-1].Name }
	// Every set's game carries its pairing.
	for _, g := range r1.Games {
		s := sets[g.Set]
		waitUntil(t, "set "+g.Set+" plays its round 1 game", func() bool {
			tg := s.d.tb.Snapshot().Tags
			return tg.Event == cfg.Name && tg.Round == "1" && tg.Board == fmt.Sprint(g.Board) &&
				tg.White == name(g.White) && tg.Black == name(g.Black)
		})
	}
	waitUntil(t, "the event sees every set in sync", func() bool {
		for _, s := range r.Snapshot().Sets {
			if !s.PlaysPairing {
				return false
			}
		}
		return true
	})

	// Board 3's players each make a move: a new game on a set already
	// standing in its start position starts its clock at White's first
	// move (docs/game.md); White's 6 s then run out below.
	b3 := sets[r1.Games[2].Set]
	b3.handSynced("b2W-b3W")
	b3.handSynced("b7B-b6B")

	// The event goes down; two games end meanwhile.
	srv.Close()
	link.Close()
	r.Close()
	cmd := sendCommands(t, broker.URL)
	cmd(r1.Games[0].Set, "resign", `{"side":"black"}`)
	cmd(r1.Games[1].Set, "draw", `{"action":"offer","side":"white"}`)
	cmd(r1.Games[1].Set, "draw", `{"action":"accept","side":"black"}`)
	r, link, srv = open(false)
	defer func() { srv.Close(); link.Close(); r.Close() }()
	cmd(r1.Games[3].Set, "resign", `{"side":"white"}`)
	// Board 3 is left alone now: White's 6 s run out.
	want := []tournament.Result{tournament.WhiteWins, tournament.Draw, tournament.BlackWins, tournament.BlackWins}
	waitUntil(t, "every round 1 result", func() bool { return r.Snapshot().Paired[0].Over() })
	for i, g := range r.Snapshot().Paired[0].Games {
		if g.Result != want[i] || g.GameID == "" {
			t.Errorf("round 1 board %d: %s (%s), game %q; want %s", i+1, g.Result, g.Reason, g.GameID, want[i])
		}
	}
	if g := r.Snapshot().Paired[0].Games[2]; g.Reason != "time" {
		t.Errorf("board 3 ended by %q, want time", g.Reason)
	}
	st := r.Snapshot().Standings
	if st[0].Points != 1 || st[len(st)-1].Points != 0 {
		t.Errorf("standings %+v", st)
	}

	post("rounds/2/pair", "")
	met := map[[2]int]bool{}
	for _, g := range r1.Games {
		met[[2]int{g.White, g.Black}], met[[2]int{g.Black, g.White}] = true, true
	}
	r2 := r.Snapshot().Paired[1]
	for _, g := range r2.Games {
		if met[[2]int{g.White, g.Black}] {
			t.Errorf("round 2 board %d is a rematch: %d-%d", g.Board, g.White, g.Black)
		}
	}
	post("rounds/2/start", "")
	for _, g := range r.Snapshot().Paired[1].Games {
		s := sets[g.Set]
		waitUntil(t, "set "+g.Set+" plays its round 2 game", func() bool {
			tg := s.d.tb.Snapshot().Tags
			return tg.Round == "2" && tg.White == name(g.White)
		})
	}

	pgn := get("/event/round-1/games.pgn")
	for _, s := range []string{`[Event "Pragyan lightning"]`, `[Site "Hall A"]`, `[TimeControl "6"]`,
		`[Result "1-0"]`, `[Result "1/2-1/2"]`, `[Termination "time forfeit"]`, `[Board "4"]`, `[WhiteElo "`} {
		if !strings.Contains(pgn, s) {
			t.Errorf("round 1 PGN lacks %s:\n%s", s, pgn)
		}
	}
	if n := strings.Count(pgn, "[Event "); n != 4 {
		t.Errorf("round 1 PGN holds %d games", n)
	}
	if g := get("/event/round-2/game-1.pgn"); !strings.Contains(g, `[Result "*"]`) {
		t.Errorf("a game being played: %s", g)
	}
	var ix event.RoundIndex
	json.Unmarshal([]byte(get("/event/round-2/index.json")), &ix)
	if len(ix.Pairings) != 4 || !ix.Pairings[0].Live {
		t.Errorf("round 2 index %+v", ix)
	}
	trf := get("/event/tournament.trf")
	back, err := tournament.ReadTRF(strings.NewReader(trf), "tournament.trf")
	if err != nil {
		t.Fatalf("%v\n%s", err, trf)
	}
	for i, g := range back.Rounds[0].Games {
		if g.Result != r.Snapshot().Paired[0].Games[i].Result {
			t.Errorf("TRF round 1 board %d: %s", i+1, g.Result)
		}
	}
	if !strings.Contains(get("/event/crosstable.csv"), "Rank,No,Name,Rating,R1,R2,Points,BH-C1,BH,DE") {
		t.Error("crosstable header")
	}
}

// sendCommands returns a function that sends a set a command over MQTT and
// fails the test unless the set accepts it.
func sendCommands(t *testing.T, broker string) func(set, name, payload string) {
	fo := mqtt.DefaultFollowerOpts()
	fo.Broker, fo.Commands = broker, true
	f, err := mqtt.Follow(fo, mqtt.Handlers{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	waitUntil(t, "the command sender is connected", f.Connected)
	return func(set, name, payload string) {
		t.Helper()
		var fields map[string]any
		json.Unmarshal([]byte(payload), &fields)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if _, err := f.Command(ctx, set, name, fields); err != nil {
			t.Fatalf("%s %s %s: %v", set, name, payload, err)
		}
	}
}

func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !ok(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}
