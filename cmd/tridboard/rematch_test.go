package main

import (
	"context"
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/config"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/table"
)

// pairOfSets is two simulated sets on one Mosquitto, White's and Black's,
// with a controller's client.
type pairOfSets struct {
	t            *testing.T
	white, black *inproc
	ctl          paho.Client
}

func startPair(t *testing.T, grace time.Duration) *pairOfSets {
	t.Helper()
	edit := func(cfg *config.Config) { cfg.MQTT.Grace = grace }
	return startPairOn(t, mosquittotest.Start(t), edit)
}

// startPairOn is startPair on broker, with edit's changes to both sets'
// configurations (nil: none).
func startPairOn(t *testing.T, broker *mosquittotest.Broker, edit func(*config.Config)) *pairOfSets {
	t.Helper()
	white := startSetWith(t, "enterprise", t.TempDir(), broker.URL, edit)
	black := startSetWith(t, "klingon", t.TempDir(), broker.URL, edit)
	ctl := paho.NewClient(paho.NewClientOptions().AddBroker(broker.URL).SetClientID("controller").
		SetAutoReconnect(true).SetConnectRetry(true))
	if tok := ctl.Connect(); !tok.WaitTimeout(5*time.Second) || tok.Error() != nil {
		t.Fatal(tok.Error())
	}
	t.Cleanup(func() { ctl.Disconnect(50) })
	for _, p := range []*inproc{white, black} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := p.d.client.WaitConnected(ctx); err != nil {
			t.Fatalf("set %s: MQTT: %v", p.cfg.BoardID, err)
		}
		cancel()
	}
	return &pairOfSets{t: t, white: white, black: black, ctl: ctl}
}

// command sends a command to p's set and wants it to succeed.
func (s *pairOfSets) command(p *inproc, name, payload string) map[string]any {
	s.t.Helper()
	topics, _ := mqtt.NewTopics(p.cfg.MQTT.Prefix, p.cfg.BoardID)
	r := sendCommand(s.t, s.ctl, topics, name, payload)
	if r["status"] != "ok" {
		s.t.Fatalf("%s %s on %s: %v", name, payload, p.cfg.BoardID, r)
	}
	return r
}

// newGame starts p's game against the other set and stands p's set up.
func (s *pairOfSets) newGame(p *inproc) {
	s.t.Helper()
	payload := `{"variant":"st3d","white":"Kirk","time_control":"300+2","opponent":{"set":"klingon","side":"black"}}`
	if p == s.black {
		payload = `{"variant":"st3d","black":"Kor","time_control":"300+2","opponent":{"set":"enterprise","side":"white"}}`
	}
	s.command(p, "new_game", payload)
	standSet(p.d.board, p.d.tb.Snapshot().Expected)
	p.waitInSync()
}

// play makes move i of game on the set of its side, waits for it to reach
// the other set, makes it there too, and checks that both sets have the
// mover's clock reading of the mover's set, to the millisecond.
func (s *pairOfSets) play(game []string, i int) {
	s.t.Helper()
	mover, other := s.white, s.black
	side := rules.White
	if i%2 == 1 {
		mover, other, side = s.black, s.white, rules.Black
	}
	mover.handSynced(game[i])
	other.waitMoves(i + 1)
	other.handSynced(game[i])
	a, b := mover.d.tb.Snapshot().Clock, other.d.tb.Snapshot().Clock
	if a == nil || b == nil || a.MS(side) != b.MS(side) {
		s.t.Errorf("after %s: %s's clock %v on its own set, %v on the other", game[i], side, a, b)
	}
}

// sameGame checks that both sets hold the same moves and result.
func (s *pairOfSets) sameGame(want []string, res rules.Result, reason game.Reason) {
	s.t.Helper()
	for _, p := range []*inproc{s.white, s.black} {
		snap := p.waitUntil("the result "+string(res), func(snap *table.Snapshot) bool { return snap.Result != rules.NoResult })
		if got := strings.Join(p.moves(), " "); got != strings.Join(want, " ") || snap.Result != res || snap.Reason != reason {
			s.t.Errorf("set %s: %s, %s by %s; want %s, %s by %s", p.cfg.BoardID, got, snap.Result, snap.Reason,
				strings.Join(want, " "), res, reason)
		}
	}
}

