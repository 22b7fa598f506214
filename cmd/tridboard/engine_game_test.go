package main

import (
	"strings"
	"testing"
)

// A learner plays White against the engine at level 2 on the simulated
// set: each engine move is shown as a move made elsewhere, and the learner
// makes it on the set before playing the next.
func TestEngineGameOnTheSet(t *testing.T) {
	cfgDir := t.TempDir()
	p := startSet(t, "learner", cfgDir, "")
	c, topics := connectTo(t, p)
	if r := sendCommand(t, c, topics, "new_game", `{"variant":"st3d","white":"Learner","opponent":{"engine":2}}`); r["status"] != "ok" {
		t.Fatalf("new_game: %v", r)
	}
	standSet(p.d.board, p.d.tb.Snapshot().Expected)
	p.waitInSync()
	for i, own := range []string{"b2W-b3W", "c2W-c3W", "a2W-a3W"} {
		p.hand(own)
		p.waitMoves(2*i + 2)
		snap := p.d.tb.Snapshot()
		reply := snap.Moves[len(snap.Moves)-1]
		if snap.Position.Turn() != 0 || snap.RemoteTo.Empty() {
			t.Fatalf("after %s: the engine's %s is not shown to make on the set", own, reply.Move)
		}
		p.handSynced(reply.Move)
	}
	if got := p.moves(); len(got) != 6 || !strings.HasPrefix(strings.Join(got, " "), "b2W-b3W") {
		t.Errorf("game %v", got)
	}
	if tags := p.d.tb.Snapshot().Tags; tags.Opponent != "black=engine:2" || tags.White != "Learner" {
		t.Errorf("tags %+v", tags)
	}
}
