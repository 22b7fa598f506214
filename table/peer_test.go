package table_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tridboard/tridboard/clock"
	"github.com/tridboard/tridboard/game"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/st3d"
	"github.com/tridboard/tridboard/table"
)

// The other set of a remote game offline (issue 24): the snapshot says
// so, an event tells it, and the absent side's king warns on the LEDs
// until the set is back; a new game forgets it.
func TestPeerOffline(t *testing.T) {
	r := newRig(t)
	off := &table.PeerState{Set: "klingon", Paired: true, Side: rules.Black, Detail: "set klingon is offline since 12:00:00"}
	if _, err := r.tb.Exec(table.Peer{State: off}); err != nil {
		t.Fatal(err)
	}
	r.run(100 * time.Millisecond)
	r.drain()
	if p := r.tb.Snapshot().Peer; p == nil || *p != *off {
		t.Errorf("snapshot peer %+v, want %+v", p, off)
	}
	if got := r.rec.kinds(); !strings.HasSuffix(got, "peer") {
		t.Errorf("events %s: want a peer event", got)
	}
	if v := r.leds.view(); v.LowTime != kings(r, rules.Black) {
		t.Errorf("LEDs with Black's set offline: %v, want Black's king", v.LowTime.Names(st3d.CellNames()))
	}
	back := *off
	back.Online, back.Detail = true, ""
	if _, err := r.tb.Exec(table.Peer{State: &back}); err != nil {
		t.Fatal(err)
	}
	r.run(100 * time.Millisecond)
	r.drain()
	if v := r.leds.view(); !v.LowTime.Empty() {
		t.Errorf("LEDs with the set back: %v", v.LowTime.Names(st3d.CellNames()))
	}
	if _, err := r.tb.Exec(table.NewGame{}); err != nil {
		t.Fatal(err)
	}
	if p := r.tb.Snapshot().Peer; p != nil {
		t.Errorf("a new game keeps the last game's peer %+v", p)
	}
}

// The other set's flag, authoritative for its side, ends the game here
// on time, once (issue 24).
func TestPeerFlag(t *testing.T) {
	r := newClockRig(t, "300")
	r.clockStarted()
	if _, err := r.tb.Exec(table.PeerFlag{Side: rules.White}); err != nil {
		t.Fatal(err)
	}
	s := r.tb.Snapshot()
	if s.Result != rules.BlackWins || s.Reason != game.ReasonTime {
		t.Errorf("result %s by %s, want 0-1 on time", s.Result, s.Reason)
	}
	if _, err := r.tb.Exec(table.PeerFlag{Side: rules.Black}); err == nil || !strings.Contains(err.Error(), "already over") {
		t.Errorf("a second flag: %v", err)
	}
}

// In a remote game the set of the side that moved is authoritative for
// its clock: a move made elsewhere with its reading sets this clock's
// times to it, and the journal keeps them (issue 24).
func TestPlayMoveTakesTheReading(t *testing.T) {
	r := newClockRig(t, "300")
	r.clockStarted()
	r.run(3 * time.Second)
	rep, err := r.tb.Exec(table.PlayMove{Move: "b2W-b3W", Reading: &clock.Reading{WhiteMS: 291234, BlackMS: 300000}})
	if err != nil {
		t.Fatal(err)
	}
	c := r.tb.Snapshot().Clock
	if c == nil || c.WhiteMS != 291234 || c.BlackMS != 300000 || c.Running != "black" {
		t.Errorf("clock %+v after the move with the other set's reading", c)
	}
	if rep.Move == nil || rep.Move.Move != "b2W-b3W" {
		t.Errorf("reply %+v", rep)
	}
}

