package main

import (
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/recognize"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// A learner plays White against the engine at level 2 on the simulated
// set: each engine move is shown as a move made elsewhere, and the learner
// makes it on the set before playing the next.
func TestEngineGameOnTheSet(t *testing.T) {
	t.Parallel()
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

// waitUntil polls cond until it holds, or fails with what after 30 s.
func (p *inproc) waitUntil(what string, cond func(*table.Snapshot) bool) *table.Snapshot {
	p.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		s := p.d.tb.Snapshot()
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("set %s: %s: moves %v, board %s (%s)", p.cfg.BoardID, what, p.moves(), s.Status.State, s.Status.Instruction)
		}
	}
}

// putBack puts the set in pos by hand, a piece at a time as players do
// after a take-back (lift what stands where pos has nothing, put it where
// pos has a piece, at the hand's pace), and waits for the set in sync. (A
// set stood in the position at once could be read before the table looks
// for it, and a move made next be taken for part of the putting back.)
func (p *inproc) putBack(pos rules.Position) {
	p.t.Helper()
	names := p.d.board.Set.Cells()
	cur, want := p.d.board.Set.Closed(), pos.Occupancy()
	off, on := cur.Minus(want).Cells(nil), want.Minus(cur).Cells(nil)
	for i := 0; i < max(len(off), len(on)); i++ {
		if i < len(off) {
			if err := p.d.board.Set.Lift(names[off[i]]); err != nil {
				p.t.Fatal(err)
			}
			time.Sleep(80 * time.Millisecond) // the hand's pace, as hand's gestures
		}
		if i < len(on) {
			if err := p.d.board.Set.Place(names[on[i]]); err != nil {
				p.t.Fatal(err)
			}
			time.Sleep(80 * time.Millisecond)
		}
	}
	p.waitInSync()
}

// lastMove is the last move of the game ("" with none) and its seq.
func lastMove(s *table.Snapshot) (string, int) {
	if len(s.Moves) == 0 {
		return "", 0
	}
	m := s.Moves[len(s.Moves)-1]
	return m.Move, m.Seq
}

// A learner plays White against the engine on a 60 s clock, through MQTT
// and the simulated set, and takes moves back in every way (issue 24):
// the engine's move (it replies again), the learner's move and the
// engine's reply together (plies 2: the learner's turn, it waits), the
// learner's move alone while the engine thinks (its stale reply is never
// played). (A move made elsewhere cannot be taken back by hand on the set:
// the set learns it by command, and a command takes it back.) The game
// ends by the learner's resignation, not on time, and the engine's clock
// never ran out.
func TestEngineGameTakeBacks(t *testing.T) {
	t.Parallel()
	// With the set's defaults, the change of mind on: a take-back by
	// command closes the last move's correction first (table.exec).
	p := startSet(t, "learner", t.TempDir(), "")
	c, topics := connectTo(t, p)
	if r := sendCommand(t, c, topics, "new_game", `{"variant":"st3d","white":"Learner","time_control":"60","opponent":{"engine":6}}`); r["status"] != "ok" {
		t.Fatalf("new_game: %v", r)
	}
	standSet(p.d.board, p.d.tb.Snapshot().Expected)
	p.waitInSync()
	// own plays the learner's move and makes the engine's reply on the set.
	own := func(long string, n int) (string, int) {
		t.Helper()
		p.handSynced(long)
		s := p.waitUntil("the engine's reply to "+long, func(s *table.Snapshot) bool { return len(s.Moves) == n+1 })
		reply, seq := lastMove(s)
		p.handSynced(reply)
		return reply, seq
	}
	// takeBack sends take_back and puts the set back, by hand, in the
	// position it wants.
	takeBack := func(payload string, want int) {
		t.Helper()
		if r := sendCommand(t, c, topics, "take_back", payload); r["status"] != "ok" {
			t.Fatalf("take_back %s: %v", payload, r)
		}
		s := p.d.tb.Snapshot()
		if len(s.Moves) != want {
			t.Fatalf("take_back %s: %d moves left, want %d", payload, len(s.Moves), want)
		}
		p.putBack(s.Expected)
	}
	_, seq := own("b2W-b3W", 1)

	// 1. The engine's move, by command: it is its turn, it replies again.
	takeBack(`{}`, 1)
	s := p.waitUntil("the engine's reply after its move was taken back", func(s *table.Snapshot) bool {
		_, n := lastMove(s)
		return len(s.Moves) == 2 && n > seq
	})
	reply, _ := lastMove(s)
	p.handSynced(reply)

	// 2. The learner's move and the reply, by command with plies 2: the
	// learner's turn again; the engine replies to the move played instead.
	own("c2W-c3W", 3)
	takeBack(`{"plies":2}`, 2)
	p.waitInSync()
	_, seq = own("a2W-a3W", 3)
	if got := p.moves()[2]; got != "a2W-a3W" {
		t.Fatalf("after two plies back the third move is %s, want the learner's a2W-a3W", got)
	}

	// 3. The learner's move alone, by command while the engine thinks
	// (level 6 on a 60 s clock thinks about 2 s): the learner's turn again,
	// the engine's reply to the move taken back is never played, and it
	// replies to the move played instead.
	p.handSynced("d2W-d3W")
	if r := sendCommand(t, c, topics, "take_back", `{}`); r["status"] != "ok" || r["data"].(map[string]any)["move"] != "d2W-d3W" {
		t.Fatalf("take_back of the learner's d2W-d3W while the engine thinks: %v (the engine replied first?)", r)
	}
	p.putBack(p.d.tb.Snapshot().Expected)
	own("c2W-c3W", 5)
	if got := p.moves(); len(got) != 6 || got[4] != "c2W-c3W" {
		t.Fatalf("game %v: want the learner's c2W-c3W fifth and the engine's reply", got)
	}

	// The learner resigns: 0-1 by resignation, not on time.
	if r := sendCommand(t, c, topics, "resign", `{"side":"white"}`); r["status"] != "ok" {
		t.Fatalf("resign: %v", r)
	}
	s = p.d.tb.Snapshot()
	if s.Result != rules.BlackWins || s.Reason != game.ReasonResignation {
		t.Errorf("result %v by %q, want 0-1 by resignation", s.Result, s.Reason)
	}
	if s.Clock == nil || s.Clock.BlackMS <= 0 || s.Clock.Flag != "" {
		t.Errorf("the engine's clock %+v: want time left and no flag", s.Clock)
	}
	if got := strings.Join(p.moves(), " "); !strings.HasPrefix(got, "b2W-b3W ") || len(p.moves()) != 6 {
		t.Errorf("game %s", got)
	}
}

