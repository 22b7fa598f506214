package main

import (
	"strings"
	"testing"
	"time"

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

// Issue 33: one game on two sets over Mosquitto. White's players put their
// move back by hand on their set: no take-back there alone, but a request
// to the other set, whose players see it (the state) and answer over MQTT.
// The first time they refuse: White's set asks for the move back, and the
// players put it back. The second time they accept: the move is taken back
// on both sets, and the game goes on with another move. Both journals hold
// one game.
func TestTwoSetsTakeBackByHand(t *testing.T) {
	broker := mosquittotest.Start(t)
	white, black, ctl := pairedSets(t, broker)
	topics, _ := mqtt.NewTopics(black.cfg.MQTT.Prefix, black.cfg.BoardID)
	white.handSynced("b2W-b3W")
	black.waitMoves(1)
	black.handSynced("b2W-b3W")
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
