package main

import (
	"strings"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/tridboard/tridboard/internal/mosquittotest"
	"github.com/tridboard/tridboard/mqtt"
	"github.com/tridboard/tridboard/sim"
	"github.com/tridboard/tridboard/table"
)

// act does hand actions ("lift b3W", "wait 100") on p's set, in real time.
func (p *inproc) act(lines ...string) {
	p.t.Helper()
	for _, l := range lines {
		a, ok, err := sim.ParseAction(l)
		if err != nil || !ok {
			p.t.Fatalf("action %q: %v", l, err)
		}
		if a.Op == sim.OpWait {
			time.Sleep(a.Wait)
		} else if err := p.d.board.Set.Do(a); err != nil {
			p.t.Fatalf("set %s: %s: %v", p.cfg.BoardID, a, err)
		}
	}
}

// pairedAfterFirstMove is pairedSets on a Mosquitto of its own, White's
// b2W-b3W made on both sets.
func pairedAfterFirstMove(t *testing.T) (white, black *inproc, ctl paho.Client) {
	t.Helper()
	white, black, ctl = pairedSets(t, mosquittotest.Start(t))
	white.handSynced("b2W-b3W")
	black.waitMoves(1)
	black.handSynced("b2W-b3W")
	return white, black, ctl
}

// Issue 33: one game on two sets over Mosquitto. White's players put their
// move back by hand on their set: no take-back there alone, but a request
// to the other set, whose players see it (the state) and answer over MQTT.
// The first time they refuse: White's set asks for the move back, and the
// players put it back. The second time they accept: the move is taken back
// on both sets, and the game goes on with another move. Both journals hold
// one game.
func TestTwoSetsTakeBackByHand(t *testing.T) {
	t.Parallel()
	white, black, ctl := pairedAfterFirstMove(t)
	topics, _ := mqtt.NewTopics(black.cfg.MQTT.Prefix, black.cfg.BoardID)
	for _, answer := range []string{"refuse", "accept"} {
		white.act("lift b3W", "wait 120", "place b2W")
		white.waitUntil("take-back request by hand", func(s *table.Snapshot) bool { return s.TakeBack != nil && s.TakeBack.ByHand })
		black.waitUntil("the request from the other set", func(s *table.Snapshot) bool { return s.TakeBack != nil && s.TakeBack.ByPeer })
		if got := white.moves(); len(got) != 1 {
			t.Fatalf("white's set took the move back alone: %v", got)
		}
		if r := sendCommand(t, ctl, topics, "take_back", `{"answer":"`+answer+`"}`); r["status"] != "ok" {
			t.Fatalf("take_back %s on klingon: %v", answer, r)
		}
		if answer == "refuse" {
			white.waitUntil("the refusal", func(s *table.Snapshot) bool {
				return s.TakeBack == nil && strings.Contains(s.Status.Reason, "set klingon refused the take-back")
			})
			white.act("lift b2W", "wait 120", "place b3W")
			white.waitInSync()
			continue
		}
		// Accepted: taken back on klingon, whose players take it back on
		// their board, and on enterprise, whose board already shows it.
		black.waitUntil("the take-back there", func(s *table.Snapshot) bool { return len(s.Moves) == 0 })
		black.act("lift b3W", "wait 120", "place b2W")
		black.waitInSync()
		white.waitUntil("the take-back here", func(s *table.Snapshot) bool { return len(s.Moves) == 0 })
		white.waitInSync()
	}
	white.handSynced("c2W-c3W")
	black.waitMoves(1)
	black.handSynced("c2W-c3W")
	w, b := strings.Join(white.moves(), " "), strings.Join(black.moves(), " ")
	if w != "c2W-c3W" || b != w {
		t.Errorf("journals: white %q, black %q; want one game, c2W-c3W", w, b)
	}
}

// Issue 33: two sets that came to hold different games (here a Black move
// typed in on White's set while Black's players made another on theirs)
// say so for as long as it lasts, on both sets: the state's peer is not
// paired and names what differs. White's set takes its wrong move back
// (the sets are not paired: the take-back is its own), back at the last
// position both share; Black's move then comes as a move made elsewhere,
// and both sets are paired again, with one game.
func TestTwoSetsDesyncLastsAndResolves(t *testing.T) {
	t.Parallel()
	white, black, ctl, wtopics := splitSets(t)
	desync := func(s *table.Snapshot) bool {
		return s.Peer != nil && !s.Peer.Paired && strings.HasPrefix(s.Peer.Desync, "desync at move 2")
	}
	// It lasts: still there a while later, on both sets.
	time.Sleep(1500 * time.Millisecond)
	for _, p := range []*inproc{white, black} {
		if s := p.d.tb.Snapshot(); !desync(s) {
			t.Fatalf("set %s: peer %+v, want the desync to last", p.cfg.BoardID, s.Peer)
		}
	}
	if r := sendCommand(t, ctl, wtopics, "take_back", `{}`); r["status"] != "ok" {
		t.Fatalf("take_back on enterprise: %v", r)
	}
	white.waitUntil("Black's move from the other set", func(s *table.Snapshot) bool {
		return len(s.Moves) == 2 && s.Moves[1].Move == "c7B-c6B"
	})
	standSet(white.d.board, white.d.tb.Snapshot().Expected)
	white.waitInSync()
	for _, p := range []*inproc{white, black} {
		p.waitUntil("the sets paired again", func(s *table.Snapshot) bool { return s.Peer != nil && s.Peer.Paired && s.Peer.Desync == "" })
	}
	w, b := strings.Join(white.moves(), " "), strings.Join(black.moves(), " ")
	if w != "b2W-b3W c7B-c6B" || b != w {
		t.Errorf("journals: white %q, black %q; want one game", w, b)
	}
}