// begin starts a game on both sets, White's first, and waits until they
// are paired.
func (s *pairOfSets) begin() {
	s.t.Helper()
	s.newGame(s.white)
	s.newGame(s.black)
	paired(s.white)
	paired(s.black)
}

// offer makes side's draw offer on its set from and waits for it on to.
func (s *pairOfSets) offer(from, to *inproc, side rules.Color) {
	s.t.Helper()
	s.command(from, "draw", `{"action":"offer","side":"`+side.String()+`"}`)
	to.waitUntil(side.String()+"'s draw offer", func(snap *table.Snapshot) bool {
		return snap.HasDrawOffer && snap.DrawOffer == side
	})
}

// paired waits until p's game is paired with the other set's.
func paired(p *inproc) *table.Snapshot {
	return p.waitUntil("pairing", func(s *table.Snapshot) bool { return s.Peer != nil && s.Peer.Paired && s.Peer.Online })
}

// Two sets play two games in a row (issue 24): the first ends by White's
// resignation on White's set, the second by a draw agreed on Black's set
// after an offer Black declined; the rematch starts with White's set a
// game ahead (it says Black's set is in another game and waits, and never
// plays the old game's moves). Both sets record the same moves, results and
// the movers' clock readings.
func TestTwoSetsRematch(t *testing.T) {
	t.Parallel()
	s := startPair(t, 10*time.Second)
	s.begin()
	first := []string{"b2W-b4N", "b7B-b5N", "c2W-c3W", "c7B-c6B"}
	for i := range first {
		s.play(first, i)
	}
	s.command(s.white, "resign", `{"side":"white"}`)
	s.sameGame(first, rules.BlackWins, game.ReasonResignation)

	// The rematch: White's set first. Black's set is still in the old game.
	s.newGame(s.white)
	s.white.waitUntil("the other set in another game", func(snap *table.Snapshot) bool {
		return snap.Peer != nil && strings.Contains(snap.Peer.Detail, "is in another game")
	})
	if n := len(s.white.moves()); n != 0 {
		t.Fatalf("white's new game has %d moves %v: the old game's were played", n, s.white.moves())
	}
	s.newGame(s.black)
	paired(s.white)
	paired(s.black)
	second := []string{"b2W-b3W", "b7B-b6B", "c2W-c3W", "c7B-c6B"}
	s.play(second, 0)
	s.play(second, 1)
	// Black offers a draw on its set; White declines on its own.
	s.offer(s.black, s.white, rules.Black)
	s.command(s.white, "draw", `{"action":"decline","side":"white"}`)
	s.black.waitUntil("the decline", func(snap *table.Snapshot) bool { return !snap.HasDrawOffer })
	s.play(second, 2)
	s.play(second, 3)
	// White offers; Black accepts on its set.
	s.offer(s.white, s.black, rules.White)
	s.command(s.black, "draw", `{"action":"accept","side":"black"}`)
	s.sameGame(second, rules.Draw, game.ReasonAgreement)
}