// In a game paired with another set a take-back is asked of it, not made
// (issue 24): the other set's answer makes it or not; the other set's
// request waits for this set's players' answer.
func TestRemoteTakeBackRequests(t *testing.T) {
	r := newRig(t)
	r.play("b2W-b3W")
	r.drain()
	if _, err := r.tb.Exec(table.Peer{State: &table.PeerState{Set: "klingon", Online: true, Paired: true, Side: rules.Black}}); err != nil {
		t.Fatal(err)
	}
	// Asked: nothing taken back yet.
	if rep, err := r.tb.Exec(table.TakeBack{}); err != nil || rep.Move != nil {
		t.Fatalf("take-back asked: %+v, %v", rep, err)
	}
	ask := r.tb.Snapshot().TakeBack
	if ask == nil || ask.ByPeer || ask.Plies != 1 || ask.At != 1 || len(r.tb.Snapshot().Moves) != 1 {
		t.Fatalf("request %+v", ask)
	}
	// Refused there: nothing changes; an answer to another request is stale.
	if _, err := r.tb.Exec(table.PeerTakeBack{Answer: &table.TakeBackAnswer{At: 1, ID: ask.ID + 1, Accept: true}}); !errors.Is(err, table.ErrStale) {
		t.Errorf("an answer to another request: %v", err)
	}
	if _, err := r.tb.Exec(table.PeerTakeBack{Answer: &table.TakeBackAnswer{At: 1, ID: ask.ID}}); err != nil {
		t.Fatal(err)
	}
	if s := r.tb.Snapshot(); s.TakeBack != nil || len(s.Moves) != 1 {
		t.Fatalf("after the refusal: request %+v, %d moves", s.TakeBack, len(s.Moves))
	}
	// Asked again and accepted there: taken back here.
	if _, err := r.tb.Exec(table.TakeBack{}); err != nil {
		t.Fatal(err)
	}
	ask = r.tb.Snapshot().TakeBack
	if _, err := r.tb.Exec(table.PeerTakeBack{Answer: &table.TakeBackAnswer{At: 1, ID: ask.ID, Accept: true}}); err != nil {
		t.Fatal(err)
	}
	if s := r.tb.Snapshot(); s.TakeBack != nil || len(s.Moves) != 0 {
		t.Fatalf("after the acceptance: request %+v, %d moves", s.TakeBack, len(s.Moves))
	}
	// The players put the move taken back back on the set; the other set
	// asks: its request waits for an answer here.
	r.act("lift b3W", "wait 100", "place b2W")
	r.run(time.Second)
	if _, err := r.tb.Exec(table.PlayMove{Move: "b2W-b3W"}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tb.Exec(table.PeerTakeBack{Request: &table.TakeBackRequest{Plies: 1, At: 0, ID: 7}}); !errors.Is(err, table.ErrStale) {
		t.Errorf("a request for another moment of the game: %v", err)
	}
	if _, err := r.tb.Exec(table.PeerTakeBack{Request: &table.TakeBackRequest{Plies: 1, At: 1, ID: 7}}); err != nil {
		t.Fatal(err)
	}
	if s := r.tb.Snapshot(); s.TakeBack == nil || !s.TakeBack.ByPeer {
		t.Fatalf("the other set's request %+v", s.TakeBack)
	}
	if _, err := r.tb.Exec(table.TakeBack{Answer: "maybe"}); err == nil {
		t.Error("an answer that is neither accept nor refuse was taken")
	}
	rep, err := r.tb.Exec(table.TakeBack{Answer: table.TakeBackAccept})
	if err != nil || rep.Move == nil || rep.Move.Move != "b2W-b3W" {
		t.Fatalf("accept: %+v, %v", rep, err)
	}
	if s := r.tb.Snapshot(); s.TakeBackAnswer == nil || !s.TakeBackAnswer.Accept || s.TakeBackAnswer.ID != 7 || len(s.Moves) != 0 {
		t.Errorf("answer %+v, %d moves", s.TakeBackAnswer, len(s.Moves))
	}
	if _, err := r.tb.Exec(table.TakeBack{Answer: table.TakeBackRefuse}); err == nil {
		t.Error("an answer with no request was taken")
	}
}

// In a paired game the other set's clock is authoritative for its side:
// its flag is not declared here while it is online (issue 24), only when it
// comes as PeerFlag; without the other set the flag falls here as usual.
func TestPeerSideFlagIsTheirs(t *testing.T) {
	r := newClockRig(t, "10")
	r.clockStarted()
	r.play("b2W-b3W")
	if _, err := r.tb.Exec(table.Peer{State: &table.PeerState{Set: "klingon", Online: true, Paired: true, Side: rules.Black}}); err != nil {
		t.Fatal(err)
	}
	r.run(15 * time.Second)
	if s := r.tb.Snapshot(); s.Result != rules.NoResult {
		t.Fatalf("black's flag declared here: %s by %s", s.Result, s.Reason)
	}
	if _, err := r.tb.Exec(table.Peer{}); err != nil {
		t.Fatal(err)
	}
	r.run(time.Second)
	if s := r.tb.Snapshot(); s.Result != rules.WhiteWins || s.Reason != game.ReasonTime {
		t.Errorf("without the other set: %s by %s, want 1-0 on time", s.Result, s.Reason)
	}
}

// A move of the other set whose clock still had time is played here with
// its reading even when this copy of its clock, which ran ahead by the
// message's way, shows its flag fallen (issue 24).
func TestPeerMoveAfterThisCopysFlag(t *testing.T) {
	r := newClockRig(t, "10")
	r.clockStarted()
	r.play("b2W-b3W")
	if _, err := r.tb.Exec(table.Peer{State: &table.PeerState{Set: "klingon", Online: true, Paired: true, Side: rules.Black}}); err != nil {
		t.Fatal(err)
	}
	r.run(10500 * time.Millisecond)
	if _, err := r.tb.Exec(table.PlayMove{Move: "b7B-b6B", Reading: &clock.Reading{WhiteMS: 9000, BlackMS: 150}}); err != nil {
		t.Fatalf("the other set's move with 150 ms left: %v", err)
	}
	if c := r.tb.Snapshot().Clock; c.BlackMS != 150 || c.Running != "white" || c.Flag != "" {
		t.Errorf("clock %+v, want black at 150 ms and white running", c)
	}
}

// A take-back by hand in a paired remote game is a take-back request to
// the other set (issue 33), never a take-back of this set alone: the game
// keeps the move, the set shows the mismatch with why, and the snapshot
// carries the request (which the remote opponent publishes). Accepted
// there, the move is taken back here and the set, already showing the
// position before it, is in sync; refused, the set asks for the move back,
// and is in sync once it is.
func TestRemoteTakeBackByHand(t *testing.T) {
	for _, accept := range []bool{true, false} {
		r := newRig(t)
		if _, err := r.tb.Exec(table.Peer{State: &table.PeerState{Set: "klingon", Online: true, Paired: true, Side: rules.Black}}); err != nil {
			t.Fatal(err)
		}
		r.play("b2W-b3W")
		r.act("lift b3W", "wait 100", "place b2W", "wait 1500")
		r.drain()
		s := r.tb.Snapshot()
		ask := s.TakeBack
		if ask == nil || ask.ByPeer || !ask.ByHand || ask.Plies != 1 || ask.At != 1 || len(s.Moves) != 1 {
			t.Fatalf("after the take-back by hand: request %+v, moves %d: %s %q (%s)", ask, len(s.Moves), s.Status.State, s.Status.Reason, r.rec.kinds())
		}
		if _, ok := r.event(table.TookBack); ok {
			t.Fatalf("a take-back by hand taken back on this set alone: %s", r.rec.kinds())
		}
		if s.Status.State.String() != "mismatch" || !strings.Contains(s.Status.Reason, "take-back of b2W-b3W asked of set klingon") {
			t.Fatalf("status %s %q, want the mismatch saying the take-back is asked", s.Status.State, s.Status.Reason)
		}
		if e, ok := r.event(table.PeerChanged); !ok || e.Detail != "take-back of b2W-b3W by hand: asked of set klingon" {
			t.Errorf("peer event %q", e.Detail)
		}
		if _, err := r.tb.Exec(table.PeerTakeBack{Answer: &table.TakeBackAnswer{At: 1, ID: ask.ID, Accept: accept}}); err != nil {
			t.Fatal(err)
		}
		r.run(time.Second)
		r.drain()
		s = r.tb.Snapshot()
		if accept {
			if len(s.Moves) != 0 || s.Status.State.String() != "in sync" {
				t.Fatalf("accepted: %d moves, %s", len(s.Moves), s.Status.State)
			}
			continue
		}
		if len(s.Moves) != 1 || !strings.Contains(s.Status.Reason, "set klingon refused the take-back: put b2W-b3W back") {
			t.Fatalf("refused: %d moves, %s %q", len(s.Moves), s.Status.State, s.Status.Reason)
		}
		r.act("lift b2W", "wait 100", "place b3W", "wait 1000")
		if st := r.tb.Snapshot().Status.State.String(); st != "in sync" {
			t.Fatalf("refused, the move put back: %s", st)
		}
	}
}

// Two sets holding different games (issue 33) is a lasting state of the
// set: the snapshot's peer says what differs, not paired, and both kings
// warn on the LEDs until the games agree again.
func TestPeerDesync(t *testing.T) {
	r := newRig(t)
	want := "desync at move 2: b7B-b6B here, c7B-c6B on the other set"
	split := &table.PeerState{Set: "klingon", Online: true, Side: rules.Black, Detail: want, Desync: want}
	if _, err := r.tb.Exec(table.Peer{State: split}); err != nil {
		t.Fatal(err)
	}
	r.run(100 * time.Millisecond)
	r.drain()
	if p := r.tb.Snapshot().Peer; p == nil || *p != *split {
		t.Errorf("snapshot peer %+v, want %+v", p, split)
	}
	if v := r.leds.view(); v.LowTime != kings(r, rules.White).Union(kings(r, rules.Black)) {
		t.Errorf("LEDs with the games split: %v, want both kings", v.LowTime.Names(st3d.CellNames()))
	}
	again := &table.PeerState{Set: "klingon", Online: true, Paired: true, Side: rules.Black}
	if _, err := r.tb.Exec(table.Peer{State: again}); err != nil {
		t.Fatal(err)
	}
	r.run(100 * time.Millisecond)
	r.drain()
	if v := r.leds.view(); !v.LowTime.Empty() {
		t.Errorf("LEDs with the games paired again: %v", v.LowTime.Names(st3d.CellNames()))
	}
}

// split is the rig after b2W-b3W b7B-b6B on the set, the other set
// holding b2W-b3W c7B-c6B: the desync shown.
func split(t *testing.T, edit ...func(*table.Opts)) *rig {
	t.Helper()
	r := newRig(t, edit...)
	r.play("b2W-b3W")
	r.play("b7B-b6B")
	r.drain()
	want := "desync at move 2: b7B-b6B here, c7B-c6B on the other set"
	if _, err := r.tb.Exec(table.Peer{State: &table.PeerState{Set: "klingon", Online: true, Side: rules.Black, Detail: want, Desync: want}}); err != nil {
		t.Fatal(err)
	}
	return r
}

// names lists the names of the cells of s on the rig's set.
func names(s rules.CellSet) string { return strings.Join(s.Names(st3d.CellNames()), " ") }

// Issue 33: a desync resolved by accepting the other set's record. The
// resolve command is refused while the games agree, and waits in the
// snapshot for the remote opponent, which gives the record: the moves after
// the last common one are taken back, the other set's played as moves made
// elsewhere, and the set expects the other set's position, the LEDs
// showing the pieces to move (from b6B and c7B, to b7B and c6B). Once the
// players move them, the set is in sync with one game.
func TestResolveAcceptTheOtherRecord(t *testing.T) {
	r := newRig(t)
	if _, err := r.tb.Exec(table.Resolve{Action: table.ResolveAccept}); err == nil || !strings.Contains(err.Error(), "no desync") {
		t.Errorf("resolve without a desync: %v", err)
	}
	r = split(t)
	if _, err := r.tb.Exec(table.Resolve{Action: "both"}); err == nil {
		t.Error("resolve with an unknown action was taken")
	}
	if _, err := r.tb.Exec(table.Resolve{Action: table.ResolveAccept}); err != nil {
		t.Fatal(err)
	}
	res := r.tb.Snapshot().Resolve
	if res == nil || res.Action != table.ResolveAccept || res.ID == 0 {
		t.Fatalf("snapshot's resolution %+v", res)
	}
	// A record that does not play changes nothing.
	if _, err := r.tb.Exec(table.AdoptRecord{Keep: 1, Moves: []string{"c7B-c4B"}}); err == nil {
		t.Error("a record with an illegal move was taken")
	}
	if _, err := r.tb.Exec(table.AdoptRecord{Game: "G-other", Keep: 1, Moves: []string{"c7B-c6B"}}); !errors.Is(err, table.ErrStale) {
		t.Errorf("a record of another game: %v", err)
	}
	if got := r.tb.Snapshot().Moves; len(got) != 2 || got[1].Move != "b7B-b6B" {
		t.Fatalf("a refused record changed the game: %v", got)
	}
	rep, err := r.tb.Exec(table.AdoptRecord{Game: r.tb.Snapshot().Game, Keep: 1, Moves: []string{"c7B-c6B"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.TakenBack) != 1 || rep.TakenBack[0].Move != "b7B-b6B" {
		t.Errorf("taken back %+v, want b7B-b6B", rep.TakenBack)
	}
	r.run(time.Second)
	r.drain()
	s := r.tb.Snapshot()
	if len(s.Moves) != 2 || s.Moves[0].Move != "b2W-b3W" || s.Moves[1].Move != "c7B-c6B" || s.Resolve != nil {
		t.Fatalf("moves %v, resolution %+v: want b2W-b3W c7B-c6B, nothing left to resolve", s.Moves, s.Resolve)
	}
	if s.Expected.String() != s.Position.String() || s.Status.State.String() != "mismatch" {
		t.Errorf("expected %s, status %s: want the other set's position, a mismatch", s.Expected, s.Status.State)
	}
	if from, to := names(s.RemoteFrom), names(s.RemoteTo); from != "b6B c7B" && from != "c7B b6B" || to != "b7B c6B" && to != "c6B b7B" {
		t.Errorf("LEDs show from %q to %q, want from b6B c7B to b7B c6B", from, to)
	}
	if e, ok := r.event(table.PeerChanged); !ok || e.Detail != "desync: set klingon's record accepted" {
		t.Errorf("peer event %q", e.Detail)
	}
	r.act("lift b6B", "wait 100", "place b7B", "wait 200", "lift c7B", "wait 100", "place c6B", "wait 1500")
	if s := r.tb.Snapshot(); s.Status.State.String() != "in sync" || len(s.Moves) != 2 {
		t.Errorf("the pieces moved: %s, %d moves (%s)", s.Status.State, len(s.Moves), r.rec.kinds())
	}
}

// Issue 33: a desync resolved by restoring the last common position: the
// game is taken back to it, on this set (asked here) as on the other
// (asked there), and the games pairing again forgets the resolution.
func TestResolveRestoreTheLastCommonPosition(t *testing.T) {
	r := split(t)
	if _, err := r.tb.Exec(table.Resolve{Action: table.ResolveRestore}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tb.Exec(table.PeerRestore{Keep: 3}); err == nil {
		t.Error("a restore beyond the game was taken")
	}
	rep, err := r.tb.Exec(table.PeerRestore{Game: r.tb.Snapshot().Game, Keep: 1, By: "asked on this set"})
	if err != nil || len(rep.TakenBack) != 1 || rep.TakenBack[0].Move != "b7B-b6B" {
		t.Fatalf("restore: %+v, %v", rep, err)
	}
	s := r.tb.Snapshot()
	if len(s.Moves) != 1 || s.Resolve != nil || !strings.Contains(s.Status.Reason, "take b7B-b6B back") {
		t.Fatalf("after the restore: moves %v, resolution %+v, %q", s.Moves, s.Resolve, s.Status.Reason)
	}
	if e, ok := r.event(table.PeerChanged); !ok || e.Detail != "desync: the position after move 1 restored (asked on this set)" {
		t.Errorf("peer event %q", e.Detail)
	}
	// Asked again: resolved once the games agree.
	if _, err := r.tb.Exec(table.Resolve{Action: table.ResolveRestore}); err != nil {
		t.Fatal(err)
	}
	if _, err := r.tb.Exec(table.Peer{State: &table.PeerState{Set: "klingon", Online: true, Paired: true, Side: rules.Black}}); err != nil {
		t.Fatal(err)
	}
	if s := r.tb.Snapshot(); s.Resolve != nil {
		t.Errorf("paired again, the resolution %+v stands", s.Resolve)
	}
	r.act("lift b6B", "wait 100", "place b7B", "wait 1500")
	if s := r.tb.Snapshot(); s.Status.State.String() != "in sync" || len(s.Moves) != 1 {
		t.Errorf("the move taken back on the set: %s, %d moves", s.Status.State, len(s.Moves))
	}
}