// A castling made elsewhere (by the engine, another set or a command)
// swaps king and rook in place, which the switches cannot see: the set
// stays in sync, and the LEDs go on showing the castling until the player
// has made it, however long they take to look (scans in sync meanwhile
// change nothing). Taken back by command, the same: the LEDs show the
// swap back, and putting the pieces back is not the castling made again
// (after the player's own castling taken back the set read it so).
func TestRemoteCastlingShownUntilMade(t *testing.T) {
	t.Parallel()
	p := startSet(t, "castle", t.TempDir(), "")
	c, topics := connectTo(t, p)
	p.waitInSync()
	for _, long := range []string{"c2W-c4W", "d7B-d6B", "c4W-c5B", "d8B-c6B"} {
		p.handSynced(long)
	}
	p.waitMoves(4)
	if r := sendCommand(t, c, topics, "move", `{"move":"0-0"}`); r["status"] != "ok" {
		t.Fatalf("move 0-0: %v", r)
	}
	waitLit(t, p.d, "d0KL1 e0KL1")
	if s := p.d.tb.Snapshot(); s.Status.State != recognize.InSync || len(s.Moves) != 5 {
		t.Fatalf("after the castling made elsewhere: board %s, %d moves", s.Status.State, len(s.Moves))
	}
	// The player looks at the set: fifty scans, all in sync, change nothing.
	deadline := time.Now().Add(10 * time.Second)
	for from := p.d.tb.Health().Scans; p.d.tb.Health().Scans < from+50; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the set does not scan")
		}
	}
	names := st3d.CellNames()
	if s := p.d.tb.Snapshot(); strings.Join(s.RemoteFrom.Names(names), " ") != "d0KL1" || strings.Join(s.RemoteTo.Names(names), " ") != "e0KL1" {
		t.Fatalf("after fifty scans the set shows the castling to make from %v to %v, want d0KL1 to e0KL1",
			s.RemoteFrom.Names(names), s.RemoteTo.Names(names))
	}
	waitLit(t, p.d, "d0KL1 e0KL1")
	p.handSynced("0-0")
	if got := p.moves(); len(got) != 5 {
		t.Errorf("moves %v: making the castling on the set is not a move of its own", got)
	}
	if st := p.d.tb.Snapshot(); !st.RemoteFrom.Empty() || !st.RemoteTo.Empty() {
		t.Errorf("the castling still shows once made")
	}

	// Taken back by command: as unseen. The set shows king and rook to swap
	// back; putting them back is not the castling made again.
	if r := sendCommand(t, c, topics, "take_back", `{}`); r["status"] != "ok" {
		t.Fatalf("take_back: %v", r)
	}
	if s := p.d.tb.Snapshot(); strings.Join(s.RemoteFrom.Names(names), " ") != "e0KL1" || strings.Join(s.RemoteTo.Names(names), " ") != "d0KL1" {
		t.Fatalf("after the castling was taken back the set shows from %v to %v, want e0KL1 to d0KL1",
			s.RemoteFrom.Names(names), s.RemoteTo.Names(names))
	}
	p.hand("0-0") // the same hands as castling: king and rook lifted and swapped
	p.waitUntil("the take-back made on the set", func(s *table.Snapshot) bool {
		return s.Status.State == recognize.InSync && s.RemoteFrom.Empty() && s.RemoteTo.Empty()
	})

	// The player castles on the set, and takes it back by command: the
	// same again, from a castling the set itself saw made.
	p.handSynced("0-0")
	p.waitMoves(5)
	if r := sendCommand(t, c, topics, "take_back", `{}`); r["status"] != "ok" {
		t.Fatalf("take_back: %v", r)
	}
	if s := p.d.tb.Snapshot(); len(s.Moves) != 4 || strings.Join(s.RemoteFrom.Names(names), " ") != "e0KL1" {
		t.Fatalf("after the player's castling was taken back: %d moves, the set shows from %v to %v",
			len(s.Moves), s.RemoteFrom.Names(names), s.RemoteTo.Names(names))
	}
	p.hand("0-0")
	p.waitUntil("the take-back made on the set", func(s *table.Snapshot) bool {
		return s.Status.State == recognize.InSync && s.RemoteFrom.Empty() && s.RemoteTo.Empty()
	})
	p.handSynced("b2W-b3W")
	p.waitMoves(5)
	if got := strings.Join(p.moves(), " "); got != "c2W-c4W d7B-d6B c4W-c5B d8B-c6B b2W-b3W" {
		t.Errorf("game %s, want the castling replaced by b2W-b3W", got)
	}
}