// A set stopped mid-game and started again (issue 24): the other set
// shows it offline (its state's peer, a peer event, the absent side's
// king on the LEDs), pauses the absent side's clock after the grace period
// (1 s here), and resumes it once the set is back, which gets the move it
// missed from the other's retained state; the game goes on, the same on
// both sets.
func TestTwoSetsOneRestarts(t *testing.T) {
	t.Parallel()
	s := startPair(t, time.Second)
	s.begin()
	moves := []string{"b2W-b4N", "b7B-b5N", "c2W-c3W", "c7B-c6B", "d2W-d3W"}
	s.play(moves, 0)
	s.play(moves, 1)
	s.black.stop()
	snap := s.white.waitUntil("black's set offline", func(snap *table.Snapshot) bool {
		return snap.Peer != nil && !snap.Peer.Online
	})
	if !strings.Contains(snap.Peer.Detail, "set klingon is offline since") {
		t.Errorf("peer detail %q", snap.Peer.Detail)
	}
	// White moves while Black's set is away: Black's clock is paused after
	// the grace period, and its king warns on White's set.
	s.white.handSynced(moves[2])
	// (The pause and the words that say it are two commands: a snapshot
	// between them has the first alone.)
	snap = s.white.waitUntil("black's clock paused, and the set saying so", func(snap *table.Snapshot) bool {
		return snap.Clock != nil && snap.Clock.Paused && snap.Clock.Running == "black" &&
			snap.Peer != nil && strings.Contains(snap.Peer.Detail, "black's clock paused")
	})
	frozen := snap.Clock.BlackMS
	// Black's set comes back: it plays the move it missed, the clock runs.
	s.black.start()
	standSet(s.black.d.board, s.black.d.tb.Snapshot().Expected)
	s.black.waitMoves(3)
	s.black.handSynced(moves[2])
	snap = s.white.waitUntil("black's clock running again", func(snap *table.Snapshot) bool {
		return snap.Clock != nil && !snap.Clock.Paused && snap.Peer != nil && snap.Peer.Online
	})
	if snap.Clock.BlackMS > frozen {
		t.Errorf("black's clock %d ms after the pause, more than the %d ms it stood at", snap.Clock.BlackMS, frozen)
	}
	// Black's own clock, paused since its restart, runs again.
	s.black.waitUntil("black's own clock running", func(snap *table.Snapshot) bool {
		return snap.Clock != nil && !snap.Clock.Paused && snap.Clock.Running == "black"
	})
	s.play(moves, 3)
	s.play(moves, 4)
	w, b := strings.Join(s.white.moves(), " "), strings.Join(s.black.moves(), " ")
	if w != strings.Join(moves, " ") || b != w {
		t.Errorf("games:\nwhite %s\nblack %s", w, b)
	}
}

// A take-back in a game between two sets is asked of the other set's
// players, who refuse or accept it (issue 24): refused, nothing changes;
// accepted, the move is taken back on both sets, and the game goes on the
// same on both.
func TestTwoSetsTakeBackRequest(t *testing.T) {
	t.Parallel()
	s := startPair(t, 10*time.Second)
	s.begin()
	moves := []string{"b2W-b4N", "b7B-b5N"}
	s.play(moves, 0)
	s.play(moves, 1)
	asked := func() {
		t.Helper()
		s.command(s.black, "take_back", `{}`)
		snap := s.white.waitUntil("black's take-back request", func(snap *table.Snapshot) bool {
			return snap.TakeBack != nil && snap.TakeBack.ByPeer
		})
		if snap.TakeBack.Plies != 1 || len(snap.Moves) != 2 {
			t.Fatalf("request %+v with %d moves", snap.TakeBack, len(snap.Moves))
		}
	}
	asked()
	s.command(s.white, "take_back", `{"answer":"refuse"}`)
	s.black.waitUntil("the refusal", func(snap *table.Snapshot) bool { return snap.TakeBack == nil })
	if w, b := len(s.white.moves()), len(s.black.moves()); w != 2 || b != 2 {
		t.Fatalf("after a refused take-back: %d and %d moves", w, b)
	}
	asked()
	s.command(s.white, "take_back", `{"answer":"accept"}`)
	for _, p := range []*inproc{s.white, s.black} {
		snap := p.waitUntil("the take-back", func(snap *table.Snapshot) bool { return len(snap.Moves) == 1 && snap.TakeBack == nil })
		p.putBack(snap.Expected)
	}
	again := []string{"b2W-b4N", "b7B-b6B", "c2W-c3W"}
	s.play(again, 1)
	s.play(again, 2)
	w, b := strings.Join(s.white.moves(), " "), strings.Join(s.black.moves(), " ")
	if w != strings.Join(again, " ") || b != w {
		t.Errorf("games:\nwhite %s\nblack %s", w, b)
	}
}
