package web

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tridboard/tridboard/protocol"
	"github.com/tridboard/tridboard/rules"
	"github.com/tridboard/tridboard/rules/systems"
	"github.com/tridboard/tridboard/rules/targets"
)

// fakeSet plays a game through the rules and feeds a hub as the daemon
// does: each move is a move message and then the retained state.
type fakeSet struct {
	t    testing.TB
	id   string
	game string
	sys  rules.System
	g    *rules.Game
	seq  int
	hub  *Hub
	tags map[string]string
	now  time.Time
	rng  *rand.Rand
	sent []protocol.Move
}

func newFakeSet(t testing.TB, hub *Hub, id, variant string) *fakeSet {
	sys, err := systems.ByName(variant)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeSet{t: t, id: id, game: "20260101-000000-" + id, sys: sys, g: rules.NewGame(sys.Start()), hub: hub,
		now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), rng: rand.New(rand.NewPCG(7, uint64(len(id))))}
	if hub != nil {
		hub.Availability(id, true)
		hub.State(id, f.state(protocol.Board{Status: protocol.BoardInSync}))
	}
	return f
}

func (f *fakeSet) state(b protocol.Board) protocol.State {
	p := f.g.Position()
	s := protocol.State{Game: f.game, Variant: f.sys.Name(), Position: p.String(), Turn: p.Turn(), Board: b,
		Moves: f.g.Long(), MoveNumber: p.FullmoveNumber(), Result: protocol.ResultOngoing, Time: f.now, Tags: f.tags}
	s.Check, _ = p.InCheck()
	if n := f.g.Len(); n > 0 {
		m, before := f.g.Move(n - 1)
		s.LastMove = &protocol.LastMove{Seq: f.seq, Move: before.Long(m), SAN: before.Short(m)}
	}
	if r, why := f.g.Outcome(); r != rules.NoResult {
		s.Result, s.Reason = string(r), why
	}
	return s
}

// play plays a move (long form or notation) and returns its message.
func (f *fakeSet) play(s string) protocol.Move {
	f.t.Helper()
	before := f.g.Position()
	m, _, err := before.ParseMove(s)
	if err != nil {
		f.t.Fatalf("%s: %v", f.id, err)
	}
	f.g.Play(m)
	f.seq++
	f.now = f.now.Add(time.Second)
	mv := protocol.Move{Seq: f.seq, Game: f.game, Move: before.Long(m), SAN: before.Short(m), Position: f.g.Position().String(), Time: f.now}
	f.sent = append(f.sent, mv)
	if f.hub != nil {
		f.hub.Move(f.id, mv)
		f.hub.State(f.id, f.state(protocol.Board{Status: protocol.BoardInSync}))
	}
	return mv
}

// random plays a random legal move; false when the game is over.
func (f *fakeSet) random() bool {
	moves := f.g.Position().LegalMoves(nil)
	if len(moves) == 0 {
		return false
	}
	f.play(f.g.Position().Long(moves[f.rng.IntN(len(moves))]))
	return true
}

func (f *fakeSet) cell(name string) rules.Cell {
	c, ok := rules.CellByName(f.sys, name)
	if !ok {
		f.t.Fatalf("no cell %s in %s", name, f.sys.Name())
	}
	return c
}

func mustSys(t testing.TB, name string) rules.System {
	sys, err := systems.ByName(name)
	if err != nil {
		t.Fatal(err)
	}
	return sys
}

// targets are the cells the LEDs show for the piece on cell lifted
// (targets.Lifted), in cell order.
func (f *fakeSet) targets(lifted string) []string {
	var s rules.CellSet
	s.Add(f.cell(lifted))
	set, _ := targets.Lifted(f.g.Position(), s, nil)
	var out []string
	for _, c := range set.Targets.Cells(nil) {
		out = append(out, f.sys.Cells()[c])
	}
	return out
}

func (f *fakeSet) stateBoard() protocol.Board { return protocol.Board{Status: protocol.BoardInSync} }