// splitSets is pairedAfterFirstMove with the games split at move 2: a
// Black move typed in on White's set (b7B-b6B), another made by hand on
// Black's (c7B-c6B); both sets show the desync. wtopics are White's set's.
func splitSets(t *testing.T) (white, black *inproc, ctl paho.Client, wtopics mqtt.Topics) {
	t.Helper()
	white, black, ctl = pairedAfterFirstMove(t)
	wtopics, _ = mqtt.NewTopics(white.cfg.MQTT.Prefix, white.cfg.BoardID)
	if r := sendCommand(t, ctl, wtopics, "move", `{"move":"b7B-b6B"}`); r["status"] != "ok" {
		t.Fatalf("move on enterprise: %v", r)
	}
	black.handSynced("c7B-c6B")
	for _, p := range []*inproc{white, black} {
		p.waitUntil("the desync shown", func(s *table.Snapshot) bool {
			return s.Peer != nil && !s.Peer.Paired && strings.HasPrefix(s.Peer.Desync, "desync at move 2")
		})
	}
	return white, black, ctl, wtopics
}

// oneGame checks that both sets hold the game want, paired again.
func oneGame(t *testing.T, want string, sets ...*inproc) {
	t.Helper()
	for _, p := range sets {
		p.waitUntil("the sets paired again", func(s *table.Snapshot) bool { return s.Peer != nil && s.Peer.Paired && s.Peer.Desync == "" })
		if got := strings.Join(p.moves(), " "); got != want {
			t.Errorf("set %s: game %q, want %q", p.cfg.BoardID, got, want)
		}
	}
}

// Issue 33: a desync resolved by accepting the other set's record. On
// White's set, over MQTT, "resolve" refuses an unknown action, then
// "accept": its game becomes Black's set's (b7B-b6B taken back, c7B-c6B
// played), the LEDs show the pieces to move, the players move them, and
// both sets hold one game, paired; it goes on.
func TestTwoSetsDesyncResolvedByAcceptingTheOtherRecord(t *testing.T) {
	t.Parallel()
	white, black, ctl, wtopics := splitSets(t)
	if r := sendCommand(t, ctl, wtopics, "resolve", `{"action":"merge"}`); r["status"] != "error" {
		t.Fatalf("resolve merge: %v", r)
	}
	if r := sendCommand(t, ctl, wtopics, "resolve", `{"action":"accept"}`); r["status"] != "ok" {
		t.Fatalf("resolve accept on enterprise: %v", r)
	}
	s := white.waitUntil("Black's set's record", func(s *table.Snapshot) bool {
		return len(s.Moves) == 2 && s.Moves[1].Move == "c7B-c6B"
	})
	if lit := s.RemoteFrom.Union(s.RemoteTo); lit.Len() != 4 {
		t.Errorf("the LEDs show %v, want the four cells to change", lit.Names(s.Cells()))
	}
	standSet(white.d.board, white.d.tb.Snapshot().Expected)
	white.waitInSync()
	oneGame(t, "b2W-b3W c7B-c6B", white, black)
	white.handSynced("c2W-c3W")
	black.waitMoves(3)
	black.handSynced("c2W-c3W")
	oneGame(t, "b2W-b3W c7B-c6B c2W-c3W", white, black)
}

// Issue 33: a desync resolved by restoring the last common position, asked
// on Black's set: both sets take the game back to after b2W-b3W (White's
// set its b7B-b6B, Black's its c7B-c6B), the players take the moves back
// on their boards, and the game goes on as one, paired.
func TestTwoSetsDesyncResolvedByRestoringTheLastCommonPosition(t *testing.T) {
	t.Parallel()
	white, black, ctl, _ := splitSets(t)
	btopics, _ := mqtt.NewTopics(black.cfg.MQTT.Prefix, black.cfg.BoardID)
	if r := sendCommand(t, ctl, btopics, "resolve", `{"action":"restore"}`); r["status"] != "ok" {
		t.Fatalf("resolve restore on klingon: %v", r)
	}
	for _, p := range []*inproc{white, black} {
		p.waitUntil("the last common position", func(s *table.Snapshot) bool { return len(s.Moves) == 1 })
		standSet(p.d.board, p.d.tb.Snapshot().Expected)
		p.waitInSync()
	}
	oneGame(t, "b2W-b3W", white, black)
	black.handSynced("d7B-d6B")
	white.waitMoves(2)
	white.handSynced("d7B-d6B")
	oneGame(t, "b2W-b3W d7B-d6B", white, black)
}
